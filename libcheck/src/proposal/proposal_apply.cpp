// ws-apply ID: the checks of ws-apply(1), in order, then one commit by
// compare-and-swap. Nothing is written before every check has passed, and the
// branch moves atomically, so the repository is either old or new.
#include "libcheck/proposal.h"

#include <cstdlib>
#include <optional>

#include "apply_journal.h"
#include "home_directory.h"
#include "libcheck/repository.h"
#include "libcheck/proposal_desk.h"
#include "libcheck/workspace_root.h"
#include "policy_change_gate.h"
#include "proposal_approval.h"
#include "proposal_canonical.h"
#include "proposal_internal.h"

namespace ws {

using namespace proposal;

namespace {

Error refused(std::string message, std::string subject = {}) {
  return make_error(Errc::refused, std::move(message), std::move(subject));
}

Result<std::string> write_commit(git_repository* repo, const git_signature* author, const git_signature* committer,
                                 const std::string& message, const git_oid& tree_id, const std::string& parent) {
  git_tree* traw = nullptr;
  if (git_tree_lookup(&traw, repo, &tree_id) < 0) return git::error(Errc::environment, "cannot read tree");
  git::Tree tree(traw);
  git::Commit parent_commit;
  std::vector<const git_commit*> parents;
  if (!parent.empty()) {
    auto p = lookup_commit(repo, parent);
    if (!p) return p.error();
    parent_commit = std::move(p).value();
    parents.push_back(parent_commit.get());
  }
  git_oid id;
  if (git_commit_create(&id, repo, nullptr, author, committer, nullptr, message.c_str(), tree.get(), parents.size(),
                        parents.data()) < 0)
    return git::error(Errc::environment, "cannot write the commit");
  return git::to_hex(id);
}

}  // namespace

Result<ApplyResult> apply_proposal(const OpenOptions& open, const std::string& id_or_prefix,
                                   const ApplyOptions& options, RebuildFn rebuild_clean) {
  auto repo_r = Repository::open(open.dir);
  if (!repo_r) return repo_r.error();
  // One repository for the whole apply, the views included: libgit2 caches
  // parsed trees per repository, so each folder the proposal touches is
  // inflated once for the checks, the view, the record and the landing tree.
  auto shared = std::make_shared<Repository>(std::move(repo_r).value());
  Repository& repo = *shared;
  git_repository* r = repo.raw();
  if (auto st = check_interrupted_apply(repo, InterruptedApply::refuse); !st) return st.error();
  // Recorded now, checked again just before the branch moves.
  std::optional<WorkspaceRoot> root;
  if (!repo.is_bare()) {
    auto rt = WorkspaceRoot::open(repo.workdir(), detail::home_directory());
    if (!rt) return rt.error();
    root.emplace(std::move(rt).value());
  }
  auto found = find_proposal(repo, id_or_prefix);
  if (!found) return found.error();
  ProposalInfo info = std::move(found).value();
  std::string id7 = short_id(info.id);

  // 1. It must be the current proposal of its session.
  switch (info.state) {
    case ProposalState::applied:
      return refused("proposal " + id7 + " was already applied as " + short_id(info.applied_as), info.id);
    case ProposalState::rejected:
      return refused(rejected_message(info), info.id);
    case ProposalState::superseded:
      return refused(info.superseded_by.empty()
                         ? "proposal " + id7 + " is superseded: session '" + info.session + "' has moved on"
                         : "proposal " + id7 + " is superseded by " + short_id(info.superseded_by) +
                               "; review and apply that one instead",
                     info.id);
    default: break;
  }

  // 2. Every tree object the proposal brings is checked first
  // (proposal_canonical.h), before the view below parses any of them.
  auto base_tree = commit_tree(r, info.base);
  if (!base_tree) return base_tree.error();
  auto checked = check_proposal(r, base_tree->get(), info.id);
  if (!checked && checked.error().code == Errc::refused)
    return refused("proposal " + id7 + " refused: " + checked.error().message, checked.error().subject);
  if (!checked) return checked.error();
  const std::vector<TreeChange>* changes = &checked->changes;
  if (changes->empty()) return refused("proposal " + id7 + " changes nothing", info.id);

  // Every changed path and mode passes the proposal policy.
  // The workspace's own protected paths, as its base commit configures them.
  // Opened once: unless the proposal is rebased, the rebuild below checks
  // this same view.
  std::vector<std::string> protected_paths;
  std::optional<Workspace> proposed;
  {
    OpenOptions o = open;
    o.view = ViewSpec{ViewSource::rev, info.base.empty() ? "" : info.base, info.id, ""};
    if (info.base.empty()) o.view = ViewSpec{ViewSource::proposal, "", "", info.id};
    // The changes only: nothing here lists the view, and the rebuild opens
    // the whole of it when the base's index does not stand in for it.
    o.view.changes_only = true;
    o.prefetch_cache = true;  // the rebuild below uses this workspace
    auto w = open_workspace(o, shared);
    if (w) {
      protected_paths = w->config.protected_paths;
      proposed.emplace(std::move(w).value());
    }
  }
  for (const auto& c : *changes) {
    std::uint32_t mode = c.status == GIT_DELTA_DELETED ? std::uint32_t{GIT_FILEMODE_BLOB} : c.new_mode;
    if (auto why = refuse_entry(c.path, mode, protected_paths))
      return refused("proposal " + id7 + " refused: " + *why, c.path);
  }
  if (Status st = refuse_secret_bytes(r, base_tree->get(), *changes, id7); !st) return st.error();
  if (auto st = refuse_policy_change(*changes, options.allow_policy_change, info.id); !st) return st.error();

  // 3. The branch tip must still be its base.
  auto target = target_branch(r, info, options.branch);
  if (!target) return target.error();
  const std::string branch = std::move(target).value();
  if (auto st = check_distinct_approver(repo, info, branch); !st) return st.error();
  std::string tip = ref_target(r, branch);
  std::string new_parent = info.base;
  std::string candidate = info.id;  // the commit whose tree will land
  bool rebased = false;
  if (tip != info.base) {
    std::string moved = "branch '" + branch_display(branch) + "' moved from " +
                        (info.base.empty() ? "nothing" : short_id(info.base)) + " to " +
                        (tip.empty() ? "nothing" : short_id(tip));
    if (!info.moved_by.empty()) moved += " ('" + info.moved_by + "')";
    if (!options.rebase) {
      std::string why = "proposal " + id7 + " is stale: " + moved;
      if (!info.colliding_paths.empty()) {
        why += "; changed on both sides:";
        for (auto& p : info.colliding_paths) why += " " + p;
      } else {
        why += "; none of its paths changed there, so --rebase can apply it";
      }
      return refused(why, info.id);
    }
    if (!info.colliding_paths.empty()) {
      std::string why = "cannot rebase proposal " + id7 + ": " + moved + " and changed";
      for (auto& p : info.colliding_paths) why += " " + p;
      return refused(why, info.id);
    }
    auto tree_id = landing_tree(r, tip, *checked);
    if (!tree_id) return tree_id.error();
    auto pc = lookup_commit(r, info.id);
    if (!pc) return pc.error();
    auto c = write_commit(r, git_commit_author(pc->get()), git_commit_committer(pc->get()),
                          git_commit_message(pc->get()), *tree_id, tip);
    if (!c) return c.error();
    candidate = *c;
    new_parent = tip;
    rebased = true;
  }

  // 4. Rebuilt through the same readers, against the base it will land on.
  {
    if (rebased || !proposed) {
      proposed.reset();
      OpenOptions o = open;
      o.view = ViewSpec{ViewSource::rev, new_parent, candidate, ""};
      if (new_parent.empty()) o.view = ViewSpec{ViewSource::proposal, "", "", candidate};
      o.view.changes_only = true;
      o.prefetch_cache = true;
      auto w = open_workspace(o, shared);
      if (!w) return w.error();
      proposed.emplace(std::move(w).value());
      // The policy is the one of the tip it lands on.
      if (auto st = refuse_by_policy_of(*changes, proposed->config, info.id); !st) return st.error();
    }
    RebuildVerdict v = rebuild_clean(*proposed);
    if (!v.clean)
      return refused("proposal " + id7 + " does not build on " +
                         (new_parent.empty() ? std::string("an empty branch") : short_id(new_parent)) + ": " +
                         v.reason,
                     info.id);
  }

  // 5. One commit, approver as committer, moved in by compare-and-swap.
  auto pc = lookup_commit(r, candidate);
  if (!pc) return pc.error();
  auto committer = signature(r, "COMMITTER");
  if (!committer) return committer.error();
  std::string message = info.message;
  while (!message.empty() && message.back() == '\n') message.pop_back();
  message += "\n\n" + approval_trailers(info.id, committer->get());
  // Fresh canonical trees, never the proposal's own objects.
  auto final_tree = landing_tree(r, new_parent, *checked);
  if (!final_tree) return final_tree.error();
  auto commit = write_commit(r, git_commit_author(pc->get()), committer->get(), message, *final_tree, new_parent);
  if (!commit) return commit.error();
  // The record and the index lock: from here a kill is recoverable.
  auto journal = ApplyJournal::begin(repo, {info.id, branch, new_parent, *commit, &*changes});
  if (!journal) return journal.error();

  if (root) {
    if (auto st = root->verify_unchanged(); !st) return st.error();
  }
  git_oid new_oid;
  git::from_hex(*commit, new_oid);
  git_reference* ref = nullptr;
  std::string log = "ws-apply: proposal " + info.id;
  int rc;
  if (new_parent.empty()) {
    rc = git_reference_create(&ref, r, branch.c_str(), &new_oid, 0, log.c_str());
  } else {
    git_oid expect;
    git::from_hex(new_parent, expect);
    rc = git_reference_create_matching(&ref, r, branch.c_str(), &new_oid, 1, &expect, log.c_str());
  }
  if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS)
    return refused("branch '" + branch_display(branch) + "' moved while proposal " + id7 +
                       " was being applied; nothing was written to it; run ws-apply again to see why",
                   info.id);
  if (rc == GIT_ELOCKED)
    return refused("branch '" + branch_display(branch) + "' is locked by another process (" +
                       lock_description(repo.common_dir() + branch + ".lock", repo.workdir()) +
                       "); if no git or ws-apply is running, remove the lock file and retry",
                   info.id);
  if (rc < 0) return git::error(Errc::environment, "cannot move branch '" + branch_display(branch) + "'");
  git_reference_free(ref);

  ApplyResult out;
  out.proposal = info.id;
  out.commit = *commit;
  out.branch = branch;
  out.base = new_parent;
  out.rebased = rebased;

  // 6. Marked applied by ws-apply's own ref, the only record of it (a
  // Proposal-Id trailer is text anyone can write); 7. the index follows when the
  // branch is checked out here; then the record goes. The branch has moved
  // by now: a failure is reported with the result, never as if nothing had
  // happened, and the record stays for 'ws-apply --continue'.
  auto done = (*journal)->complete();
  if (!done) out.index_error = done.error().message;
  else out.index_updated = done->index_updated;
  return out;
}

}  // namespace ws

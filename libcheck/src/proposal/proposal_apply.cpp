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

// What the steps of one apply share: the repository, the proposal, and what
// each step settles for the next.
struct ApplyRun {
  std::shared_ptr<Repository> shared;  // one for the whole apply (see apply_proposal)
  git_repository* r = nullptr;
  std::optional<WorkspaceRoot> root;   // recorded at the start, checked again before the branch moves
  ProposalInfo info;
  std::string id7;
  git::Tree base_tree;
  CheckedProposal checked;             // step 2
  std::optional<Workspace> proposed;   // opened in step 2, rebuilt in step 4
  std::string branch;                  // step 3: the branch it lands on
  std::string new_parent;              // step 3: its base, or the tip it was rebased onto
  std::string candidate;               // step 3: the commit whose tree will land
  bool rebased = false;
};

// Step 0: the repository, the root's identity and the proposal, with no
// apply left interrupted.
Result<ApplyRun> start_run(const OpenOptions& open, const std::string& id_or_prefix) {
  auto repo_r = Repository::open(open.dir);
  if (!repo_r) return repo_r.error();
  ApplyRun run;
  // One repository for the whole apply, the views included: libgit2 caches
  // parsed trees per repository, so each folder the proposal touches is
  // inflated once for the checks, the view, the record and the landing tree.
  run.shared = std::make_shared<Repository>(std::move(repo_r).value());
  run.r = run.shared->raw();
  if (auto st = check_interrupted_apply(*run.shared, InterruptedApply::refuse); !st) return st.error();
  if (!run.shared->is_bare()) {
    auto rt = WorkspaceRoot::open(run.shared->workdir(), detail::home_directory());
    if (!rt) return rt.error();
    run.root.emplace(std::move(rt).value());
  }
  auto found = find_proposal(*run.shared, id_or_prefix);
  if (!found) return found.error();
  run.info = std::move(found).value();
  run.id7 = short_id(run.info.id);
  return run;
}

// Step 1: it must be the current proposal of its session.
Status refuse_not_current(const ProposalInfo& info, const std::string& id7) {
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
    default: return Ok{};
  }
}

// The workspace of the proposal's view, changes only, with the cache
// prefetched for the rebuild: `onto` is its base, `commit` its tree.
Result<Workspace> open_proposed(const OpenOptions& open, const ApplyRun& run, const std::string& onto,
                                const std::string& commit) {
  OpenOptions o = open;
  o.view = ViewSpec{ViewSource::rev, onto, commit, ""};
  if (onto.empty()) o.view = ViewSpec{ViewSource::proposal, "", "", commit};
  // The changes only: nothing here lists the view, and the rebuild opens
  // the whole of it when the base's index does not stand in for it.
  o.view.changes_only = true;
  o.prefetch_cache = true;
  return open_workspace(o, run.shared);
}

// Step 2: every tree object the proposal brings is checked first
// (proposal_canonical.h), before the view parses any of them; then every
// changed path and mode passes the proposal policy, with the workspace's
// own protected paths as its base commit configures them; no secret's
// bytes move; a policy change only when allowed.
Status check_changes(const OpenOptions& open, const ApplyOptions& options, ApplyRun& run) {
  auto base_tree = commit_tree(run.r, run.info.base);
  if (!base_tree) return base_tree.error();
  run.base_tree = std::move(base_tree).value();
  auto checked = check_proposal(run.r, run.base_tree.get(), run.info.id);
  if (!checked && checked.error().code == Errc::refused)
    return refused("proposal " + run.id7 + " refused: " + checked.error().message, checked.error().subject);
  if (!checked) return checked.error();
  run.checked = std::move(checked).value();
  const std::vector<TreeChange>& changes = run.checked.changes;
  if (changes.empty()) return refused("proposal " + run.id7 + " changes nothing", run.info.id);
  // Opened once: unless the proposal is rebased, the rebuild checks this
  // same view. A view that does not open leaves the defaults' protection.
  std::vector<std::string> protected_paths;
  if (auto w = open_proposed(open, run, run.info.base, run.info.id)) {
    protected_paths = w->config.protected_paths;
    run.proposed.emplace(std::move(w).value());
  }
  for (const auto& c : changes) {
    std::uint32_t mode = c.status == GIT_DELTA_DELETED ? std::uint32_t{GIT_FILEMODE_BLOB} : c.new_mode;
    if (auto why = refuse_entry(c.path, mode, protected_paths))
      return refused("proposal " + run.id7 + " refused: " + *why, c.path);
  }
  if (Status st = refuse_secret_bytes(run.r, run.base_tree.get(), changes, run.id7); !st) return st.error();
  return refuse_policy_change(changes, options.allow_policy_change, run.info.id);
}

// Step 3, when the branch moved: refused as stale, or with --rebase and no
// path changed on both sides, the proposal re-made on the tip (its author
// and committer kept) as the candidate.
Status rebase_or_refuse(const ApplyOptions& options, const std::string& tip, ApplyRun& run) {
  const ProposalInfo& info = run.info;
  std::string moved = "branch '" + branch_display(run.branch) + "' moved from " +
                      (info.base.empty() ? "nothing" : short_id(info.base)) + " to " +
                      (tip.empty() ? "nothing" : short_id(tip));
  if (!info.moved_by.empty()) moved += " ('" + info.moved_by + "')";
  if (!options.rebase) {
    std::string why = "proposal " + run.id7 + " is stale: " + moved;
    if (!info.colliding_paths.empty()) {
      why += "; changed on both sides:";
      for (auto& p : info.colliding_paths) why += " " + p;
    } else {
      why += "; none of its paths changed there, so --rebase can apply it";
    }
    return refused(why, info.id);
  }
  if (!info.colliding_paths.empty()) {
    std::string why = "cannot rebase proposal " + run.id7 + ": " + moved + " and changed";
    for (auto& p : info.colliding_paths) why += " " + p;
    return refused(why, info.id);
  }
  auto tree_id = landing_tree(run.r, tip, run.checked);
  if (!tree_id) return tree_id.error();
  auto pc = lookup_commit(run.r, info.id);
  if (!pc) return pc.error();
  auto c = write_commit(run.r, git_commit_author(pc->get()), git_commit_committer(pc->get()),
                        git_commit_message(pc->get()), *tree_id, tip);
  if (!c) return c.error();
  run.candidate = *c;
  run.new_parent = tip;
  run.rebased = true;
  return Ok{};
}

// Step 3: the branch tip must still be its base (else rebase_or_refuse);
// the approver may have to differ from the author.
Status check_branch(const ApplyOptions& options, ApplyRun& run) {
  auto target = target_branch(run.r, run.info, options.branch);
  if (!target) return target.error();
  run.branch = std::move(target).value();
  if (auto st = check_distinct_approver(*run.shared, run.info, run.branch); !st) return st.error();
  run.new_parent = run.info.base;
  run.candidate = run.info.id;
  std::string tip = ref_target(run.r, run.branch);
  if (tip == run.info.base) return Ok{};
  return rebase_or_refuse(options, tip, run);
}

// Step 4: rebuilt through the same readers, against the base it will land
// on; a rebased proposal (or one whose view did not open in step 2) is
// opened again on its new base, whose policy it must then pass too.
Status rebuild(const OpenOptions& open, const RebuildFn& rebuild_clean, ApplyRun& run) {
  if (run.rebased || !run.proposed) {
    run.proposed.reset();
    auto w = open_proposed(open, run, run.new_parent, run.candidate);
    if (!w) return w.error();
    run.proposed.emplace(std::move(w).value());
    // The policy is the one of the tip it lands on.
    if (auto st = refuse_by_policy_of(run.checked.changes, run.proposed->config, run.info.id); !st) return st.error();
  }
  RebuildVerdict v = rebuild_clean(*run.proposed);
  if (v.clean) return Ok{};
  return refused("proposal " + run.id7 + " does not build on " +
                     (run.new_parent.empty() ? std::string("an empty branch") : short_id(run.new_parent)) + ": " +
                     v.reason,
                 run.info.id);
}

// Step 5, first half: the commit that lands, the approver as committer,
// on a fresh canonical tree (never the proposal's own objects).
Result<std::string> write_landing_commit(const ApplyRun& run) {
  auto pc = lookup_commit(run.r, run.candidate);
  if (!pc) return pc.error();
  auto committer = identity_signature(run.r, Identity::committer);
  if (!committer) return committer.error();
  std::string message = run.info.message;
  while (!message.empty() && message.back() == '\n') message.pop_back();
  message += "\n\n" + approval_trailers(run.info.id, committer->get());
  auto final_tree = landing_tree(run.r, run.new_parent, run.checked);
  if (!final_tree) return final_tree.error();
  return write_commit(run.r, git_commit_author(pc->get()), committer->get(), message, *final_tree, run.new_parent);
}

// Step 5, second half: the branch moved from its base to `commit` by
// compare-and-swap, after the root is checked to be the one recorded.
Status move_branch(const ApplyRun& run, const std::string& commit) {
  if (run.root) {
    if (auto st = run.root->verify_unchanged(); !st) return st.error();
  }
  const std::string& branch = run.branch;
  git_oid new_oid;
  git::from_hex(commit, new_oid);
  git_reference* ref = nullptr;
  std::string log = "ws-apply: proposal " + run.info.id;
  int rc;
  if (run.new_parent.empty()) {
    rc = git_reference_create(&ref, run.r, branch.c_str(), &new_oid, 0, log.c_str());
  } else {
    git_oid expect;
    git::from_hex(run.new_parent, expect);
    rc = git_reference_create_matching(&ref, run.r, branch.c_str(), &new_oid, 1, &expect, log.c_str());
  }
  if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS)
    return refused("branch '" + branch_display(branch) + "' moved while proposal " + run.id7 +
                       " was being applied; nothing was written to it; run ws-apply again to see why",
                   run.info.id);
  if (rc == GIT_ELOCKED)
    return refused("branch '" + branch_display(branch) + "' is locked by another process (" +
                       lock_description(run.shared->common_dir() + branch + ".lock", run.shared->workdir()) +
                       "); if no git or ws-apply is running, remove the lock file and retry",
                   run.info.id);
  if (rc < 0) return git::error(Errc::environment, "cannot move branch '" + branch_display(branch) + "'");
  git_reference_free(ref);
  return Ok{};
}

}  // namespace

Result<ApplyResult> apply_proposal(const OpenOptions& open, const std::string& id_or_prefix,
                                   const ApplyOptions& options, RebuildFn rebuild_clean) {
  auto started = start_run(open, id_or_prefix);
  if (!started) return started.error();
  ApplyRun& run = *started;
  // 1. It must be the current proposal of its session.
  if (auto st = refuse_not_current(run.info, run.id7); !st) return st.error();
  // 2. Its trees are canonical, its paths pass the policy.
  if (auto st = check_changes(open, options, run); !st) return st.error();
  // 3. The branch tip must still be its base (or --rebase re-makes it there).
  if (auto st = check_branch(options, run); !st) return st.error();
  // 4. Rebuilt through the same readers, against the base it will land on.
  if (auto st = rebuild(open, rebuild_clean, run); !st) return st.error();
  // 5. One commit, approver as committer, moved in by compare-and-swap.
  auto commit = write_landing_commit(run);
  if (!commit) return commit.error();
  // The record and the index lock: from here a kill is recoverable.
  auto journal = ApplyJournal::begin(*run.shared, {run.info.id, run.branch, run.new_parent, *commit, &run.checked.changes});
  if (!journal) return journal.error();
  if (auto st = move_branch(run, *commit); !st) return st.error();

  ApplyResult out;
  out.proposal = run.info.id;
  out.commit = *commit;
  out.branch = run.branch;
  out.base = run.new_parent;
  out.rebased = run.rebased;
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

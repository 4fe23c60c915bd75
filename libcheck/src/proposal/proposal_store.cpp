// Finding proposals and working out their state from refs/ws/.
#include <algorithm>
#include <map>
#include <set>

#include "libcheck/proposal.h"
#include "libcheck/repository.h"
#include "proposal_approval.h"
#include "proposal_internal.h"
#include "proposal_reject.h"

namespace ws {

using namespace proposal;

const char* proposal_state_name(ProposalState s) {
  switch (s) {
    case ProposalState::current: return "current";
    case ProposalState::superseded: return "superseded";
    case ProposalState::stale: return "stale";
    case ProposalState::applied: return "applied";
    case ProposalState::rejected: return "rejected";
  }
  return "current";
}

namespace {

// Every proposal id any ref under refs/ws/ knows of.
Result<std::set<std::string>> known_ids(git_repository* repo) {
  std::set<std::string> ids;
  git_reference_iterator* it = nullptr;
  if (git_reference_iterator_glob_new(&it, repo, "refs/ws/*") < 0)
    return git::error(Errc::environment, "cannot list proposals");
  git_reference* ref = nullptr;
  while (git_reference_next(&ref, it) == 0) {
    std::string name = git_reference_name(ref);
    const git_oid* target = git_reference_target(ref);
    if (name.rfind(kCurrentPrefix, 0) == 0 && target) ids.insert(git::to_hex(*target));
    else {
      std::string last = name.substr(name.rfind('/') + 1);
      if (last.size() == GIT_OID_HEXSZ) ids.insert(last);
    }
    git_reference_free(ref);
  }
  git_reference_iterator_free(it);
  return ids;
}

// Paths changed between two commits (either may be empty).
std::set<std::string> changed_paths(git_repository* repo, const std::string& from, const std::string& to) {
  std::set<std::string> out;
  auto a = commit_tree(repo, from);
  auto b = commit_tree(repo, to);
  if (!a || !b) return out;
  auto changes = tree_changes(repo, a->get(), b->get());
  if (!changes) return out;
  for (auto& c : *changes) out.insert(c.path);
  return out;
}

Result<ProposalInfo> describe(git_repository* repo, const std::string& id) {
  auto commit = lookup_commit(repo, id);
  if (!commit) return commit.error();
  ProposalInfo info;
  info.id = id;
  git_commit* c = commit->get();
  Trailers t = parse_trailers(git_commit_message(c));
  info.session = t.session;
  if (auto key = parse_session_key(info.session)) info.worktree = key->worktree;
  info.branch = t.branch;
  info.message = t.body;
  info.subject = t.body.substr(0, t.body.find('\n'));
  info.time = git_commit_time(c);
  const git_signature* a = git_commit_author(c);
  info.author = std::string(a->name) + " <" + a->email + ">";
  if (git_commit_parentcount(c) > 0) info.base = git::to_hex(*git_commit_parent_id(c, 0));

  // Applied only by ws-apply's own ref: a Proposal-Id trailer is text
  // anyone can write in a commit message (ws-apply(1), FILES).
  std::string applied = ref_target(repo, kAppliedPrefix + id);
  if (!applied.empty()) {
    info.state = ProposalState::applied;
    info.applied_as = applied;
    return info;
  }
  if (std::string record = ref_target(repo, kRejectedPrefix + id); !record.empty()) {
    info.state = ProposalState::rejected;
    read_rejection(repo, record, info);
    return info;
  }
  std::string slot = session_slot(info);
  std::string current = slot.empty() ? "" : ref_target(repo, slot);
  if (current != id) {
    info.state = ProposalState::superseded;
    info.superseded_by = current;
    return info;
  }
  describe_staleness(repo, info, info.branch.empty() ? "" : ref_target(repo, normalise_branch(info.branch)));
  return info;
}

}  // namespace

namespace proposal {

Result<ProposalInfo> describe_proposal(git_repository* repo, const std::string& id) { return describe(repo, id); }

std::string session_slot(const ProposalInfo& info) {
  if (!parse_session_key(info.session)) return "";
  return kCurrentPrefix + info.session;
}

void describe_staleness(git_repository* repo, ProposalInfo& info, const std::string& tip) {
  info.branch_tip.clear();
  info.moved_by.clear();
  info.colliding_paths.clear();
  if (tip == info.base) {
    info.state = ProposalState::current;
    return;
  }
  info.state = ProposalState::stale;
  info.branch_tip = tip;
  if (!tip.empty()) {
    if (auto tc = lookup_commit(repo, tip)) {
      std::string msg = git_commit_message(tc->get());
      info.moved_by = msg.substr(0, msg.find('\n'));
    }
  }
  auto moved = changed_paths(repo, info.base, tip);
  auto mine = changed_paths(repo, info.base, info.id);
  std::set_intersection(moved.begin(), moved.end(), mine.begin(), mine.end(),
                        std::back_inserter(info.colliding_paths));
}

}  // namespace proposal

Result<ProposalInfo> find_proposal(const Repository& repo, const std::string& id_or_prefix) {
  std::string want = id_or_prefix;
  std::transform(want.begin(), want.end(), want.begin(), [](unsigned char ch) { return std::tolower(ch); });
  bool hex = !want.empty() && want.find_first_not_of("0123456789abcdef") == std::string::npos;
  if (!hex || want.size() < 7 || want.size() > GIT_OID_HEXSZ)
    return make_error(Errc::usage, "invalid proposal id '" + id_or_prefix + "': give at least 7 hex digits",
                      id_or_prefix);
  auto ids = known_ids(repo.raw());
  if (!ids) return ids.error();
  std::vector<std::string> hits;
  for (auto it = ids->lower_bound(want); it != ids->end() && it->compare(0, want.size(), want) == 0; ++it)
    hits.push_back(*it);
  if (hits.empty())
    return make_error(Errc::not_found, "no proposal '" + id_or_prefix + "'; see 'ws-apply --list'", id_or_prefix);
  if (hits.size() > 1)
    return make_error(Errc::usage, "proposal id '" + id_or_prefix + "' is ambiguous; give more digits", id_or_prefix);
  return describe(repo.raw(), hits[0]);
}

Result<std::vector<ProposalInfo>> list_proposals(const Repository& repo, const std::string& session) {
  if (auto valid = session_selected("", session); !valid) return valid.error();
  auto ids = known_ids(repo.raw());
  if (!ids) return ids.error();
  std::vector<ProposalInfo> out;
  for (const auto& id : *ids) {
    auto info = describe(repo.raw(), id);
    if (!info) continue;  // a ref to something that is not a proposal commit
    auto selected = session_selected(info->session, session);
    if (!selected || !*selected) continue;
    out.push_back(std::move(info).value());
  }
  std::sort(out.begin(), out.end(), [](const ProposalInfo& a, const ProposalInfo& b) {
    return a.time != b.time ? a.time > b.time : a.id < b.id;
  });
  return out;
}

Result<ShowResult> show_proposal(const Repository& repo, const std::string& id_or_prefix) {
  auto info = find_proposal(repo, id_or_prefix);
  if (!info) return info.error();
  git_repository* r = repo.raw();
  auto from = commit_tree(r, info->base);
  if (!from) return from.error();
  auto to = commit_tree(r, info->id);
  if (!to) return to.error();
  ShowResult out;
  out.info = std::move(info).value();

  // One diff for the patch and the stat; a change holding a secret, even in
  // a hand-made proposal, shows its path only (proposal_diff.cpp).
  auto diff = diff_trees(r, from->get(), to->get(), GIT_DIFF_SHOW_BINARY);
  if (!diff && diff.error().rule != Rule::none)  // a tree past the depth cap: refused as ws-apply refuses it
    return make_error(Errc::refused, "cannot show proposal " + short_id(out.info.id) + ": " + diff.error().message,
                      diff.error().subject, diff.error().rule);
  if (!diff) return diff.error();
  auto patch = diff_patch(*diff);
  if (!patch) return patch.error();
  out.patch = std::move(patch).value();
  for (auto& item : diff->items) out.files.push_back(std::move(item.stat));
  out.stat = stat_text(out.files);
  return out;
}

}  // namespace ws

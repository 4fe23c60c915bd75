// The approver's desk (ws-apply(1)): rejecting a proposal with a reason,
// pruning the proposals that are settled, and reviewing one with its build
// result and the definitions it affects.
//
// A rejection is recorded as a commit under refs/ws/rejected/<id>: its
// parent is the proposal (so the proposal stays reachable), its tree the
// proposal's, its author and committer the approver, its message the
// reason. A ref there that points at the proposal itself (or at anything
// else) is a rejection without a record: rejected all the same.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libcheck/change_impact.h"
#include "libcheck/diagnostic.h"
#include "libcheck/proposal.h"
#include "libcheck/repository.h"
#include "libcheck/result.h"
#include "libcheck/workspace.h"

namespace ws {

// The longest reason --reject -m records, in bytes.
inline constexpr std::size_t kMaxRejectReason = 1000;

// Rejects a proposal for `reason`, recorded with the committer identity
// (GIT_COMMITTER_*, else user.name and user.email) and the time. Nothing
// else moves: no branch, index or working tree; the session's slot is
// freed if it still holds the proposal. Errc::usage for a reason that is
// empty, longer than kMaxRejectReason bytes, or holds a control character
// or bytes that are not UTF-8 (ws(7), TERMINAL OUTPUT); Errc::refused for a
// proposal already applied or rejected.
Status reject_proposal(const Repository& repo, const std::string& id_or_prefix, const std::string& reason);

// The refusal ws-apply gives a rejected proposal: "proposal ID was rejected"
// with, when the rejection was recorded, " by NAME <EMAIL>: REASON".
std::string rejected_message(const ProposalInfo& info);

struct PruneOptions {
  // Only proposals settled at least this many seconds before `now`.
  std::optional<std::int64_t> older_than;
  std::int64_t now = 0;  // seconds since the epoch
  bool dry_run = false;  // say what would go; delete nothing
};

struct PrunedProposal {
  ProposalInfo info;
  std::int64_t settled_at = 0;    // applied: the commit it became; rejected: the record; superseded: staged
  std::vector<std::string> refs;  // the refs removed (or that would be), in the order they go
};

struct PruneResult {
  std::vector<PrunedProposal> pruned;  // oldest settled first, then by id
  // One line each: a ref under refs/ws/ that is no proposal's, or one that
  // changed or was locked while the prune ran; left where it is.
  std::vector<std::string> left;
};

// Deletes the refs under refs/ws/ of the applied, rejected and superseded
// proposals (ws-apply --prune): never a pending one (current or stale),
// never a ref that is not a proposal's. Each ref goes by compare-and-swap,
// so a proposal staged meanwhile into a session's slot stays; a settled
// proposal's slot goes first, its applied or rejected record last, so a
// prune cut short leaves it settled, never pending again.
Result<PruneResult> prune_proposals(const Repository& repo, const PruneOptions& options);

// What ws-apply --show says before the diff: the proposal rebuilt on its
// base through the readers of ws-build (the rebuild seam,
// proposal_rebuild.cpp), and the definitions the change affects.
struct ProposalReview {
  // Empty when it was built; else why not (a tree that is not canonical,
  // an unreadable config): the one line to show instead.
  std::string not_built;
  std::vector<Diagnostic> diagnostics;
  BuildSummary summary;
  ChangeImpact impact;
  // The workspace it was built in, for the source lines the report quotes.
  std::shared_ptr<const Workspace> workspace;
};
Result<ProposalReview> review_proposal(const OpenOptions& open, const ProposalInfo& info);

}  // namespace ws

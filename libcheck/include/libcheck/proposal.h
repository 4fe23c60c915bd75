// Proposals (ws(7) PROPOSALS): a clean changeset staged as a git commit
// object under refs/ws/proposals/<session key>, and its application to a
// branch as exactly one commit, by compare-and-swap.
//
// Refs used (all in the shared git directory, so proposals survive restarts
// and every worktree sees them; ws-apply(1) FILES):
//   refs/ws/proposals/<key>             the session's current proposal
//   refs/ws/superseded/<key>/<id>       an older proposal of the session
//   refs/ws/applied/<id>                applied: points at the commit made;
//                                       the only record of an application
//   refs/ws/rejected/<id>               rejected by an approver
// Sessions are kept per worktree: the key is the session name in the main
// worktree, "<session>@<worktree>" in a linked one.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "libcheck/file_stat.h"
#include "libcheck/result.h"
#include "libcheck/view.h"
#include "libcheck/workspace.h"

namespace ws {

// git's --stat rendering of `files` (in the order given), with the summary
// of created, deleted and mode-changed files: what libgit2 prints for
// GIT_DIFF_STATS_FULL | GIT_DIFF_STATS_INCLUDE_SUMMARY at 80 columns.
std::string stat_text(const std::vector<FileStat>& files);

// A branch as messages and listings name it: "refs/heads/main" is "main";
// any other ref, or a name already short, as it is.
std::string branch_display(const std::string& ref);

struct StageResult {
  std::string id;          // the proposal commit
  std::string session;     // the session key it is kept under ("default", "default@wt")
  std::string base;        // its parent; empty on an unborn branch
  std::string branch;      // "refs/heads/main" (HEAD's branch when staged)
  std::string superseded;  // the session's previous proposal, now superseded
  std::vector<FileStat> files;
  std::string stat;        // stat_text(files)
};

// Stages the view's changes as the session's proposal. The caller has built
// the view and found it clean. Refuses (Errc::refused) an empty changeset, a
// change under .secrets/, a symlink or submodule, a path the proposal policy
// refuses, and a file whose bytes changed since the view was read.
Result<StageResult> stage_proposal(const Workspace& ws, const std::string& message);

enum class ProposalState { current, superseded, stale, applied, rejected };
const char* proposal_state_name(ProposalState s);

struct ProposalInfo {
  std::string id;
  std::string session;     // the session key: "default", or "default@wt" from linked worktree "wt"
  std::string worktree;    // the linked worktree it was staged in; empty: the main one
  std::string base;
  std::string branch;
  std::string subject;     // first line of the message
  std::string message;     // whole message, trailers removed
  std::int64_t time = 0;   // commit time (seconds since the epoch)
  std::string author;      // "Name <email>"
  ProposalState state = ProposalState::current;
  std::string superseded_by;   // for superseded
  std::string applied_as;      // for applied
  std::string branch_tip;      // for stale: where the branch is now
  std::string moved_by;        // for stale: subject of the tip commit
  std::vector<std::string> colliding_paths;  // for stale: paths changed on both sides
  // For rejected, from its record (proposal_desk.h): "Name <email>", when
  // (seconds since the epoch) and why; empty and 0 for a rejection without one.
  std::string rejected_by;
  std::int64_t rejected_at = 0;
  std::string reason;
};

// Every proposal of the sessions `session` selects, newest first: "" every
// session, "NAME" session NAME in every worktree, "NAME@WT" that one
// linked worktree's (Errc::usage for anything else).
Result<std::vector<ProposalInfo>> list_proposals(const Repository& repo, const std::string& session);
// One proposal by full id or unique prefix (at least 7 hex digits).
Result<ProposalInfo> find_proposal(const Repository& repo, const std::string& id_or_prefix);

struct ShowResult {
  ProposalInfo info;
  std::vector<FileStat> files;
  std::string patch;  // the exact unified diff (git format) an approver reads
  std::string stat;   // git's --stat rendering
};
Result<ShowResult> show_proposal(const Repository& repo, const std::string& id_or_prefix);

// Rejecting and pruning: proposal_desk.h.

struct ApplyOptions {
  // An existing branch; empty: the branch recorded in the proposal.
  std::string branch;
  bool rebase = false;
  bool allow_policy_change = false;  // land a change to .ws/ (policy_change.h)
};

struct ApplyResult {
  std::string proposal;  // the proposal's full id
  std::string commit;   // the new branch tip
  std::string branch;
  std::string base;     // what the branch moved from
  bool rebased = false;
  bool index_updated = false;
  // Set when the branch moved but the applied ref or the index could not
  // follow: the proposal is applied all the same, its apply record stays,
  // and this says why ('ws-apply --continue' completes it).
  std::string index_error;
  bool completed = false;                // by continue_apply
  std::vector<std::string> index_kept;   // continue_apply: entries staged since the apply, left as they are
};

// Runs the checks of ws-apply(1) in order, each refusal its own message
// (Errc::refused): superseded/applied/rejected, path policy, the branch
// (Errc::usage when it does not exist), the approver, stale, rebuild,
// compare-and-swap. `rebuild_clean` builds a workspace opened on a view and
// says whether it is clean (with a one-line reason when not); it is passed in
// so this module does not depend on the compile.
struct RebuildVerdict {
  bool clean = false;
  std::string reason;  // e.g. "2 errors in 1 file"; first diagnostic line
};
using RebuildFn = std::function<RebuildVerdict(const Workspace&)>;

// The rebuild ws-apply uses: the full compile of the workspace's view.
RebuildVerdict rebuild_with_compile(const Workspace& ws);
Result<ApplyResult> apply_proposal(const OpenOptions& open, const std::string& id_or_prefix,
                                   const ApplyOptions& options, RebuildFn rebuild_clean);

// 'ws-apply --continue': completes the apply this worktree's record names,
// if it happened (the applied ref, then the index at the applied paths,
// never over an entry staged since). Errc::usage when there is nothing to
// continue; Errc::refused when another ws-apply is running or a lock file
// it did not make is in the way (the record then stays).
Result<ApplyResult> continue_apply(const OpenOptions& open);

}  // namespace ws

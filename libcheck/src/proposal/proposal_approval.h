// Who may apply a proposal, where, and under which session it is kept
// (ws-apply(1), ws(7) PROPOSALS): the checks that make an approval mean
// what it says.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "git_util.h"
#include "libcheck/proposal.h"
#include "libcheck/repository.h"

namespace ws::proposal {

// Sessions are kept per worktree. A session's proposals live under its
// *key*: the session name in the main worktree (and in a bare repository),
// "<session>@<worktree>" in a linked worktree, so that two worktrees'
// "default" are two slots. The key is what people see (--list, --show)
// and what a proposal's Ws-Session trailer holds; a session name has no
// '@', so the two forms never meet.
Result<std::string> session_key(git_repository* repo, const std::string& session);

struct SessionKey {
  std::string session;
  std::string worktree;  // empty: the main worktree
};
// The parts of `key`; nullopt when it is not a key session_key could make
// (a hand-made Ws-Session trailer).
std::optional<SessionKey> parse_session_key(std::string_view key);

// Whether ws-apply --list --session `filter` shows the proposals of `key`:
// "" every session, "NAME" session NAME in every worktree, "NAME@WT" that
// key only. Errc::usage for a filter that could match no key.
Result<bool> session_selected(std::string_view key, std::string_view filter);

// The branch ws-apply moves: `requested` (--branch), else the one the
// proposal recorded. It must be an existing branch (a direct reference
// under refs/heads/); the one branch that may be created is the unborn
// branch a proposal with no base was staged on, applied there while it is
// still unborn. Errc::usage otherwise, naming the branch. When it is not
// the recorded branch, `info`'s staleness is worked out again against it,
// so that --rebase checks the paths that changed on the branch it lands on.
Result<std::string> target_branch(git_repository* repo, ProposalInfo& info, const std::string& requested);

// Sets `info`'s state to stale (with where `tip` is, what moved it, and the
// paths changed on both sides) or back to current when `tip` is its base.
// For a proposal that is current in its session.
void describe_staleness(git_repository* repo, ProposalInfo& info, const std::string& tip);

// With "approval": {"distinct_approver": true} in .ws/config.json of the
// proposal's base or of the tip of `branch` (what it lands on), refuses
// (Errc::refused) an approver — the committer ws-apply would record — whose
// e-mail address equals, ignoring ASCII case, that of the proposal's author
// or of the identity that staged it. Never read from the proposal itself.
Status check_distinct_approver(const Repository& repo, const ProposalInfo& info, const std::string& branch);

// The trailer block of the commit ws-apply makes:
// "Proposal-Id: <id>\nApproved-by: Name <email>\n".
std::string approval_trailers(const std::string& id, const git_signature* approver);

}  // namespace ws::proposal

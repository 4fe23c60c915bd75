// ws-apply's approval checks: the branch it moves, the approver it records,
// and the approver a workspace refuses (ws-apply(1)).
#include "proposal_approval.h"

#include <git2.h>

#include "commit_config.h"
#include "proposal_internal.h"

namespace ws::proposal {

namespace {

constexpr std::string_view kHeads = "refs/heads/";

Error no_branch(const std::string& message, const std::string& branch) {
  return make_error(Errc::usage, message, branch);
}

// Why `ref` cannot be moved as a branch, or nullopt when it is a direct
// reference under refs/heads/ or does not exist.
std::optional<Error> not_a_branch(git_repository* repo, const std::string& ref) {
  int valid = 0;
  if (ref.compare(0, kHeads.size(), kHeads) != 0 || git_reference_name_is_valid(&valid, ref.c_str()) < 0 || !valid)
    return no_branch("'" + ref + "' is not a branch; name one under refs/heads/ (see 'git branch')", ref);
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo, ref.c_str()) < 0) return std::nullopt;
  git::Reference found(raw);
  if (git_reference_type(found.get()) == GIT_REFERENCE_SYMBOLIC)
    return no_branch("branch '" + branch_display(ref) + "' is a symbolic reference to '" +
                         git_reference_symbolic_target(found.get()) + "'; name the branch itself",
                     ref);
  return std::nullopt;
}

// A proposal staged on an unborn branch creates that branch, and only it.
bool may_create(const ProposalInfo& info, const std::string& ref) {
  return info.base.empty() && ref == normalise_branch(info.branch);
}

// git's idea of the same address: bytes equal but for ASCII case.
bool same_email(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    unsigned char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x += 'a' - 'A';
    if (y >= 'A' && y <= 'Z') y += 'a' - 'A';
    if (x != y) return false;
  }
  return true;
}

std::string identity(const git_signature* s) { return std::string(s->name) + " <" + s->email + ">"; }

// Whether the configuration of `commit` (an approved commit, never the
// proposal) asks for a distinct approver.
Result<bool> distinct_required(const Repository& repo, const std::string& commit) {
  if (commit.empty()) return false;
  auto config = config_at_commit(repo, commit);
  if (!config) return config.error();
  return config->approval.distinct_approver;
}

}  // namespace

Result<std::string> target_branch(git_repository* repo, ProposalInfo& info, const std::string& requested) {
  std::string id7 = short_id(info.id);
  std::string ref = normalise_branch(requested.empty() ? info.branch : requested);
  if (ref.empty() || ref == kHeads)
    return make_error(Errc::usage, "proposal " + id7 + " names no branch; pass --branch");
  if (auto why = not_a_branch(repo, ref)) return *why;
  std::string tip = ref_target(repo, ref);
  if (tip.empty() && !may_create(info, ref)) {
    if (requested.empty())
      return no_branch("no branch '" + branch_display(ref) + "', which proposal " + id7 +
                           " was staged on; pass --branch to name an existing one",
                       ref);
    return no_branch("no branch '" + branch_display(ref) + "'; name an existing branch (see 'git branch')",
                     ref);
  }
  bool checked = info.state == ProposalState::current || info.state == ProposalState::stale;
  if (checked && ref != normalise_branch(info.branch)) describe_staleness(repo, info, tip);
  return ref;
}

Status check_distinct_approver(const Repository& repo, const ProposalInfo& info, const std::string& branch) {
  bool required = false;
  for (const std::string& commit : {info.base, ref_target(repo.raw(), branch)}) {
    auto r = distinct_required(repo, commit);
    if (!r) return r.error();
    required = required || *r;
  }
  if (!required) return Ok{};
  auto approver = identity_signature(repo.raw(), Identity::committer);
  if (!approver) return approver.error();
  auto proposal = lookup_commit(repo.raw(), info.id);
  if (!proposal) return proposal.error();
  const std::string me = identity(approver->get());
  const std::string why = "; this workspace requires another approver (.ws/config.json: approval.distinct_approver)";
  const git_signature* author = git_commit_author(proposal->get());
  const git_signature* stager = git_commit_committer(proposal->get());
  std::string id7 = short_id(info.id);
  if (same_email(approver->get()->email, author->email))
    return make_error(Errc::refused, "proposal " + id7 + " refused: approver '" + me + "' is its author '" +
                                         identity(author) + "'" + why, info.id, Rule::distinct_approver);
  if (same_email(approver->get()->email, stager->email))
    return make_error(Errc::refused, "proposal " + id7 + " refused: approver '" + me + "' staged it as '" +
                                         identity(stager) + "'" + why, info.id, Rule::distinct_approver);
  return Ok{};
}

std::string approval_trailers(const std::string& id, const git_signature* approver) {
  return "Proposal-Id: " + id + "\nApproved-by: " + identity(approver) + "\n";
}

}  // namespace ws::proposal

// ws-apply --reject ID -m REASON: a rejection recorded with who, when and
// why (proposal_desk.h), and the refusal that names them.
#include <algorithm>

#include "libcheck/proposal_desk.h"
#include "libcheck/terminal_text.h"
#include "proposal_internal.h"
#include "proposal_reject.h"

namespace ws {

using namespace proposal;

namespace {

// A reason is shown on the approvers' terminals and in every --list: one
// line of printable UTF-8 (ws(7), TERMINAL OUTPUT), of a size a list can hold.
Status check_reason(const std::string& reason) {
  if (std::all_of(reason.begin(), reason.end(), [](unsigned char c) { return c == ' '; }))
    return make_error(Errc::usage, "empty reason: say why with -m REASON", reason, Rule::reason);
  if (reason.size() > kMaxRejectReason)
    return make_error(Errc::usage,
                      "reason is " + std::to_string(reason.size()) + " bytes, over the limit of " +
                          std::to_string(kMaxRejectReason) + ": say it in fewer words",
                      {}, Rule::reason);
  bool tab = reason.find('\t') != std::string::npos;
  if (tab || first_unsafe(reason, LineBreaks::escape) != std::string::npos)
    return make_error(Errc::usage,
                      "invalid reason '" + terminal_safe(reason, LineBreaks::escape) +
                          "': a control character or bytes that are not UTF-8; write it as one line of text",
                      {}, Rule::reason);
  return Ok{};
}

// The record: a commit on top of the proposal, its tree, the approver as
// author and committer, the reason as message.
Result<git_oid> write_record(git_repository* repo, const std::string& id, const std::string& reason) {
  auto approver = identity_signature(repo, Identity::committer);
  if (!approver) return approver.error();
  auto proposal = lookup_commit(repo, id);
  if (!proposal) return proposal.error();
  git_tree* traw = nullptr;
  if (git_commit_tree(&traw, proposal->get()) < 0) return git::error(Errc::environment, "cannot read the proposal");
  git::Tree tree(traw);
  const git_commit* parents[] = {proposal->get()};
  git_oid out;
  std::string message = reason + "\n";
  if (git_commit_create(&out, repo, nullptr, approver->get(), approver->get(), nullptr, message.c_str(), tree.get(), 1,
                        parents) < 0)
    return git::error(Errc::environment, "cannot record the rejection");
  return out;
}

// The session's slot is freed only if it still holds this proposal
// (compare-and-swap: a proposal staged meanwhile stays).
void free_slot(git_repository* repo, const ProposalInfo& info) {
  std::string slot = session_slot(info);
  if (slot.empty() || ref_target(repo, slot) != info.id) return;
  git_reference* cur = nullptr;
  if (git_reference_lookup(&cur, repo, slot.c_str()) == 0) {
    git::Reference held(cur);
    if (git::to_hex(*git_reference_target(cur)) == info.id) git_reference_delete(cur);
  }
}

}  // namespace

namespace proposal {

void read_rejection(git_repository* repo, const std::string& record, ProposalInfo& info) {
  if (record.empty() || record == info.id) return;
  auto commit = lookup_commit(repo, record);
  if (!commit || git_commit_parentcount(commit->get()) < 1 ||
      git::to_hex(*git_commit_parent_id(commit->get(), 0)) != info.id)
    return;
  const git_signature* who = git_commit_committer(commit->get());
  info.rejected_by = std::string(who->name) + " <" + who->email + ">";
  info.rejected_at = git_commit_time(commit->get());
  std::string message = git_commit_message(commit->get());
  while (!message.empty() && message.back() == '\n') message.pop_back();
  info.reason = std::move(message);
}

}  // namespace proposal

Status reject_proposal(const Repository& repo, const std::string& id_or_prefix, const std::string& reason) {
  if (auto ok = check_reason(reason); !ok) return ok.error();
  auto info = find_proposal(repo, id_or_prefix);
  if (!info) return info.error();
  git_repository* r = repo.raw();
  if (info->state == ProposalState::applied)
    return make_error(Errc::refused, "proposal " + short_id(info->id) + " was already applied as " +
                                         short_id(info->applied_as) + "; it cannot be rejected");
  if (info->state == ProposalState::rejected)
    return make_error(Errc::refused, "proposal " + short_id(info->id) + " is already rejected");
  auto record = write_record(r, info->id, reason);
  if (!record) return record.error();
  git_reference* ref = nullptr;
  std::string name = kRejectedPrefix + info->id;
  // Not forced: of two rejections at once, one is recorded.
  int rc = git_reference_create(&ref, r, name.c_str(), &*record, 0, "ws-apply: rejected");
  if (rc == GIT_EEXISTS) return make_error(Errc::refused, "proposal " + short_id(info->id) + " is already rejected");
  if (rc < 0) return git::error(Errc::environment, "cannot record the rejection");
  git_reference_free(ref);
  free_slot(r, *info);
  return Ok{};
}

std::string rejected_message(const ProposalInfo& info) {
  std::string out = "proposal " + short_id(info.id) + " was rejected";
  if (!info.rejected_by.empty()) out += " by " + info.rejected_by;
  if (!info.reason.empty()) out += ": " + info.reason;
  return out;
}

}  // namespace ws

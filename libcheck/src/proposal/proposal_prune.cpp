// ws-apply --prune: the refs of settled proposals deleted, never a pending
// one's (proposal_desk.h, ws-apply(1) FILES).
#include <algorithm>
#include <map>

#include "libcheck/proposal_desk.h"
#include "proposal_approval.h"
#include "proposal_internal.h"

namespace ws {

using namespace proposal;

namespace {

struct RecordRef {
  std::string name;
  std::string target;
};

bool is_id(std::string_view s) {
  return s.size() == GIT_OID_HEXSZ && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// The proposal id a record ref under refs/ws/ stands for: applied/<id>,
// rejected/<id>, superseded/<key>/<id>; "" for any other name.
std::string record_id(std::string_view name) {
  for (const std::string* prefix : {&kAppliedPrefix, &kRejectedPrefix}) {
    if (name.rfind(*prefix, 0) != 0) continue;
    std::string_view rest = name.substr(prefix->size());
    return is_id(rest) ? std::string(rest) : "";
  }
  if (name.rfind(kSupersededPrefix, 0) != 0) return "";
  std::string_view rest = name.substr(kSupersededPrefix.size());
  std::size_t slash = rest.rfind('/');
  if (slash == std::string_view::npos || !parse_session_key(rest.substr(0, slash))) return "";
  return is_id(rest.substr(slash + 1)) ? std::string(rest.substr(slash + 1)) : "";
}

std::string not_a_proposal(const std::string& ref) { return "left '" + ref + "': it is no proposal's ref"; }

// Every record ref under refs/ws/, by proposal id; the other refs there
// (sessions' slots aside) are named in `left`.
Result<std::map<std::string, std::vector<RecordRef>>> record_refs(git_repository* repo, std::vector<std::string>& left) {
  std::map<std::string, std::vector<RecordRef>> out;
  git_reference_iterator* raw = nullptr;
  if (git_reference_iterator_glob_new(&raw, repo, "refs/ws/*") < 0)
    return git::error(Errc::environment, "cannot list proposals");
  std::unique_ptr<git_reference_iterator, git::Deleter<git_reference_iterator, git_reference_iterator_free>> it(raw);
  git_reference* ref = nullptr;
  while (git_reference_next(&ref, it.get()) == 0) {
    git::Reference held(ref);
    std::string name = git_reference_name(ref);
    if (name.rfind(kCurrentPrefix, 0) == 0) continue;
    std::string id = record_id(name);
    const git_oid* target = git_reference_target(ref);
    if (id.empty() || !target) left.push_back(not_a_proposal(name));
    else out[id].push_back({name, git::to_hex(*target)});
  }
  return out;
}

// When a settled proposal was settled: applied, when the commit it became
// was made; rejected, when the rejection was recorded; superseded (or a
// rejection without a record), when it was staged.
std::int64_t settled_at(git_repository* repo, const ProposalInfo& info) {
  if (info.state == ProposalState::applied)
    if (auto c = lookup_commit(repo, info.applied_as)) return git_commit_time(c->get());
  if (info.state == ProposalState::rejected && info.rejected_at != 0) return info.rejected_at;
  return info.time;
}

// The order the refs go in: the session's slot (when it still holds the
// proposal), then the superseded records, the rejection, and the applied
// record last: cut short anywhere, the proposal is still settled.
int removal_rank(const std::string& name) {
  if (name.rfind(kCurrentPrefix, 0) == 0) return 0;
  if (name.rfind(kSupersededPrefix, 0) == 0) return 1;
  if (name.rfind(kRejectedPrefix, 0) == 0) return 2;
  return 3;
}

// Deletes `ref` if it still points at `target`. False when it moved or is
// locked: another process is at work on it.
bool delete_if_unchanged(git_repository* repo, const RecordRef& ref) {
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo, ref.name.c_str()) < 0) return false;
  git::Reference held(raw);
  const git_oid* now = git_reference_target(raw);
  if (!now || git::to_hex(*now) != ref.target) return false;
  return git_reference_delete(raw) == 0;  // compares with what was read, under the ref's lock
}

// The refs of one settled proposal, in removal order; its slot first when
// it still holds it.
std::vector<RecordRef> refs_of(git_repository* repo, const ProposalInfo& info, std::vector<RecordRef> records) {
  std::string slot = session_slot(info);
  if (!slot.empty() && ref_target(repo, slot) == info.id) records.push_back({slot, info.id});
  std::stable_sort(records.begin(), records.end(),
                   [](const RecordRef& a, const RecordRef& b) { return removal_rank(a.name) < removal_rank(b.name); });
  return records;
}

// Deletes `refs` in order; stops at the first that changed meanwhile, but
// for a slot, which may move on to a new proposal at any time (that one stays).
bool delete_in_order(git_repository* repo, const ProposalInfo& info, const std::vector<RecordRef>& refs,
                     std::vector<std::string>& left) {
  for (const auto& ref : refs) {
    if (delete_if_unchanged(repo, ref)) continue;
    if (removal_rank(ref.name) == 0 && ref_target(repo, ref.name) != info.id) continue;
    left.push_back("left proposal " + short_id(info.id) + ": '" + ref.name +
                   "' changed or is locked by another process; run the prune again");
    return false;
  }
  return true;
}

}  // namespace

Result<PruneResult> prune_proposals(const Repository& repo, const PruneOptions& options) {
  git_repository* r = repo.raw();
  PruneResult out;
  auto records = record_refs(r, out.left);
  if (!records) return records.error();
  for (auto& [id, refs] : *records) {
    auto info = describe_proposal(r, id);
    if (!info || !parse_session_key(info->session)) {
      for (const auto& ref : refs) out.left.push_back(not_a_proposal(ref.name));
      continue;
    }
    if (info->state == ProposalState::current || info->state == ProposalState::stale) continue;  // pending
    PrunedProposal p{std::move(info).value(), 0, {}};
    p.settled_at = settled_at(r, p.info);
    if (options.older_than && options.now - p.settled_at < *options.older_than) continue;
    std::vector<RecordRef> order = refs_of(r, p.info, std::move(refs));
    if (!options.dry_run && !delete_in_order(r, p.info, order, out.left)) continue;
    for (auto& ref : order) p.refs.push_back(std::move(ref.name));
    out.pruned.push_back(std::move(p));
  }
  std::sort(out.pruned.begin(), out.pruned.end(),
                   [](const PrunedProposal& a, const PrunedProposal& b) {
                     return a.settled_at != b.settled_at ? a.settled_at < b.settled_at : a.info.id < b.info.id;
                   });
  return out;
}

}  // namespace ws

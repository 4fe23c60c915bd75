// ws-apply --show's review (proposal_desk.h): the proposal built on its
// base, as ws-apply would rebuild it, with the definitions it affects.
#include "libcheck/proposal_desk.h"
#include "proposal_canonical.h"
#include "proposal_internal.h"
#include "proposal_rebuild.h"

namespace ws {

using namespace proposal;

namespace {

// The view ws-apply rebuilds: the proposal over its base, changes only.
ViewSpec proposal_view(const ProposalInfo& info) {
  ViewSpec v{ViewSource::rev, info.base, info.id, ""};
  if (info.base.empty()) v = ViewSpec{ViewSource::proposal, "", "", info.id};
  v.changes_only = true;
  return v;
}

}  // namespace

Result<ProposalReview> review_proposal(const OpenOptions& open, const ProposalInfo& info) {
  auto repo = Repository::open(open.dir);
  if (!repo) return repo.error();
  auto shared = std::make_shared<Repository>(std::move(repo).value());
  ProposalReview out;
  // Its trees are checked before anything parses them, as ws-apply checks
  // them (proposal_canonical.h); one that is refused is not built.
  auto base_tree = commit_tree(shared->raw(), info.base);
  if (!base_tree) return base_tree.error();
  auto checked = check_proposal(shared->raw(), base_tree->get(), info.id);
  if (!checked && checked.error().code == Errc::refused) {
    out.not_built = "not built: " + checked.error().message;
    return out;
  }
  if (!checked) return checked.error();
  OpenOptions o = open;
  o.view = proposal_view(info);
  o.prefetch_cache = true;
  auto w = open_workspace(o, shared);
  if (!w) {
    out.not_built = "not built: " + w.error().message;
    return out;
  }
  auto workspace = std::make_shared<const Workspace>(std::move(w).value());
  auto report = rebuild_report(*workspace);
  if (!report) {
    out.not_built = "not built: " + report.error().message;
    return out;
  }
  out.diagnostics = std::move(report->diagnostics);
  out.summary = report->summary;
  out.impact = std::move(report->impact);
  out.workspace = std::move(workspace);
  return out;
}

}  // namespace ws

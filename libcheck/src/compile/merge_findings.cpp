#include "merge_findings.h"

#include <algorithm>
#include <map>
#include <optional>

#include "libcheck/merge_result.h"

namespace ws {

namespace {

std::string short_id(const std::string& hex) { return hex.substr(0, 12); }

// The base as the user named it ("origin/main"), else its commit.
std::string base_name(const Workspace& ws) {
  return ws.view_spec.base.empty() ? short_id(ws.merge.base) : ws.view_spec.base;
}

void add_conflicts(const Workspace& ws, BuildResult& result) {
  for (const auto& path : ws.merge.conflicts)
    result.diagnostics.push_back(make_file_diag(
        DiagCode::merge_conflict, path,
        "'" + path + "' conflicts with '" + base_name(ws) + "': git cannot merge the change into it; rebase the "
        "change onto '" + base_name(ws) + "' and resolve the conflict"));
}

// Whether the change left `path` as the base has it: a finding there comes
// from what the base gained, not from what the change wrote.
bool untouched_by_change(const Workspace& ws, const std::string& path) {
  const ViewEntry* e = ws.view.find(path);
  return !e || e->status == ChangeStatus::unchanged;
}

Status add_origin_notes(const Workspace& ws, BuildResult& result) {
  std::map<std::string, std::optional<CommitRef>> origin;  // per path, looked up once
  for (auto& d : result.diagnostics) {
    if (d.severity == Severity::note || d.path.empty() || !untouched_by_change(ws, d.path)) continue;
    auto it = origin.find(d.path);
    if (it == origin.end()) {
      auto found = last_change_of(*ws.repo, ws.merge.base, ws.merge.merge_base, d.path);
      if (!found) return found.error();
      it = origin.emplace(d.path, std::move(found).value()).first;
    }
    if (!it->second) continue;
    d.notes.push_back(Note{d.path, {}, false,
                           "'" + d.path + "' changed on '" + base_name(ws) + "' after the change forked from it, in " +
                               short_id(it->second->id) + " '" + it->second->subject + "'"});
  }
  return Ok{};
}

}  // namespace

Status add_merge_findings(const Workspace& ws, BuildResult& result) {
  if (!ws.merge.merged) return Ok{};
  if (auto st = add_origin_notes(ws, result); !st) return st;
  add_conflicts(ws, result);
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), diag_less);
  result.summary = tally(result.diagnostics, result.summary);
  return Ok{};
}

}  // namespace ws

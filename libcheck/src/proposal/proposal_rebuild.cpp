#include "proposal_rebuild.h"

#include "libcheck/compile.h"
#include "libcheck/proposal.h"
#include "libcheck/render.h"

namespace ws {

RebuildVerdict rebuild_with_compile(const Workspace& ws) {
  BuildOptions options;
  auto result = build(ws, options);
  if (!result) return {false, result.error().message};
  if (result->summary.errors == 0) return {true, {}};
  const Diagnostic* first = nullptr;
  for (const auto& d : result->diagnostics)
    if (d.severity == Severity::error) { first = &d; break; }
  std::string reason = summary_line(result->summary);
  if (first)
    reason += "; first: " + first->path + ":" + std::to_string(first->span.start.line) + ":" +
              std::to_string(first->span.start.column) + ": " + diag_info(first->code).id + " " + first->message;
  return {false, reason};
}

namespace proposal {

Result<RebuildReport> rebuild_report(const Workspace& ws) {
  RebuildReport out;
  BuildOptions options;
  options.impact = &out.impact;
  auto result = build(ws, options);
  if (!result) return result.error();
  out.diagnostics = std::move(result->diagnostics);
  out.summary = result->summary;
  return out;
}

}  // namespace proposal

}  // namespace ws

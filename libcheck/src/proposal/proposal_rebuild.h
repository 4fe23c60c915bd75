// The rebuild seam (docs/architecture.md): the one place the proposal
// modules reach the compile.
#pragma once

#include <vector>

#include "libcheck/change_impact.h"
#include "libcheck/diagnostic.h"
#include "libcheck/result.h"
#include "libcheck/workspace.h"

namespace ws::proposal {

// A workspace opened on a proposal's view, built as ws-build builds it
// (the definition cache included), with the definitions it affects.
struct RebuildReport {
  std::vector<Diagnostic> diagnostics;  // sorted, as ws-build reports them
  BuildSummary summary;
  ChangeImpact impact;
};
Result<RebuildReport> rebuild_report(const Workspace& ws);

}  // namespace ws::proposal

// What checking a merge adds to a build (ws-build(1), MERGE RESULTS).
#pragma once

#include "libcheck/compile.h"
#include "libcheck/workspace.h"

namespace ws {

// For a workspace whose view is a merge (Workspace::merge.merged): a WS021
// for each path the merge left in conflict, and on each finding in a file
// the change did not touch, a note naming the commit on the base that last
// changed that file after the change forked from it. The diagnostics stay
// sorted and the summary counts them. Errors only for an unreadable history.
Status add_merge_findings(const Workspace& ws, BuildResult& result);

}  // namespace ws

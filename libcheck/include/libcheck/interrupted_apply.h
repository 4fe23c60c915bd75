// An apply cut short (killed, or its index write failed) after the branch
// moved: found by every tool from the apply record ws-apply keeps in the
// worktree's git directory while it writes (ws-apply(1) "INTERRUPTED
// APPLY", ws(7) "FILES").
#pragma once

#include <string>
#include <vector>

#include "libcheck/result.h"

namespace ws {

class Repository;

// What a tool does on finding an apply that moved the branch but did not
// finish (the applied ref or the index still to write).
enum class InterruptedApply {
  report,  // say so (one line naming the proposal and 'ws-apply --continue'), then go on: read-only tools
  refuse,  // refuse (Errc::refused) with that line: tools that write (ws-commit; ws-apply ID, --reject)
  ignore,  // do not look (ws-apply's own views, opened after it looked)
};

// Looks for an apply record in this worktree and settles what needs no
// decision: a record whose apply did not happen (the branch is still at its
// old tip and nothing published the new commit), or that has nothing left
// to do, is removed with the lock files it made itself. Returns the lines
// to report: the interrupted apply (in `report` mode), and every lock file
// the record names that the apply did not make (path and age; never
// removed). A record another ws-apply holds (it is running) is left alone.
// Cheap when there is no record: one failed open.
Result<std::vector<std::string>> check_interrupted_apply(const Repository& repo, InterruptedApply mode);

}  // namespace ws

// What a change will land as: the merge of a request into its target, which
// ws-build checks when the target is not an ancestor of the request
// (ws-build(1), MERGE RESULTS).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "libcheck/repository.h"
#include "libcheck/result.h"

namespace ws {

struct MergeResult {
  // False when `base` is `rev` or one of its ancestors: `rev` is what lands,
  // nothing was merged and nothing was written.
  bool merged = false;
  std::string base;        // hex, as given
  std::string rev;         // hex, as given
  std::string merge_base;  // hex; empty when the two share no history
  // A commit whose parents are `base` and `rev` and whose tree is git's
  // three-way merge of them; a conflicted path holds `rev`'s side (or is
  // absent where `rev` deleted it), so the rest of the change is still checked.
  std::string commit;
  std::vector<std::string> conflicts;  // paths git's merge could not resolve, sorted
};

// Merges the commit `rev_hex` into `base_hex` as `git merge` would (rename
// detection on, no ancestor fallback), writing the merged blobs, trees and
// one commit object to the object database as `git merge-tree --write-tree`
// does. No reference, index or working-tree file is touched. When libgit2
// will not merge because a side brings a path the path policy refuses (a
// '.git' component), the error is Errc::refused naming that path and its
// rule (ws-build(1), Merge results).
Result<MergeResult> merge_for_check(const Repository& repo, const std::string& base_hex, const std::string& rev_hex);

struct CommitRef {
  std::string id;       // hex
  std::string subject;  // first line of the message, as written (untrusted)
};

// The newest commit reachable from `tip_hex` and not from `since_hex` that
// changed `path` (its entry differs from every parent's), nullopt when none.
Result<std::optional<CommitRef>> last_change_of(const Repository& repo, const std::string& tip_hex,
                                                const std::string& since_hex, const std::string& path);

}  // namespace ws

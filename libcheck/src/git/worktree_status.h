// The entries of a working-tree view computed from the index file and one
// walk of the tree, as `git status` does, instead of libgit2's
// git_diff_tree_to_workdir_with_index.
//
// Why: libgit2 reads the index with a SHA-1 pass over the whole file, diffs
// HEAD against it by walking every tree, and stats the working tree on one
// thread: 86 % of `ws-ls --changed` and over a third of a warm ws-build
// (bench/DIAGNOSES.md, C2 and C4). Here the index is read by our own reader
// (index_file.h); when its cache tree says it equals the base's tree, the
// base is not walked at all (else it is walked on a second thread); tracked
// files are stated on the other cores beside the walk in a large tree; and one depth-first
// walk compares them with the index and lists the untracked ones.
//
// It answers only where it gives exactly libgit2's answer, and says
// `not_applicable` otherwise, for the caller to ask libgit2: content
// filters (core.autocrlf, any gitattributes file), non-default core.filemode,
// core.symlinks or core.ignorecase, an index it cannot read or with
// conflicts, skip-worktree, assume-valid or intent-to-add entries, or
// submodules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libcheck/repository.h"
#include "libcheck/result.h"
#include "libcheck/secrets.h"
#include "libcheck/view.h"
#include "snapshot_source.h"

namespace ws::detail {

struct WorktreeStatus {
  bool applicable = false;
  std::string why_not;  // when not applicable: which condition, for tests
  std::vector<ViewEntry> entries;
  // The bytes of changed and untracked files as they were hashed for their
  // ids, up to kKeepBudget bytes in all (snapshot_source.h).
  std::vector<KeptBytes> kept;
  // The blob ids the index records under '.secrets/' (secrets.h).
  SecretBlobs index_secrets;
  // The regular files the walk found with several names, with their link
  // counts, from the stat it took anyway: what the hard-link rule (ws(7),
  // PATH POLICY) refuses, known without a second stat per file.
  std::vector<std::pair<std::string, std::uint64_t>> hard_links;
  // How many tracked files' stats the helper threads took (the rest the
  // walk took itself), for tests.
  std::size_t stated_ahead = 0;
};
inline constexpr std::size_t kKeepBudget = std::size_t(32) << 20;

// Every entry of the view (base `base_commit` plus the working tree at
// `root_path`), sorted by path, statuses set, renames not yet paired; with
// `changes_only`, only the changed ones and the base's unchanged .ws/
// entries (a tree with a .gitattributes file is not applicable at all). `content` hashes untracked files through the confined reader,
// as the libgit2 path does. With `prestat_min` tracked files or more, the
// other cores stat them from the end of the index while the walk stats its
// way from the start (git's preloaded index, overlapped with the walk);
// fewer are stated by the walk alone, where threads would cost more than
// they save.
inline constexpr std::size_t kPrestatMin = 2048;
// With `watch`, the walk takes a file's stat from it (tree_watch.h), and
// no helper threads: their stats, taken without a watch set first, could
// not be kept.
Result<WorktreeStatus> worktree_status(const Repository& repo, const std::string& root_path,
                                       const std::string& base_commit, const ContentSource& content,
                                       bool changes_only, std::size_t prestat_min = kPrestatMin,
                                       TreeWatch* watch = nullptr);

}  // namespace ws::detail

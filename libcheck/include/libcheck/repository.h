// Repository access through libgit2: the one place that talks to git.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libcheck/result.h"
#include "libcheck/view.h"

struct git_repository;

namespace ws {

class WorkspaceRoot;

class Repository {
 public:
  // Discovers the repository containing `dir` (like git -C DIR). Works in a
  // linked worktree and in a repository with no commits yet.
  static Result<Repository> open(const std::string& dir);

  Repository(Repository&&) noexcept;
  Repository& operator=(Repository&&) noexcept;
  ~Repository();

  git_repository* raw() const { return repo_; }
  bool is_bare() const;
  std::string workdir() const;   // with trailing '/', empty when bare
  std::string git_dir() const;   // this worktree's git dir
  std::string common_dir() const;  // shared git dir (objects, refs, caches)

  // The commit REV names, as hex; Errc::not_found when it does not resolve.
  // "HEAD" on an unborn branch resolves to "" (empty base).
  Result<std::string> resolve_commit(std::string_view rev) const;
  // The branch HEAD points to ("refs/heads/main"), even when unborn; empty when detached.
  std::string head_branch() const;

  // Every blob of a commit's tree (recursively) as unchanged entries, sorted.
  // Submodule and symlink entries are kept with their modes.
  // With `under` ("dir/"), only the blobs below that folder; none when the
  // commit has no such folder.
  Result<std::vector<ViewEntry>> commit_entries(const std::string& commit_hex, std::string_view under = {}) const;

  // The entry at `path` in a commit's tree (mode and blob id, as an
  // unchanged ViewEntry); nullopt when the tree has no file there.
  Result<std::optional<ViewEntry>> entry_at(const std::string& commit_hex, const std::string& path) const;
  // entry_at() for many paths, each folder's tree read once (a folder of
  // thousands of entries costs a parse a lookup otherwise); in the order given.
  Result<std::vector<std::optional<ViewEntry>>> entries_at(const std::string& commit_hex,
                                                           const std::vector<std::string>& paths) const;

  // The index file a view reads: GIT_INDEX_FILE when git set it (hooks),
  // else the one in the git directory (a linked worktree's own).
  std::string index_file() const;

  Result<std::string> read_blob(const std::string& blob_hex) const;
  // Hashes `bytes` as a git blob.
  static std::string hash_blob(std::string_view bytes);

 private:
  Repository() = default;
  git_repository* repo_ = nullptr;
};

// Builds the view `spec` names (ws(7), VIEWS). `root` confines working-tree
// reads; it may be null for a bare repository (then the worktree view is an error).
// Statuses: A/M/D against the base, R where a delete and an add carry the same bytes.
// Working-tree files over `size_cap` bytes fail to read (rule "too-large").
Result<View> open_view(const Repository& repo, std::shared_ptr<const WorkspaceRoot> root,
                       const ViewSpec& spec, std::uint64_t size_cap = 1u << 20);

// The base commit of the view `spec` names (hex; empty for an unborn
// branch): --base or HEAD, or a proposal's parent.
Result<std::string> view_base_commit(const Repository& repo, const ViewSpec& spec);

// The first parent of a commit, as hex; empty for a root commit.
Result<std::string> parent_of(const Repository& repo, const std::string& commit_hex);

}  // namespace ws

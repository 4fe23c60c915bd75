// A reader of git's index file (Documentation/gitformat-index.txt), for the
// questions a view asks of it: which paths are tracked, with which blob ids,
// and with which stat data.
//
// Why not libgit2's git_index_read: it hashes the whole file with the
// collision-detecting SHA-1 to check the trailer before it parses a byte,
// 20 % of a working-tree search and more of `ws-ls --changed` at 20,000
// definitions (bench/DIAGNOSES.md, C2); git itself checks the trailer only
// in fsck. Reading without the check is safe here because nothing is
// written from it: a damaged file either fails to parse (the caller then
// asks libgit2, which reports the damage) or names blobs that do not exist.
//
// Versions 2, 3 and 4 are read. A file this reader does not fully
// understand — another version, a split index ("link"), sparse directory
// entries ("sdir"), an unknown required extension, SHA-256 ids — is
// `unsupported`, never guessed at.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws::detail {

struct IndexEntry {
  std::uint32_t ctime_s = 0, ctime_ns = 0, mtime_s = 0, mtime_ns = 0;
  std::uint32_t dev = 0, ino = 0, mode = 0, uid = 0, gid = 0, size = 0;
  unsigned char id[20] = {};
  int stage = 0;
  bool assume_valid = false;
  bool skip_worktree = false;
  bool intent_to_add = false;
  std::uint32_t path_offset = 0;  // into IndexFile's path storage
  std::uint32_t path_size = 0;
};

class IndexFile {
 public:
  enum class State { ok, missing, unsupported };
  // Whether entries out of git's order make the file unsupported (`any`:
  // read them as they are, to name a bad path in a damaged index).
  enum class Order { checked, any };

  // Reads `file`. `missing` for a file that does not exist (an index not
  // written yet: nothing is tracked); `unsupported` for anything this
  // reader would have to guess at, including a truncated or damaged file.
  static IndexFile read(const std::string& file, Order order = Order::checked);
  // Parses index bytes (tests; `read` uses it).
  static IndexFile parse(std::string_view bytes, Order order = Order::checked);

  State state() const { return state_; }
  // Why the file is unsupported ("version 5", "split index"), for tests.
  const std::string& reason() const { return reason_; }

  // Every entry, sorted by path then stage, as git keeps them.
  const std::vector<IndexEntry>& entries() const { return entries_; }
  std::string_view path(const IndexEntry& e) const { return {paths_.data() + e.path_offset, e.path_size}; }
  // The stage-0 entry of `path`, or null.
  const IndexEntry* find(std::string_view path) const;
  // True when some entry lies below `dir` ("a/b/").
  bool has_prefix(std::string_view dir) const;
  // The tree id the whole index would write, from the cache-tree extension
  // ("TREE"), when git recorded it and nothing invalidated it since: then
  // the stage-0 entries are exactly that tree's blobs.
  const unsigned char* root_tree() const { return has_root_tree_ ? root_tree_ : nullptr; }

 private:
  static void read_root_tree(std::string_view ext, IndexFile& out);

  State state_ = State::missing;
  std::string reason_;
  std::vector<IndexEntry> entries_;
  std::string paths_;
  bool has_root_tree_ = false;
  unsigned char root_tree_[20] = {};
};

}  // namespace ws::detail

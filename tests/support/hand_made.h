// Git objects written by hand, past git's own checks: what an agent with
// write access to the object database can make, to try on the tools.
// Trees go through `git hash-object -t tree -w --literally --stdin`, so
// they hold whatever bytes a test gives them: odd modes, unsorted or
// duplicate names, names holding '/' or nothing at all.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/temp_repo.h"

namespace wstest {

// One entry of a tree object as its bytes hold it: the mode exactly as
// written ("100644", "40000" for a folder, or anything else), the name (any
// bytes but NUL) and the hex id of the object it names.
struct RawEntry {
  std::string mode;
  std::string name;
  std::string id;
};

// "<mode> <name>\0<20-byte id>" for each entry, in the order given.
std::string raw_tree_bytes(const std::vector<RawEntry>& entries);
// Writes `bytes` as a tree object, unchecked; returns its id.
std::string write_raw_tree(const TempRepo& repo, const std::string& bytes);
std::string write_raw_tree(const TempRepo& repo, const std::vector<RawEntry>& entries);
// `depth` folders named `name`, one inside the other, around `inner` in
// the deepest; returns the outermost tree's id. The trees are written as one
// pack (ids from libgit2's git_odb_hash, the pack by hand, indexed by git
// index-pack), so 100,000 levels take a second, not 100,000 loose files.
std::string write_nested_folders(const TempRepo& repo, const std::string& name, int depth, const RawEntry& inner);
// Rewrites the index entry at `path` (index version 2, as git add writes
// it) to `mode` and `new_path` (of the same length; "" keeps it), and the
// file's SHA-1 trailer, computed by sha1sum: what git update-index would
// never write. Throws when the index is not version 2 or has no such entry.
void rewrite_index_entry(const TempRepo& repo, const std::string& path, std::uint32_t mode,
                         const std::string& new_path = "");
// Writes a blob; returns its id.
std::string write_blob(const TempRepo& repo, const std::string& bytes);

// The entries of `tree` (any tree-ish) as git ls-tree lists them, a
// folder's mode as a tree object holds it ("40000").
std::vector<RawEntry> tree_entries(const TempRepo& repo, const std::string& tree);

// `tree` with `entry` put into its folder `folder` ("" for the top, or
// "a/b"), in place of the entry of the same name or beside the others, each
// tree on the way rewritten in git's order: a canonical tree around one
// hand-made entry. Returns the new top tree's id.
std::string tree_with(const TempRepo& repo, const std::string& tree, const std::string& folder,
                      const RawEntry& entry);

// A proposal as ws-commit writes one: a commit of `tree` whose parent is
// `parent`, its message ending in the ws trailers (Ws-Session, Ws-Branch),
// made by git commit-tree and made the current proposal of `session` by
// git update-ref. Returns the commit's id.
struct HandMadeProposal {
  std::string tree;
  std::string parent;
  std::string message = "Hand-made change";
  std::string session = "default";
  std::string branch = "refs/heads/main";
};
std::string plant_proposal(const TempRepo& repo, const HandMadeProposal& proposal);

// Drops session `session`'s proposal ref, then deletes the loose objects
// `git fsck --strict` complains about that no ref (nor the index) reaches:
// the hand-made objects a refused proposal left behind. An object a ref
// reaches is never deleted, so git fsck still sees whatever landed, and
// well-formed objects stay for the next case.
void forget_proposal(const TempRepo& repo, const std::string& session = "default");

}  // namespace wstest

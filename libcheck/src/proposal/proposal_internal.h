// Shared by the proposal modules: ref names, message trailers, signatures, diffs.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "git_identity.h"
#include "git_util.h"
#include "tree_pair_walk.h"
#include "libcheck/proposal.h"

namespace ws::proposal {

inline const std::string kCurrentPrefix = "refs/ws/proposals/";
inline const std::string kSupersededPrefix = "refs/ws/superseded/";
inline const std::string kAppliedPrefix = "refs/ws/applied/";
inline const std::string kRejectedPrefix = "refs/ws/rejected/";

// Trailers ws writes into a proposal's message.
struct Trailers {
  std::string session;
  std::string branch;
  std::string body;  // the message without the ws trailer block
};
Trailers parse_trailers(std::string_view message);
std::string with_trailers(const std::string& message, const std::string& session, const std::string& branch);

// The proposal `id` (40 hex digits) and its state, from refs/ws/;
// Errc::not_found when `id` is no commit.
Result<ProposalInfo> describe_proposal(git_repository* repo, const std::string& id);

// A proposal's session slot: the ref that holds the current proposal of
// its session key, or "" for a key no ws-commit could have written.
std::string session_slot(const ProposalInfo& info);

// The id of a reference's target, or "" when it does not exist.
std::string ref_target(git_repository* repo, const std::string& name);

using git::commit_tree;
using git::identity_signature;
using git::Identity;
using git::lookup_commit;

// The git-layer tree walks (tree_pair_walk.h).
using git::check_changed_depth;
using git::PairFn;
using git::TreeCheck;
using git::TreePair;
using git::walk_tree_pair;

// Changed paths between two trees (either may be null), without rename
// detection: each path once, with its new mode (0 when deleted).
struct TreeChange {
  std::string path;
  git_delta_t status;
  std::uint32_t old_mode = 0;
  std::uint32_t new_mode = 0;
  std::string new_id;
};
// `check_new` as for walk_tree_pair.
Result<std::vector<TreeChange>> tree_changes(git_repository* repo, git_tree* from, git_tree* to,
                                             const TreeCheck& check_new = {});

// Whether a change holds a secret (ws(7), the secret kind): a path under
// '.secrets/' on either side, or a blob id in `secrets` on either side.
bool is_secret_change(std::string_view path, std::string_view old_path, std::string_view old_id,
                      std::string_view new_id, const SecretBlobs& secrets);

// One file of a TreeDiff: the delta it comes from and its stat.
struct DiffItem {
  std::size_t delta = 0;
  FileStat stat;
};
// The diff of two trees (either may be null) as an approver reads it:
// exact renames paired by blob id as git pairs them, except that a change
// holding a secret (in either tree's '.secrets/') is never paired, opened
// or counted: a rename of one is a delete and an add, each FileStat::secret.
// `extra_flags` are git_diff_option_t flags (GIT_DIFF_SHOW_BINARY).
struct TreeDiff {
  git::Diff diff;
  std::vector<DiffItem> items;  // in path order
};
Result<TreeDiff> diff_trees(git_repository* repo, git_tree* from, git_tree* to, std::uint32_t extra_flags);
// The exact unified diff of every item in order (git's format); a secret's
// item is git's header without its "index" line, and one line saying its
// content is never shown.
Result<std::string> diff_patch(const TreeDiff& diff);

// Refuses (Errc::refused, naming the path) a change that puts a secret's
// bytes at a path outside '.secrets/': the blob ids under '.secrets/' in
// `base`, and those `changes` put there, are secrets under any path (ws(7)).
Status refuse_secret_bytes(git_repository* repo, git_tree* base, const std::vector<TreeChange>& changes,
                           const std::string& id7);

// One path of a tree to write: a blob to add or replace, or a removal.
struct TreeEdit {
  std::string path;
  bool remove = false;
  git_oid id{};
  std::uint32_t mode = 0;
};
// A tree object already in the object database, by the folder it was read
// for ("" for the top, else "a/b/" with the '/'), with the bytes read.
struct KnownTree {
  git_oid id;
  std::string_view bytes;
};
using KnownTrees = std::unordered_map<std::string, KnownTree>;

// Writes `base` (null: the empty tree) with `edits` applied and returns the
// new root's id. Only the folders the edits touch are written: each from the
// base folder's entries and its edits, its untouched subfolders kept by id.
// A folder left empty is dropped. Paths must have passed the policy. A
// folder whose bytes come out the same as `known` holds for it is that
// object: nothing is hashed or written again.
Result<git_oid> write_edited_tree(git_repository* repo, const git_tree* base, std::vector<TreeEdit> edits,
                                  const KnownTrees* known = nullptr);

// Per-file stats of a view's changes, computed from the bytes themselves
// (`contents[i]` holds the new bytes of `changes[i]`; base bytes are read
// from the object database) rather than by diffing two whole trees.
// `base_tree` gives the base mode of a modified file. With
// `with_attributes`, each file's diff driver is looked up in the
// attributes (which makes libgit2 read the whole index); without, binary
// files are told by their content, as git does for a path no attribute names.
// A change holding a secret (is_secret_change with `secrets`) is neither
// read nor counted: FileStat::secret.
Result<std::vector<FileStat>> change_stats(git_repository* repo, git_tree* base_tree,
                                           const std::vector<const ViewEntry*>& changes,
                                           const std::vector<std::string>& contents, bool with_attributes,
                                           const SecretBlobs& secrets);

// Whether any gitattributes file could name a path of `view`: one in the
// view itself (a .gitattributes at any depth, deleted ones included), the
// repository's info/attributes, the global or the system file, or a
// configured core.attributesFile.
bool attributes_may_apply(git_repository* repo, const View& view);

// Checks a changed entry against the proposal policy: path rules, nothing
// under .secrets/, and a file mode a proposal may hold (refuse_file_mode in
// proposal_canonical.h).
std::optional<std::string> refuse_entry(std::string_view path, std::uint32_t mode,
                                        const std::vector<std::string>& protected_paths);

std::string short_id(const std::string& id);
std::string normalise_branch(const std::string& branch);  // "main" -> "refs/heads/main"

}  // namespace ws::proposal

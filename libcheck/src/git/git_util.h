// Small RAII and error helpers over libgit2, shared by the modules that talk to git.
#pragma once

#include <git2.h>

#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "libcheck/object_id.h"
#include "libcheck/result.h"

namespace ws::git {

template <class T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { if (p) Free(p); }
};

using Tree = std::unique_ptr<git_tree, Deleter<git_tree, git_tree_free>>;
using Commit = std::unique_ptr<git_commit, Deleter<git_commit, git_commit_free>>;
using Object = std::unique_ptr<git_object, Deleter<git_object, git_object_free>>;
using Diff = std::unique_ptr<git_diff, Deleter<git_diff, git_diff_free>>;
using Index = std::unique_ptr<git_index, Deleter<git_index, git_index_free>>;
using Odb = std::unique_ptr<git_odb, Deleter<git_odb, git_odb_free>>;
using OdbObject = std::unique_ptr<git_odb_object, Deleter<git_odb_object, git_odb_object_free>>;
using Reference = std::unique_ptr<git_reference, Deleter<git_reference, git_reference_free>>;
using Blob = std::unique_ptr<git_blob, Deleter<git_blob, git_blob_free>>;
using TreeBuilder = std::unique_ptr<git_treebuilder, Deleter<git_treebuilder, git_treebuilder_free>>;
using Signature = std::unique_ptr<git_signature, Deleter<git_signature, git_signature_free>>;
using RevWalk = std::unique_ptr<git_revwalk, Deleter<git_revwalk, git_revwalk_free>>;
using Config = std::unique_ptr<git_config, Deleter<git_config, git_config_free>>;
using Patch = std::unique_ptr<git_patch, Deleter<git_patch, git_patch_free>>;

// libgit2's last error message, lower-cased first letter, no trailing full stop.
std::string last_error();

// An Error carrying libgit2's message after `what` ("cannot read tree: ..."),
// or the system's (errno) when libgit2 set none.
Error error(Errc code, const std::string& what);
// Forgets the last libgit2 error and errno, before a call whose failure
// must not be reported with an older reason.
void clear_error();

std::string to_hex(const git_oid& oid);
// The same for the 20 raw bytes of an id (as an index file holds them).
std::string to_hex(const unsigned char* raw);
// True when `hex` is to_hex(raw), without spelling it (no allocation).
bool hex_equals(std::string_view hex, const unsigned char* raw);
// Parses 40 hex digits; false on anything else.
bool from_hex(const std::string& hex, git_oid& out);

// A view's id as libgit2's, and back; false for no id.
inline bool to_oid(const ObjectId& id, git_oid& out) {
  if (id.empty()) return false;
  std::memcpy(out.id, id.data(), ObjectId::kSize);
  return true;
}
inline ObjectId to_id(const git_oid& oid) { return ObjectId::from_raw(oid.id); }

// The commit `commit_hex` names (Errc::not_found for a bad id or a missing
// commit), and its tree; an empty id has the null tree (an unborn branch).
Result<Commit> lookup_commit(git_repository* repo, const std::string& commit_hex);
Result<Tree> commit_tree(git_repository* repo, const std::string& commit_hex);

// Initialises libgit2 once per process.
void ensure_init();

}  // namespace ws::git

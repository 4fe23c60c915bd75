// A view: a base tree plus pending changes layered on top (ws(7), VIEWS).
// The view is a flat, sorted path list; directories are synthesised from it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libcheck/object_id.h"
#include "libcheck/result.h"
#include "libcheck/secrets.h"

namespace ws {

class TreeWatch;  // the fs layer's (tree_watch.h); opaque here

enum class ChangeStatus : char {
  unchanged = ' ',
  added = 'A',
  modified = 'M',
  deleted = 'D',
  renamed = 'R',  // a delete and an add carrying the same bytes; path is the new one
};

inline constexpr std::uint32_t kModeFile = 0100644;
inline constexpr std::uint32_t kModeExec = 0100755;
inline constexpr std::uint32_t kModeLink = 0120000;
inline constexpr std::uint32_t kModeGitlink = 0160000;

// An entry that stands for no bytes of its own to read: a symbolic link or a
// submodule (gitlink). Links are never followed (ws(7), PATH POLICY).
inline constexpr bool is_link_mode(std::uint32_t mode) { return mode == kModeLink || mode == kModeGitlink; }

struct ViewEntry {
  std::string path;
  ChangeStatus status = ChangeStatus::unchanged;
  std::string old_path;   // for renamed: the deleted path
  ObjectId blob_id;       // object id of the view's content; base blob for deleted
  ObjectId base_blob_id;  // id in the base; empty when added
  std::uint32_t mode = kModeFile;
  std::uint64_t size = 0;
  bool from_worktree = false;  // content must be read from the working tree
};

// Where a view's bytes come from: the object database or the working tree.
// An interface so tests can run a view on memory.
class ContentSource {
 public:
  virtual ~ContentSource() = default;
  // The bytes of `entry` as the view sees them (the base's for a deleted entry).
  // Working-tree reads go through the path policy and the confined reader.
  virtual Result<std::string> read(const ViewEntry& entry) const = 0;
  virtual Result<std::string> read_blob(const std::string& blob_id) const = 0;
  // Size in bytes without reading the content where the source can (object
  // headers, stat); nullopt when unknown.
  virtual std::optional<std::uint64_t> size_of(const ViewEntry& entry) const = 0;
  // A refusal read() would give `entry` that the source can see without
  // opening it (a working-tree file with several hard links), for callers
  // that show names only; nullopt when it sees none.
  virtual std::optional<Error> refusal(const ViewEntry& entry) const {
    (void)entry;
    return std::nullopt;
  }
  // True when refusal() gives nullopt for every entry of the view, known
  // without asking per entry (the status walk met no file with several
  // links), so a listing of 20,000 names need not ask 20,000 times.
  virtual bool refuses_none() const { return false; }
  // True when read(entry) returns, for certain, bytes whose blob id is
  // entry.blob_id even for a working-tree entry (the source kept what it
  // hashed), so a caller keying by that id need not hash them again.
  virtual bool reads_blob_id(const ViewEntry& entry) const {
    (void)entry;
    return false;
  }
};

enum class ViewSource { worktree, staged, rev, proposal };

struct ViewSpec {
  ViewSource source = ViewSource::worktree;
  std::string base;      // --base REV; empty: HEAD (or the proposal's parent)
  std::string rev;       // --rev REV
  std::string proposal;  // --proposal ID
  // false: a working-tree view may skip diffing against the base when the
  // caller needs only the files and their bytes (ws-grep). Files on disk that
  // git tracks are then 'unchanged', untracked unignored ones 'added', and
  // files missing from disk are absent rather than 'deleted'.
  bool statuses = true;
  // true: the view holds the changed entries only (deleted ones included)
  // and the base's .ws/ folder (configuration and kinds), for a caller that
  // shows what changed (ws-ls --changed) and need not walk the whole base.
  // A working-tree view also holds every unchanged .gitattributes file
  // (they decide how ws-commit's diffstat reads a file). A path absent from
  // such a view is unchanged or does not exist.
  bool changes_only = false;
  // true: a rev view whose base is not an ancestor of rev is checked as what
  // will land, the merge of rev into base (merge_result.h; ws-build(1),
  // MERGE RESULTS). Only opening a workspace reads it.
  bool merge = false;
  // A long-running process's watch of the working tree (ws-mcp(1), WARM
  // STATE): a working-tree view reuses the stats it vouches for instead of
  // taking them again. Null: every file is stated (the command-line tools).
  std::shared_ptr<TreeWatch> watch;
};

class View {
 public:
  View();
  // `secrets`: the blob ids of secrets known beside the entries (the base
  // tree's, the index's); the ids of the entries under '.secrets/' that do
  // not come from hashing a working-tree file are added here. `content` is
  // wrapped so that it never reads what is_secret() calls a secret.
  View(std::vector<ViewEntry> entries, std::shared_ptr<const ContentSource> content,
       std::string base_commit, SecretBlobs secrets = {});

  // Every path of the view, sorted bytewise, including deleted entries
  // (status D) so callers can report them; renamed entries carry old_path.
  const std::vector<ViewEntry>& entries() const { return entries_; }
  const ViewEntry* find(std::string_view path) const;
  // Entries with a status other than unchanged.
  std::vector<const ViewEntry*> changes() const;
  // The base commit id (hex); empty for a repository with no commits.
  const std::string& base_commit() const { return base_commit_; }

  Result<std::string> read(const ViewEntry& e) const { return content_->read(e); }

  // Secrets under any name (ws(7), the secret kind). The view's bytes of
  // `e` are a secret's when `e` is under '.secrets/' or carries the blob id
  // of a secret (a deleted entry: its base id); read() refuses them.
  bool is_secret(const ViewEntry& e) const;
  // The same for the base side of a changed entry (the old path of a rename).
  bool base_is_secret(const ViewEntry& e) const;
  // `e` is not under '.secrets/' but carries a secret's bytes: every tool
  // refuses it by path (secret_bytes_refusal).
  bool holds_secret_bytes(const ViewEntry& e) const { return is_secret(e) && !is_secret_path_of(e); }
  // For bytes already read of `e`: whether they are a secret's. An entry
  // of a commit or the index is judged by its id; working-tree bytes by
  // what they are (SecretBlobs::holds_bytes: hashed only when their size
  // is a secret's), since a file can change after the index or the view
  // saw it. read() has refused such bytes already; this is for callers
  // holding bytes of their own.
  bool bytes_are_secret(const ViewEntry& e, std::string_view bytes) const;
  const SecretBlobs& secret_blobs() const { return *secrets_; }
  const ContentSource& content() const { return *content_; }
  std::shared_ptr<const ContentSource> content_ptr() const { return content_; }

  // Immediate children of directory `dir` ("" is the root; else ends with '/'):
  // names of files and synthesised sub-directories (with trailing '/').
  std::vector<std::string> list_dir(std::string_view dir) const;

 private:
  static bool is_secret_path_of(const ViewEntry& e);

  std::vector<ViewEntry> entries_;
  std::shared_ptr<const ContentSource> content_;
  std::string base_commit_;
  std::shared_ptr<const SecretBlobs> secrets_;
};

// Pairs deletes and adds with the same blob id into renames (first by path
// order), in place; keeps entries sorted. A path under '.secrets/', or a
// blob id in `secrets`, is never paired: a rename would say which file
// holds a secret's bytes, and show them.
void detect_renames(std::vector<ViewEntry>& entries, const SecretBlobs* secrets = nullptr);

}  // namespace ws

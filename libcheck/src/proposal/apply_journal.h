// The apply record and the index of an apply (ws-apply(1) "INTERRUPTED
// APPLY", ws(7) "FILES"): what lets the next run tell an apply that did not
// happen from one that moved the branch and was cut short, and what keeps
// the index from losing an entry the user staged.
//
// The protocol, in order: the record is written (temporary file, fsync,
// then linked into place, so it appears whole and only once), naming every
// lock file the apply may create; the index is locked and checked; the
// branch moves by compare-and-swap; refs/ws/applied/<id> is written; the
// index follows; the record goes. A kill at any instant leaves either no
// record, or one whose branch says whether the apply happened.
#pragma once

#include <sys/types.h>
#include <time.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "git_util.h"
#include "index_file.h"
#include "proposal_internal.h"
#include "libcheck/interrupted_apply.h"
#include "libcheck/repository.h"
#include "libcheck/result.h"

namespace ws::proposal {

// One path an apply changes: its entry at the branch's old tip and in the
// new commit (mode 0 and an empty id where that side has no file).
struct AppliedPath {
  std::string path;
  std::uint32_t old_mode = 0;
  std::string old_id;
  std::uint32_t new_mode = 0;
  std::string new_id;
  bool operator==(const AppliedPath& o) const {
    return path == o.path && old_mode == o.old_mode && old_id == o.old_id && new_mode == o.new_mode &&
           new_id == o.new_id;
  }
};

// Every path whose entry differs between the commits `old_tip` (empty: an
// unborn branch) and `new_commit`, sorted bytewise as the index sorts them.
Result<std::vector<AppliedPath>> applied_paths(git_repository* repo, const std::string& old_tip,
                                               const std::string& new_commit);

// The same for the paths of `changes` only (the proposal's changes, which
// are all an apply changes), each looked up in the two commits' trees:
// without walking the folders they touch a second time.
Result<std::vector<AppliedPath>> applied_paths(git_repository* repo, const std::vector<TreeChange>& changes,
                                               const std::string& old_tip, const std::string& new_commit);

// What an apply record holds (JSON, one object).
struct ApplyRecord {
  long pid = 0;
  std::string proposal;    // the proposal's full id
  std::string branch;      // "refs/heads/main"
  std::string old_tip;     // the branch before; empty: unborn
  std::string new_commit;  // the commit the branch moves to
  std::string index;       // the index that follows; empty when the branch is not checked out here
  std::vector<AppliedPath> paths;
  std::vector<std::string> locks;  // every lock and temporary file the apply may create, absolute
};

// <git dir>/ws: the record and the apply's temporary files.
std::string apply_dir(const std::string& git_dir);

struct FoundRecord;

// The worktree's record, open and locked (flock) by this process: while a
// process holds it, that apply is running; the lock goes with the process.
class RecordFile {
 public:
  RecordFile() = default;
  RecordFile(RecordFile&& o) noexcept;
  RecordFile& operator=(RecordFile&& o) noexcept;
  RecordFile(const RecordFile&) = delete;
  RecordFile& operator=(const RecordFile&) = delete;
  ~RecordFile();  // closes it, releasing the lock; never removes it

  // Writes `record` as the worktree's record: whole or not at all, and only
  // when there is none (Errc::refused, Rule::record_exists, otherwise).
  static Result<RecordFile> create(const std::string& git_dir, const ApplyRecord& record);
  // Removes the record (when the path still names this file), then closes it.
  void remove();
  bool is_open() const { return fd_ >= 0; }
  // When the record was written: a lock file it names is the apply's own
  // only if it is no older.
  const timespec& written() const { return written_; }

 private:
  friend Result<FoundRecord> find_record(const std::string& git_dir);
  int fd_ = -1;
  std::string path_;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  timespec written_{};
};

// The worktree's record as another run finds it.
struct FoundRecord {
  enum State { none, running, claimed } state = none;
  ApplyRecord record;  // for running and claimed
  RecordFile file;     // claimed: open and locked by this process
};
// Errc::invalid, naming the file, for a record that does not parse.
Result<FoundRecord> find_record(const std::string& git_dir);

// Whether the lock or temporary file `path`, named by `found`'s record,
// was made by that apply: its own marker or the bytes that apply would
// have written, and no older than the record.
bool made_by_apply(const std::string& path, const ApplyRecord& record, const timespec& record_written);

// "'.git/index.lock', 2 hours old": the path (relative to the worktree
// when inside it) and the age of a lock file, for messages.
std::string lock_description(const std::string& path, const std::string& workdir);

// The index of this worktree, locked from before the branch moves until it
// follows (proposal_index.cpp), so that nothing staged in between is lost.
class IndexUpdate {
 public:
  ~IndexUpdate();  // drops the lock unless write() did
  // Locks `index_path` by linking a file holding `marker` to its ".lock"
  // (so the lock appears with its marker or not at all) and reads the
  // index. A lock already there is Errc::refused, named with its age.
  // Temporary files go to `scratch` (see index_update_files).
  static Result<std::unique_ptr<IndexUpdate>> lock(const std::string& index_path, const std::string& scratch,
                                                   const std::string& marker, const std::string& workdir);
  // The index paths that hold something else than both the old and the new
  // entry of `paths` (a conflict, a staged edit, addition or removal), and
  // entries a new file or folder would displace; sorted.
  Result<std::vector<std::string>> staged(const std::vector<AppliedPath>& paths) const;
  // Writes the index with every one of `paths` at its new entry (a new
  // blob with no stat data; removed when mode 0), then drops the lock.
  Status write(const std::vector<AppliedPath>& paths);

 private:
  IndexUpdate() = default;
  Result<bool> write_fast(const std::vector<AppliedPath>& paths, const std::string& to) const;
  Status write_with_libgit2(const std::vector<AppliedPath>& paths, const std::string& to) const;
  std::string index_path_, lock_path_, scratch_;
  std::string data_;  // the index's bytes, read under the lock
  detail::IndexFile parsed_;  // the same, parsed once
  bool exists_ = false;
  timespec mtime_{};
  bool locked_ = false;
};
// The files IndexUpdate may create for `index_path` in process `pid`: its lock and temporary files.
std::vector<std::string> index_update_files(const std::string& index_path, const std::string& scratch, long pid);
// The marker an apply's index lock holds, for `proposal`.
std::string index_lock_marker(const std::string& proposal);

// One apply's journal (apply_journal.cpp), from before the branch moves
// until the applied ref and the index are written.
class ApplyJournal {
 public:
  struct Start {
    std::string proposal, branch, old_tip, new_commit;
    const std::vector<TreeChange>* changes = nullptr;  // the proposal's; null: diff the two commits
  };
  // Refuses (nothing written) when the branch is checked out in another
  // worktree, when another apply runs here, when the index is locked, or
  // when the index holds a staged entry the apply would overwrite. Then
  // the record is written and, if the branch is checked out here, the
  // index is locked.
  static Result<std::unique_ptr<ApplyJournal>> begin(const Repository& repo, const Start& start);
  // Takes over a claimed record whose apply happened (--continue): removes
  // the lock files that apply made, and locks the index if the branch is
  // still checked out here.
  static Result<std::unique_ptr<ApplyJournal>> resume(const Repository& repo, FoundRecord found);
  // Removes the record and the index lock, unless the branch did move (then
  // the record stays for the next run to complete).
  ~ApplyJournal();

  struct Completed {
    bool index_updated = false;
    std::vector<std::string> index_kept;  // entries staged since, left as they are
  };
  // After the branch moved: writes refs/ws/applied/<id>, brings the index to
  // the new commit at the applied paths (never over an entry staged
  // since: those are kept and named), and removes the record. On failure
  // the record stays, for 'ws-apply --continue'.
  Result<Completed> complete();
  const ApplyRecord& record() const { return record_; }

 private:
  ApplyJournal() = default;
  Status mark_applied();
  const Repository* repo_ = nullptr;
  ApplyRecord record_;
  RecordFile file_;
  std::unique_ptr<IndexUpdate> index_;
};

// The lock files `record` names that exist, split into those its apply
// made (`own`) and the others.
struct RecordLocks {
  std::vector<std::string> own, foreign;
};
RecordLocks record_locks(const ApplyRecord& record, const timespec& written);

// This worktree's index file, the one an apply brings to the new commit.
std::string worktree_index(const Repository& repo);
// The lock and temporary files the apply `record` describes may create:
// what its record must name, and all it may name.
std::vector<std::string> expected_locks(const Repository& repo, const ApplyRecord& record);

// The worktree, other than this one, where `branch` is checked out; empty when none.
std::string other_checkout(const Repository& repo, const std::string& branch);

// The line that names an interrupted apply and the command that completes it.
std::string interrupted_line(const ApplyRecord& record);

}  // namespace ws::proposal

// Object databases for readers on several threads.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "git_util.h"

namespace ws::detail {

// Adds the objects a git hook's environment names (GIT_OBJECT_DIRECTORY: a
// push's quarantine; GIT_ALTERNATE_OBJECT_DIRECTORIES) to `odb` as
// alternates, as Repository::open does for the repository's own odb.
// libgit2's return code: < 0 on failure.
int add_environment_objects(git_odb* odb);

// Where `repo` keeps its objects (a linked worktree's are the common
// directory's); empty when libgit2 cannot say.
std::string objects_dir_of(git_repository* repo);

// An object database opened as the repository opens its own: git_odb_open
// of `objects_dir` (the loose and pack backends, objects/info/alternates),
// then the hook environment's objects; null on failure.
git::Odb open_object_database(const std::string& objects_dir);

// libgit2 1.5 holds an odb's mutex while it asks its backends for an object,
// and the pack backend inflates inside that lock, so threads sharing one odb
// read blobs one at a time (bench/DIAGNOSES.md, C8). libgit2 advises one
// repository object per thread; this lends each concurrent reader an odb of
// its own, opened as the repository opens its own (the objects directory with
// its alternates, plus the hook environment's objects), and keeps it for the
// next reader. Pack files and their indexes are shared process-wide by
// libgit2, so another odb costs a directory listing, not a second index load.
class OdbPool {
 public:
  // `shared` is the repository's odb; `objects_dir` where it reads from.
  OdbPool(git::Odb shared, std::string objects_dir);
  // The pool of `repo`'s object database.
  static Result<std::unique_ptr<OdbPool>> of(git_repository* repo);

  class Lease {
   public:
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();
    git_odb* get() const { return own_ ? own_.get() : borrowed_; }

   private:
    friend class OdbPool;
    Lease(const OdbPool* pool, git::Odb own, git_odb* borrowed, bool shared_slot)
        : pool_(pool), own_(std::move(own)), borrowed_(borrowed), shared_slot_(shared_slot) {}
    const OdbPool* pool_;
    git::Odb own_;         // one of the pool's, given back at the end
    git_odb* borrowed_;    // the shared odb
    bool shared_slot_;     // the lease that holds the shared odb as its own reader's
  };

  // An odb no other thread is reading from; when another cannot be opened
  // (out of file descriptors), the shared one, which is still correct.
  Lease borrow() const;
  // The repository's odb, for single calls where contention does not matter.
  git_odb* shared() const { return shared_.get(); }

 private:
  git::Odb open_another() const;

  git::Odb shared_;
  std::string objects_dir_;
  mutable std::mutex mu_;  // held only to take or give back an odb, never while reading
  mutable std::vector<git::Odb> idle_;
  mutable bool shared_lent_ = false;
};

}  // namespace ws::detail

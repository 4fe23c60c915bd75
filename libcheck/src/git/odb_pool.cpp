#include "odb_pool.h"

#include <cstdlib>
#include <string_view>

namespace ws::detail {

int add_environment_objects(git_odb* odb) {
  const char* objects = std::getenv("GIT_OBJECT_DIRECTORY");
  const char* alternates = std::getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
  if (objects && *objects && git_odb_add_disk_alternate(odb, objects) < 0) return -1;
  std::string_view list = alternates ? alternates : "";
  while (!list.empty()) {
    auto colon = list.find(':');
    std::string one(list.substr(0, colon));
    list = colon == std::string_view::npos ? std::string_view() : list.substr(colon + 1);
    if (!one.empty() && git_odb_add_disk_alternate(odb, one.c_str()) < 0) return -1;
  }
  return 0;
}

OdbPool::OdbPool(git::Odb shared, std::string objects_dir)
    : shared_(std::move(shared)), objects_dir_(std::move(objects_dir)) {}

std::string objects_dir_of(git_repository* repo) {
  git_buf path = GIT_BUF_INIT;
  std::string objects;
  if (git_repository_item_path(&path, repo, GIT_REPOSITORY_ITEM_OBJECTS) == 0) objects.assign(path.ptr, path.size);
  else git::clear_error();
  git_buf_dispose(&path);
  return objects;
}

// git_odb_open is what git_repository_odb does for the repository (its
// objects directory, the loose and pack backends, objects/info/alternates);
// the environment's objects are then added as Repository::open adds them.
git::Odb open_object_database(const std::string& objects_dir) {
  if (objects_dir.empty()) return nullptr;
  git_odb* raw = nullptr;
  if (git_odb_open(&raw, objects_dir.c_str()) < 0) {
    git::clear_error();
    return nullptr;
  }
  git::Odb odb(raw);
  if (add_environment_objects(odb.get()) < 0) {
    git::clear_error();
    return nullptr;
  }
  return odb;
}

Result<std::unique_ptr<OdbPool>> OdbPool::of(git_repository* repo) {
  git_odb* raw = nullptr;
  if (git_repository_odb(&raw, repo) < 0) return git::error(Errc::environment, "cannot open the object database");
  // Without the objects directory every reader shares the repository's odb.
  return std::make_unique<OdbPool>(git::Odb(raw), objects_dir_of(repo));
}

OdbPool::Lease::~Lease() {
  if (shared_slot_) {
    std::lock_guard lock(pool_->mu_);
    pool_->shared_lent_ = false;
  } else if (own_) {
    std::lock_guard lock(pool_->mu_);
    pool_->idle_.push_back(std::move(own_));
  }
}

OdbPool::Lease OdbPool::borrow() const {
  {
    std::lock_guard lock(mu_);
    if (!shared_lent_) {
      shared_lent_ = true;
      return Lease(this, nullptr, shared_.get(), true);
    }
    if (!idle_.empty()) {
      git::Odb odb = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(odb), nullptr, false);
    }
  }
  // Opened outside the lock: the other readers need not wait for it.
  if (git::Odb odb = open_another()) return Lease(this, std::move(odb), nullptr, false);
  return Lease(this, nullptr, shared_.get(), false);
}

git::Odb OdbPool::open_another() const { return open_object_database(objects_dir_); }

}  // namespace ws::detail

#include "libcheck/repository.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <string_view>
#include <thread>

#include <git2/sys/repository.h>

#include "confined_open.h"
#include "git_files.h"
#include "git_util.h"
#include "libcheck/path_policy.h"
#include "odb_pool.h"
#include "parallel.h"
#include "tree_pair_walk.h"

namespace ws {

namespace {

// Git runs hooks with the objects and the index of the operation in progress
// named by environment variables rather than at their usual places:
//  - pre-receive: the pushed objects wait in a quarantine directory
//    (GIT_OBJECT_DIRECTORY; the repository's own objects are then listed in
//    GIT_ALTERNATE_OBJECT_DIRECTORIES) until the hooks accept the push;
//  - pre-commit under `git commit -a` or `git commit PATHS`: the index being
//    committed is GIT_INDEX_FILE (.git/index.lock, .git/next-index-*.lock).
// libgit2 reads these only with GIT_REPOSITORY_OPEN_FROM_ENV, which would
// also change discovery (GIT_DIR, GIT_WORK_TREE, ceilings); so only these
// three are applied, for reading: their objects are added as alternates.
int apply_git_environment(git_repository* repo) {
  const char* objects = std::getenv("GIT_OBJECT_DIRECTORY");
  const char* alternates = std::getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
  if ((objects && *objects) || (alternates && *alternates)) {
    git_odb* raw = nullptr;
    if (git_repository_odb(&raw, repo) < 0) return -1;
    git::Odb odb(raw);
    if (detail::add_environment_objects(odb.get()) < 0) return -1;
  }
  const char* index_file = std::getenv("GIT_INDEX_FILE");
  if (index_file && *index_file && git_repository_is_bare(repo) != 1) {
    git_index* raw = nullptr;
    if (git_index_open(&raw, index_file) < 0) return -1;
    git::Index index(raw);
    if (git_repository_set_index(repo, index.get()) < 0) return -1;
  }
  return 0;
}

}  // namespace

Result<Repository> Repository::open(const std::string& dir) {
  git::ensure_init();
  Repository r;
  if (auto st = detail::check_global_config_files(); !st) return st.error();
  git_buf found = GIT_BUF_INIT;
  int rc = git_repository_discover(&found, dir.c_str(), 0, nullptr);
  if (rc == 0) {
    std::string git_dir(found.ptr, found.size);
    git_buf_dispose(&found);
    if (auto st = detail::check_config_files(git_dir); !st) return st.error();
    // Found again from `dir`, as before: the working tree of a linked
    // worktree is known from there, not from its git dir.
    rc = git_repository_open_ext(&r.repo_, dir.c_str(), 0, nullptr);
  } else {
    git_buf_dispose(&found);
  }
  if (rc == GIT_ENOTFOUND)
    return make_error(Errc::environment,
                      "not a git repository: '" + dir + "' (or any parent); run 'git init' or pass -C DIR", dir);
  if (rc < 0) return git::error(Errc::environment, "cannot open repository at '" + dir + "'");
  if (auto st = detail::check_repository_files(r.repo_); !st) return st.error();
  if (apply_git_environment(r.repo_) < 0)
    return git::error(Errc::environment, "cannot use GIT_OBJECT_DIRECTORY, GIT_ALTERNATE_OBJECT_DIRECTORIES or GIT_INDEX_FILE");
  return r;
}

Repository::Repository(Repository&& o) noexcept : repo_(o.repo_) { o.repo_ = nullptr; }
Repository& Repository::operator=(Repository&& o) noexcept {
  if (this != &o) {
    if (repo_) git_repository_free(repo_);
    repo_ = o.repo_;
    o.repo_ = nullptr;
  }
  return *this;
}
Repository::~Repository() {
  if (repo_) git_repository_free(repo_);
}

bool Repository::is_bare() const { return git_repository_is_bare(repo_) == 1; }

std::string Repository::workdir() const {
  const char* w = git_repository_workdir(repo_);
  return w ? w : "";
}

std::string Repository::git_dir() const { return git_repository_path(repo_); }

std::string Repository::common_dir() const { return git_repository_commondir(repo_); }

Result<std::string> Repository::resolve_commit(std::string_view rev) const {
  std::string spec(rev);
  if (spec == "HEAD" && git_repository_head_unborn(repo_) == 1) return std::string();
  git_object* raw = nullptr;
  if (git_revparse_single(&raw, repo_, spec.c_str()) < 0)
    return make_error(Errc::not_found, "unknown revision '" + spec + "': " + git::last_error(), spec);
  git::Object obj(raw);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, obj.get(), GIT_OBJECT_COMMIT) < 0)
    return make_error(Errc::not_found, "revision '" + spec + "' does not name a commit", spec);
  git::Object commit(peeled);
  return git::to_hex(*git_object_id(commit.get()));
}

std::string Repository::head_branch() const {
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo_, "HEAD") < 0) return "";
  git::Reference head(raw);
  if (git_reference_type(head.get()) != GIT_REFERENCE_SYMBOLIC) return "";
  return git_reference_symbolic_target(head.get());
}

namespace {

// The components of a folder's path ("a/b/": 2).
int depth_of(std::string_view folder) { return static_cast<int>(std::count(folder.begin(), folder.end(), '/')); }

// A blob, link or submodule of a commit's tree as an unchanged entry.
void collect_entry(std::vector<ViewEntry>& out, std::string_view path, const git_tree_entry* entry) {
  ViewEntry& e = out.emplace_back();
  e.path = path;
  e.mode = static_cast<std::uint32_t>(git_tree_entry_filemode_raw(entry));
  e.blob_id = git::to_id(*git_tree_entry_id(entry));
  e.base_blob_id = e.blob_id;
}

// One entry of the walked tree's top level and what lies beneath it.
struct Part {
  git_oid id;
  std::string name;
  std::vector<ViewEntry> out;
  std::optional<Error> error;  // with libgit2's message, taken on the thread that failed
};

// The tree of folder `under` (ending in '/') of `tree`; nullopt when the
// commit has no such folder.
Result<std::optional<git::Tree>> subtree_at(git_repository* repo, const git::Tree& tree, std::string_view under,
                                            const std::string& commit_hex) {
  std::string dir(under.substr(0, under.size() - (under.back() == '/' ? 1 : 0)));
  git_tree_entry* sub_entry = nullptr;
  if (git_tree_entry_bypath(&sub_entry, tree.get(), dir.c_str()) < 0) return std::optional<git::Tree>();
  bool is_tree = git_tree_entry_type(sub_entry) == GIT_OBJECT_TREE;
  git_object* sub = nullptr;
  int rc = is_tree ? git_tree_entry_to_object(&sub, repo, sub_entry) : 0;
  git_tree_entry_free(sub_entry);
  if (!is_tree) return std::optional<git::Tree>();
  if (rc < 0) return git::error(Errc::environment, "cannot read '" + dir + "' in " + commit_hex);
  return std::optional<git::Tree>(git::Tree(reinterpret_cast<git_tree*>(sub)));
}

// The top level of `tree`, one part per entry: a file collected, a folder
// returned to be walked.
std::vector<Part*> split_top_level(const git::Tree& tree, std::string_view under, std::vector<Part>& parts) {
  std::vector<Part*> folders;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    Part& p = parts[i];
    const git_tree_entry* entry = git_tree_entry_byindex(tree.get(), i);
    if (git_tree_entry_type(entry) == GIT_OBJECT_TREE) {
      git_oid_cpy(&p.id, git_tree_entry_id(entry));
      p.name = git_tree_entry_name(entry);
      folders.push_back(&p);
    } else {
      collect_entry(p.out, std::string(under) + git_tree_entry_name(entry), entry);
    }
  }
  return folders;
}

// Walks `folders` on all cores, each into its part. Each thread reads trees
// through a repository handle of its own, as libgit2 asks (its objects are
// used from one thread at a time), the calling one `repo`.
void walk_folders(git_repository* repo, const std::vector<Part*>& folders, std::string_view under,
                  const std::string& commit_hex) {
  std::atomic<std::size_t> next{0};
  auto walk_some = [&](git_repository* own_repo) {
    for (std::size_t k; (k = next.fetch_add(1, std::memory_order_relaxed)) < folders.size();) {
      Part& p = *folders[k];
      git_tree* sub = nullptr;
      bool walked = git_tree_lookup(&sub, own_repo, &p.id) == 0;
      git::Tree subtree(sub);
      if (!walked) {
        p.error = make_error(Errc::environment, "cannot walk the tree of " + commit_hex + ": " + git::last_error());
        continue;
      }
      std::string prefix = std::string(under) + p.name + "/";
      p.out.reserve(git_tree_entrycount(subtree.get()));  // exact for a folder of files
      auto collect = [&](std::string_view path, const git_tree_entry* e) { collect_entry(p.out, path, e); };
      if (auto st = git::walk_tree(own_repo, subtree.get(), prefix, depth_of(prefix), collect); !st) p.error = st.error();
    }
  };
  std::vector<std::thread> helpers;
  const std::size_t more = std::min<std::size_t>(worker_count(), folders.size());
  const std::string objects = more > 1 ? detail::objects_dir_of(repo) : std::string();
  for (std::size_t t = 1; t < more; ++t)
    helpers.emplace_back([&] {
      // Trees are only read, so a handle over the same objects is enough
      // (no config, refs or index to load).
      git::Odb odb = detail::open_object_database(objects);
      git_repository* raw = nullptr;
      if (!odb || git_repository_wrap_odb(&raw, odb.get()) < 0) {
        git::clear_error();
        return;  // the other threads take its share
      }
      std::unique_ptr<git_repository, git::Deleter<git_repository, git_repository_free>> own(raw);
      walk_some(own.get());
    });
  walk_some(repo);
  for (auto& t : helpers) t.join();
}

// The parts' entries joined in tree order, or the first part's error.
Result<std::vector<ViewEntry>> join_parts(std::vector<Part>& parts) {
  std::vector<ViewEntry> out;
  std::size_t total = 0;
  for (const Part& p : parts) {
    if (p.error) return *p.error;
    total += p.out.size();
  }
  out.reserve(total);
  for (Part& p : parts) std::move(p.out.begin(), p.out.end(), std::back_inserter(out));
  // A pre-order walk of git's tree order is already bytewise path order; the
  // check is linear, the sort only a safety net.
  auto by_path = [](const ViewEntry& a, const ViewEntry& b) { return a.path < b.path; };
  if (!std::is_sorted(out.begin(), out.end(), by_path)) std::sort(out.begin(), out.end(), by_path);
  return out;
}

}  // namespace

Result<std::optional<ViewEntry>> Repository::entry_at(const std::string& commit_hex, const std::string& path) const {
  if (commit_hex.empty()) return std::optional<ViewEntry>();
  auto tree = git::commit_tree(repo_, commit_hex);
  if (!tree) return tree.error();
  git_tree_entry* found = nullptr;
  if (git_tree_entry_bypath(&found, tree->get(), path.c_str()) < 0) return std::optional<ViewEntry>();
  std::optional<ViewEntry> out;
  if (git_tree_entry_type(found) != GIT_OBJECT_TREE) {
    out.emplace();
    out->path = path;
    out->mode = git_tree_entry_filemode(found);
    out->blob_id = out->base_blob_id = git::to_id(*git_tree_entry_id(found));
  }
  git_tree_entry_free(found);
  return out;
}

Result<std::vector<std::optional<ViewEntry>>> Repository::entries_at(const std::string& commit_hex,
                                                                  const std::vector<std::string>& paths) const {
  std::vector<std::optional<ViewEntry>> out(paths.size());
  if (commit_hex.empty() || paths.empty()) return out;
  auto root = git::commit_tree(repo_, commit_hex);
  if (!root) return root.error();
  std::map<std::string, std::optional<git::Tree>, std::less<>> folders;  // "" is the root, held apart
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    auto slash = path.rfind('/');
    const git_tree* tree = root->get();
    if (slash != std::string::npos) {
      std::string folder = path.substr(0, slash + 1);
      auto at = folders.find(folder);
      if (at == folders.end()) {
        auto sub = subtree_at(repo_, *root, folder, commit_hex);
        if (!sub) return sub.error();
        at = folders.emplace(folder, std::move(*sub)).first;
      }
      if (!at->second) continue;
      tree = at->second->get();
    }
    const git_tree_entry* found = git_tree_entry_byname(tree, path.c_str() + (slash == std::string::npos ? 0 : slash + 1));
    if (!found || git_tree_entry_type(found) == GIT_OBJECT_TREE) continue;
    out[i].emplace();
    out[i]->path = path;
    out[i]->mode = git_tree_entry_filemode(found);
    out[i]->blob_id = out[i]->base_blob_id = git::to_id(*git_tree_entry_id(found));
  }
  return out;
}

Result<std::vector<ViewEntry>> Repository::commit_entries(const std::string& commit_hex, std::string_view under) const {
  if (commit_hex.empty()) return std::vector<ViewEntry>();
  auto got = git::commit_tree(repo_, commit_hex);
  if (!got) return got.error();
  git::Tree tree = std::move(got).value();
  if (!under.empty()) {
    auto sub = subtree_at(repo_, tree, under, commit_hex);
    if (!sub) return sub.error();
    if (!*sub) return std::vector<ViewEntry>();  // no such folder
    tree = std::move(**sub);
  }
  // The folders of the top level are walked on all cores, each into a list
  // of its own, and the lists joined in tree order: the order of one
  // pre-order walk. At 20,000 definitions the walk (reading the trees, then
  // three allocations and a hex id per file, on fresh pages) took 13 ms of
  // the 20 ms before `ws-grep --base` starts searching.
  std::vector<Part> parts(git_tree_entrycount(tree.get()));
  std::vector<Part*> folders = split_top_level(tree, under, parts);
  walk_folders(repo_, folders, under, commit_hex);
  return join_parts(parts);
}

std::string Repository::index_file() const {
  const char* env = std::getenv("GIT_INDEX_FILE");
  if (env && *env && !is_bare()) return env;
  std::string dir = git_repository_path(repo_);
  if (!dir.empty() && dir.back() != '/') dir += '/';
  return dir + "index";
}

Result<std::string> Repository::read_blob(const std::string& blob_hex) const {
  git_oid oid;
  if (!git::from_hex(blob_hex, oid)) return make_error(Errc::not_found, "not a blob id: '" + blob_hex + "'");
  git_odb* odb_raw = nullptr;
  if (git_repository_odb(&odb_raw, repo_) < 0) return git::error(Errc::environment, "cannot open the object database");
  git::Odb odb(odb_raw);
  git_odb_object* obj_raw = nullptr;
  if (git_odb_read(&obj_raw, odb.get(), &oid) < 0)
    return git::error(Errc::not_found, "cannot read blob " + blob_hex);
  git::OdbObject obj(obj_raw);
  if (git_odb_object_type(obj.get()) != GIT_OBJECT_BLOB)
    return make_error(Errc::invalid, "object " + blob_hex + " is not a blob");
  return std::string(static_cast<const char*>(git_odb_object_data(obj.get())), git_odb_object_size(obj.get()));
}

std::string Repository::hash_blob(std::string_view bytes) {
  git::ensure_init();
  git_oid oid;
  git_odb_hash(&oid, bytes.data(), bytes.size(), GIT_OBJECT_BLOB);
  return git::to_hex(oid);
}

}  // namespace ws

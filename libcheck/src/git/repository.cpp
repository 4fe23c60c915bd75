#include "libcheck/repository.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string_view>
#include <thread>

#include <git2/sys/repository.h>

#include "confined_open.h"
#include "git_files.h"
#include "git_util.h"
#include "libcheck/path_policy.h"
#include "odb_pool.h"
#include "parallel.h"

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

struct WalkState {
  std::vector<ViewEntry>* out;
  std::string_view prefix;  // of every path: the folder walked
  std::string too_deep = {};  // a folder whose entries would be deeper than kMaxPathDepth, with its '/'
  git_oid too_deep_id = {};
};

// libgit2's walk recurses, so a hand-made tree nested without end would
// exhaust the stack: the walk stops where the path policy would refuse
// every path below (kMaxPathDepth).
bool folder_too_deep(std::string_view prefix, const char* root) {
  std::size_t components = 1;  // the folder's own name
  for (char c : prefix) components += c == '/';
  for (const char* c = root; *c; ++c) components += *c == '/';
  return components >= static_cast<std::size_t>(kMaxPathDepth);
}

int collect_entry(const char* root, const git_tree_entry* entry, void* payload) {
  auto* st = static_cast<WalkState*>(payload);
  git_object_t type = git_tree_entry_type(entry);
  if (type == GIT_OBJECT_TREE) {
    if (!folder_too_deep(st->prefix, root)) return 0;
    st->too_deep = std::string(st->prefix) + root + git_tree_entry_name(entry) + "/";
    git_oid_cpy(&st->too_deep_id, git_tree_entry_id(entry));
    return -1;
  }
  ViewEntry& e = st->out->emplace_back();
  const char* name = git_tree_entry_name(entry);
  e.path.reserve(st->prefix.size() + std::strlen(root) + std::strlen(name));
  e.path.append(st->prefix).append(root).append(name);
  e.mode = static_cast<std::uint32_t>(git_tree_entry_filemode_raw(entry));
  e.blob_id = git::to_hex(*git_tree_entry_id(entry));
  e.base_blob_id = e.blob_id;
  return 0;
}

// One entry of the walked tree's top level and what lies beneath it.
struct Part {
  git_oid id;
  std::string name;
  std::vector<ViewEntry> out;
  std::optional<Error> error;  // with libgit2's message, taken on the thread that failed
};

// The refusal of a walk stopped at the folder `st.too_deep`: it names the
// first path the folder holds, as every walk does (depth_cap_error).
Error too_deep_error(git_repository* repo, const WalkState& st) {
  std::string path = st.too_deep;
  git_tree* raw = nullptr;
  if (git_tree_lookup(&raw, repo, &st.too_deep_id) == 0 && git_tree_entrycount(raw))
    path += git_tree_entry_name(git_tree_entry_byindex(raw, 0));
  else
    path.pop_back();
  git_tree_free(raw);
  return depth_cap_error(std::move(path));
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
    out->blob_id = out->base_blob_id = git::to_hex(*git_tree_entry_id(found));
  }
  git_tree_entry_free(found);
  return out;
}

Result<std::vector<ViewEntry>> Repository::commit_entries(const std::string& commit_hex, std::string_view under) const {
  std::vector<ViewEntry> out;
  if (commit_hex.empty()) return out;
  auto got = git::commit_tree(repo_, commit_hex);
  if (!got) return got.error();
  git::Tree tree = std::move(got).value();
  if (!under.empty()) {
    std::string dir(under.substr(0, under.size() - (under.back() == '/' ? 1 : 0)));
    git_tree_entry* sub_entry = nullptr;
    if (git_tree_entry_bypath(&sub_entry, tree.get(), dir.c_str()) < 0) return out;  // no such folder
    bool is_tree = git_tree_entry_type(sub_entry) == GIT_OBJECT_TREE;
    git_object* sub = nullptr;
    int rc = is_tree ? git_tree_entry_to_object(&sub, repo_, sub_entry) : 0;
    git_tree_entry_free(sub_entry);
    if (!is_tree) return out;
    if (rc < 0) return git::error(Errc::environment, "cannot read '" + dir + "' in " + commit_hex);
    tree = git::Tree(reinterpret_cast<git_tree*>(sub));
  }
  // The folders of the top level are walked on all cores, each into a list
  // of its own, and the lists joined in tree order: the order of one
  // pre-order walk. At 20,000 definitions the walk (reading the trees, then
  // three allocations and a hex id per file, on fresh pages) took 13 ms of
  // the 20 ms before `ws-grep --base` starts searching. Each thread reads
  // trees through a repository handle of its own, as libgit2 asks (its
  // objects are used from one thread at a time), the calling one repo_.
  std::vector<Part> parts(git_tree_entrycount(tree.get()));
  std::vector<Part*> folders;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    Part& p = parts[i];
    const git_tree_entry* entry = git_tree_entry_byindex(tree.get(), i);
    if (git_tree_entry_type(entry) == GIT_OBJECT_TREE) {
      git_oid_cpy(&p.id, git_tree_entry_id(entry));
      p.name = git_tree_entry_name(entry);
      folders.push_back(&p);
    } else {
      WalkState st{&p.out, under};
      collect_entry("", entry, &st);
    }
  }
  std::atomic<std::size_t> next{0};
  auto walk_folders = [&](git_repository* repo) {
    for (std::size_t k; (k = next.fetch_add(1, std::memory_order_relaxed)) < folders.size();) {
      Part& p = *folders[k];
      git_tree* sub = nullptr;
      bool walked = git_tree_lookup(&sub, repo, &p.id) == 0;
      git::Tree subtree(sub);
      if (walked) {
        std::string prefix = std::string(under) + p.name + "/";
        p.out.reserve(git_tree_entrycount(subtree.get()));  // exact for a folder of files
        WalkState st{&p.out, prefix};
        walked = git_tree_walk(subtree.get(), GIT_TREEWALK_PRE, collect_entry, &st) == 0;
        if (!st.too_deep.empty()) {
          p.error = too_deep_error(repo, st);
          continue;
        }
      }
      if (!walked)
        p.error = make_error(Errc::environment, "cannot walk the tree of " + commit_hex + ": " + git::last_error());
    }
  };
  std::vector<std::thread> helpers;
  const std::size_t more = std::min<std::size_t>(worker_count(), folders.size());
  const std::string objects = more > 1 ? detail::objects_dir_of(repo_) : std::string();
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
      walk_folders(own.get());
    });
  walk_folders(repo_);
  for (auto& t : helpers) t.join();
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

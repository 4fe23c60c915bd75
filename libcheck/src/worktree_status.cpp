#include "worktree_status.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>

#include "git_util.h"
#include "index_file.h"
#include "view_internal.h"
#include "parallel.h"
#include "worktree_walk.h"

namespace ws::detail {

namespace {

bool file_exists(const std::string& path) {
  struct stat st;
  return !path.empty() && ::stat(path.c_str(), &st) == 0;
}

// Why libgit2 would answer differently from a plain comparison of bytes:
// content filters, or settings that change what a stat or a mode means.
std::string filters_or_settings(git_repository* repo, const std::string& common_dir) {
  git_config* raw = nullptr;
  if (git_repository_config_snapshot(&raw, repo) < 0) return "no configuration";
  git::Config config(raw);
  struct Want {
    const char* name;
    bool value;  // the default, the only value this path handles
  };
  for (Want w : {Want{"core.autocrlf", false}, Want{"core.filemode", true}, Want{"core.symlinks", true},
                 Want{"core.ignorecase", false}}) {
    int v = 0;
    int rc = git_config_get_bool(&v, config.get(), w.name);
    if (rc == GIT_ENOTFOUND) continue;
    if (rc < 0 || (v != 0) != w.value) return w.name;
  }
  git_config_entry* entry = nullptr;
  if (git_config_get_entry(&entry, config.get(), "core.attributesfile") == 0) {
    git_config_entry_free(entry);
    return "core.attributesFile";
  }
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::string user = xdg && *xdg ? std::string(xdg) + "/git/attributes"
                     : home && *home ? std::string(home) + "/.config/git/attributes"
                                     : std::string();
  for (const std::string& f : {common_dir + "info/attributes", std::string("/etc/gitattributes"), user})
    if (file_exists(f)) return "attributes file '" + f + "'";
  return {};
}

bool stat_matches(const IndexEntry& e, const struct stat& st) {
  return e.mtime_s == static_cast<std::uint32_t>(st.st_mtim.tv_sec) &&
         e.mtime_ns == static_cast<std::uint32_t>(st.st_mtim.tv_nsec) &&
         e.ctime_s == static_cast<std::uint32_t>(st.st_ctim.tv_sec) &&
         e.ctime_ns == static_cast<std::uint32_t>(st.st_ctim.tv_nsec) &&
         e.ino == static_cast<std::uint32_t>(st.st_ino) && e.uid == static_cast<std::uint32_t>(st.st_uid) &&
         e.gid == static_cast<std::uint32_t>(st.st_gid);
}

// git's racy-clean rule: an entry written in the same instant as the index
// (or later) may have changed after its stat was taken.
bool is_racy(const IndexEntry& e, const struct timespec& index_mtime) {
  if (index_mtime.tv_sec == 0) return true;
  std::uint64_t entry = (std::uint64_t(e.mtime_s) << 32) | e.mtime_ns;
  std::uint64_t index = (std::uint64_t(static_cast<std::uint32_t>(index_mtime.tv_sec)) << 32) |
                        static_cast<std::uint32_t>(index_mtime.tv_nsec);
  return entry >= index;
}

std::uint32_t mode_of(const struct stat& st) {
  if (S_ISLNK(st.st_mode)) return kModeLink;
  return (st.st_mode & S_IXUSR) ? 0100755 : kModeFile;
}

// What the working tree holds at a path the walk found.
struct Work {
  std::string path;
  std::uint32_t mode = kModeFile;
  std::string id;  // empty when not hashed (a secret, a link, a refused read)
  std::uint64_t size = 0;
};

}  // namespace

Result<WorktreeStatus> worktree_status(const Repository& repository, const std::string& root_path,
                                       const std::string& base_commit, const ContentSource& content,
                                       bool changes_only, std::size_t prestat_min) {
  WorktreeStatus out;
  git_repository* repo = repository.raw();
  auto not_applicable = [&out](std::string why) {
    out.applicable = false;
    out.why_not = std::move(why);
    out.entries.clear();
    return std::move(out);
  };
  if (base_commit.empty()) return not_applicable("no base commit");
  std::string common = repository.common_dir();
  if (!common.empty() && common.back() != '/') common += '/';
  if (auto why = filters_or_settings(repo, common); !why.empty()) return not_applicable(why);

  const std::string index_path = repository.index_file();
  struct stat index_st;
  if (::stat(index_path.c_str(), &index_st) != 0) return not_applicable("no index file");
  IndexFile index = IndexFile::read(index_path);
  if (index.state() != IndexFile::State::ok) return not_applicable("index: " + index.reason());
  for (const auto& e : index.entries()) {
    if (e.stage != 0) return not_applicable("conflicts");
    if (e.skip_worktree || e.assume_valid || e.intent_to_add) return not_applicable("index entry flags");
    if (e.mode == GIT_FILEMODE_COMMIT) return not_applicable("submodules");
    std::string_view p = index.path(e);
    if (p == ".gitattributes" || (p.size() > 15 && p.substr(p.size() - 15) == "/.gitattributes"))
      return not_applicable("a .gitattributes file");
  }

  // The base: the index itself when its cache tree is the base commit's
  // tree (nothing staged), else a walk of the base tree.
  git_oid commit_oid;
  if (!git::from_hex(base_commit, commit_oid)) return make_error(Errc::not_found, "not a commit id: '" + base_commit + "'");
  git_commit* craw = nullptr;
  if (git_commit_lookup(&craw, repo, &commit_oid) < 0) return git::error(Errc::not_found, "cannot read commit " + base_commit);
  git::Commit commit(craw);
  const git_oid* base_tree = git_commit_tree_id(commit.get());
  std::vector<ViewEntry> base;
  const bool base_is_index = index.root_tree() && std::memcmp(index.root_tree(), base_tree->id, 20) == 0;
  if (base_is_index) {
    base.reserve(index.entries().size());
    for (const auto& e : index.entries()) {
      ViewEntry b;
      b.path = index.path(e);
      b.mode = e.mode;
      b.blob_id = b.base_blob_id = git::to_hex(e.id);
      base.push_back(std::move(b));
    }
  }
  // Else the base tree is walked beside the working tree, on a repository
  // handle of its own (libgit2 objects are not shared between threads); the
  // two meet in the merge below. Joined on every way out of this function.
  std::optional<Error> base_error;
  struct Joiner {
    std::thread thread;
    ~Joiner() {
      if (thread.joinable()) thread.join();
    }
  } base_walker;
  if (!base_is_index) {
    base_walker.thread = std::thread([&base, &base_error, &repository, &base_commit] {
      try {
        auto own = Repository::open(repository.git_dir());
        if (!own) {
          base_error = own.error();
          return;
        }
        auto walked = own->commit_entries(base_commit);
        if (!walked) base_error = walked.error();
        else base = std::move(walked).value();
      } catch (const std::exception& e) {
        base_error = make_error(Errc::environment, std::string("cannot walk the base tree: ") + e.what());
      }
    });
  }

  // git's preloaded index: the stat of every tracked path, taken on all
  // cores, since the walk below runs on one (at 100,000 definitions this
  // takes a sixth off a warm ws-build). Used only for the paths the walk
  // then reaches through real directories (a path under a symlinked folder
  // is never reached); a folder swapped for a link in between can at worst
  // make a file look unchanged, and its bytes are then read through the
  // confined reader, which refuses the link.
  std::vector<struct stat> prestat;
  std::vector<char> prestat_ok;
  if (index.entries().size() >= prestat_min && worker_count() > 1) {
    int root_fd = ::open(root_path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (root_fd >= 0) {
      const std::size_t n = index.entries().size();
      prestat.resize(n);
      prestat_ok.assign(n, 0);
      constexpr std::size_t kChunk = 256;
      parallel_for((n + kChunk - 1) / kChunk, [&](std::size_t c) {
        std::string p;
        for (std::size_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
          p.assign(index.path(index.entries()[i]));
          prestat_ok[i] = fstatat(root_fd, p.c_str(), &prestat[i], AT_SYMLINK_NOFOLLOW) == 0;
        }
      });
      ::close(root_fd);
    }
  }

  // An untracked or changed file's id as the libgit2 path gives it: its
  // bytes read through the confined reader (size cap, link and hard-link
  // rules), except links and secrets, which are never read.
  auto hash_through_reader = [&content](Work& w, ChangeStatus status) {
    if (w.mode == kModeLink || is_secret_path(w.path)) return;
    ViewEntry probe;
    probe.path = w.path;
    probe.status = status;
    probe.mode = w.mode;
    probe.from_worktree = true;
    if (auto bytes = content.read(probe)) {
      w.id = Repository::hash_blob(*bytes);
      w.size = bytes->size();
    }
  };

  // The working tree, in path order.
  std::vector<Work> work;
  std::string stop;  // why the walk found this path not applicable after all
  // The walk visits paths in increasing bytewise order ("a.json" < "a/" <
  // "a/x" < "a0"), the index's order: one cursor finds every lookup.
  const auto& ientries = index.entries();
  std::size_t cursor = 0;
  auto seek = [&](std::string_view p) {
    while (cursor < ientries.size() && index.path(ientries[cursor]) < p) ++cursor;
    return cursor < ientries.size() ? index.path(ientries[cursor]) : std::string_view();
  };
  Status walked = walk_worktree(root_path, [&](const WalkItem& item) -> bool {
    if (!stop.empty()) return false;
    const std::string rel(item.rel);
    if (item.type == WalkItem::Type::dir) {
      if (seek(rel).substr(0, rel.size()) == rel) return true;  // something tracked below
      int ignored = 0;
      if (git_ignore_path_is_ignored(&ignored, repo, rel.c_str()) == 0 && ignored) return false;
      struct stat gst;
      if (fstatat(item.dir_fd, (std::string(item.name) + "/.git").c_str(), &gst, AT_SYMLINK_NOFOLLOW) == 0) {
        // An untracked nested repository: listed as libgit2 lists it.
        Work w;
        w.path = rel.substr(0, rel.size() - 1);
        w.mode = kModeGitlink;
        if (fstatat(item.dir_fd, item.name, &gst, AT_SYMLINK_NOFOLLOW) == 0) w.size = static_cast<std::uint64_t>(gst.st_size);
        work.push_back(std::move(w));
        return false;
      }
      return true;
    }
    if (std::strcmp(item.name, ".gitattributes") == 0) {
      stop = "a .gitattributes file";
      return false;
    }
    const IndexEntry* ie = seek(rel) == rel ? &ientries[cursor] : nullptr;  // stage 0: no conflicts here
    struct stat st;
    if (ie && !prestat_ok.empty() && prestat_ok[cursor]) st = prestat[cursor];
    else if (fstatat(item.dir_fd, item.name, &st, AT_SYMLINK_NOFOLLOW) != 0) return false;  // gone meanwhile
    Work w;
    w.path = rel;
    w.mode = mode_of(st);
    w.size = static_cast<std::uint64_t>(st.st_size);
    if (!ie) {
      int ignored = 0;
      if (git_ignore_path_is_ignored(&ignored, repo, rel.c_str()) == 0 && ignored) return false;
      hash_through_reader(w, ChangeStatus::added);
      work.push_back(std::move(w));
      return false;
    }
    // libgit2's rule: a different mode or size is a change without a look
    // at the bytes; other stat differences (or a racily clean entry) are
    // settled by hashing the file.
    const bool same_shape = ie->mode == w.mode && ie->size == static_cast<std::uint32_t>(st.st_size);
    if (same_shape && stat_matches(*ie, st) && !is_racy(*ie, index_st.st_mtim)) {
      w.id = git::to_hex(ie->id);
      work.push_back(std::move(w));
      return false;
    }
    if (same_shape || (ie->size == 0 && st.st_size > 0)) {
      std::string id;
      if (w.mode == kModeLink) {
        std::string target(static_cast<std::size_t>(st.st_size) + 1, '\0');
        ssize_t n = readlinkat(item.dir_fd, item.name, target.data(), target.size());
        if (n >= 0 && static_cast<std::size_t>(n) < target.size()) {
          target.resize(static_cast<std::size_t>(n));
          id = Repository::hash_blob(target);
        }
      } else {
        // Only to tell whether the bytes changed; never shown. Streamed by
        // libgit2, so a file of any size costs no memory.
        git_oid oid;
        std::string abs = root_path + "/" + rel;
        if (git_odb_hashfile(&oid, abs.c_str(), GIT_OBJECT_BLOB) == 0) id = git::to_hex(oid);
      }
      if (ie->mode == w.mode && !id.empty() && id == git::to_hex(ie->id)) {
        w.id = std::move(id);
        work.push_back(std::move(w));
        return false;
      }
    }
    // Changed: its id as the libgit2 path gives it.
    hash_through_reader(w, ChangeStatus::modified);
    work.push_back(std::move(w));
    return false;
  });
  if (base_walker.thread.joinable()) base_walker.thread.join();
  if (!walked) return walked.error();
  if (!stop.empty()) return not_applicable(stop);
  if (base_error) return *base_error;
  for (const auto& b : base)
    if (b.mode == GIT_FILEMODE_COMMIT) return not_applicable("submodules");

  // Base against working tree, both in path order.
  std::vector<ViewEntry>& entries = out.entries;
  auto keep_unchanged = [changes_only](const std::string& path) {
    return !changes_only || path.compare(0, 4, ".ws/") == 0;
  };
  std::size_t b = 0, w = 0;
  while (b < base.size() || w < work.size()) {
    int order = b == base.size() ? 1 : w == work.size() ? -1 : base[b].path.compare(work[w].path);
    if (order < 0) {  // gone from the working tree
      ViewEntry e = std::move(base[b++]);
      e.status = ChangeStatus::deleted;
      entries.push_back(std::move(e));
      continue;
    }
    Work& wk = work[w++];
    ViewEntry e;
    e.path = std::move(wk.path);
    e.mode = wk.mode;
    e.blob_id = std::move(wk.id);
    e.size = wk.size;
    e.from_worktree = true;
    if (order > 0) {
      e.status = ChangeStatus::added;
      entries.push_back(std::move(e));
      continue;
    }
    ViewEntry& old = base[b++];
    if (old.blob_id == e.blob_id && old.mode == e.mode) {
      if (keep_unchanged(old.path)) entries.push_back(std::move(old));
      continue;
    }
    e.status = ChangeStatus::modified;
    e.base_blob_id = std::move(old.base_blob_id);
    entries.push_back(std::move(e));
  }
  out.applicable = true;
  return out;
}

}  // namespace ws::detail

#include "worktree_status.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <memory>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>

#include "git_attributes.h"
#include "git_util.h"
#include "index_file.h"
#include "index_tree.h"
#include "view_internal.h"
#include "libcheck/path_policy.h"
#include "parallel.h"
#include "secret_content.h"
#include "worktree_walk.h"

namespace ws::detail {

namespace {

// Why libgit2 would answer differently from a plain comparison of bytes:
// content filters, or settings that change what a stat or a mode means.
std::string filters_or_settings(git_repository* repo) {
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
  return git::attributes_file_outside_tree(repo);
}

// What the comparison with an index entry needs of a stat, as the index
// keeps it (32-bit fields): a third of a struct stat, so the stats of
// 100,000 tracked files taken before the walk fit in 4 MB, not 14.
struct FileStat {
  std::uint32_t mtime_s, mtime_ns, ctime_s, ctime_ns, ino, uid, gid;
  std::uint32_t st_mode;
  std::uint64_t size;
};

FileStat file_stat(const struct stat& st) {
  return FileStat{static_cast<std::uint32_t>(st.st_mtim.tv_sec), static_cast<std::uint32_t>(st.st_mtim.tv_nsec),
                  static_cast<std::uint32_t>(st.st_ctim.tv_sec), static_cast<std::uint32_t>(st.st_ctim.tv_nsec),
                  static_cast<std::uint32_t>(st.st_ino),         static_cast<std::uint32_t>(st.st_uid),
                  static_cast<std::uint32_t>(st.st_gid),         static_cast<std::uint32_t>(st.st_mode),
                  static_cast<std::uint64_t>(st.st_size)};
}

bool stat_matches(const IndexEntry& e, const FileStat& st) {
  return e.mtime_s == st.mtime_s && e.mtime_ns == st.mtime_ns && e.ctime_s == st.ctime_s &&
         e.ctime_ns == st.ctime_ns && e.ino == st.ino && e.uid == st.uid && e.gid == st.gid;
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

std::uint32_t mode_of(const FileStat& st) {
  if (S_ISLNK(st.st_mode)) return kModeLink;
  return (st.st_mode & S_IXUSR) ? 0100755 : kModeFile;
}

// What the working tree holds at a path the walk found. Most files are
// clean against the index: they keep a pointer to its entry, and their id
// is written out in hex only if the view needs it (a staged change).
struct Work {
  std::string_view path;  // into the index's paths, or the walk's own store
  std::uint32_t mode = kModeFile;
  const IndexEntry* clean = nullptr;  // the index entry whose bytes it holds
  std::string id;  // otherwise; empty when not hashed (a secret, a link, a refused read)
  std::uint64_t size = 0;
};

// git's preloaded index (core.preloadIndex), overlapped with the walk:
// helper threads stat the tracked paths from the end of the index
// backwards while the walk, which meets the paths in index order, stats
// its own from the start, until the two meet. Taken before the walk, as
// git takes them, the stats kept every core busy only while they lasted,
// and one core idle for the whole walk after them.
class StatAhead {
 public:
  StatAhead(const IndexFile& index, const std::string& root_path, unsigned helpers)
      : index_(index),
        n_(index.entries().size()),
        chunks_((n_ + kChunk - 1) / kChunk),
        stats_(new FileStat[n_]),  // not zeroed: a slot is read only once its chunk says it was written
        ok_(new char[n_]),
        done_(new std::atomic<unsigned char>[chunks_]),
        next_(static_cast<std::ptrdiff_t>(chunks_) - 1) {
    for (std::size_t c = 0; c < chunks_; ++c) done_[c].store(0, std::memory_order_relaxed);
    root_fd_ = ::open(root_path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (root_fd_ < 0) return;
    for (unsigned t = 0; t < helpers; ++t) threads_.emplace_back([this] { run(); });
  }
  StatAhead(const StatAhead&) = delete;
  StatAhead& operator=(const StatAhead&) = delete;
  ~StatAhead() { stop(); }

  // The stat of index entry `i` if a helper took it; null: the caller
  // stats the path itself. Tells the helpers how far the walk has got.
  const FileStat* get(std::size_t i) {
    std::size_t c = i / kChunk;
    if (c != walk_at_.load(std::memory_order_relaxed)) walk_at_.store(c, std::memory_order_relaxed);
    if (!done_[c].load(std::memory_order_acquire) || !ok_[i]) return nullptr;
    return &stats_[i];
  }

  void stop() {
    walk_at_.store(chunks_, std::memory_order_relaxed);
    for (auto& t : threads_)
      if (t.joinable()) t.join();
    threads_.clear();
    if (root_fd_ >= 0) ::close(root_fd_);
    root_fd_ = -1;
  }

 private:
  static constexpr std::size_t kChunk = 256;

  void run() {
    std::string p;
    struct stat st;
    for (;;) {
      std::ptrdiff_t c = next_.fetch_sub(1, std::memory_order_relaxed);
      // Past the walk (which stats these itself), or all taken.
      if (c < 0 || static_cast<std::size_t>(c) <= walk_at_.load(std::memory_order_relaxed)) return;
      std::size_t end = std::min(n_, (static_cast<std::size_t>(c) + 1) * kChunk);
      for (std::size_t i = static_cast<std::size_t>(c) * kChunk; i < end; ++i) {
        p.assign(index_.path(index_.entries()[i]));
        ok_[i] = fstatat(root_fd_, p.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
        if (ok_[i]) stats_[i] = file_stat(st);
      }
      done_[c].store(1, std::memory_order_release);
    }
  }

  const IndexFile& index_;
  const std::size_t n_;
  const std::size_t chunks_;
  std::unique_ptr<FileStat[]> stats_;
  std::unique_ptr<char[]> ok_;
  std::unique_ptr<std::atomic<unsigned char>[]> done_;  // per chunk: its stats are written
  std::atomic<std::ptrdiff_t> next_;                    // the next chunk a helper takes, counting down
  std::atomic<std::size_t> walk_at_{0};                 // the chunk the walk has reached
  int root_fd_ = -1;
  std::vector<std::thread> threads_;
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
    out.kept.clear();
    return std::move(out);
  };
  if (base_commit.empty()) return not_applicable("no base commit");
  if (auto why = filters_or_settings(repo); !why.empty()) return not_applicable(why);

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
    if (git::is_gitattributes_path(p)) return not_applicable("a .gitattributes file");
  }
  add_index_secrets(index, out.index_secrets);

  // The base: the index itself when its cache tree is the base commit's
  // tree (nothing staged), else a walk of the base tree.
  git_oid commit_oid;
  if (!git::from_hex(base_commit, commit_oid)) return make_error(Errc::not_found, "not a commit id: '" + base_commit + "'");
  git_commit* craw = nullptr;
  if (git_commit_lookup(&craw, repo, &commit_oid) < 0) return git::error(Errc::not_found, "cannot read commit " + base_commit);
  git::Commit commit(craw);
  const git_oid* base_tree = git_commit_tree_id(commit.get());
  // With `base_is_index`, `base` stays empty and the merge below reads the
  // index entries themselves: no second list of every path.
  std::vector<ViewEntry> base;
  // The index's own tree id: from its cache tree, or computed from its
  // entries when that was invalidated (git reset, git add). Hashing the
  // entries costs a few instructions each, walking the base tree instead
  // two allocations and a share of an inflated tree.
  std::optional<std::array<unsigned char, 20>> computed;
  const unsigned char* index_tree = index.root_tree();
  if (!index_tree && (computed = index_tree_id(index))) index_tree = computed->data();
  const bool base_is_index = index_tree && std::memcmp(index_tree, base_tree->id, 20) == 0;
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

  // git's preloaded index, overlapped with the walk (StatAhead). Used only
  // for the paths the walk then reaches through real directories (a path
  // under a symlinked folder is never reached); a folder swapped for a link
  // in between can at worst make a file look unchanged, and its bytes are
  // then read through the confined reader, which refuses the link.
  std::optional<StatAhead> ahead;
  if (index.entries().size() >= prestat_min && worker_count() > 1) ahead.emplace(index, root_path, worker_count() - 1);

  // An untracked or changed file's id as the libgit2 path gives it: its
  // bytes read through the confined reader (size cap, link and hard-link
  // rules), except links and secrets, which are never read.
  std::size_t kept_bytes = 0;
  auto hash_through_reader = [&content, &out, &kept_bytes](Work& w, ChangeStatus status) {
    if (w.mode == kModeLink || is_secret_path(w.path)) return;
    ViewEntry probe;
    probe.path = std::string(w.path);
    probe.status = status;
    probe.mode = w.mode;
    probe.from_worktree = true;
    if (auto bytes = content.read(probe)) {
      w.id = Repository::hash_blob(*bytes);
      w.size = bytes->size();
      if (kept_bytes + bytes->size() <= kKeepBudget) {
        kept_bytes += bytes->size();
        out.kept.push_back(KeptBytes{std::move(probe.path), w.id, std::move(bytes).value()});
      }
    }
  };

  // The working tree, in path order.
  std::vector<Work> work;
  work.reserve(index.entries().size() + 16);
  std::deque<std::string> untracked_paths;  // what Work::path of an untracked file points into
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
    const std::string_view rel = item.rel;
    // A path of its own for a file the index does not list.
    auto untracked = [&](std::string_view p) { return std::string_view(untracked_paths.emplace_back(p)); };
    if (item.type == WalkItem::Type::dir) {
      if (seek(rel).substr(0, rel.size()) == rel) return true;  // something tracked below
      int ignored = 0;
      if (git_ignore_path_is_ignored(&ignored, repo, std::string(rel).c_str()) == 0 && ignored) return false;
      struct stat gst;
      if (fstatat(item.dir_fd, (std::string(item.name) + "/.git").c_str(), &gst, AT_SYMLINK_NOFOLLOW) == 0) {
        // An untracked nested repository: listed as libgit2 lists it.
        Work w;
        w.path = untracked(rel.substr(0, rel.size() - 1));
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
    FileStat st;
    if (const FileStat* taken = ie && ahead ? ahead->get(cursor) : nullptr) {
      st = *taken;
      ++out.stated_ahead;
    } else {
      struct stat full;
      if (fstatat(item.dir_fd, item.name, &full, AT_SYMLINK_NOFOLLOW) != 0) return false;  // gone meanwhile
      st = file_stat(full);
    }
    Work w;
    w.mode = mode_of(st);
    w.size = st.size;
    if (!ie) {
      int ignored = 0;
      if (git_ignore_path_is_ignored(&ignored, repo, std::string(rel).c_str()) == 0 && ignored) return false;
      w.path = untracked(rel);
      hash_through_reader(w, ChangeStatus::added);
      work.push_back(std::move(w));
      return false;
    }
    w.path = index.path(*ie);
    // libgit2's rule: a different mode or size is a change without a look
    // at the bytes; other stat differences (or a racily clean entry) are
    // settled by hashing the file.
    const bool same_shape = ie->mode == w.mode && ie->size == static_cast<std::uint32_t>(st.size);
    if (same_shape && stat_matches(*ie, st) && !is_racy(*ie, index_st.st_mtim)) {
      w.clean = ie;
      work.push_back(std::move(w));
      return false;
    }
    if (same_shape || (ie->size == 0 && st.size > 0)) {
      std::string id;
      if (w.mode == kModeLink) {
        std::string target(static_cast<std::size_t>(st.size) + 1, '\0');
        ssize_t n = readlinkat(item.dir_fd, item.name, target.data(), target.size());
        if (n >= 0 && static_cast<std::size_t>(n) < target.size()) {
          target.resize(static_cast<std::size_t>(n));
          id = Repository::hash_blob(target);
        }
      } else {
        // Only to tell whether the bytes changed; never shown. Streamed by
        // libgit2, so a file of any size costs no memory.
        git_oid oid;
        std::string abs = root_path + "/" + std::string(rel);
        if (git_odb_hashfile(&oid, abs.c_str(), GIT_OBJECT_BLOB) == 0) id = git::to_hex(oid);
      }
      if (ie->mode == w.mode && !id.empty() && git::hex_equals(id, ie->id)) {
        w.clean = ie;
        work.push_back(std::move(w));
        return false;
      }
    }
    // Changed: its id as the libgit2 path gives it.
    hash_through_reader(w, ChangeStatus::modified);
    work.push_back(std::move(w));
    return false;
  });
  if (ahead) ahead->stop();
  if (base_walker.thread.joinable()) base_walker.thread.join();
  if (!walked) return walked.error();
  if (!stop.empty()) return not_applicable(stop);
  if (base_error) return *base_error;
  for (const auto& b : base)
    if (b.mode == GIT_FILEMODE_COMMIT) return not_applicable("submodules");

  // Base against working tree, both in path order. The base is `base`, or
  // the index entries themselves.
  const std::size_t base_size = base_is_index ? ientries.size() : base.size();
  auto base_path = [&](std::size_t b) {
    return base_is_index ? index.path(ientries[b]) : std::string_view(base[b].path);
  };
  auto take_base = [&](std::size_t b) {
    if (!base_is_index) return std::move(base[b]);
    ViewEntry e;
    e.path = index.path(ientries[b]);
    e.mode = ientries[b].mode;
    e.blob_id = e.base_blob_id = git::to_hex(ientries[b].id);
    return e;
  };
  // The base's bytes at `b` are those of `wk`.
  auto same_bytes = [&](std::size_t b, const Work& wk) {
    if (base_is_index) {
      const IndexEntry& ie = ientries[b];
      if (ie.mode != wk.mode) return false;
      return wk.clean ? std::memcmp(wk.clean->id, ie.id, 20) == 0 : git::hex_equals(wk.id, ie.id);
    }
    const ViewEntry& old = base[b];
    if (old.mode != wk.mode) return false;
    return wk.clean ? git::hex_equals(old.blob_id, wk.clean->id) : old.blob_id == wk.id;
  };
  std::vector<ViewEntry>& entries = out.entries;
  entries.reserve(changes_only ? 64 : std::max(base_size, work.size()) + 16);
  auto keep_unchanged = [changes_only](std::string_view path) {
    return !changes_only || path.substr(0, 4) == ".ws/";
  };
  std::size_t b = 0, w = 0;
  while (b < base_size || w < work.size()) {
    int order = b == base_size ? 1 : w == work.size() ? -1 : base_path(b).compare(work[w].path);
    if (order < 0) {  // gone from the working tree
      ViewEntry e = take_base(b++);
      e.status = ChangeStatus::deleted;
      entries.push_back(std::move(e));
      continue;
    }
    Work& wk = work[w++];
    if (order == 0 && same_bytes(b, wk)) {
      if (keep_unchanged(base_path(b))) entries.push_back(take_base(b));
      ++b;
      continue;
    }
    ViewEntry e;
    e.path = wk.path;
    e.mode = wk.mode;
    e.blob_id = wk.clean ? git::to_hex(wk.clean->id) : std::move(wk.id);
    e.size = wk.size;
    e.from_worktree = true;
    if (order > 0) {
      e.status = ChangeStatus::added;
      entries.push_back(std::move(e));
      continue;
    }
    e.status = ChangeStatus::modified;
    e.base_blob_id = take_base(b++).base_blob_id;
    entries.push_back(std::move(e));
  }
  out.applicable = true;
  return out;
}

}  // namespace ws::detail

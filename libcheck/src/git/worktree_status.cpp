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
#include "tree_watch.h"
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

bool stat_matches(const IndexEntry& e, const StatRecord& st) {
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

std::uint32_t mode_of(const StatRecord& st) {
  if (S_ISLNK(st.st_mode)) return kModeLink;
  return (st.st_mode & S_IXUSR) ? 0100755 : kModeFile;
}

// What the working tree holds at a path the walk found. Most files are
// clean against the index: they keep a pointer to its entry.
struct Work {
  std::string_view path;  // into the index's paths, or the walk's own store
  std::uint32_t mode = kModeFile;
  const IndexEntry* clean = nullptr;  // the index entry whose bytes it holds
  ObjectId id;  // otherwise; empty when not hashed (a secret, a link, a refused read)
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
        stats_(new StatRecord[n_]),  // not zeroed: a slot is read only once its chunk says it was written
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
  const StatRecord* get(std::size_t i) {
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
        if (ok_[i]) stats_[i] = stat_record(st);
      }
      done_[c].store(1, std::memory_order_release);
    }
  }

  const IndexFile& index_;
  const std::size_t n_;
  const std::size_t chunks_;
  std::unique_ptr<StatRecord[]> stats_;
  std::unique_ptr<char[]> ok_;
  std::unique_ptr<std::atomic<unsigned char>[]> done_;  // per chunk: its stats are written
  std::atomic<std::ptrdiff_t> next_;                    // the next chunk a helper takes, counting down
  std::atomic<std::size_t> walk_at_{0};                 // the chunk the walk has reached
  int root_fd_ = -1;
  std::vector<std::thread> threads_;
};

// One computation of the status, its steps in the order they run:
// settings() and read_index() decide whether this path applies at all;
// start_base() finds the base (the index itself, or the base tree walked on
// a second thread); walk() lists the working tree against the index; merge()
// lays the working tree over the base.
class StatusBuilder {
 public:
  StatusBuilder(const Repository& repository, const std::string& root_path, const ContentSource& content,
                bool changes_only, TreeWatch* watch)
      : repository_(repository), repo_(repository.raw()), root_path_(root_path), content_(content),
        changes_only_(changes_only), watch_(watch) {}

  // Why libgit2 must answer instead (empty: this path applies so far).
  std::string settings() { return filters_or_settings(repo_); }

  std::string read_index() {
    const std::string index_path = repository_.index_file();
    if (::stat(index_path.c_str(), &index_st_) != 0) return "no index file";
    index_ = IndexFile::read(index_path);
    if (index_.state() != IndexFile::State::ok) return "index: " + index_.reason();
    for (const auto& e : index_.entries()) {
      if (e.stage != 0) return "conflicts";
      if (e.skip_worktree || e.assume_valid || e.intent_to_add) return "index entry flags";
      if (e.mode == GIT_FILEMODE_COMMIT) return "submodules";
      std::string_view p = index_.path(e);
      if (git::is_gitattributes_path(p)) return "a .gitattributes file";
    }
    add_index_secrets(index_, out_.index_secrets);
    return {};
  }

  // The base: the index itself when its tree is the base commit's (nothing
  // staged), else the base tree, walked beside the working tree on a
  // repository handle of its own (libgit2 objects are not shared between
  // threads); finish_base() joins it.
  Status start_base(const std::string& base_commit) {
    auto base_tree = base_tree_of(base_commit);
    if (!base_tree) return base_tree.error();
    base_is_index_ = index_is_tree(*base_tree);
    if (!base_is_index_) base_walker_.thread = std::thread([this, base_commit] { walk_base(base_commit); });
    return Ok{};
  }

  // The working tree, in path order (git's preloaded index overlapped with
  // the walk: StatAhead).
  Status walk(std::size_t prestat_min) {
    work_.reserve(index_.entries().size() + 16);
    watching_ = watch_ && begin_watch();
    // Used only for the paths the walk then reaches through real
    // directories (a path under a symlinked folder is never reached); a
    // folder swapped for a link in between can at worst make a file look
    // unchanged, and its bytes are then read through the confined reader,
    // which refuses the link.
    if (!watching_ && index_.entries().size() >= prestat_min && worker_count() > 1)
      ahead_.emplace(index_, root_path_, worker_count() - 1);
    Status walked = walk_worktree(
        root_path_,
        [this](const WalkItem& item) -> bool {
          if (!stop_.empty()) return false;
          return item.type == WalkItem::Type::dir ? visit_dir(item) : (visit_file(item), false);
        },
        watching_ ? watch_ : nullptr);
    if (ahead_) ahead_->stop();
    return walked;
  }

  // Why the walk found the tree not applicable after all (empty: it is).
  const std::string& stopped() const { return stop_; }

  // Joins the base walk; its error, or "submodules" in `why_not`.
  Status finish_base(std::string& why_not) {
    if (base_walker_.thread.joinable()) base_walker_.thread.join();
    if (base_error_) return *base_error_;
    for (const auto& b : base_)
      if (b.mode == GIT_FILEMODE_COMMIT) why_not = "submodules";
    return Ok{};
  }

  // Base against working tree, both in path order.
  WorktreeStatus merge() {
    const std::size_t base_size = base_is_index_ ? index_.entries().size() : base_.size();
    std::vector<ViewEntry>& entries = out_.entries;
    entries.reserve(changes_only_ ? 64 : std::max(base_size, work_.size()) + 16);
    std::size_t b = 0, w = 0;
    while (b < base_size || w < work_.size()) {
      int order = b == base_size ? 1 : w == work_.size() ? -1 : base_order(b, work_[w].path);
      if (order < 0) {  // gone from the working tree
        ViewEntry e = take_base(b++);
        e.status = ChangeStatus::deleted;
        entries.push_back(std::move(e));
        continue;
      }
      Work& wk = work_[w++];
      if (order == 0 && same_bytes(b, wk)) {
        if (keep_unchanged(base_path(b))) add_base(b, entries);
        ++b;
        continue;
      }
      entries.push_back(changed_entry(wk, order == 0 ? &b : nullptr));
    }
    out_.applicable = true;
    return std::move(out_);
  }

 private:
  Result<const git_oid*> base_tree_of(const std::string& base_commit) {
    git_oid commit_oid;
    if (!git::from_hex(base_commit, commit_oid))
      return make_error(Errc::not_found, "not a commit id: '" + base_commit + "'");
    git_commit* craw = nullptr;
    if (git_commit_lookup(&craw, repo_, &commit_oid) < 0)
      return git::error(Errc::not_found, "cannot read commit " + base_commit);
    commit_.reset(craw);
    return git_commit_tree_id(commit_.get());
  }

  // The index's own tree id: from its cache tree, or computed from its
  // entries when that was invalidated (git reset, git add). Hashing the
  // entries costs a few instructions each, walking the base tree instead
  // two allocations and a share of an inflated tree.
  bool index_is_tree(const git_oid* base_tree) const {
    std::optional<std::array<unsigned char, 20>> computed;
    const unsigned char* index_tree = index_.root_tree();
    if (!index_tree && (computed = index_tree_id(index_))) index_tree = computed->data();
    return index_tree && std::memcmp(index_tree, base_tree->id, 20) == 0;
  }

  void walk_base(const std::string& base_commit) {
    try {
      auto own = Repository::open(repository_.git_dir());
      if (!own) {
        base_error_ = own.error();
        return;
      }
      auto walked = own->commit_entries(base_commit);
      if (!walked) base_error_ = walked.error();
      else base_ = std::move(walked).value();
    } catch (const std::exception& e) {
      base_error_ = make_error(Errc::environment, std::string("cannot walk the base tree: ") + e.what());
    }
  }

  // A path of its own for a file the index does not list.
  std::string_view untracked(std::string_view p) { return untracked_paths_.emplace_back(p); }

  // The walk visits paths in increasing bytewise order ("a.json" < "a/" <
  // "a/x" < "a0"), the index's order: one cursor finds every lookup.
  std::string_view seek(std::string_view p) {
    const auto& ientries = index_.entries();
    while (cursor_ < ientries.size() && index_.path(ientries[cursor_]) < p) ++cursor_;
    return cursor_ < ientries.size() ? index_.path(ientries[cursor_]) : std::string_view();
  }

  // The index entry of the file the walk is at, or null when the index
  // does not list it. A found entry is passed: every later path of the
  // walk comes after it, so a tracked file costs one comparison.
  const IndexEntry* seek_file(std::string_view p) {
    const auto& ientries = index_.entries();
    for (; cursor_ < ientries.size(); ++cursor_) {
      int order = index_.path(ientries[cursor_]).compare(p);
      if (order > 0) return nullptr;
      if (order == 0) return &ientries[cursor_++];
    }
    return nullptr;
  }

  bool ignored(std::string_view rel) const {
    int ignored = 0;
    return git_ignore_path_is_ignored(&ignored, repo_, std::string(rel).c_str()) == 0 && ignored;
  }

  // The watch's walk begins (tree_watch.h); false: it keeps nothing now.
  bool begin_watch() {
    int root_fd = ::open(root_path_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (root_fd < 0) return false;
    const bool on = watch_->begin_walk(root_fd);
    ::close(root_fd);
    return on;
  }

  // Whether the walk enters a folder: one with something tracked below,
  // else one neither ignored nor a nested repository (listed as libgit2
  // lists it).
  bool visit_dir(const WalkItem& item) {
    const std::string_view rel = item.rel;
    if (seek(rel).substr(0, rel.size()) == rel) return true;  // something tracked below
    if (ignored(rel)) return false;
    struct stat gst;
    if (fstatat(item.dir_fd, (std::string(item.name) + "/.git").c_str(), &gst, AT_SYMLINK_NOFOLLOW) != 0) return true;
    Work w;
    w.path = untracked(rel.substr(0, rel.size() - 1));
    w.mode = kModeGitlink;
    if (fstatat(item.dir_fd, item.name, &gst, AT_SYMLINK_NOFOLLOW) == 0) w.size = static_cast<std::uint64_t>(gst.st_size);
    work_.push_back(std::move(w));
    return false;
  }

  // The stat of the file the walk is at: the watch's, a helper's, or its own.
  std::optional<StatRecord> stat_of(const WalkItem& item, const IndexEntry* ie) {
    if (watching_) return watch_->stat(item.rel, item.dir_fd, item.name);
    const auto at = static_cast<std::size_t>(ie - index_.entries().data());
    if (const StatRecord* taken = ie && ahead_ ? ahead_->get(at) : nullptr) {
      ++out_.stated_ahead;
      return *taken;
    }
    struct stat full;
    if (fstatat(item.dir_fd, item.name, &full, AT_SYMLINK_NOFOLLOW) != 0) return std::nullopt;  // gone meanwhile
    return stat_record(full);
  }

  void visit_file(const WalkItem& item) {
    const std::string_view rel = item.rel;
    if (std::strcmp(item.name, ".gitattributes") == 0) {
      stop_ = "a .gitattributes file";
      return;
    }
    const IndexEntry* ie = seek_file(rel);  // stage 0: no conflicts here
    std::optional<StatRecord> st = stat_of(item, ie);
    if (!st) return;
    Work w;
    w.mode = mode_of(*st);
    w.size = st->size;
    if (!ie) {
      if (ignored(rel)) return;
      w.path = untracked(rel);
      note_links(w.path, *st);
      hash_through_reader(w, ChangeStatus::added);
      work_.push_back(std::move(w));
      return;
    }
    w.path = index_.path(*ie);
    note_links(w.path, *st);
    if (unchanged(item, *ie, *st, w)) w.clean = ie;
    else hash_through_reader(w, ChangeStatus::modified);  // changed: its id as the libgit2 path gives it
    work_.push_back(std::move(w));
  }

  // A regular file with several names: the refusal the listing shows
  // comes from this stat, not a second one (GitContentSource::refusal).
  void note_links(std::string_view path, const StatRecord& st) {
    if (S_ISREG(st.st_mode) && st.nlink > 1) out_.hard_links.emplace_back(std::string(path), st.nlink);
  }

  // libgit2's rule: a different mode or size is a change without a look at
  // the bytes; other stat differences (or a racily clean entry) are settled
  // by hashing the file.
  bool unchanged(const WalkItem& item, const IndexEntry& ie, const StatRecord& st, const Work& w) const {
    const bool same_shape = ie.mode == w.mode && ie.size == static_cast<std::uint32_t>(st.size);
    if (same_shape && stat_matches(ie, st) && !is_racy(ie, index_st_.st_mtim)) return true;
    if (!same_shape && !(ie.size == 0 && st.size > 0)) return false;
    std::string id = w.mode == kModeLink ? link_id(item, st) : file_id(item.rel);
    return ie.mode == w.mode && !id.empty() && git::hex_equals(id, ie.id);
  }

  static std::string link_id(const WalkItem& item, const StatRecord& st) {
    std::string target(static_cast<std::size_t>(st.size) + 1, '\0');
    ssize_t n = readlinkat(item.dir_fd, item.name, target.data(), target.size());
    if (n < 0 || static_cast<std::size_t>(n) >= target.size()) return {};
    target.resize(static_cast<std::size_t>(n));
    return Repository::hash_blob(target);
  }

  // Only to tell whether the bytes changed; never shown. Streamed by
  // libgit2, so a file of any size costs no memory.
  std::string file_id(std::string_view rel) const {
    git_oid oid;
    std::string abs = root_path_ + "/" + std::string(rel);
    return git_odb_hashfile(&oid, abs.c_str(), GIT_OBJECT_BLOB) == 0 ? git::to_hex(oid) : std::string();
  }

  // An untracked or changed file's id as the libgit2 path gives it: its
  // bytes read through the confined reader (size cap, link and hard-link
  // rules), except links and secrets, which are never read.
  void hash_through_reader(Work& w, ChangeStatus status) {
    if (w.mode == kModeLink || is_secret_path(w.path)) return;
    ViewEntry probe;
    probe.path = std::string(w.path);
    probe.status = status;
    probe.mode = w.mode;
    probe.from_worktree = true;
    auto bytes = content_.read(probe);
    if (!bytes) return;
    w.id = ObjectId::from_hex(Repository::hash_blob(*bytes));
    w.size = bytes->size();
    if (kept_bytes_ + bytes->size() > kKeepBudget) return;
    kept_bytes_ += bytes->size();
    out_.kept.push_back(KeptBytes{std::move(probe.path), w.id, std::move(bytes).value()});
  }

  // The base is `base_`, or the index entries themselves.
  std::string_view base_path(std::size_t b) const {
    return base_is_index_ ? index_.path(index_.entries()[b]) : std::string_view(base_[b].path);
  }

  // base_path(b) compared with `p`. A tracked file's path is the index
  // entry's own bytes (visit_file): the same address, equal without a look.
  int base_order(std::size_t b, std::string_view p) const {
    std::string_view base = base_path(b);
    if (base.data() == p.data() && base.size() == p.size()) return 0;
    return base.compare(p);
  }

  ViewEntry take_base(std::size_t b) {
    if (!base_is_index_) return std::move(base_[b]);
    const IndexEntry& ie = index_.entries()[b];
    ViewEntry e;
    e.path = index_.path(ie);
    e.mode = ie.mode;
    e.blob_id = ObjectId::from_raw(ie.id);
    e.base_blob_id = e.blob_id;
    return e;
  }

  // take_base(b) built in place at the end of `entries`: most of a view's
  // entries are unchanged, and a move of each was a tenth of the merge.
  void add_base(std::size_t b, std::vector<ViewEntry>& entries) {
    if (!base_is_index_) {
      entries.push_back(std::move(base_[b]));
      return;
    }
    const IndexEntry& ie = index_.entries()[b];
    ViewEntry& e = entries.emplace_back();
    e.path = index_.path(ie);
    e.mode = ie.mode;
    e.blob_id = ObjectId::from_raw(ie.id);
    e.base_blob_id = e.blob_id;
  }

  // The base's bytes at `b` are those of `wk`.
  bool same_bytes(std::size_t b, const Work& wk) const {
    if (base_is_index_) {
      const IndexEntry& ie = index_.entries()[b];
      if (ie.mode != wk.mode) return false;
      return wk.clean ? std::memcmp(wk.clean->id, ie.id, 20) == 0 : wk.id == ObjectId::from_raw(ie.id);
    }
    const ViewEntry& old = base_[b];
    if (old.mode != wk.mode) return false;
    return wk.clean ? old.blob_id == ObjectId::from_raw(wk.clean->id) : old.blob_id == wk.id;
  }

  bool keep_unchanged(std::string_view path) const { return !changes_only_ || path.substr(0, 4) == ".ws/"; }

  // A working-tree file that differs from the base at `*b` (advanced past
  // it), or that the base does not hold (`b` null).
  ViewEntry changed_entry(Work& wk, std::size_t* b) {
    ViewEntry e;
    e.path = wk.path;
    e.mode = wk.mode;
    e.blob_id = wk.clean ? ObjectId::from_raw(wk.clean->id) : wk.id;
    e.size = wk.size;
    e.from_worktree = true;
    e.status = b ? ChangeStatus::modified : ChangeStatus::added;
    if (b) e.base_blob_id = take_base((*b)++).base_blob_id;
    return e;
  }

  const Repository& repository_;
  git_repository* repo_;
  const std::string& root_path_;
  const ContentSource& content_;
  const bool changes_only_;
  TreeWatch* const watch_;
  bool watching_ = false;
  WorktreeStatus out_;

  struct stat index_st_ {};
  IndexFile index_;
  git::Commit commit_{nullptr};

  bool base_is_index_ = false;
  // With `base_is_index_`, `base_` stays empty and merge() reads the index
  // entries themselves: no second list of every path.
  std::vector<ViewEntry> base_;
  std::optional<Error> base_error_;
  struct Joiner {
    std::thread thread;
    ~Joiner() {
      if (thread.joinable()) thread.join();
    }
  } base_walker_;  // joined on every way out

  std::optional<StatAhead> ahead_;
  std::vector<Work> work_;
  std::deque<std::string> untracked_paths_;  // what Work::path of an untracked file points into
  std::size_t cursor_ = 0;
  std::string stop_;
  std::size_t kept_bytes_ = 0;
};

WorktreeStatus not_applicable(std::string why) {
  WorktreeStatus out;
  out.why_not = std::move(why);
  return out;
}

}  // namespace

Result<WorktreeStatus> worktree_status(const Repository& repository, const std::string& root_path,
                                       const std::string& base_commit, const ContentSource& content,
                                       bool changes_only, std::size_t prestat_min, TreeWatch* watch) {
  if (base_commit.empty()) return not_applicable("no base commit");
  StatusBuilder status(repository, root_path, content, changes_only, watch);
  if (auto why = status.settings(); !why.empty()) return not_applicable(why);
  if (auto why = status.read_index(); !why.empty()) return not_applicable(why);
  if (Status st = status.start_base(base_commit); !st) return st.error();
  Status walked = status.walk(prestat_min);
  std::string why_not;
  Status based = status.finish_base(why_not);
  if (!walked) return walked.error();
  if (!status.stopped().empty()) return not_applicable(status.stopped());
  if (!based) return based.error();
  if (!why_not.empty()) return not_applicable(why_not);
  return status.merge();
}

}  // namespace ws::detail

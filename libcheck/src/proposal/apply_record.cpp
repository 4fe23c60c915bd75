// The apply record: one JSON file in <git dir>/ws/apply.json, written whole
// (temporary file, fsync, link) and held with flock while its apply runs
// (ws(7) "FILES").
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

#include <nlohmann/json.hpp>

#include "apply_journal.h"
#include "libcheck/json_output.h"
#include "proposal_internal.h"

namespace ws::proposal {

namespace {

const char* const kRecordName = "apply.json";

Error io_error(const std::string& what, const std::string& path, int err) {
  return make_error(Errc::environment, "cannot " + what + " '" + path + "': " + std::strerror(err), path);
}

std::string record_file(const std::string& git_dir) { return apply_dir(git_dir) + "/" + kRecordName; }

nlohmann::json to_json(const ApplyRecord& r) {
  nlohmann::json paths = nlohmann::json::array();
  for (const auto& p : r.paths)
    paths.push_back({{"path", p.path}, {"old_mode", p.old_mode}, {"old_id", p.old_id}, {"new_mode", p.new_mode},
                     {"new_id", p.new_id}});
  return {{"ws_apply_record", 1}, {"pid", r.pid},           {"proposal", r.proposal},
          {"branch", r.branch},   {"old", r.old_tip},      {"new", r.new_commit},
          {"index", r.index},     {"changes", paths},      {"locks", r.locks}};
}

bool is_hex_id(const std::string& s, bool may_be_empty) {
  if (s.empty()) return may_be_empty;
  return s.size() == 40 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// The record's fields, each checked for what it must be: a hand-edited or
// truncated record is reported, never acted on.
std::optional<ApplyRecord> from_json(std::string_view text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || j.value("ws_apply_record", 0) != 1) return std::nullopt;
  try {
    ApplyRecord r;
    r.pid = j.at("pid").get<long>();
    r.proposal = j.at("proposal").get<std::string>();
    // A path, a branch, the index's or a lock file's name may be any bytes: json_text
    // keeps the exact ones beside the text (ws(7), JSON OUTPUT).
    auto branch = json_text_member(j, "branch");
    auto index = json_text_member(j, "index");
    auto locks = json_text_list_member(j, "locks");
    if (!branch || !index || !locks) return std::nullopt;
    r.branch = std::move(*branch);
    r.index = std::move(*index);
    r.locks = std::move(*locks);
    r.old_tip = j.at("old").get<std::string>();
    r.new_commit = j.at("new").get<std::string>();
    for (const auto& p : j.at("changes")) {
      auto path = p.is_object() ? json_text_member(p, "path") : std::nullopt;
      if (!path) return std::nullopt;
      r.paths.push_back({std::move(*path), p.at("old_mode").get<std::uint32_t>(),
                         p.at("old_id").get<std::string>(), p.at("new_mode").get<std::uint32_t>(),
                         p.at("new_id").get<std::string>()});
    }
    if (!is_hex_id(r.proposal, false) || !is_hex_id(r.new_commit, false) || !is_hex_id(r.old_tip, true) ||
        r.branch.rfind("refs/heads/", 0) != 0)
      return std::nullopt;
    return r;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

Status write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return io_error("write", path, n < 0 ? errno : ENOSPC);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return Ok{};
}

std::optional<std::string> read_all(int fd) {
  std::string out;
  char buf[8192];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) return out;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

// Writes `bytes` to the open file `fd` (locked first, so that no other run
// takes its apply for a dead one) and syncs it.
Status fill(int fd, const std::string& bytes, const std::string& path) {
  if (::flock(fd, LOCK_EX) != 0) return io_error("lock the apply record", path, errno);
  if (auto st = write_all(fd, bytes, path); !st) return st;
  if (::fsync(fd) != 0) return io_error("write the apply record", path, errno);
  return Ok{};
}

// The record, written to a file with no name yet (O_TMPFILE), so that a
// kill leaves nothing; -1 where the file system cannot make one.
Result<int> write_unnamed(const std::string& dir, const std::string& bytes) {
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) return -1;
    return io_error("write the apply record", dir, errno);
  }
  if (auto st = fill(fd, bytes, dir); !st) {
    ::close(fd);
    return st.error();
  }
  return fd;
}

// Elsewhere, a named temporary file `tmp` ("apply.json.<pid>.tmp", which the
// next apply removes if a kill left it).
Result<int> write_named(const std::string& tmp, const std::string& bytes) {
  ::unlink(tmp.c_str());  // left by a killed process that had this pid
  int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return io_error("write the apply record", tmp, errno);
  if (auto st = fill(fd, bytes, tmp); !st) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return st.error();
  }
  return fd;
}

// Gives the written file its name; link(2), unlike rename(2), never
// replaces: a record already there stays. Returns errno, 0 when linked.
int publish(int fd, const std::string& tmp, const std::string& path) {
  int rc = tmp.empty() ? ::linkat(AT_FDCWD, ("/proc/self/fd/" + std::to_string(fd)).c_str(), AT_FDCWD,
                                  path.c_str(), AT_SYMLINK_FOLLOW)
                       : ::link(tmp.c_str(), path.c_str());
  int err = rc == 0 ? 0 : errno;
  if (!tmp.empty()) ::unlink(tmp.c_str());
  return err;
}

}  // namespace

std::string apply_dir(const std::string& git_dir) {
  std::string d = git_dir;
  while (!d.empty() && d.back() == '/') d.pop_back();
  return d + "/ws";
}

Result<std::vector<AppliedPath>> applied_paths(git_repository* repo, const std::string& old_tip,
                                               const std::string& new_commit) {
  auto from = commit_tree(repo, old_tip);
  if (!from) return from.error();
  auto to = commit_tree(repo, new_commit);
  if (!to) return to.error();
  std::vector<AppliedPath> out;
  auto st = walk_tree_pair(repo, from->get(), to->get(), /*unchanged=*/false, [&](const TreePair& p) {
    AppliedPath a;
    a.path = std::string(p.path);
    a.old_mode = p.old_id ? p.old_mode : 0;
    a.new_mode = p.new_id ? p.new_mode : 0;
    if (p.old_id) a.old_id = git::to_hex(*p.old_id);
    if (p.new_id) a.new_id = git::to_hex(*p.new_id);
    out.push_back(std::move(a));
  });
  if (!st) return st.error();
  std::sort(out.begin(), out.end(), [](const AppliedPath& a, const AppliedPath& b) { return a.path < b.path; });
  return out;
}

Result<std::vector<AppliedPath>> applied_paths(git_repository* repo, const std::vector<TreeChange>& changes,
                                               const std::string& old_tip, const std::string& new_commit) {
  auto from = commit_tree(repo, old_tip);
  if (!from) return from.error();
  auto to = commit_tree(repo, new_commit);
  if (!to) return to.error();
  // The entry at `path` of `tree` (null: none) as a mode and an id.
  auto at = [&](git_tree* tree, const std::string& path, std::uint32_t& mode, std::string& id) {
    git_tree_entry* e = nullptr;
    if (!tree || git_tree_entry_bypath(&e, tree, path.c_str()) != 0) return;
    if (git_tree_entry_type(e) != GIT_OBJECT_TREE) {
      mode = git_tree_entry_filemode_raw(e);
      id = git::to_hex(*git_tree_entry_id(e));
    }
    git_tree_entry_free(e);
  };
  std::vector<AppliedPath> out;
  for (const auto& c : changes) {
    AppliedPath a;
    a.path = c.path;
    at(from->get(), c.path, a.old_mode, a.old_id);
    at(to->get(), c.path, a.new_mode, a.new_id);
    if (!(a.old_mode == a.new_mode && a.old_id == a.new_id)) out.push_back(std::move(a));
  }
  std::sort(out.begin(), out.end(), [](const AppliedPath& a, const AppliedPath& b) { return a.path < b.path; });
  return out;
}

RecordFile::RecordFile(RecordFile&& o) noexcept { *this = std::move(o); }

RecordFile& RecordFile::operator=(RecordFile&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    path_ = std::move(o.path_);
    dev_ = o.dev_;
    ino_ = o.ino_;
    written_ = o.written_;
    o.fd_ = -1;
  }
  return *this;
}

RecordFile::~RecordFile() {
  if (fd_ >= 0) ::close(fd_);
}

Result<RecordFile> RecordFile::create(const std::string& git_dir, const ApplyRecord& record) {
  const std::string dir = apply_dir(git_dir);
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) return io_error("create", dir, errno);
  const std::string path = record_file(git_dir);
  std::string tmp;
  const std::string bytes = json_text(to_json(record)) + "\n";
  auto fd = write_unnamed(dir, bytes);
  if (fd && *fd < 0) {
    tmp = path + "." + std::to_string(::getpid()) + ".tmp";
    fd = write_named(tmp, bytes);
  }
  if (!fd) return fd.error();
  RecordFile f;
  f.fd_ = *fd;
  f.path_ = path;
  if (int err = publish(f.fd_, tmp, path); err != 0) {
    if (err == EEXIST)
      return make_error(Errc::refused, "an apply record exists already ('" + path + "')", path, Rule::record_exists);
    return io_error("write the apply record", path, err);
  }
  // The directory is not synced as well: the branch move that follows is
  // not synced either (git's default), and a journaling file system keeps
  // the link before the rename that comes after it. The record's bytes are.
  struct stat st {};
  if (::fstat(f.fd_, &st) != 0) return io_error("read back the apply record", path, errno);
  f.dev_ = st.st_dev;
  f.ino_ = st.st_ino;
  f.written_ = st.st_mtim;
  return f;
}

void RecordFile::remove() {
  if (fd_ < 0) return;
  struct stat st {};
  // Still this file: a record removed and written anew by another run stays.
  if (::stat(path_.c_str(), &st) == 0 && st.st_dev == dev_ && st.st_ino == ino_) ::unlink(path_.c_str());
  ::close(fd_);
  fd_ = -1;
}

Result<FoundRecord> find_record(const std::string& git_dir) {
  FoundRecord out;
  const std::string path = record_file(git_dir);
  for (int attempt = 0; attempt < 8; ++attempt) {
    // Never blocks: a FIFO put there would stall every tool.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
      if (errno == ENOENT) return out;
      if (errno == ELOOP)
        return make_error(Errc::invalid, "the apply record '" + path + "' is a symlink; remove it", path);
      return io_error("open the apply record", path, errno);
    }
    RecordFile f;
    f.fd_ = fd;
    f.path_ = path;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
      return make_error(Errc::invalid, "the apply record '" + path + "' is not a regular file; remove it", path);
    auto text = read_all(fd);
    auto record = text ? from_json(*text) : std::nullopt;
    if (!record)
      return make_error(Errc::invalid,
                        "the apply record '" + path + "' is damaged; if no ws-apply is running, look at it, then remove it",
                        path);
    out.record = std::move(*record);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      out.state = FoundRecord::running;
      return out;
    }
    // Locked: its writer is gone. Unless it finished and removed the
    // record while this run waited: then look again.
    struct stat by_fd {}, by_path {};
    if (::fstat(fd, &by_fd) != 0) return io_error("read the apply record", path, errno);
    if (::stat(path.c_str(), &by_path) != 0 || by_fd.st_ino != by_path.st_ino || by_fd.st_dev != by_path.st_dev)
      continue;
    f.dev_ = by_fd.st_dev;
    f.ino_ = by_fd.st_ino;
    f.written_ = by_fd.st_mtim;
    out.state = FoundRecord::claimed;
    out.file = std::move(f);
    return out;
  }
  return out;
}

bool made_by_apply(const std::string& path, const ApplyRecord& record, const timespec& record_written) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat st {};
  bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  auto bytes = regular && st.st_size <= 4096 ? read_all(fd) : std::nullopt;
  ::close(fd);
  const timespec& m = st.st_mtim;
  bool no_older = m.tv_sec > record_written.tv_sec ||
                  (m.tv_sec == record_written.tv_sec && m.tv_nsec >= record_written.tv_nsec);
  if (!regular || !no_older) return false;
  // A temporary file in the apply's own directory (<git dir>/ws): nothing else writes there.
  std::string_view parent = std::string_view(path).substr(0, path.rfind('/'));
  if (parent.ends_with("/ws")) return true;
  if (!bytes) return false;
  // The index lock carries the apply's marker; a ref lock holds nothing yet,
  // or the new commit libgit2 was about to rename into place.
  if (path.size() > 11 && path.compare(path.size() - 11, 11, "/index.lock") == 0)
    return *bytes == index_lock_marker(record.proposal);
  return bytes->empty() || *bytes == record.new_commit + "\n";
}

std::string lock_description(const std::string& path, const std::string& workdir) {
  std::string shown = !workdir.empty() && path.rfind(workdir, 0) == 0 ? path.substr(workdir.size()) : path;
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return "'" + shown + "'";
  long long s = static_cast<long long>(std::time(nullptr) - st.st_mtim.tv_sec);
  if (s < 0) s = 0;
  auto unit = [](long long n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s") + " old";
  };
  std::string age = s < 60      ? unit(s, "second")
                    : s < 3600  ? unit(s / 60, "minute")
                    : s < 86400 ? unit(s / 3600, "hour")
                                : unit(s / 86400, "day");
  return "'" + shown + "', " + age;
}

std::string interrupted_line(const ApplyRecord& record) {
  return "proposal " + short_id(record.proposal) + " was applied to '" + branch_display(record.branch) + "' as " +
         short_id(record.new_commit) + ", but the apply was interrupted before it finished; run 'ws-apply --continue' to complete it";
}

}  // namespace ws::proposal

// Confined reads against hostile trees: links (leaf and middle, pointing in
// and out), hard links, FIFOs, sockets, oversized files, bad roots, and a root
// replaced after start. Each read case runs through every resolution
// strategy the machine offers, so the fallback walk is tested even where
// openat2 exists.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "confined_open.h"
#include "libcheck/workspace_root.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using ws::FileRule;
using ws::WorkspaceRoot;
using ReadResult = WorkspaceRoot::ReadResult;

namespace {

void write_file(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << bytes;
  REQUIRE(f.good());
}

// root/ holds the workspace; outside/ is a sibling the links point at.
struct HostileTree {
  wstest::TempDir tmp;
  fs::path root = fs::path(tmp.path()) / "root";
  fs::path outside = fs::path(tmp.path()) / "outside";

  HostileTree() {
    write_file(root / "agents/a.json", "{\"name\":\"A\"}");
    write_file(outside / "secret.txt", "outside bytes");
    fs::create_symlink("agents/a.json", root / "link-in");                 // leaf, inside
    fs::create_symlink(outside / "secret.txt", root / "link-out");         // leaf, outside
    fs::create_symlink("agents", root / "dir-in");                         // middle, inside
    fs::create_symlink(outside, root / "dir-out");                         // middle, outside
    fs::create_symlink("../../outside", root / "agents/up");               // middle, relative escape
    fs::create_symlink("missing", root / "dangling");                      // leaf, dangling
    write_file(root / "hard.json", "{}");
    fs::create_hard_link(root / "hard.json", root / "hard-twin.json");
    fs::create_hard_link(outside / "secret.txt", root / "hard-out.txt");
    REQUIRE(::mkfifo((root / "fifo").c_str(), 0600) == 0);
    write_file(root / "cap/16.txt", std::string(16, 'x'));
    write_file(root / "cap/17.txt", std::string(17, 'x'));
    write_file(root / "empty.txt", "");
  }
};

struct Strategy {
  const char* name;
  // Reads through this strategy: (rel, cap, for_write).
  std::function<ReadResult(const std::string&, std::uint64_t, bool)> read;
};

// The public WorkspaceRoot (openat2 where available), plus each strategy
// forced through the internal entry point on a directory fd of our own.
std::vector<Strategy> strategies(const WorkspaceRoot& root, int dir_fd) {
  std::vector<Strategy> out;
  out.push_back({"WorkspaceRoot", [&root](const std::string& rel, std::uint64_t cap, bool w) {
                   return w ? root.read_for_write(rel, cap) : root.read(rel, cap);
                 }});
  out.push_back({"walk", [dir_fd](const std::string& rel, std::uint64_t cap, bool w) {
                   return ws::detail::read_beneath(dir_fd, rel, cap, w, ws::detail::Resolve::walk_only);
                 }});
  if (ws::detail::openat2_available()) {
    out.push_back({"openat2", [dir_fd](const std::string& rel, std::uint64_t cap, bool w) {
                     return ws::detail::read_beneath(dir_fd, rel, cap, w, ws::detail::Resolve::openat2_only);
                   }});
  } else {
    WARN("openat2 is not available here; only the fallback walk is exercised");
  }
  return out;
}

std::string rule_of(const ReadResult& r) { return r.ok ? "ok" : ws::file_rule_name(r.error.rule); }

}  // namespace

TEST_CASE("confined reads refuse links, special files and oversized files", "[workspace_root]") {
  HostileTree t;
  auto root = WorkspaceRoot::open(t.root.string(), "");
  REQUIRE(root.ok());
  ws::detail::Fd dir(::open(t.root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(dir.valid());

  struct Case {
    std::string rel;
    std::string expect;  // "ok" or a rule name
    bool for_write = false;
    std::uint64_t cap = ws::kDefaultSizeCap;
  };
  const std::vector<Case> cases = {
      {"agents/a.json", "ok"},
      {"link-in", "symlink"},
      {"link-out", "symlink"},
      {"dangling", "symlink"},
      {"dir-in/a.json", "symlink"},
      {"dir-out/secret.txt", "symlink"},
      {"agents/up/secret.txt", "symlink"},
      // Several names: another may lie outside (hard-out.txt), so neither
      // read nor replaced.
      {"hard.json", "hard-link"},
      {"hard.json", "hard-link", true},
      {"hard-twin.json", "hard-link"},
      {"hard-twin.json", "hard-link", true},
      {"hard-out.txt", "hard-link"},
      {"hard-out.txt", "hard-link", true},
      {"agents/a.json", "ok", true},
      {"agents", "special-file"},
      {"cap/16.txt", "ok", false, 16},
      {"cap/17.txt", "too-large", false, 16},
      {"cap/17.txt", "too-large", true, 16},
      {"empty.txt", "ok", false, 0},
      {"cap/16.txt", "too-large", false, 0},
      {"nope.json", "not-found"},
      {"agents/nope.json", "not-found"},
      {"agents/a.json/x", "not-found"},  // a file in the middle
      {"../outside/secret.txt", "not-found"},
      {"agents/../../outside/secret.txt", "not-found"},
      {"/etc/passwd", "not-found"},
      {"", "not-found"},
      {std::string("agents/a.json\0/../../x", 22), "not-found"},
  };

  for (const Strategy& s : strategies(*root, dir.get())) {
    for (const Case& c : cases) {
      INFO(s.name << ": '" << ws::detail::printable_path(c.rel) << "' cap " << c.cap
                  << (c.for_write ? " for write" : ""));
      ReadResult r = s.read(c.rel, c.cap, c.for_write);
      CHECK(rule_of(r) == c.expect);
      if (!r.ok) {
        CHECK(r.error.path == c.rel);
        CHECK(r.bytes.empty());
      }
    }
    ReadResult ok = s.read("agents/a.json", ws::kDefaultSizeCap, false);
    CHECK(ok.bytes == "{\"name\":\"A\"}");
    CHECK(s.read("cap/16.txt", 16, false).bytes == std::string(16, 'x'));
  }
}

namespace {

// What each strategy reads at each of `rels` beneath `root`, one
// "strategy rel rule" line each, after `mount` has run in a private mount
// namespace of a child process (so no mount reaches the machine's, and the
// mounts vanish with the child); "skip: why" when the child may not mount.
std::string reads_in_mount_namespace(const fs::path& root, const std::vector<std::string>& rels,
                                     const std::function<bool()>& mount) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    std::string out;
    if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        !mount()) {
      out = std::string("skip: ") + std::strerror(errno);
    } else {
      auto ws_root = WorkspaceRoot::open(root.string(), "");
      ws::detail::Fd dir(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
      if (!ws_root.ok() || !dir.valid()) out = "skip: cannot open the root";
      else
        for (const Strategy& s : strategies(*ws_root, dir.get()))
          for (const std::string& rel : rels) out += std::string(s.name) + " " + rel + " " + rule_of(s.read(rel, ws::kDefaultSizeCap, false)) + "\n";
    }
    std::size_t done = 0;
    while (done < out.size()) {
      ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  return got;
}

}  // namespace

// A bind mount of a folder outside (same file system: the device alone
// cannot tell it), of a folder inside, of one file, and a tmpfs: every
// strategy refuses each as mount-point, and still reads the plain file.
TEST_CASE("confined reads never cross a mount point", "[workspace_root][mount]") {
  HostileTree t;
  fs::create_directories(t.root / "bound");
  fs::create_directories(t.root / "alias");
  fs::create_directories(t.root / "tmp");
  write_file(t.root / "file.json", "{}");
  const std::vector<std::string> rels{"agents/a.json", "bound/secret.txt", "alias/a.json", "file.json",
                                      "tmp/canary.txt"};
  std::string got = reads_in_mount_namespace(t.root, rels, [&t] {
    auto bind = [](const fs::path& from, const fs::path& to) {
      return ::mount(from.c_str(), to.c_str(), nullptr, MS_BIND, nullptr) == 0;
    };
    if (!bind(t.outside, t.root / "bound") || !bind(t.root / "agents", t.root / "alias") ||
        !bind(t.outside / "secret.txt", t.root / "file.json") ||
        ::mount("tmpfs", (t.root / "tmp").c_str(), "tmpfs", 0, "size=64k") != 0)
      return false;
    std::ofstream((t.root / "tmp/canary.txt").string()) << "mounted bytes";
    return true;
  });
  if (got.rfind("skip: ", 0) == 0) {
    WARN("cannot mount in a private mount namespace here (" << got << "); mount case skipped");
    return;
  }
  std::string expect;
  std::vector<std::string> names{"WorkspaceRoot", "walk"};
  if (ws::detail::openat2_available()) names.push_back("openat2");
  for (const std::string& name : names)
    for (const std::string& rel : rels) expect += name + " " + rel + " " + (rel == "agents/a.json" ? "ok" : "mount-point") + "\n";
  CHECK(got == expect);
}

TEST_CASE("a mount-point refusal names the path and the rule", "[workspace_root][mount]") {
  ws::FileError e{FileRule::mount_point, "agents/\x1b[2Jmnt/a.json"};
  CHECK(e.message() ==
        "refused path 'agents/\\x1b[2Jmnt/a.json': mount-point (the path is or goes through a mount point beneath "
        "the workspace root, and mounts are never crossed); unmount it or move the mount out of the workspace");
}

TEST_CASE("reading a FIFO returns at once with special-file", "[workspace_root]") {
  HostileTree t;
  auto root = WorkspaceRoot::open(t.root.string(), "");
  REQUIRE(root.ok());
  ws::detail::Fd dir(::open(t.root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(dir.valid());

  for (const Strategy& s : strategies(*root, dir.get())) {
    for (bool for_write : {false, true}) {
      INFO(s.name << (for_write ? " for write" : ""));
      auto pending = std::async(std::launch::async, [&] { return s.read("fifo", ws::kDefaultSizeCap, for_write); });
      if (pending.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
        // Unblock the stuck reader by opening the write end, so the test
        // fails instead of hanging in the future's destructor.
        int w = ::open((t.root / "fifo").c_str(), O_WRONLY | O_NONBLOCK);
        if (w >= 0) ::close(w);
        FAIL("read of a FIFO blocked for more than 5 s");
      }
      ReadResult r = pending.get();
      CHECK(rule_of(r) == "special-file");
    }
  }
}

TEST_CASE("sockets and devices are special files", "[workspace_root]") {
  HostileTree t;
  auto root = WorkspaceRoot::open(t.root.string(), "");
  REQUIRE(root.ok());
  ws::detail::Fd dir(::open(t.root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(dir.valid());

  std::vector<std::string> specials;
  ws::detail::Fd sock(::socket(AF_UNIX, SOCK_STREAM, 0));
  REQUIRE(sock.valid());
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::string sock_path = (t.root / "sock").string();
  if (sock_path.size() < sizeof addr.sun_path) {
    std::copy(sock_path.begin(), sock_path.end(), addr.sun_path);
    REQUIRE(::bind(sock.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    specials.push_back("sock");
  } else {
    WARN("temporary directory path too long for a unix socket; socket case skipped");
  }
  if (::mknod((t.root / "null").c_str(), S_IFCHR | 0600, makedev(1, 3)) == 0)
    specials.push_back("null");
  else
    WARN("cannot make a device node here (not root); device case skipped");

  for (const Strategy& s : strategies(*root, dir.get()))
    for (const auto& rel : specials) {
      INFO(s.name << ": " << rel);
      CHECK(rule_of(s.read(rel, ws::kDefaultSizeCap, false)) == "special-file");
    }
}

TEST_CASE("file error messages name the path and the rule", "[workspace_root]") {
  HostileTree t;
  auto root = WorkspaceRoot::open(t.root.string(), "");
  REQUIRE(root.ok());
  CHECK(root->read("dir-out/secret.txt").error.message() ==
        "refused path 'dir-out/secret.txt': symlink (the path is or goes through a symbolic link, "
        "and links are never followed); replace the link with the file itself");
  CHECK(root->read("hard-out.txt").error.message() ==
        "refused to read 'hard-out.txt': hard-link (2 links; a file with more than one link may be a link "
        "out of the workspace)");
  CHECK(root->read_for_write("hard.json").error.message() ==
        "refused path 'hard.json': hard-link (the file has more than one link, so replacing it would "
        "change the other names too); copy the file to break the link");
  CHECK(root->read("fifo").error.message() ==
        "refused path 'fifo': special-file (not a regular file: a FIFO, device, socket or directory); "
        "remove it or move it out of the workspace");
  CHECK(root->read("cap/17.txt", 16).error.message() ==
        "refused path 'cap/17.txt': too-large (17 bytes, over the size cap of 16); "
        "split the file or raise \"size_cap\" in .ws/config.json");
  CHECK(root->read("nope\n.json").error.message() ==
        "cannot read 'nope\\n.json': not-found (no such file beneath the workspace root); check the path");
}

TEST_CASE("hard_link_refusal names a file with several links without opening it", "[workspace_root]") {
  HostileTree t;
  auto root = WorkspaceRoot::open(t.root.string(), "");
  REQUIRE(root.ok());
  struct Case {
    std::string rel;
    std::uint64_t links;  // 0: no refusal
  };
  const std::vector<Case> cases = {
      {"hard.json", 2},     {"hard-twin.json", 2}, {"hard-out.txt", 2},
      {"agents/a.json", 0}, {"link-out", 0},  // a symlink is the symlink rule's, on reading
      {"fifo", 0},          {"agents", 0},         {"nope.json", 0},
      {"../outside/secret.txt", 0},  // not plain: nothing beneath the root has that name
      {"", 0},
  };
  for (const Case& c : cases) {
    INFO(c.rel);
    auto why = root->hard_link_refusal(c.rel);
    CHECK(why.has_value() == (c.links != 0));
    if (!why) continue;
    CHECK(why->rule == FileRule::hard_link);
    CHECK(why->path == c.rel);
    CHECK(why->links == c.links);
    CHECK(why->message() == root->read(c.rel).error.message());
  }
  // A third name shows in the count.
  fs::create_hard_link(t.root / "hard.json", t.root / "agents/hard-3.json");
  CHECK(root->hard_link_refusal("agents/hard-3.json")->links == 3);
  CHECK(root->read("agents/hard-3.json").error.links == 3);
}

TEST_CASE("workspace root refuses / and the home directory", "[workspace_root]") {
  wstest::TempDir home;
  fs::create_directories(fs::path(home.path()) / "repo");

  auto slash = WorkspaceRoot::open("/", home.path());
  REQUIRE_FALSE(slash.ok());
  CHECK(slash.error().code == ws::Errc::environment);
  CHECK(slash.error().message ==
        "refused workspace root '/': the file system root is not a workspace; run inside a repository");
  // Spelled otherwise, it is still the root.
  CHECK_FALSE(WorkspaceRoot::open("/tmp/..", "").ok());

  const std::string expect = "refused workspace root '" + home.path() +
                             "': it is the home directory; run inside a repository below it";
  for (const std::string& spelling : {home.path(), home.path() + "/", home.path() + "/.", home.path() + "/repo/.."}) {
    INFO(spelling);
    auto r = WorkspaceRoot::open(spelling, home.path());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ws::Errc::environment);
    CHECK(r.error().message == expect);
  }
  // $HOME given through a link is compared in canonical form too.
  fs::path home_link = fs::path(home.path()) / "repo" / "home-link";
  fs::create_directory_symlink(home.path(), home_link);
  CHECK_FALSE(WorkspaceRoot::open(home.path(), home_link.string()).ok());

  auto repo = WorkspaceRoot::open(home.path() + "/repo", home.path());
  REQUIRE(repo.ok());
  CHECK(repo->path() == home.path() + "/repo");
  // An empty home skips that check.
  CHECK(WorkspaceRoot::open(home.path(), "").ok());
}

TEST_CASE("workspace root must exist and be a directory", "[workspace_root]") {
  wstest::TempDir tmp;
  auto missing = WorkspaceRoot::open(tmp.path() + "/missing", "");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == ws::Errc::environment);
  CHECK(missing.error().message ==
        "cannot open workspace root '" + tmp.path() + "/missing': No such file or directory");

  write_file(fs::path(tmp.path()) / "file", "x");
  auto file = WorkspaceRoot::open(tmp.path() + "/file", "");
  REQUIRE_FALSE(file.ok());
  CHECK(file.error().code == ws::Errc::environment);
}

TEST_CASE("a root replaced after start is noticed", "[workspace_root]") {
  wstest::TempDir tmp;
  fs::path dir = fs::path(tmp.path()) / "ws";
  write_file(dir / "a.json", "old");
  auto root = WorkspaceRoot::open(dir.string(), "");
  REQUIRE(root.ok());
  REQUIRE(root->verify_unchanged().ok());

  SECTION("another directory at the same path") {
    fs::rename(dir, fs::path(tmp.path()) / "ws-away");
    write_file(dir / "a.json", "new");
    auto st = root->verify_unchanged();
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().code == ws::Errc::refused);
    CHECK(st.error().message == "refused to write: workspace root '" + dir.string() +
                                    "' was replaced by another directory since start (device or inode changed); "
                                    "run the command again");
    // Reads stay pinned to the directory opened at start.
    CHECK(root->read("a.json").bytes == "old");
  }
  SECTION("a link to the original directory") {
    fs::rename(dir, fs::path(tmp.path()) / "ws-away");
    fs::create_directory_symlink(fs::path(tmp.path()) / "ws-away", dir);
    CHECK_FALSE(root->verify_unchanged().ok());
  }
  SECTION("removed") {
    fs::remove_all(dir);
    auto st = root->verify_unchanged();
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().message == "refused to write: workspace root '" + dir.string() +
                                    "' is gone (No such file or directory); run the command again in the workspace");
  }
}

TEST_CASE("a moved-from root reads nothing", "[workspace_root]") {
  wstest::TempDir tmp;
  write_file(fs::path(tmp.path()) / "a.json", "x");
  auto root = WorkspaceRoot::open(tmp.path(), "");
  REQUIRE(root.ok());
  WorkspaceRoot moved = std::move(root).value();
  CHECK(moved.read("a.json").bytes == "x");
  WorkspaceRoot other = std::move(moved);
  CHECK(rule_of(moved.read("a.json")) == "io");  // NOLINT(bugprone-use-after-move): on purpose
  CHECK(other.read("a.json").bytes == "x");
}

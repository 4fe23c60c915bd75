// ws mcp's watch of the working tree (ws-mcp(1), WARM STATE): the stats and
// folder listings one call took are reused by the next while the kernel
// reported nothing that could change them. Each change here is made by
// another process between two calls of one server, in the ways a hostile
// agent would hide it from a watch: bytes of the same size with the old
// times put back, a write through a second hard link outside the
// workspace, a mode, a rename over, a folder swapped for another of the
// same name, a link, an event queue overflowed, a shared memory map. After
// each, the server's listing must be the one a fresh `ws-ls` gives.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/mcp_client.h"
#include "support/process.h"
#include "support/temp_repo.h"

using nlohmann::json;
using wstest::TempRepo;
namespace fs = std::filesystem;

namespace {

std::string call(int id, const std::string& tool, json arguments) {
  return json{{"jsonrpc", "2.0"},
              {"id", id},
              {"method", "tools/call"},
              {"params", {{"name", tool}, {"arguments", std::move(arguments)}}}}
      .dump();
}

struct Listing {
  json entries = json::array();
  std::vector<std::string> refused;  // the messages
  bool operator==(const Listing&) const = default;
  bool empty() const { return entries.empty() && refused.empty(); }
};

std::ostream& operator<<(std::ostream& os, const Listing& l) {
  os << l.entries.dump();
  for (const std::string& r : l.refused) os << "\nrefused: " << r;
  return os;
}

// One server held open in `repo`, initialized.
class Server : public wstest::McpClient {
 public:
  explicit Server(const TempRepo& repo, const std::vector<std::string>& prefix = {},
                  const wstest::RunOptions& options = {})
      : McpClient(repo.path(), argv(prefix), wstest::environment(wstest::ws_options(repo.path(), options))) {
    REQUIRE(initialize().contains("result"));
    // Answered, so the initialized notification is read before any call
    // (the trace below finds each call by the read that starts with it).
    REQUIRE(ask(R"({"id":"ready","jsonrpc":"2.0","method":"ping"})").contains("result"));
  }

  // The changed entries as the ls tool lists them, and the files it refused.
  Listing changed() {
    json answer = ask(call(++id_, "ls", {{"changed", true}}));
    INFO(answer.dump());
    REQUIRE(answer["result"]["isError"] == false);
    Listing out;
    for (const json& r : answer["result"]["structuredContent"]["records"]) {
      if (r["type"] == "refused") out.refused.push_back(r["message"]);
      else out.entries.push_back(r);
    }
    return out;
  }
  int last_id() const { return id_; }

 private:
  // `prefix` (a tracer), then `ws mcp`.
  static std::vector<std::string> argv(std::vector<std::string> prefix) {
    for (std::string a : {wstest::tool("ws"), std::string("mcp"), std::string("--session"), std::string("agent")})
      prefix.push_back(std::move(a));
    return prefix;
  }
  int id_ = 0;
};

// The same listing from a process started now: `ws-ls --changed --json`
// (after `prefix`, which execs it), its refusals from its standard error.
Listing fresh_listing(const TempRepo& repo, std::vector<std::string> prefix = {}) {
  for (std::string a : {wstest::tool("ws-ls"), std::string("--changed"), std::string("--json")})
    prefix.push_back(std::move(a));
  auto r = wstest::run(prefix, wstest::ws_options(repo.path()));
  INFO(r.err);
  REQUIRE(r.status <= 1);
  Listing out;
  for (const std::string& l : wstest::lines(r.out)) out.entries.push_back(json::parse(l));
  for (const std::string& l : wstest::lines(r.err)) {
    REQUIRE(l.rfind("ws-ls: ", 0) == 0);
    out.refused.push_back(l.substr(7));
  }
  return out;
}

// The status the listing gives `path`: "refused" when it refuses it, ""
// when it lists it not at all.
std::string status_of(const Listing& listing, const std::string& path) {
  for (const json& r : listing.entries)
    if (r.value("path", "") == path) return r.value("status", "");
  for (const std::string& r : listing.refused)
    if (r.find("'" + path + "'") != std::string::npos) return "refused";
  return "";
}

// Bytes of the same size in place of a file's, its times put back: only
// its ctime and the bytes say it changed.
void rewrite_keeping_times(const std::string& abs, const std::string& bytes) {
  struct stat st {};
  REQUIRE(::stat(abs.c_str(), &st) == 0);
  REQUIRE(static_cast<std::size_t>(st.st_size) == bytes.size());
  int fd = ::open(abs.c_str(), O_WRONLY);
  REQUIRE(fd >= 0);
  REQUIRE(::pwrite(fd, bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size()));
  const struct timespec times[2] = {st.st_atim, st.st_mtim};
  REQUIRE(::futimens(fd, times) == 0);
  ::close(fd);
}

// `text` with its first letter changed: the same size, other bytes.
std::string flipped(std::string text) {
  auto at = text.find_first_of("abcdefghijklmnopqrstuvwxyz");
  REQUIRE(at != std::string::npos);
  text[at] = text[at] == 'x' ? 'y' : 'x';
  return text;
}

// After a change: the server answers as a fresh process does, and that
// answer shows the change (`path` with `status`).
#define CHECK_SEEN(server, repo, path, status)            \
  do {                                                    \
    Listing served = (server).changed();                  \
    Listing fresh = fresh_listing(repo);                  \
    CHECK(served == fresh);                               \
    CHECK(status_of(fresh, path) == std::string(status)); \
  } while (false)

}  // namespace

TEST_CASE("ws mcp's warm listing sees every change another process hides from a watch", "[mcp][watch]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  wstest::TempDir outside;  // on the same file system: a hard link can reach in
  Server server(repo);
  REQUIRE(server.changed().empty());
  REQUIRE(server.changed().empty());  // the second call answers from the watch

  SECTION("bytes of the same size, the times put back") {
    const std::string path = "agents/AGbilling01.json";
    rewrite_keeping_times(repo.abs(path), flipped(repo.read(path)));
    CHECK_SEEN(server, repo, path, "modified");
  }
  SECTION("a write through a second hard link outside the workspace, the link then removed") {
    const std::string path = "agents/AGbilling01.json";
    const std::string other = outside.path() + "/other-name";
    REQUIRE(::link(repo.abs(path).c_str(), other.c_str()) == 0);
    CHECK(server.changed() == fresh_listing(repo));  // unchanged, with two links
    rewrite_keeping_times(other, flipped(repo.read(path)));
    REQUIRE(::unlink(other.c_str()) == 0);
    CHECK_SEEN(server, repo, path, "modified");
  }
  SECTION("a mode") {
    const std::string path = "agents/AGbilling01.json";
    fs::permissions(repo.abs(path), fs::perms::owner_exec, fs::perm_options::add);
    CHECK_SEEN(server, repo, path, "modified");
  }
  SECTION("another file renamed over it") {
    const std::string path = "agents/AGbilling01.json";
    repo.write("agents/.next", flipped(repo.read(path)));
    fs::rename(repo.abs("agents/.next"), repo.abs(path));
    CHECK_SEEN(server, repo, path, "modified");
  }
  SECTION("removed") {
    repo.remove("agents/AGbilling01.json");
    CHECK_SEEN(server, repo, "agents/AGbilling01.json", "deleted");
  }
  SECTION("its folder swapped for another of the same name holding the same name") {
    const std::string path = "agents/AGbilling01.json";
    const std::string bytes = flipped(repo.read(path));
    fs::rename(repo.abs("agents"), repo.abs("agents-old"));
    repo.write(path, bytes);
    CHECK_SEEN(server, repo, path, "modified");
  }
  SECTION("a folder made with a file in it") {
    repo.write("agents/team/AGnew01.json", "{\n  \"name\": \"New\"\n}\n");
    CHECK_SEEN(server, repo, "agents/team/AGnew01.json", "added");
  }
  SECTION("a link in a file's place") {
    const std::string path = "agents/AGbilling01.json";
    repo.remove(path);
    fs::create_symlink(outside.path() + "/elsewhere.json", repo.abs(path));
    CHECK_SEEN(server, repo, path, "refused");
  }
  SECTION("an ignore file that hides an untracked file") {
    repo.write("agents/AGscratch.json", "{\n  \"name\": \"Scratch\"\n}\n");
    CHECK_SEEN(server, repo, "agents/AGscratch.json", "added");
    repo.write("agents/.gitignore", "AGscratch.json\n");
    CHECK_SEEN(server, repo, "agents/AGscratch.json", "");
  }
  SECTION("the event queue overflowed before the change") {
    // More events than the kernel queues (inotify(7)), each unlike the one
    // before so none is merged: the change's own event is lost.
    std::ifstream limit("/proc/sys/fs/inotify/max_queued_events");
    std::size_t max = 0;
    REQUIRE(limit >> max);
    const std::string a = repo.abs("prompts/PRtone01.md"), b = repo.abs("agents/AGbilling01.json");
    for (std::size_t i = 0; i <= max / 2 + 1; ++i)
      for (const std::string* p : {&a, &b}) fs::permissions(*p, fs::perms::others_read, fs::perm_options::remove);
    fs::permissions(a, fs::perms::others_read, fs::perm_options::add);
    const std::string path = "skills/SKsummarize01.md";
    rewrite_keeping_times(repo.abs(path), flipped(repo.read(path)));
    CHECK_SEEN(server, repo, path, "modified");
  }
  SECTION("bytes written through a shared memory map, the descriptor closed after") {
    const std::string path = "agents/AGbilling01.json";
    const std::string bytes = flipped(repo.read(path));
    int fd = ::open(repo.abs(path).c_str(), O_RDWR);
    REQUIRE(fd >= 0);
    void* map = ::mmap(nullptr, bytes.size(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    REQUIRE(map != MAP_FAILED);
    std::memcpy(map, bytes.data(), bytes.size());
    REQUIRE(::munmap(map, bytes.size()) == 0);
    ::close(fd);
    CHECK_SEEN(server, repo, path, "modified");
  }
  CHECK(server.close() == 0);
}

TEST_CASE("ws mcp's warm listing sees a file a mount put in a file's place", "[mcp][watch][mount]") {
  // A mount raises no event on the files it hides; the mount table's own
  // change (proc(5)) is what the watch hears. The server runs in a mount
  // namespace of its own (unshare), which the mount enters (nsenter), so
  // the machine's mounts are never touched. Needs root, as CI runs.
  wstest::TempDir probe;
  if (auto r = wstest::run({"unshare", "-m", "sh", "-c", "mount -t tmpfs none \"$1\"", "sh", probe.path()});
      r.status != 0) {
    WARN("cannot make a mount namespace and mount in it here (not root?): " << r.err << "; case skipped");
    return;
  }
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  wstest::TempDir outside;
  const std::string mounted = outside.path() + "/AGmounted01.json";
  std::ofstream(mounted) << "{\n  \"name\": \"Mounted\"\n}\n";
  Server server(repo, {"unshare", "-m", "--propagation", "private"});
  REQUIRE(server.changed().empty());
  REQUIRE(server.changed().empty());
  const std::string path = "agents/AGbilling01.json";
  const std::vector<std::string> in_its_namespace = {"nsenter", "-t", std::to_string(server.pid()), "-m", "--"};
  std::vector<std::string> mount = in_its_namespace;
  for (std::string a : {std::string("mount"), std::string("--bind"), mounted, repo.abs(path)}) mount.push_back(a);
  auto r = wstest::run(mount);
  INFO(r.err);
  REQUIRE(r.status == 0);
  Listing served = server.changed();
  Listing fresh = fresh_listing(repo, {"nsenter", "-t", std::to_string(server.pid()), "-m", "--wd=" + repo.path(), "--"});
  CHECK(served == fresh);
  CHECK(status_of(fresh, path) != "");
  CHECK(server.close() == 0);
}

TEST_CASE("ws mcp's second listing takes no stat of a file and reads no folder that nothing changed",
          "[mcp][watch]") {
  // The kernel's record of each call (strace): what the watch saves, and
  // that a change costs the stat of the one file it touched.
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  wstest::TempDir out;
  const std::string trace = out.path() + "/strace.out";
  Server server(repo, {"/usr/bin/strace", "-f", "-qq", "-y", "-s", "48", "-e", "trace=read,newfstatat,getdents64", "-o", trace},
                wstest::traced_options(repo.path()));
  // initialize took every stat and read every folder.
  REQUIRE(server.changed().empty());  // 1: from the watch
  REQUIRE(server.changed().empty());  // 2: the same
  repo.write("agents/AGbilling01.json", flipped(repo.read("agents/AGbilling01.json")));
  REQUIRE(status_of(server.changed(), "agents/AGbilling01.json") == "modified");  // 3
  CHECK(server.close() == 0);

  std::ifstream in(trace);
  std::string traced((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Where the read of call `id`'s request is.
  auto at = [&](int id) {
    std::size_t found = traced.find("{\\\"id\\\":" + std::to_string(id) + ",");
    REQUIRE(found != std::string::npos);
    return found;
  };
  // The lines of the trace between two places that make the system call
  // `name` on a file of the working tree (-y names each descriptor's
  // file); libgit2's reads of .git are not the walk's.
  auto calls = [&](std::size_t from, std::size_t to, const std::string& name, const std::string& file = "") {
    std::vector<std::string> found;
    for (const std::string& l : wstest::lines(traced.substr(from, to - from)))
      if (l.find(" " + name + "(") != std::string::npos && l.find("<" + repo.path()) != std::string::npos &&
          l.find("<" + repo.path() + "/.git") == std::string::npos && l.find(file) != std::string::npos)
        found.push_back(l);
    return found;
  };
  const std::size_t one = at(1), two = at(2), three = at(3), end = traced.size();
  INFO(traced.substr(one));
  CHECK(calls(0, one, "getdents64").size() >= 5);
  CHECK(calls(0, one, "newfstatat", "\"AGbilling01.json\"").size() == 1);
  for (std::size_t from : {one, two}) {
    const std::size_t to = from == one ? two : three;
    CHECK(calls(from, to, "getdents64") == std::vector<std::string>{});
    CHECK(calls(from, to, "newfstatat", ".json\"").empty());
    CHECK(calls(from, to, "newfstatat", ".md\"").empty());
  }
  CHECK(calls(three, end, "getdents64") == std::vector<std::string>{});
  CHECK(calls(three, end, "newfstatat", "\"AGbilling01.json\"").size() == 1);
  CHECK(calls(three, end, "newfstatat", "\"AGtriage01.json\"").empty());
}

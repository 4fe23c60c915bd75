// Confinement that needs a mount namespace (ws(7), PATH POLICY): no tool
// crosses a mount point beneath the workspace root, and the home directory
// is refused as a root even when HOME is unset.
//
// Each case runs the real tool under `unshare -m`: a private mount namespace,
// so the bind mounts and tmpfs mounts it makes are seen by that one process
// tree and vanish with it, never touching the machine's mounts. That needs
// root (CI runs as root); where unshare or mount is refused the case says so
// with a WARN and checks nothing.
#include <catch2/catch.hpp>

#include <pwd.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/temp_repo.h"

using wstest::RunResult;
using wstest::TempRepo;
namespace fs = std::filesystem;

namespace {

const std::string kCanary = "C4N4RY-m0un73d";

void write_file(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << bytes;
  REQUIRE(f.good());
}

// Whether this process may make a mount namespace and mount in it; a WARN
// says why not.
bool can_mount() {
  wstest::TempDir probe;
  auto r = wstest::run({"unshare", "-m", "sh", "-c", "mount -t tmpfs none \"$1\"", "sh", probe.path()});
  if (r.status == 0) return true;
  WARN("cannot make a mount namespace and mount in it here (not root?): " << r.err << "; case skipped");
  return false;
}

// Runs `mounts` (a shell script; $1 is the repository) and then the tool,
// in a mount namespace of their own, in `cwd` (entered after the mounts, so
// a directory mounted over is seen through its mount).
RunResult in_mount_namespace(const std::string& mounts, const std::string& repo, const std::string& cwd,
                             const std::string& name, const std::vector<std::string>& args,
                             const wstest::RunOptions& extra = {}) {
  std::vector<std::string> argv{"unshare", "-m", "sh", "-c", "set -e\n" + mounts + "\ncd \"$2\"\nshift 2\nexec \"$@\"",
                                "sh", repo, cwd, wstest::tool(name)};
  argv.insert(argv.end(), args.begin(), args.end());
  wstest::RunOptions o = wstest::ws_options(repo, extra);
  o.env.emplace("GIT_COMMITTER_NAME", "Ada Approver");
  o.env.emplace("GIT_COMMITTER_EMAIL", "approver@example.com");
  return wstest::run(argv, o);
}

std::string refs_of(const TempRepo& repo) { return repo.git({"for-each-ref", "--format=%(refname) %(objectname)"}); }

// The example workspace, committed, and a folder outside it whose files are
// valid definitions full of the canary, to be mounted inside.
struct MountedWorkspace {
  wstest::TempDir outside_dir;
  fs::path outside = fs::path(outside_dir.path());
  TempRepo repo;

  MountedWorkspace() {
    wstest::commit_example_workspace(repo, "Support desk workspace");
    write_file(outside / "AGcanary01.json",
               "{\n  \"name\": \"" + kCanary + "\",\n  \"description\": \"" + kCanary + "\"\n}\n");
    fs::create_directories(repo.abs("agents/mnt"));
  }
  std::string bind() const { return "mount --bind '" + outside.string() + "' \"$1/agents/mnt\""; }
};

std::string refusal(const std::string& tool, const std::string& path) {
  return tool + ": refused path '" + path +
         "': mount-point (the path is or goes through a mount point beneath the workspace root, and mounts are "
         "never crossed); unmount it or move the mount out of the workspace\n";
}

}  // namespace

// A folder outside the workspace bind-mounted into a kind's folder (same file
// system, so only the mount, not the device, tells it apart) and a tmpfs
// with a planted definition: every tool that walks the working tree refuses
// with one line naming the folder and the rule, prints nothing of what is
// mounted, and ws-commit stages nothing. An ignored mount point, and a root
// that is itself a mount point, are not refused.
TEST_CASE("mounts: no tool walks into a mount point beneath the root", "[mount][confinement]") {
  if (!can_mount()) return;
  MountedWorkspace w;
  const TempRepo& repo = w.repo;
  const std::string before = refs_of(repo);
  const std::string tmpfs = "mkdir -p \"$1/prompts/tmp\"\nmount -t tmpfs none \"$1/prompts/tmp\"\n"
                            "printf '%s\\n' '" + kCanary + "' > \"$1/prompts/tmp/PRcanary.md\"";
  struct Case {
    std::string mounts, path;
  };
  for (const Case& c : {Case{w.bind(), "agents/mnt"}, Case{tmpfs, "prompts/tmp"}}) {
    for (const auto& [name, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"ws-ls", {}},
             {"ws-ls", {"-l", "--json"}},
             {"ws-grep", {kCanary}},
             {"ws-build", {}},
             {"ws-build", {"--all", "--format", "github"}},
             {"ws-commit", {"-m", "Mounted"}}}) {
      auto r = in_mount_namespace(c.mounts, repo.path(), repo.path(), name, args);
      INFO(name << " with " << c.path << " -> " << r.status << "\nstdout: " << r.out << "\nstderr: " << r.err);
      CHECK(r.status == 1);
      CHECK(r.out == "");
      CHECK(r.err == refusal(name, c.path));
    }
  }
  CHECK(refs_of(repo) == before);
  CHECK(repo.git({"status", "--porcelain"}) == "");

  // A mount point git ignores is never entered, so it is left alone, as git
  // leaves it; the root itself may be a mount point.
  write_file(repo.abs(".gitignore"), "agents/mnt/\n");
  repo.commit_all("Ignore the mount");
  auto ls = in_mount_namespace(w.bind(), repo.path(), repo.path(), "ws-ls", {"--changed"});
  INFO("stdout: " << ls.out << "\nstderr: " << ls.err);
  CHECK(ls.status == 0);
  CHECK(ls.out == "");
  CHECK(ls.err == "");
  auto built = in_mount_namespace("mount --bind \"$1\" \"$1\"", repo.path(), repo.path(), "ws-build", {});
  INFO("stdout: " << built.out << "\nstderr: " << built.err);
  CHECK(built.status == 0);
  CHECK(built.out == "0 files changed, compiled clean.\n");
  // Files beneath a mounted root are read as without the mount.
  auto plain = wstest::ws("ws-grep", {"Triage"}, repo.path());
  REQUIRE(plain.status == 0);
  REQUIRE(plain.out != "");
  auto grep = in_mount_namespace("mount --bind \"$1\" \"$1\"", repo.path(), repo.path(), "ws-grep", {"Triage"});
  CHECK(grep.status == 0);
  CHECK(grep.out == plain.out);
  CHECK(grep.err == "");
}

// With settings only libgit2 handles (core.autocrlf), the view is libgit2's,
// whose own walk would cross the mount: the same refusal, before it runs.
TEST_CASE("mounts: the libgit2 view refuses a mount point too", "[mount][confinement]") {
  if (!can_mount()) return;
  MountedWorkspace w;
  w.repo.git({"config", "core.autocrlf", "true"});
  for (const std::string name : {"ws-build", "ws-commit"}) {
    auto r = in_mount_namespace(w.bind(), w.repo.path(), w.repo.path(), name,
                                name == "ws-commit" ? std::vector<std::string>{"-m", "x"} : std::vector<std::string>{});
    INFO(name << " -> " << r.status << "\nstdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.status == 1);
    CHECK(r.out == "");
    CHECK(r.err == refusal(name, "agents/mnt"));
  }
}

// A file bind-mounted over a definition is not a folder the walk enters; its
// bytes are still never read (openat2's RESOLVE_NO_XDEV, or the device and
// mount check of the fallback): the build reports WS017 naming the path and
// the rule, as for a link.
TEST_CASE("mounts: a file mounted over a definition is never read", "[mount][confinement]") {
  if (!can_mount()) return;
  MountedWorkspace w;
  const TempRepo& repo = w.repo;
  fs::remove(repo.abs("agents/mnt"));
  write_file(repo.abs("agents/AGfile01.json"), "{}\n");
  const std::string mounts =
      "mount --bind '" + (w.outside / "AGcanary01.json").string() + "' \"$1/agents/AGfile01.json\"";
  auto build = in_mount_namespace(mounts, repo.path(), repo.path(), "ws-build", {});
  INFO("stdout: " << build.out << "\nstderr: " << build.err);
  CHECK(build.status == 1);
  CHECK(build.out ==
        "agents/AGfile01.json: error[WS017]: refused path 'agents/AGfile01.json': mount-point (the path is or goes "
        "through a mount point beneath the workspace root, and mounts are never crossed); unmount it or move the "
        "mount out of the workspace\n"
        "1 error in 1 file (1 file changed)\n");
  auto grep = in_mount_namespace(mounts, repo.path(), repo.path(), "ws-grep", {kCanary});
  INFO("grep stdout: " << grep.out << "\ngrep stderr: " << grep.err);
  // ws-grep cannot search the file, and says so as for any unreadable one.
  CHECK(grep.status == 2);
  CHECK(grep.out == "");
  CHECK(grep.err == refusal("ws-grep", "agents/AGfile01.json"));
}

// The home directory is refused as a root whatever HOME says. With HOME
// unset, empty or relative it is the effective user's home in the password
// database. To test that honestly without touching the real one, the case
// bind-mounts a throwaway repository over that directory in a private mount
// namespace: the tool then really runs in a repository at getpwuid's home,
// and the machine's home directory is never written.
TEST_CASE("home: the password database's home is refused when HOME is unset", "[home]") {
  if (!can_mount()) return;
  const struct passwd* pw = ::getpwuid(::geteuid());
  if (!pw || !pw->pw_dir || std::string(pw->pw_dir).size() < 2 || !fs::is_directory(pw->pw_dir)) {
    WARN("the effective user has no home directory to stand in for; case skipped");
    return;
  }
  const std::string home = fs::canonical(pw->pw_dir).string();
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  const std::string mounts = "mount --bind \"$1\" '" + home + "'";
  const std::string refused = "ws-ls: refused workspace root '" + home +
                              "': it is the home directory; run inside a repository below it\n";

  struct Case {
    const char* what;
    wstest::RunOptions env;
  };
  wstest::RunOptions unset;
  unset.unset_env.push_back("HOME");
  wstest::RunOptions empty;
  empty.env["HOME"] = "";
  wstest::RunOptions relative;
  relative.env["HOME"] = ".";
  for (const Case& c : {Case{"unset", unset}, Case{"empty", empty}, Case{"relative", relative}}) {
    auto r = in_mount_namespace(mounts, repo.path(), home, "ws-ls", {}, c.env);
    INFO("HOME " << c.what << " -> " << r.status << "\nstdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.status == 2);  // a refused root: could not check (ws(7), EXIT STATUS)
    CHECK(r.out == "");
    CHECK(r.err == refused);
  }
  // HOME set to an absolute path is the home directory: the password
  // database's is then an ordinary folder, and the repository there works.
  wstest::TempDir elsewhere;
  wstest::RunOptions other;
  other.env["HOME"] = elsewhere.path();
  auto ok = in_mount_namespace(mounts, repo.path(), home, "ws-ls", {"--changed"}, other);
  INFO("stdout: " << ok.out << "\nstderr: " << ok.err);
  CHECK(ok.status == 0);
  CHECK(ok.err == "");
}

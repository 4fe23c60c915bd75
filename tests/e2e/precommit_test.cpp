// The pre-commit hook of .pre-commit-hooks.yaml, run by Debian's real
// `pre-commit` from a real `git commit`. The workspace's
// .pre-commit-config.yaml points at a temporary git repository holding a copy
// of this project's .pre-commit-hooks.yaml (file://, pinned by commit id), so
// the hook's name, entry and options are the file's own; pre-commit clones
// it locally, and `language: system` needs nothing downloaded.
#include <catch2/catch.hpp>

#include <filesystem>

#include "support/billing_rename.h"
#include "support/process.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;

using wstest::chomp;
using wstest::lines;
using wstest::RunResult;
using wstest::TempDir;
using wstest::TempRepo;

namespace {

const std::string kHookLine = "ws-build (compile the staged workspace changeset)";

// Everything pre-commit and the hook need, and nothing of the user's:
// the built tools on PATH, the source kind pack, a private HOME and
// pre-commit cache, no git configuration but the repository's.
struct Sandbox {
  TempDir home;
  std::map<std::string, std::string> env() const {
    auto env = wstest::hook_env();
    env["HOME"] = home.path();
    env["PRE_COMMIT_HOME"] = home.path() + "/pre-commit";
    env["PRE_COMMIT_COLOR"] = "never";
    return env;
  }
  RunResult run(const std::vector<std::string>& argv, const std::string& cwd) const {
    wstest::RunOptions o;
    o.cwd = cwd;
    o.env = env();
    o.unset_env = {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "NO_COLOR", "SKIP", "XDG_CACHE_HOME",
                   "PRE_COMMIT_ALLOW_NO_CONFIG", "PRE_COMMIT_CONFIG"};
    o.timeout_seconds = 180;
    return wstest::run(argv, o);
  }
};

// A repository holding a copy of .pre-commit-hooks.yaml, committed; returns its commit id.
std::string publish_hooks(const TempRepo& hooks) {
  fs::copy_file(fs::path(WS_SOURCE_DIR) / ".pre-commit-hooks.yaml", hooks.abs(".pre-commit-hooks.yaml"));
  return hooks.commit_all("ws hooks");
}

// The example workspace, committed with a .pre-commit-config.yaml using the
// ws-build hook, and `pre-commit install` run in it.
void make_workspace(const TempRepo& repo, const TempRepo& hooks, const std::string& rev, const Sandbox& box) {
  wstest::copy_example_workspace(repo);
  repo.write(".pre-commit-config.yaml",
             "repos:\n"
             "  - repo: file://" + hooks.path() + "\n"
             "    rev: " + rev + "\n"
             "    hooks:\n"
             "      - id: ws-build\n");
  repo.commit_all("Support desk workspace");
  auto installed = box.run({"pre-commit", "install"}, repo.path());
  INFO(installed.out + installed.err);
  REQUIRE(installed.status == 0);
  CHECK(installed.out == "pre-commit installed at .git/hooks/pre-commit\n");
  REQUIRE(fs::exists(repo.abs(".git/hooks/pre-commit")));
}

void half_rename(const TempRepo& repo) {
  for (const auto& r : wstest::kRenameBilling) repo.replace(r.path, r.from, r.to);
}

void finish_rename(const TempRepo& repo) {
  for (const auto& r : wstest::kFollowBillingRename) repo.replace(r.path, r.from, r.to);
}

std::string count(const TempRepo& repo) { return chomp(repo.git({"rev-list", "--count", "HEAD"})); }

// The line pre-commit prints for the hook: its name, dots, and the verdict.
bool has_verdict(const std::string& output, const std::string& verdict) {
  for (const auto& l : lines(output))
    if (l.rfind(kHookLine + "...", 0) == 0 && l.size() > verdict.size() &&
        l.compare(l.size() - verdict.size(), verdict.size(), verdict) == 0)
      return true;
  return false;
}

bool has_line(const std::string& output, const std::string& line) {
  for (const auto& l : lines(output))
    if (l == line) return true;
  return false;
}

}  // namespace

TEST_CASE("pre-commit: the ws-build hook refuses a broken commit and lets the finished one through",
          "[pre-commit]") {
  Sandbox box;
  auto version = box.run({"pre-commit", "--version"}, box.home.path());
  INFO("Debian's pre-commit package is needed (./dev installs it): " << version.err);
  REQUIRE(version.status == 0);
  TempRepo hooks;
  std::string rev = publish_hooks(hooks);
  TempRepo repo;
  make_workspace(repo, hooks, rev, box);
  std::string seed = chomp(repo.git({"rev-parse", "HEAD"}));

  // An agent renamed in its own file while a tool, an agent and a grant still use the old name.
  half_rename(repo);
  repo.git({"add", "-A"});
  auto refused = box.run({"git", "commit", "-m", "Rename the billing agent"}, repo.path());
  std::string said = refused.out + refused.err;
  INFO(said);
  CHECK(refused.status == 1);
  CHECK(has_verdict(said, "Failed"));
  CHECK(has_line(said, "- hook id: ws-build"));
  CHECK(has_line(said, "ai-tools/TLroute01.cs:8:18: error[WS013]: unresolved reference 'Agents.Billing'"));
  CHECK(has_line(said, "    return await Agents.Billing.Handoff(ticket);"));
  CHECK(has_line(said, "                 ^~~~~~~~~~~~~~"));
  CHECK(has_line(said, "agents/AGtriage01.json:8:17: error[WS013]: unresolved reference to agent 'Billing'"));
  CHECK(has_line(said,
                 "access/grants/GTsupport01.json:5:25: error[WS013]: unresolved reference to agent 'Billing'"));
  CHECK(has_line(said, "agents/AGbilling01.json:2:12: note: 'Billing' was renamed to 'Payments' in "
                       "agents/AGbilling01.json"));
  CHECK(has_line(said, "3 errors in 3 files (1 file changed)"));
  // No commit; the change is still staged, waiting for the rest of the rename.
  CHECK(chomp(repo.git({"rev-parse", "HEAD"})) == seed);
  CHECK(count(repo) == "1");
  CHECK(repo.git({"diff", "--cached", "--name-only"}) == "agents/AGbilling01.json\n");

  finish_rename(repo);
  repo.git({"add", "-A"});
  auto accepted = box.run({"git", "commit", "-q", "-m", "Rename the billing agent to Payments"}, repo.path());
  INFO(accepted.out + accepted.err);
  CHECK(accepted.status == 0);
  CHECK(has_verdict(accepted.out + accepted.err, "Passed"));
  CHECK(count(repo) == "2");
  CHECK(chomp(repo.git({"rev-parse", "HEAD^"})) == seed);
  CHECK(repo.git({"diff", "--name-only", "HEAD^", "HEAD"}) ==
        "access/grants/GTsupport01.json\nagents/AGbilling01.json\nagents/AGtriage01.json\nai-tools/TLroute01.cs\n");
  CHECK(repo.git({"status", "--porcelain"}) == "");
}

TEST_CASE("pre-commit: the hook sees what is committed with -a and a commit that only deletes",
          "[pre-commit]") {
  Sandbox box;
  TempRepo hooks;
  std::string rev = publish_hooks(hooks);
  TempRepo repo;
  make_workspace(repo, hooks, rev, box);

  // `git commit -a` commits a temporary index (GIT_INDEX_FILE), not .git/index:
  // the hook must check that one.
  half_rename(repo);
  auto all = box.run({"git", "commit", "-a", "-m", "Rename the billing agent"}, repo.path());
  INFO(all.out + all.err);
  CHECK(all.status == 1);
  CHECK(has_verdict(all.out + all.err, "Failed"));
  CHECK(has_line(all.out + all.err, "3 errors in 3 files (1 file changed)"));
  CHECK(count(repo) == "1");

  // Deleting the agent alone: pre-commit would pass no file to a `files:`
  // filter for it, so the hook runs always.
  repo.git({"checkout", "-q", "--", "."});
  repo.git({"rm", "-q", "agents/AGbilling01.json"});
  auto deleted = box.run({"git", "commit", "-m", "Drop the billing agent"}, repo.path());
  std::string said = deleted.out + deleted.err;
  INFO(said);
  CHECK(deleted.status == 1);
  CHECK(has_verdict(said, "Failed"));
  CHECK(has_line(said, "ai-tools/TLroute01.cs:8:18: error[WS013]: unresolved reference 'Agents.Billing'"));
  CHECK(has_line(said, "agents/AGbilling01.json: note: 'Billing' was deleted with agents/AGbilling01.json"));
  CHECK(count(repo) == "1");

  // A commit with no definition in it passes (the hook still runs, and finds nothing to compile).
  repo.git({"reset", "-q", "--hard"});
  repo.write(".gitignore", "*.tmp\n");
  repo.git({"add", ".gitignore"});
  auto other = box.run({"git", "commit", "-m", "Ignore scratch files"}, repo.path());
  INFO(other.out + other.err);
  CHECK(other.status == 0);
  CHECK(has_verdict(other.out + other.err, "Passed"));
  CHECK(count(repo) == "2");
}

// ws-apply and the index it follows (ws-apply(1) "INDEX" and "INTERRUPTED
// APPLY"): an entry the user staged is never overwritten, an apply killed
// at any instant is found by the next run and completed by one command, and
// a lock file ws-apply did not make is named with its age, never removed.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "support/process.h"
#include "support/proposal_tools.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::lines;
using wstest::TempRepo;
namespace fs = std::filesystem;

using wstest::fsck_clean;
using wstest::stage;
using wstest::ws;
namespace {

const std::string kAgent = "agents/AGalpha.json";

std::string agent(const std::string& description) {
  return "{\n  \"name\": \"Alpha\",\n  \"description\": \"" + description + "\"\n}\n";
}

void seed(const TempRepo& repo) {
  repo.write(kAgent, agent("seed"));
  repo.write("agents/AGbeta.json", "{\n  \"name\": \"Beta\"\n}\n");
  repo.write("ai-tools/TLlookup.cs", "// name: Lookup\nreturn await Agents.Alpha.Run();\n");
  repo.commit_all("seed");
}

// The commit `what` names, "" when it names none.
std::string commit_or_empty(const TempRepo& repo, const std::string& what) {
  auto r = repo.git_result({"rev-parse", "-q", "--verify", what});
  return r.status == 0 ? chomp(r.out) : "";
}

std::string file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Lock and temporary files under .git (objects aside), and the apply record.
std::vector<std::string> leftovers(const TempRepo& repo) {
  std::vector<std::string> out;
  const fs::path git = repo.abs(".git");
  for (auto it = fs::recursive_directory_iterator(git); it != fs::recursive_directory_iterator(); ++it) {
    if (it->path() == git / "objects") {
      it.disable_recursion_pending();
      continue;
    }
    auto name = it->path().filename().string();
    if (it->path().extension() == ".lock" || it->path().extension() == ".tmp" || name == "apply.json" ||
        name == "index.new")
      out.push_back(fs::relative(it->path(), repo.path()).string());
  }
  return out;
}

std::string interrupted_line(const std::string& id, const std::string& commit) {
  return "proposal " + id.substr(0, 12) + " was applied to 'main' as " + commit.substr(0, 12) +
         ", but the apply was interrupted before it finished; run 'ws-apply --continue' to complete it";
}

// Sets a file's modification time `seconds` into the past.
void age_file(const std::string& path, long seconds) {
  struct timeval tv[2];
  ::gettimeofday(&tv[0], nullptr);
  tv[0].tv_sec -= seconds;
  tv[1] = tv[0];
  REQUIRE(::utimes(path.c_str(), tv) == 0);
}

std::string staged_blob(const TempRepo& repo, const std::string& path) {
  auto ls = repo.git({"ls-files", "-s", "--", path});
  return ls.size() > 47 ? ls.substr(7, 40) : "";
}

}  // namespace

namespace {

// Several revisions in one git call (each must exist).
std::vector<std::string> revs(const TempRepo& repo, std::vector<std::string> what) {
  what.insert(what.begin(), "rev-parse");
  return lines(repo.git(what));
}

// The target of a ref, "" when it does not exist, without failing.
std::string ref_or_empty(const TempRepo& repo, const std::string& name) {
  return chomp(repo.git({"for-each-ref", "--format=%(objectname)", name}));
}

// How long one apply takes here, fork to exit: the kills land anywhere in it.
int apply_span_us(const TempRepo& repo, const wstest::RunOptions& o) {
  repo.write(kAgent, agent("warm-up"));
  std::string warm = stage(repo, "Warm-up");
  auto start = std::chrono::steady_clock::now();
  REQUIRE(wstest::run({wstest::tool("ws-apply"), warm}, o).status == 0);
  return static_cast<int>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count());
}

unsigned kill_loop_seed() {
  if (const char* s = std::getenv("WS_KILLLOOP_SEED")) return static_cast<unsigned>(std::strtoul(s, nullptr, 10));
  return std::random_device{}();
}

struct KillTally {
  int landed = 0, reported = 0;
};

// One round: stage, apply, kill after `at` us; then what the kill may leave.
void kill_round(const TempRepo& repo, const wstest::RunOptions& o, int round, int at, KillTally& tally) {
  repo.write(kAgent, agent("round " + std::to_string(round)));
  const std::string id = stage(repo, "Round " + std::to_string(round));
  const auto was = revs(repo, {"main", "main:" + kAgent});  // tip, blob
  wstest::run_and_kill({wstest::tool("ws-apply"), id}, o, at);

  // The branch is old or new, nothing else.
  const auto now = revs(repo, {"main", "main^", "main^{tree}", id + "^{tree}"});
  const bool moved = now[0] != was[0];
  if (moved) {
    ++tally.landed;
    CHECK(now[1] == was[0]);
    CHECK(now[2] == now[3]);
  }
  // The next read-only run reports the interrupted apply, or nothing; the
  // one command it names repairs it.
  auto ls = ws(repo, "ws-ls", {"--changed"});
  CHECK(ls.status == 0);
  if (!moved) CHECK(ls.err == "");
  if (!ls.err.empty()) {
    ++tally.reported;
    CHECK(ls.err == "ws-ls: " + interrupted_line(id, now[0]) + "\n");
    auto done = ws(repo, "ws-apply", {"--continue"});
    CHECK(done.status == 0);
    CHECK(done.out == "applied " + id + " to 'main' as " + now[0] + " (completed)\n");
    CHECK(done.err == "");
  }
  // The index is the tip's at the applied path (the old bytes when the
  // branch did not move), and the proposal is applied exactly when it landed.
  if (moved) {
    CHECK(repo.git({"diff", "--cached", "--name-only", "main", "--", kAgent}) == "");
    CHECK(ref_or_empty(repo, "refs/ws/applied/" + id) == now[0]);
    if (tally.landed % 4 == 1) CHECK(ws(repo, "ws-apply", {id}).status == 1);  // never twice
  } else {
    CHECK(staged_blob(repo, kAgent) == was[1]);
    CHECK(ref_or_empty(repo, "refs/ws/applied/" + id) == "");
  }
  CHECK(leftovers(repo) == std::vector<std::string>{});
  CHECK(fsck_clean(repo));
}

}  // namespace

TEST_CASE("apply: SIGKILL at 200 random instants leaves an apply that the next run reports or finds gone and one "
          "command repairs",
          "[killloop]") {
  TempRepo repo;  // one repository for every round
  seed(repo);
  wstest::RunOptions o = wstest::ws_options(repo.path());
  for (auto& [k, v] : wstest::approver_tool_env()) o.env[k] = v;
  const int span = apply_span_us(repo, o);
  const unsigned seed_value = kill_loop_seed();
  std::fprintf(stderr, "kill loop: seed %u (replay with WS_KILLLOOP_SEED=%u), apply span %d us\n", seed_value,
               seed_value, span);
  std::mt19937 rng(seed_value);
  std::uniform_int_distribution<int> delay(0, span + span / 4);
  KillTally tally;
  for (int round = 1; round <= 200; ++round) {
    const int at = delay(rng);
    INFO("seed " << seed_value << ", round " << round << ", killed after " << at << " us");
    kill_round(repo, o, round, at, tally);
  }
  std::fprintf(stderr, "kill loop: %d of 200 applies moved the branch before the kill, %d left one to complete\n",
               tally.landed, tally.reported);
  CHECK(tally.landed > 0);
  CHECK(tally.landed < 200);
}

TEST_CASE("apply: an index entry staged at a changed path is never overwritten and nothing is written",
          "[apply-index]") {
  TempRepo repo;
  seed(repo);
  repo.write(kAgent, agent("proposed"));
  repo.write("agents/AGgamma.json", "{\n  \"name\": \"Gamma\"\n}\n");
  std::string id = stage(repo, "Change alpha, add gamma");
  const std::string base = commit_or_empty(repo, "main");

  struct Case {
    const char* name;
    std::vector<std::vector<std::string>> git;  // how the user stages
    std::string paths;                           // the quoted paths the refusal names
  };
  std::vector<Case> cases{
      {"an edit staged at a modified path", {{"add", kAgent}}, "'agents/AGalpha.json'"},
      {"a removal staged at a modified path", {{"rm", "-q", "--cached", kAgent}}, "'agents/AGalpha.json'"},
      {"an addition staged at an added path", {{"add", "agents/AGgamma.json"}}, "'agents/AGgamma.json'"},
      {"an executable bit staged", {{"update-index", "--chmod=+x", kAgent}}, "'agents/AGalpha.json'"},
      {"an entry staged below a file the proposal adds",
       {{"update-index", "--add", "--cacheinfo", "100644," + commit_or_empty(repo, "main:agents/AGbeta.json") + ",agents/AGgamma.json/x"}},
       "'agents/AGgamma.json', 'agents/AGgamma.json/x'"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    repo.git({"reset", "-q"});
    repo.write(kAgent, "{\n  \"name\": \"Alpha\",\n  \"description\": \"HUMAN STAGED VERSION\"\n}\n");
    repo.write("agents/AGgamma.json", "{\n  \"name\": \"Gamma\",\n  \"description\": \"by hand\"\n}\n");
    for (const auto& g : c.git) repo.git(g);
    const std::string index_before = file_bytes(repo.abs(".git/index"));
    auto r = ws(repo, "ws-apply", {id});
    CHECK(r.status == 1);
    CHECK(r.out == "");
    CHECK(r.err == "ws-apply: the index has staged changes at " + c.paths + " that proposal " + id.substr(0, 12) +
                       " would overwrite; commit, unstage or stash them first\n");
    CHECK(file_bytes(repo.abs(".git/index")) == index_before);
    CHECK(commit_or_empty(repo, "main") == base);
    CHECK(commit_or_empty(repo, "refs/ws/applied/" + id) == "");
    CHECK(leftovers(repo) == std::vector<std::string>{});
  }

  SECTION("a conflict at a changed path is a staged change") {
    repo.git({"reset", "-q"});
    const std::string blob = commit_or_empty(repo, "main:" + kAgent);
    wstest::RunOptions o;
    o.cwd = repo.path();
    o.input = "0 0000000000000000000000000000000000000000\t" + kAgent + "\n100644 " + blob + " 1\t" + kAgent +
              "\n100644 " + blob + " 2\t" + kAgent + "\n";
    REQUIRE(wstest::run({"git", "update-index", "--index-info"}, o).status == 0);
    const std::string index_before = file_bytes(repo.abs(".git/index"));
    auto r = ws(repo, "ws-apply", {id});
    CHECK(r.status == 1);
    CHECK(r.err == "ws-apply: the index has staged changes at 'agents/AGalpha.json' that proposal " +
                       id.substr(0, 12) + " would overwrite; commit, unstage or stash them first\n");
    CHECK(file_bytes(repo.abs(".git/index")) == index_before);
    CHECK(commit_or_empty(repo, "main") == base);
  }
  SECTION("an entry equal to the proposal's is kept, one equal to the base's follows") {
    repo.git({"reset", "-q"});
    repo.write(kAgent, agent("proposed"));
    repo.git({"add", kAgent});  // what the proposal holds
    auto r = ws(repo, "ws-apply", {id});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.err == "");
    CHECK(commit_or_empty(repo, "main^") == base);
    CHECK(repo.git({"diff", "--cached", "--name-only", "main"}) == "");
    CHECK(fsck_clean(repo));
  }
}

TEST_CASE("apply: a branch checked out in another worktree is refused and that worktree left untouched", "[apply-index]") {
  TempRepo repo;
  seed(repo);
  wstest::TempDir holder;
  const std::string other = holder.path() + "/side";
  repo.git({"worktree", "add", "-q", "-b", "side", other});
  repo.write(kAgent, agent("proposed on main"));
  std::string id = stage(repo, "On main");
  // main moves to the linked worktree; this one goes to another branch.
  repo.git({"checkout", "-q", "-b", "elsewhere"});
  repo.git({"-C", other, "checkout", "-q", "main"});
  const std::string base = commit_or_empty(repo, "main");
  auto git_dir = chomp(repo.git({"-C", other, "rev-parse", "--absolute-git-dir"}));
  const std::string index_before = file_bytes(git_dir + "/index");
  auto r = ws(repo, "ws-apply", {id});
  CHECK(r.status == 1);
  CHECK(r.out == "");
  CHECK(r.err == "ws-apply: branch 'main' is checked out in the worktree '" + fs::canonical(other).string() +
                     "'; run ws-apply there, so that its index follows\n");
  CHECK(commit_or_empty(repo, "main") == base);
  CHECK(file_bytes(git_dir + "/index") == index_before);
  CHECK(commit_or_empty(repo, "refs/ws/applied/" + id) == "");
  // Run there, it applies and that worktree's index follows.
  auto there = wstest::ws("ws-apply", {id}, other, [] {
    wstest::RunOptions o;
    o.env = wstest::approver_tool_env();
    return o;
  }());
  INFO(there.err);
  CHECK(there.status == 0);
  CHECK(repo.git({"-C", other, "diff", "--cached", "--name-only", "main"}) == "");
}

TEST_CASE("apply: an apply cut short after the branch moved is reported by readers and refused by writers until completed",
          "[apply-recovery]") {
  TempRepo repo;
  seed(repo);
  repo.write(kAgent, agent("proposed"));
  std::string id = stage(repo, "One");
  const std::string base = commit_or_empty(repo, "main");
  const std::string old_blob = commit_or_empty(repo, "main:" + kAgent);
  // The new index cannot be written (a folder stands where its temporary
  // file goes): the branch moves, the index does not follow.
  fs::create_directories(repo.abs(".git/ws/index.new/x"));
  age_file(repo.abs(".git/ws/index.new"), 120);
  auto r = ws(repo, "ws-apply", {id});
  const std::string tip = commit_or_empty(repo, "main");
  CHECK(r.status == 0);
  CHECK(r.out == "applied " + id + " to 'main' as " + tip + "\n");
  CHECK(r.err == "ws-apply: warning: the apply did not finish (cannot write the index '" +
                     fs::canonical(repo.abs(".git/ws")).string() +
                     "/index.new': Is a directory); run 'ws-apply --continue' to complete it\n");
  CHECK(commit_or_empty(repo, "main^") == base);
  CHECK(staged_blob(repo, kAgent) == old_blob);
  const std::string line = interrupted_line(id, tip);
  // The folder in the way is not the apply's own: named, with its age.
  const std::string folder = "lock file '.git/ws/index.new', 2 minutes old was not made by the apply of proposal " +
                             id.substr(0, 12) + "; if no git is running, remove it";

  // Read-only tools say so and go on.
  auto ls = ws(repo, "ws-ls", {"--changed"});
  CHECK(ls.status == 0);
  CHECK(ls.out == "");
  CHECK(ls.err == "ws-ls: " + line + "\nws-ls: " + folder + "\n");
  auto grep = ws(repo, "ws-grep", {"Alpha"});
  CHECK(grep.status == 0);
  CHECK(grep.err == "ws-grep: " + line + "\nws-grep: " + folder + "\n");
  auto build = ws(repo, "ws-build", {});
  CHECK(build.status == 0);
  CHECK(build.err == "ws-build: " + line + "\nws-build: " + folder + "\n");
  auto list = ws(repo, "ws-apply", {"--list"});
  CHECK(list.status == 0);
  CHECK(list.err == "ws-apply: " + line + "\nws-apply: " + folder + "\n");
  CHECK(fs::is_directory(repo.abs(".git/ws/index.new/x")));
  // Tools that write refuse.
  auto commit = ws(repo, "ws-commit", {"--staged", "-m", "Would revert it"});
  CHECK(commit.status == 1);
  CHECK(commit.out == "");
  CHECK(commit.err == "ws-commit: " + line + "\n");
  auto again = ws(repo, "ws-apply", {id});
  CHECK(again.status == 1);
  CHECK(again.err == "ws-apply: " + line + "\n");
  auto reject = ws(repo, "ws-apply", {"--reject", id, "-m", "not now"});
  CHECK(reject.status == 1);
  CHECK(reject.err == "ws-apply: " + line + "\n");
  CHECK(commit_or_empty(repo, "refs/ws/rejected/" + id) == "");

  SECTION("--continue completes it") {
    fs::remove_all(repo.abs(".git/ws/index.new"));
    auto done = ws(repo, "ws-apply", {"--continue"});
    CHECK(done.status == 0);
    CHECK(done.out == "applied " + id + " to 'main' as " + tip + " (completed)\n");
    CHECK(done.err == "");
    CHECK(repo.git({"diff", "--cached", "--name-only", "main"}) == "");
    CHECK(commit_or_empty(repo, "refs/ws/applied/" + id) == tip);
    CHECK(ws(repo, "ws-ls", {"--changed"}).err == "");
    CHECK(leftovers(repo) == std::vector<std::string>{});
    auto nothing = ws(repo, "ws-apply", {"--continue"});
    CHECK(nothing.status == 2);
    CHECK(nothing.err == "ws-apply: no interrupted apply to continue in this worktree\n");
  }
  SECTION("--continue never overwrites what was staged since, and says so") {
    fs::remove_all(repo.abs(".git/ws/index.new"));
    repo.write(kAgent, agent("staged by hand since"));
    repo.git({"add", kAgent});
    const std::string mine = staged_blob(repo, kAgent);
    auto done = ws(repo, "ws-apply", {"--continue"});
    CHECK(done.status == 0);
    CHECK(done.out == "applied " + id + " to 'main' as " + tip + " (completed)\n");
    CHECK(done.err == "ws-apply: warning: the index keeps what was staged at 'agents/AGalpha.json' since the "
                      "apply; it differs from the applied commit there\n");
    CHECK(staged_blob(repo, kAgent) == mine);
    CHECK(leftovers(repo) == std::vector<std::string>{});
  }
}

TEST_CASE("apply: a lock file ws-apply did not make is named with its age and never removed", "[apply-recovery]") {
  TempRepo repo;
  seed(repo);
  repo.write(kAgent, agent("proposed"));
  std::string id = stage(repo, "One");
  const std::string base = commit_or_empty(repo, "main");

  SECTION("the branch lock, with no record") {
    { std::ofstream(repo.abs(".git/refs/heads/main.lock")) << ""; }
    age_file(repo.abs(".git/refs/heads/main.lock"), 7200);
    auto r = ws(repo, "ws-apply", {id});
    CHECK(r.status == 1);
    CHECK(r.err == "ws-apply: branch 'main' is locked by another process ('.git/refs/heads/main.lock', 2 hours "
                   "old); if no git or ws-apply is running, remove the lock file and retry\n");
    CHECK(fs::exists(repo.abs(".git/refs/heads/main.lock")));
    CHECK(commit_or_empty(repo, "main") == base);
    CHECK(ws(repo, "ws-ls", {}).err == "");
    CHECK(fs::exists(repo.abs(".git/refs/heads/main.lock")));
    CHECK(!fs::exists(repo.abs(".git/ws/apply.json")));
  }
  SECTION("the index lock, with no record") {
    { std::ofstream(repo.abs(".git/index.lock")) << "DIRC"; }
    age_file(repo.abs(".git/index.lock"), 180);
    const std::string index_before = file_bytes(repo.abs(".git/index"));
    auto r = ws(repo, "ws-apply", {id});
    CHECK(r.status == 1);
    CHECK(r.err == "ws-apply: the index is locked by another process ('.git/index.lock', 3 minutes old); if no "
                   "git is running, remove the lock file and retry\n");
    CHECK(file_bytes(repo.abs(".git/index.lock")) == "DIRC");
    CHECK(file_bytes(repo.abs(".git/index")) == index_before);
    CHECK(commit_or_empty(repo, "main") == base);
    CHECK(!fs::exists(repo.abs(".git/ws/apply.json")));
  }
  SECTION("the applied ref's lock, older than the record") {
    fs::create_directories(repo.abs(".git/refs/ws/applied"));
    const std::string lock = ".git/refs/ws/applied/" + id + ".lock";
    { std::ofstream(repo.abs(lock)) << ""; }
    age_file(repo.abs(lock), 3 * 86400);
    auto r = ws(repo, "ws-apply", {id});
    const std::string tip = commit_or_empty(repo, "main");
    CHECK(r.status == 0);
    CHECK(commit_or_empty(repo, "main^") == base);
    const std::string locked = "'refs/ws/applied/" + id + "' is locked by another process ('" + lock +
                               "', 3 days old); if no git or ws-apply is running, remove the lock file and run "
                               "'ws-apply --continue'";
    CHECK(r.err == "ws-apply: warning: the apply did not finish (" + locked + "); run 'ws-apply --continue' to "
                   "complete it\n");
    auto ls = ws(repo, "ws-ls", {});
    CHECK(ls.err == "ws-ls: " + interrupted_line(id, tip) + "\nws-ls: lock file '" + lock +
                        "', 3 days old was not made by the apply of proposal " + id.substr(0, 12) +
                        "; if no git is running, remove it\n");
    auto cont = ws(repo, "ws-apply", {"--continue"});
    CHECK(cont.status == 1);
    CHECK(cont.err == "ws-apply: " + locked + "\n");
    CHECK(fs::exists(repo.abs(lock)));
    CHECK(fs::exists(repo.abs(".git/ws/apply.json")));
    fs::remove(repo.abs(lock));
    auto done = ws(repo, "ws-apply", {"--continue"});
    CHECK(done.status == 0);
    CHECK(commit_or_empty(repo, "refs/ws/applied/" + id) == tip);
    CHECK(repo.git({"diff", "--cached", "--name-only", "main"}) == "");
    CHECK(leftovers(repo) == std::vector<std::string>{});
  }
  CHECK(fsck_clean(repo));
}

TEST_CASE("apply: a damaged apply record is named and never acted on", "[apply-recovery]") {
  TempRepo repo;
  seed(repo);
  repo.write(kAgent, agent("proposed"));
  std::string id = stage(repo, "One");
  fs::create_directories(repo.abs(".git/ws"));
  const std::string path = fs::canonical(repo.abs(".git/ws")).string() + "/apply.json";
  std::string msg;
  SECTION("one that does not parse") {
    { std::ofstream(path) << "{\"ws_apply_record\": 1, \"proposal\": \"x\"}\n"; }
    msg = "the apply record '" + path + "' is damaged; if no ws-apply is running, look at it, then remove it";
  }
  SECTION("a FIFO, which no tool may block on") {
    REQUIRE(::mkfifo(path.c_str(), 0644) == 0);
    msg = "the apply record '" + path + "' is not a regular file; remove it";
  }
  SECTION("one that names a file its apply would not make") {
    // Well formed, the apply did not happen: acted on, the victim (empty,
    // newer than the record) would go as one of its "own" lock files.
    const std::string victim = repo.abs("victim");
    const std::string base = commit_or_empty(repo, "main");
    { std::ofstream(path) << "{\"ws_apply_record\": 1, \"pid\": 1, \"proposal\": \"" + id + "\", \"branch\": "
                             "\"refs/heads/main\", \"old\": \"" + base + "\", \"new\": \"" + id + "\", \"index\": \"\", "
                             "\"changes\": [], \"locks\": [\"" + victim + "\"]}\n"; }
    age_file(path, 60);
    { std::ofstream(victim) << ""; }
    msg = "the apply record '" + path +
          "' names files that are not its apply's; if no ws-apply is running, look at it, then remove it";
    auto ls = ws(repo, "ws-ls", {});
    CHECK(ls.err == "ws-ls: " + msg + "\n");
    CHECK(fs::exists(victim));
    fs::remove(victim);
  }
  auto ls = ws(repo, "ws-ls", {});
  CHECK(ls.status == 0);
  CHECK(ls.err == "ws-ls: " + msg + "\n");
  auto r = ws(repo, "ws-apply", {id});
  CHECK(r.status == 2);
  CHECK(r.err == "ws-apply: " + msg + "\n");
  CHECK(fs::exists(path));
  CHECK(commit_or_empty(repo, "refs/ws/applied/" + id) == "");
}

// One depth cap for every tree walk (ws(7), PATH POLICY, too-long): a tree
// nested 100,000 folders deep, written by hand into a proposal or a commit,
// is refused by every tool within seconds, naming the first path past the
// cap and the rule; and an index holding a path git itself would refuse
// ('..', '//') is named with its path and rule, not libgit2's "invalid entry".
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "support/hand_made.h"
#include "support/process.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::RunResult;
using wstest::TempRepo;

namespace {

constexpr int kDeep = 100000;
const std::string kTooLong =
    "': too-long (over 4096 bytes, a component over 255, or over 256 components); use shorter names and fewer folders";

struct Timed {
  RunResult r;
  double seconds;
};

// A tool run with a deadline: a walk that is not linear times out.
Timed timed(const TempRepo& repo, const std::string& tool, const std::vector<std::string>& args) {
  wstest::RunOptions o;
  o.timeout_seconds = 30;
  auto start = std::chrono::steady_clock::now();
  RunResult r = wstest::ws(tool, args, repo.path(), o);
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  return {r, took.count()};
}

// The example workspace as the base, and a proposal on it that adds the
// folder 'deep' holding `kDeep` nested folders 'd' around one agent file.
struct DeepProposal {
  TempRepo repo;
  std::string base, id, refused_path;
  DeepProposal() {
    base = wstest::commit_example_workspace(repo, "example workspace");
    std::string blob = wstest::write_blob(repo, "{\"name\": \"Deep\"}\n");
    std::string deep = wstest::write_nested_folders(repo, "d", kDeep, {"100644", "f.json", blob});
    std::string top = wstest::tree_with(repo, chomp(repo.git({"rev-parse", "HEAD^{tree}"})), "", {"40000", "deep", deep});
    id = wstest::plant_proposal(repo, {top, base, "Deep change"});
    // The folder at 256 components holds the first path past the cap.
    refused_path = "deep/";
    for (int i = 0; i < 255; ++i) refused_path += "d/";
    refused_path += "d";
  }
  std::string refusal() const { return "refused path '" + refused_path + kTooLong; }
};

}  // namespace

TEST_CASE("depth cap: a proposal 100,000 folders deep is refused promptly by --show, apply, build, ls and grep",
          "[depth-cap][proposal]") {
  DeepProposal p;
  const std::string id12 = p.id.substr(0, 12);
  const std::string branch_before = chomp(p.repo.git({"rev-parse", "refs/heads/main"}));

  for (std::vector<std::string> args : {std::vector<std::string>{"--show", p.id},
                                        std::vector<std::string>{"--show", p.id, "--stat"},
                                        std::vector<std::string>{"--show", p.id, "--json"}}) {
    INFO(args.back());
    auto t = timed(p.repo, "ws-apply", args);
    CHECK_FALSE(t.r.timed_out);
    CHECK(t.seconds < 5);
    CHECK(t.r.status == 1);
    CHECK(t.r.out == "");
    CHECK(t.r.err == "ws-apply: cannot show proposal " + id12 + ": " + p.refusal() + "\n");
  }

  auto list = timed(p.repo, "ws-apply", {"--list", "--json"});
  CHECK(list.r.status == 0);
  CHECK(nlohmann::json::parse(chomp(list.r.out))["id"] == p.id);

  auto apply = timed(p.repo, "ws-apply", {p.id});
  CHECK_FALSE(apply.r.timed_out);
  CHECK(apply.seconds < 5);
  CHECK(apply.r.status == 1);
  CHECK(apply.r.err == "ws-apply: proposal " + id12 + " refused: " + p.refusal() + "\n");
  CHECK(chomp(p.repo.git({"rev-parse", "refs/heads/main"})) == branch_before);
  CHECK(p.repo.git({"status", "--porcelain"}) == "");

  for (const std::string view : {"--proposal", "--rev"}) {
    for (auto [tool, args] : {std::pair{std::string("ws-ls"), std::vector<std::string>{view, p.id}},
                              std::pair{std::string("ws-ls"), std::vector<std::string>{view, p.id, "--json"}},
                              std::pair{std::string("ws-grep"), std::vector<std::string>{view, p.id, "Deep"}},
                              std::pair{std::string("ws-build"), std::vector<std::string>{view, p.id}},
                              std::pair{std::string("ws-build"), std::vector<std::string>{view, p.id, "--json"}}}) {
      INFO(tool << " " << view << " " << args.back());
      auto t = timed(p.repo, tool, args);
      CHECK_FALSE(t.r.timed_out);
      CHECK(t.seconds < 5);
      CHECK(t.r.status == 2);
      CHECK(t.r.out == "");
      CHECK(t.r.err == tool + ": " + p.refusal() + "\n");
    }
  }
}

TEST_CASE("depth cap: a tree exactly at the cap is walked, one level more is refused naming its path",
          "[depth-cap]") {
  TempRepo repo;
  std::string base = wstest::commit_example_workspace(repo, "example workspace");
  std::string blob = wstest::write_blob(repo, "x\n");
  std::string root = chomp(repo.git({"rev-parse", "HEAD^{tree}"}));
  // 'deep' + 254 folders + the file: 256 components, the most a path may have.
  std::string ok = wstest::tree_with(repo, root, "", {"40000", "deep", wstest::write_nested_folders(repo, "d", 255, {"100644", "f", blob})});
  std::string over = wstest::tree_with(repo, root, "", {"40000", "deep", wstest::write_nested_folders(repo, "d", 256, {"100644", "f", blob})});
  std::string ok_commit = chomp(repo.git({"commit-tree", ok, "-p", base, "-m", "at the cap"}));
  std::string over_commit = chomp(repo.git({"commit-tree", over, "-p", base, "-m", "past the cap"}));
  std::string ok_path = "deep/", over_path = "deep/";
  for (int i = 0; i < 254; ++i) ok_path += "d/";
  for (int i = 0; i < 255; ++i) over_path += "d/";
  ok_path += "f";
  over_path += "f";

  auto at = wstest::ws("ws-ls", {"--rev", ok_commit, "--changed"}, repo.path());
  CHECK(at.status == 0);
  CHECK(at.out == ok_path + "\n");
  auto past = wstest::ws("ws-ls", {"--rev", over_commit, "--changed"}, repo.path());
  CHECK(past.status == 2);
  CHECK(past.out == "");
  CHECK(past.err == "ws-ls: refused path '" + over_path + kTooLong + "\n");
  auto show = wstest::ws("ws-apply", {"--show", wstest::plant_proposal(repo, {over, base, "past the cap"}), "--stat"},
                         repo.path());
  CHECK(show.status == 1);
  CHECK(show.err.find("refused path '" + over_path + kTooLong) != std::string::npos);
}

namespace {

// The example workspace committed, then `staged` staged under a same-length
// stand-in name and renamed in the index by hand to `hostile`.
void stage_as(const TempRepo& repo, const std::string& staged, const std::string& hostile) {
  wstest::commit_example_workspace(repo, "example workspace");
  repo.write(staged, "{\"name\": \"Sneaky\"}\n");
  repo.git({"add", staged});
  repo.remove(staged);
  wstest::rewrite_index_entry(repo, staged, 0100644, hostile);
}

}  // namespace

TEST_CASE("depth cap: an index holding 'agents/../c.json' or 'agents//c.json' is refused naming the path and the rule",
          "[depth-cap][index]") {
  using Run = std::pair<std::string, std::vector<std::string>>;
  const std::vector<Run> staged_runs{{"ws-ls", {"--staged"}},
                                     {"ws-ls", {"--staged", "--json"}},
                                     {"ws-grep", {"--staged", "Sneaky"}},
                                     {"ws-build", {"--staged"}},
                                     {"ws-commit", {"--staged", "-m", "x"}}};
  std::vector<Run> all_runs = staged_runs;
  all_runs.insert(all_runs.end(), {{"ws-ls", {}}, {"ws-grep", {"Sneaky"}}, {"ws-commit", {"-m", "x"}}});
  // '0x' and '..' both sort before the example's agents: the index stays in
  // git's order, so that only the path is wrong, and a working-tree view
  // (which matches no file to it) reads it as git's own status would. 'zz'
  // leaves it out of order too, which sends every view to libgit2.
  struct Case {
    std::string staged;
    const std::vector<Run>* runs;
  };
  for (const Case& c : {Case{"agents/0x/c.json", &staged_runs}, Case{"agents/zz/c.json", &all_runs}}) {
    TempRepo repo;
    stage_as(repo, c.staged, "agents/../c.json");
    std::string index = repo.path() + "/.git/index";
    for (const auto& [tool, args] : *c.runs) {
      INFO(c.staged << " " << tool << " " << (args.empty() ? "" : args[0]));
      auto r = wstest::ws(tool, args, repo.path());
      CHECK(r.status == 2);
      CHECK(r.out == "");
      CHECK(r.err == tool + ": cannot read the index '" + index + "': refused path 'agents/../c.json': dot-component "
                            "('.' and '..' are not allowed); name the file by its plain repository-relative path\n");
    }
    CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");
  }
  // An empty component libgit2 loads: the view goes on, and the path is
  // refused by its rule where it is read.
  TempRepo repo;
  stage_as(repo, "agents/xc.json", "agents//c.json");
  const std::string refusal =
      "refused path 'agents//c.json': dot-component (empty components, as in 'a//b' or a trailing '/', are not "
      "allowed); name the file by its plain repository-relative path";
  auto ls = wstest::ws("ws-ls", {"--staged", "--changed"}, repo.path());
  CHECK(ls.status == 1);
  CHECK(ls.err == "ws-ls: " + refusal + "\n");
  auto b = wstest::ws("ws-build", {"--staged"}, repo.path());
  CHECK(b.status == 1);
  CHECK(b.out.find("agents//c.json: error[WS004]: " + refusal + "\n") != std::string::npos);
  auto c = wstest::ws("ws-commit", {"-m", "x"}, repo.path());
  CHECK(c.status == 1);
  CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");
}

// ws-build --base A --rev B where A is not an ancestor of B checks what will
// land: the merge of B into A (ws-build(1), MERGE RESULTS). Real branches in a
// temporary repository, diverged the way a merge request and its target do.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>

#include "support/billing_rename.h"
#include "support/hand_made.h"
#include "support/process.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::RunResult;
using wstest::TempRepo;

namespace {

const std::string kBillingEscalation =
    "// name: EscalateBilling\n"
    "// description: Hands a ticket to the billing agent\n"
    "return await Agents.Billing.Run(args.Ticket);\n";

// The example workspace at `fork`, then two lines of work from it: the
// request on branch `request`, and main going on. Ends on main.
struct Diverged {
  TempRepo repo;
  std::string fork;

  Diverged() {
    fork = wstest::commit_example_workspace(repo, "Support desk workspace");
  }
  std::string on(const std::string& branch, const std::function<void()>& work, const std::string& message) {
    if (chomp(repo.git({"branch", "--list", branch})).empty()) repo.git({"branch", branch, fork});
    repo.git({"checkout", "-q", branch});
    work();
    std::string commit = repo.commit_all(message);
    repo.git({"checkout", "-q", "main"});
    return commit;
  }
  // The whole rename of the billing agent, every referrer followed.
  void rename_billing() {
    for (const auto& r : wstest::kRenameBilling) repo.replace(r.path, r.from, r.to);
    for (const auto& r : wstest::kFollowBillingRename) repo.replace(r.path, r.from, r.to);
  }
  RunResult build(std::vector<std::string> args) const { return wstest::ws("ws-build", args, repo.path()); }
  // Everything a check must leave as it was.
  std::string state() const {
    return repo.git({"for-each-ref", "--format=%(refname) %(objectname)"}) + repo.git({"rev-parse", "HEAD"}) +
           repo.git({"status", "--porcelain=v1", "--untracked-files=all"}) + repo.read(".git/index");
  }
  std::string loose_objects() const { return repo.git({"count-objects"}); }
};

}  // namespace

TEST_CASE("merge result: a rename that main's new referrer breaks fails, at the referrer, naming main's commit",
          "[merge][ci]") {
  Diverged d;
  std::string request = d.on("request", [&] { d.rename_billing(); }, "Rename the billing agent to Payments");
  std::string added = d.on("main", [&] { d.repo.write("ai-tools/TLescalate01.cs", kBillingEscalation); },
                           "Add a billing escalation tool");
  // Each side builds clean on its own.
  CHECK(d.build({"--base", d.fork, "--rev", "request"}).status == 0);
  CHECK(d.build({"--base", d.fork, "--rev", "main"}).status == 0);

  const std::string before = d.state();
  auto r = d.build({"--base", "main", "--rev", "request"});
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(r.err.empty());
  CHECK(r.out ==
        "ai-tools/TLescalate01.cs:3:14: error[WS013]: unresolved reference 'Agents.Billing'\n"
        "return await Agents.Billing.Run(args.Ticket);\n"
        "             ^~~~~~~~~~~~~~\n"
        "agents/AGbilling01.json:2:12: note: 'Billing' was renamed to 'Payments' in agents/AGbilling01.json\n"
        "  \"name\": \"Payments\",\n"
        "           ^~~~~~~~\n"
        "ai-tools/TLescalate01.cs: note: 'ai-tools/TLescalate01.cs' changed on 'main' after the change forked from "
        "it, in " + added.substr(0, 12) + " 'Add a billing escalation tool'\n"
        "1 error in 1 file (4 files changed)\n");
  CHECK(d.state() == before);

  // --no-merge compares the trees as they are: main's new tool reads as
  // deleted by the request, and the broken merge passes.
  auto direct = d.build({"--base", "main", "--rev", "request", "--no-merge"});
  INFO(direct.out);
  CHECK(direct.status == 0);
  (void)request;
}

TEST_CASE("merge result: a textual conflict is WS021 at its path, the rest still checked", "[merge][ci]") {
  Diverged d;
  d.on("request", [&] {
    d.repo.replace("agents/AGtriage01.json", "\"handoffs\": [\"Billing\"]", "\"handoffs\": [\"Billing\", \"Nobody\"]");
    d.repo.replace("ai-tools/TLroute01.cs", "Agents.Billing", "Agents.Nowhere");
  }, "Hand off to more agents");
  d.on("main", [&] {
    d.repo.replace("agents/AGtriage01.json", "\"handoffs\": [\"Billing\"]", "\"handoffs\": []");
  }, "Stop handing off");
  const std::string before = d.state();
  auto r = d.build({"--base", "main", "--rev", "request"});
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(r.out ==
        "agents/AGtriage01.json: error[WS021]: 'agents/AGtriage01.json' conflicts with 'main': git cannot merge "
        "the change into it; rebase the change onto 'main' and resolve the conflict\n"
        "agents/AGtriage01.json:8:28: error[WS010]: unresolved reference to agent 'Nobody'\n"
        "  \"handoffs\": [\"Billing\", \"Nobody\"]\n"
        "                           ^~~~~~\n"
        "ai-tools/TLroute01.cs:8:18: error[WS010]: unresolved reference 'Agents.Nowhere'\n"
        "    return await Agents.Nowhere.Handoff(ticket);\n"
        "                 ^~~~~~~~~~~~~~\n"
        "3 errors in 2 files (2 files changed)\n");
  CHECK(d.state() == before);
}

TEST_CASE("merge result: what main gained is not read as deleted by the request", "[merge][ci]") {
  Diverged d;
  d.on("request", [&] {
    d.repo.write("ai-tools/TLescalate01.cs",
                 "// name: EscalateTicket\nreturn await Agents.Triage.Run(args.Ticket);\n");
  }, "Add an escalation tool");
  d.on("main", [&] { d.repo.write("agents/AGrefunds01.json", "{\n  \"name\": \"Refunds\"\n}\n"); },
       "Add a refunds agent");
  auto r = d.build({"--base", "main", "--rev", "request"});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "1 file changed, compiled clean.\n");
}

TEST_CASE("merge result: a base that is an ancestor is checked directly, nothing written", "[merge][ci]") {
  Diverged d;
  d.on("request", [&] { d.rename_billing(); }, "Rename the billing agent to Payments");
  const std::string objects = d.loose_objects();
  auto r = d.build({"--base", d.fork, "--rev", "request", "--no-cache"});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(d.loose_objects() == objects);
}

TEST_CASE("merge result: a hostile commit subject on main reaches the note escaped", "[merge][ci][terminal]") {
  Diverged d;
  d.on("request", [&] { d.rename_billing(); }, "Rename the billing agent to Payments");
  std::string added = d.on("main", [&] { d.repo.write("ai-tools/TLescalate01.cs", kBillingEscalation); },
                           "Add \x1b]0;owned\x07 tool\x1b[2J");
  auto r = d.build({"--base", "main", "--rev", "request"});
  CHECK(r.status == 1);
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.out.find('\x07') == std::string::npos);
  CHECK(r.out.find("in " + added.substr(0, 12) + " 'Add ") != std::string::npos);
}

namespace {

// A request written past git's checks, forked where `d` forked: the triage
// agent's handoffs changed against main's change to them, as an executable
// file (100755), beside a link (120000) to the billing agent and a gitlink
// (160000); with `dot_git`, also a folder named '.git' holding a config.
std::string hand_made_request(const Diverged& d, bool dot_git) {
  const TempRepo& repo = d.repo;
  std::string triage = repo.git({"show", d.fork + ":agents/AGtriage01.json"});
  const std::string from = "\"handoffs\": [\"Billing\"]";
  triage.replace(triage.find(from), from.size(), "\"handoffs\": [\"Billing\", \"Nobody\"]");
  std::string tree = chomp(repo.git({"rev-parse", d.fork + "^{tree}"}));
  tree = wstest::tree_with(repo, tree, "agents", {"100755", "AGtriage01.json", wstest::write_blob(repo, triage)});
  tree = wstest::tree_with(repo, tree, "agents",
                           {"120000", "AGlink01.json", wstest::write_blob(repo, "AGbilling01.json")});
  tree = wstest::tree_with(repo, tree, "", {"160000", "vendor", d.fork});
  if (dot_git) {
    std::string config = wstest::write_blob(repo, "[core]\n\tworktree = /\n");
    std::string folder = wstest::write_raw_tree(repo, {{"100644", "config", config}});
    tree = wstest::tree_with(repo, tree, "", {"40000", ".git", folder});
  }
  return chomp(repo.git({"commit-tree", tree, "-p", d.fork, "-m", "Hand-made request"}));
}

}  // namespace

TEST_CASE("merge result: a hand-made request with odd modes and a '.git' folder is refused by that path's rule",
          "[merge][hostile]") {
  Diverged d;
  d.on("main", [&] {
    d.repo.replace("agents/AGtriage01.json", "\"handoffs\": [\"Billing\"]", "\"handoffs\": []");
  }, "Stop handing off");
  const std::string main = chomp(d.repo.git({"rev-parse", "main"}));
  const std::string request = hand_made_request(d, /*dot_git=*/true);
  const std::string before = d.state();
  auto r = d.build({"--base", "main", "--rev", request});
  CHECK(r.status == 1);
  CHECK(r.out == "");
  CHECK(r.err == "ws-build: cannot merge '" + request + "' into '" + main +
                     "': refused path '.git/config': git-dir (a component is a spelling of '.git', git's own "
                     "directory); rename that component\n");
  CHECK(d.state() == before);

  // Without the '.git' folder the same request merges: the conflict, the
  // link and the gitlink are each the build's own one-line finding.
  const std::string plain = hand_made_request(d, /*dot_git=*/false);
  r = d.build({"--base", "main", "--rev", plain});
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(r.err == "");
  CHECK(r.out ==
        "agents/AGlink01.json: error[WS017]: refused to read 'agents/AGlink01.json': symlink (links are never "
        "followed)\n"
        "agents/AGtriage01.json: error[WS021]: 'agents/AGtriage01.json' conflicts with 'main': git cannot merge "
        "the change into it; rebase the change onto 'main' and resolve the conflict\n"
        "agents/AGtriage01.json:8:28: error[WS010]: unresolved reference to agent 'Nobody'\n"
        "  \"handoffs\": [\"Billing\", \"Nobody\"]\n"
        "                           ^~~~~~\n"
        "vendor: error[WS017]: refused to read 'vendor': submodule (a workspace holds plain files only)\n"
        "4 errors in 3 files (3 files changed)\n");
  CHECK(d.state() == before);
}

namespace {

// The `script:` lines of docs/ci.md's GitLab recipe, as the runner would run them.
std::vector<std::string> gitlab_script() {
  std::ifstream in(std::string(WS_SOURCE_DIR) + "/docs/ci.md");
  std::string line;
  bool in_gitlab = false, in_script = false;
  std::vector<std::string> out;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) in_gitlab = line.find("GitLab") != std::string::npos;
    if (!in_gitlab) continue;
    if (line == "  script:") { in_script = true; continue; }
    if (in_script && line.rfind("    - ", 0) == 0) out.push_back(line.substr(6));
    else if (in_script && line.rfind("    #", 0) != 0) in_script = false;
  }
  return out;
}

// The one-line `run:` steps of docs/ci.md's GitHub recipe that call
// ws-build, as the runner would run them.
std::vector<std::string> github_steps() {
  std::ifstream in(std::string(WS_SOURCE_DIR) + "/docs/ci.md");
  std::string line;
  bool in_github = false;
  std::vector<std::string> out;
  const std::string run = "        run: ";
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) in_github = line.find("GitHub") != std::string::npos;
    if (in_github && line.rfind(run, 0) == 0 && line.find("ws-build") != std::string::npos)
      out.push_back(line.substr(run.size()));
  }
  return out;
}

// Runs one recipe step with sh in `checkout`, the tools on PATH.
RunResult run_step(const std::string& checkout, const std::string& step, const std::map<std::string, std::string>& env) {
  wstest::RunOptions o = wstest::ws_options(checkout);
  const char* path = std::getenv("PATH");
  o.env["PATH"] = std::string(WS_BIN_DIR) + ":" + (path ? path : "/usr/bin:/bin");
  for (const auto& [k, v] : env) o.env[k] = v;
  return wstest::run({"sh", "-ec", step}, o);
}

}  // namespace

TEST_CASE("merge result: docs/ci.md's GitHub recipe on the pull request's merge ref refuses the semantic conflict",
          "[merge][ci]") {
  Diverged d;
  d.on("request", [&] { d.rename_billing(); }, "Rename the billing agent to Payments");
  d.on("main", [&] { d.repo.write("ai-tools/TLescalate01.cs", kBillingEscalation); }, "Add a billing escalation tool");
  // GitHub's test merge of the request into its base, as refs/pull/1/merge:
  // it merges cleanly as text.
  d.repo.git({"checkout", "-q", "--detach", "main"});
  d.repo.git({"merge", "-q", "--no-ff", "-m", "Merge request into main", "request"});
  d.repo.git({"update-ref", "refs/pull/1/merge", "HEAD"});
  d.repo.git({"checkout", "-q", "main"});
  // actions/checkout with fetch-depth 0: the whole history, the merge ref
  // checked out detached, the base branch as origin/main.
  wstest::TempDir runner;
  const std::string checkout = runner.path() + "/checkout";
  REQUIRE(wstest::run({"git", "clone", "-q", "--no-checkout", d.repo.path(), checkout}).status == 0);
  REQUIRE(wstest::run({"git", "-C", checkout, "fetch", "-q", "origin", "refs/pull/1/merge"}).status == 0);
  REQUIRE(wstest::run({"git", "-C", checkout, "checkout", "-q", "--detach", "FETCH_HEAD"}).status == 0);

  const auto steps = github_steps();
  REQUIRE(steps.size() == 2);
  const std::map<std::string, std::string> env{{"WS_BASE", "origin/main"}};
  auto sarif_step = run_step(checkout, steps[0], env);
  INFO(steps[0] << "\n" << sarif_step.out << sarif_step.err);
  CHECK(sarif_step.status == 0);  // the report is made; the gate below says no
  std::ifstream in(checkout + "/ws.sarif");
  auto sarif = nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  const auto& results = sarif["runs"][0]["results"];
  REQUIRE(results.size() == 1);
  CHECK(results[0]["ruleId"] == "WS013");
  CHECK(results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "ai-tools/TLescalate01.cs");
  CHECK(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 3);

  auto gate = run_step(checkout, steps[1], env);
  INFO(steps[1] << "\n" << gate.out << gate.err);
  CHECK(gate.status == 1);
  CHECK(gate.out.rfind("::error file=ai-tools/TLescalate01.cs,line=3,col=14,", 0) == 0);
  CHECK(gate.out.find("title=WS013::") != std::string::npos);
  // What the merge ref holds is checked directly: origin/main is its parent.
  CHECK(gate.err.find("merge") == std::string::npos);
}

TEST_CASE("merge result: docs/ci.md's GitLab recipe refuses a request that breaks the target's tip", "[merge][ci]") {
  Diverged d;
  d.on("request", [&] { d.rename_billing(); }, "Rename the billing agent to Payments");
  d.on("main", [&] { d.repo.write("ai-tools/TLescalate01.cs", kBillingEscalation); }, "Add a billing escalation tool");
  // The runner's checkout: a full clone of the server, on the request's commit.
  wstest::TempDir runner;
  const std::string checkout = runner.path() + "/checkout";
  REQUIRE(wstest::run({"git", "clone", "-q", "--no-checkout", d.repo.path(), checkout}).status == 0);
  REQUIRE(wstest::run({"git", "-C", checkout, "checkout", "-q", "--detach", "origin/request"}).status == 0);
  REQUIRE(wstest::run({"git", "-C", checkout, "update-ref", "-d", "refs/remotes/origin/main"}).status == 0);

  const auto script = gitlab_script();
  REQUIRE(script.size() == 4);
  std::vector<int> statuses;
  for (const auto& step : script) {
    wstest::RunOptions o = wstest::ws_options(checkout);
    const char* path = std::getenv("PATH");
    o.env["PATH"] = std::string(WS_BIN_DIR) + ":" + (path ? path : "/usr/bin:/bin");
    o.env["CI_MERGE_REQUEST_TARGET_BRANCH_NAME"] = "main";
    auto r = wstest::run({"sh", "-ec", step}, o);
    INFO(step << "\n" << r.out << r.err);
    statuses.push_back(r.status);
  }
  // The fetch and the two reports pass; the gate fails the job.
  CHECK(statuses == std::vector<int>{0, 0, 0, 1});
  std::ifstream in(checkout + "/gl-code-quality-report.json");
  auto report = nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  REQUIRE(report.size() == 1);
  CHECK(report[0]["check_name"] == "WS013");
  CHECK(report[0]["location"]["path"] == "ai-tools/TLescalate01.cs");
  CHECK(report[0]["location"]["lines"]["begin"] == 3);
  std::ifstream junit(checkout + "/ws-junit.xml");
  const std::string xml(std::istreambuf_iterator<char>(junit), {});
  CHECK(xml.find("ai-tools/TLescalate01.cs:3:14: error[WS013]") != std::string::npos);
}

TEST_CASE("merge result: ws-apply --rebase refuses a proposal that the branch's new referrer breaks",
          "[merge][proposal]") {
  Diverged d;
  d.rename_billing();
  wstest::RunOptions as_approver;
  as_approver.env = {{"GIT_COMMITTER_NAME", "Ada Approver"}, {"GIT_COMMITTER_EMAIL", "approver@example.com"}};
  auto staged = wstest::ws("ws-commit", {"-m", "Rename the billing agent to Payments"}, d.repo.path(), as_approver);
  INFO(staged.err);
  REQUIRE(staged.status == 0);
  const std::string id = staged.out.substr(9, staged.out.find('\n') - 9);
  // Meanwhile the branch gains a tool calling the agent by its old name.
  d.repo.git({"stash", "-u", "-q"});
  d.repo.write("ai-tools/TLescalate01.cs", kBillingEscalation);
  const std::string tip = d.repo.commit_all("Add a billing escalation tool");
  d.repo.git({"stash", "pop", "-q"});

  auto r = wstest::ws("ws-apply", {"--rebase", id}, d.repo.path(), as_approver);
  INFO(r.out << r.err);
  CHECK(r.status == 1);
  CHECK(r.err == "ws-apply: proposal " + id.substr(0, 12) + " does not build on " + tip.substr(0, 12) +
                     ": 1 error in 1 file (4 files changed); first: ai-tools/TLescalate01.cs:3:14: WS013 "
                     "unresolved reference 'Agents.Billing'\n");
  CHECK(chomp(d.repo.git({"rev-parse", "main"})) == tip);
}

// Policy comes from the base, never from the change (ws(7), WORKSPACE
// CONFIGURATION and POLICY CHANGES): every test is a change that tries to
// relax the rules it is judged by, through the working tree, the index, a
// revision or a proposal written by hand past ws-commit, and each checks the
// exact refusal, the exit status and that nothing moved.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/output_schema.h"
#include "support/process.h"
#include "support/proposal_tools.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::lines;
using wstest::RunResult;
using wstest::TempRepo;

using wstest::rev;
using wstest::ws;
namespace {

// The example workspace with `config` as its committed .ws/config.json
// (none when empty); returns the commit.
std::string seed(const TempRepo& repo, const std::string& config) {
  return wstest::commit_example_workspace(repo, "Support desk workspace", config);
}

// A proposal of the working tree's changes written by hand: git's own index,
// write-tree and commit-tree with ws's trailers, then the session ref, as a
// hostile agent with write access to the object database would. The working
// tree and the index are back at HEAD afterwards.
std::string hand_made_proposal(const TempRepo& repo) {
  repo.git({"add", "-A"});
  std::string tree = chomp(repo.git({"write-tree"}));
  std::string id = chomp(repo.git({"commit-tree", tree, "-p", "HEAD", "-m",
                                   "Hand-made\n\nWs-Session: default\nWs-Branch: refs/heads/main"}));
  repo.git({"update-ref", "refs/ws/proposals/default", id});
  repo.git({"reset", "-q", "--hard", "HEAD"});
  repo.git({"clean", "-q", "-fd"});
  return id;
}

// The id printed on ws-commit's first line.
std::string proposal_id(const RunResult& r) {
  auto ls = lines(r.out);
  REQUIRE(!ls.empty());
  REQUIRE(ls[0].rfind("proposal ", 0) == 0);
  return ls[0].substr(9);
}

std::string protected_line(const std::string& path) {
  return "refused path '" + path + "': protected-path (the workspace protects this path); leave it out of the change";
}

// Nothing landed: the branch is where it was and no proposal is applied.
void check_nothing_applied(const TempRepo& repo, const std::string& base) {
  CHECK(rev(repo, "main") == base);
  CHECK(repo.git({"for-each-ref", "refs/ws/applied/"}) == "");
}

// The agent manifest of the default pack with `field` added to its schema,
// required or not.
std::string agent_manifest_with(const std::string& field, bool required) {
  std::ifstream in(std::string(WS_SOURCE_DIR) + "/schemas/kinds/agent.json");
  std::stringstream text;
  text << in.rdbuf();
  auto manifest = nlohmann::ordered_json::parse(text.str());
  manifest["schema"]["properties"][field] = {{"type", "string"}};
  if (required) manifest["schema"]["required"].push_back(field);
  return manifest.dump(2) + "\n";
}

const std::string kOwnerNote = "note: '.ws/kinds/agent.json' changed: checking every definition";
const std::vector<std::string> kOwnerErrors{
    "agents/AGbilling01.json:1:1: error[WS006]: missing required field 'owner'",
    "agents/AGtriage01.json:1:1: error[WS006]: missing required field 'owner'",
};

// The lines of a human report that name a file and a code.
std::vector<std::string> diagnostic_lines(const std::string& out) {
  std::vector<std::string> found;
  for (const auto& l : lines(out))
    if (l.find(": error[WS") != std::string::npos || l.find(": warning[WS") != std::string::npos)
      found.push_back(l);
  return found;
}

}  // namespace

TEST_CASE("policy: a change that lifts a protected path is judged by the base's list", "[policy]") {
  TempRepo repo;
  repo.write("deploy/prod.txt", "v1\n");
  std::string base = seed(repo, "{\"protected\": [\"deploy/\"], \"unrouted\": \"ignore\"}\n");
  repo.write(".ws/config.json", "{\"unrouted\": \"ignore\"}\n");
  repo.write("deploy/prod.txt", "v2\n");
  const std::string refusal = "deploy/prod.txt: error[WS004]: " + protected_line("deploy/prod.txt");

  SECTION("ws-build and ws-commit on the working tree") {
    auto build = ws(repo, "ws-build", {});
    CHECK(build.status == 1);
    CHECK(diagnostic_lines(build.out) == std::vector<std::string>{refusal});
    auto commit = ws(repo, "ws-commit", {"-m", "Lift the protection"});
    CHECK(commit.status == 1);
    CHECK(commit.out == "");
    CHECK(diagnostic_lines(commit.err) == std::vector<std::string>{refusal});
    CHECK(lines(commit.err).back() == "ws-commit: refused: the changeset does not build; no proposal was written");
    CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");
  }

  SECTION("ws-build on the index and on a revision") {
    repo.git({"add", "-A"});
    auto staged = ws(repo, "ws-build", {"--staged"});
    CHECK(staged.status == 1);
    CHECK(diagnostic_lines(staged.out) == std::vector<std::string>{refusal});
    repo.git({"commit", "-q", "-m", "lift"});
    auto gate = ws(repo, "ws-build", {"--base", base, "--rev", "HEAD"});
    CHECK(gate.status == 1);
    CHECK(diagnostic_lines(gate.out) == std::vector<std::string>{refusal});
  }

  SECTION("ws-apply on a proposal written by hand, with or without --allow-policy-change") {
    std::string id = hand_made_proposal(repo);
    for (const auto& flags : std::vector<std::vector<std::string>>{{}, {"--allow-policy-change"}}) {
      auto args = flags;
      args.push_back(id);
      auto r = ws(repo, "ws-apply", args);
      CHECK(r.status == 1);
      CHECK(r.out == "");
      CHECK(r.err == "ws-apply: proposal " + id.substr(0, 12) + " refused: " + protected_line("deploy/prod.txt") + "\n");
      check_nothing_applied(repo, base);
      CHECK(repo.git({"status", "--porcelain"}) == "");
    }
  }
}

TEST_CASE("policy: a size cap raised in the change does not let a big file through", "[policy]") {
  TempRepo repo;
  std::string base = seed(repo, "{\"size_cap\": 2000}\n");
  repo.write(".ws/config.json", "{\"size_cap\": 100000}\n");
  std::string big = "{\n  \"name\": \"Big\",\n  \"description\": \"" + std::string(5000, 'x') + "\"\n}\n";
  repo.write("agents/AGbig01.json", big);
  const std::string size = std::to_string(big.size());

  auto build = ws(repo, "ws-build", {});
  CHECK(build.status == 1);
  CHECK(diagnostic_lines(build.out) ==
        std::vector<std::string>{"agents/AGbig01.json: error[WS003]: refused path 'agents/AGbig01.json': too-large (" +
                                 size + " bytes, over the size cap of 2000); split the file or raise \"size_cap\" "
                                 "in .ws/config.json"});
  auto commit = ws(repo, "ws-commit", {"-m", "A big agent"});
  CHECK(commit.status == 1);
  CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");

  // Committed bytes are measured from the object header, against the base's
  // cap, and refused in the same words.
  std::string id = hand_made_proposal(repo);
  auto shown = ws(repo, "ws-build", {"--proposal", id});
  CHECK(shown.status == 1);
  const std::string refusal = "refused path 'agents/AGbig01.json': too-large (" + size +
                              " bytes, over the size cap of 2000); split the file or raise \"size_cap\" in "
                              ".ws/config.json";
  const std::string committed = "agents/AGbig01.json: error[WS003]: " + refusal;
  CHECK(diagnostic_lines(shown.out) == std::vector<std::string>{committed});
  auto applied = ws(repo, "ws-apply", {"--allow-policy-change", id});
  CHECK(applied.status == 1);
  CHECK(applied.err == "ws-apply: proposal " + id.substr(0, 12) + " does not build on " + base.substr(0, 12) +
                           ": 1 error in 1 file (19 files checked); first: agents/AGbig01.json:1:1: WS003 " + refusal + "\n");
  check_nothing_applied(repo, base);
}

TEST_CASE("policy: 'unrouted' relaxed in the change does not relax it", "[policy]") {
  TempRepo repo;
  std::string base = seed(repo, "{\"unrouted\": \"error\"}\n");
  repo.write(".ws/config.json", "{\"unrouted\": \"ignore\"}\n");
  repo.write("notes/plan.txt", "smuggled\n");
  const std::string unrouted = "notes/plan.txt: error[WS005]: file is in no kind's folder, so nothing reads it";

  auto build = ws(repo, "ws-build", {});
  CHECK(build.status == 1);
  CHECK(diagnostic_lines(build.out) == std::vector<std::string>{unrouted});
  CHECK(lines(build.out).back() == "1 error in 1 file (18 files checked)");
  auto commit = ws(repo, "ws-commit", {"-m", "Notes"});
  CHECK(commit.status == 1);
  CHECK(diagnostic_lines(commit.err) == std::vector<std::string>{unrouted});
  CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");

  std::string id = hand_made_proposal(repo);
  auto applied = ws(repo, "ws-apply", {"--allow-policy-change", id});
  CHECK(applied.status == 1);
  CHECK(applied.err.find(" does not build on " + base.substr(0, 12) + ": 1 error in 1 file (18 files checked); first: "
                         "notes/plan.txt:1:1: WS005 file is in no kind's folder, so nothing reads it\n") !=
        std::string::npos);
  check_nothing_applied(repo, base);
}

TEST_CASE("policy: the agent schema gaining a required field fails every definition it breaks", "[policy]") {
  TempRepo repo;
  std::string base = seed(repo, "");
  repo.write(".ws/kinds/agent.json", agent_manifest_with("owner", true));
  const std::string summary = "2 errors in 2 files (18 files checked)";

  auto check_report = [&](const RunResult& r, const std::string& out) {
    INFO(out);
    CHECK(r.status == 1);
    CHECK(diagnostic_lines(out) == kOwnerErrors);
    auto ls = lines(out);
    REQUIRE(ls.size() >= 2);
    CHECK(ls[ls.size() - 2] == kOwnerNote);
    CHECK(ls.back() == summary);
  };
  SECTION("working tree") {
    auto build = ws(repo, "ws-build", {});
    check_report(build, build.out);
    auto commit = ws(repo, "ws-commit", {"-m", "Agents have owners"});
    CHECK(commit.status == 1);
    CHECK(diagnostic_lines(commit.err) == kOwnerErrors);
    auto ls = lines(commit.err);
    REQUIRE(ls.size() >= 3);
    CHECK(ls[ls.size() - 3] == kOwnerNote);
    CHECK(ls[ls.size() - 2] == summary);
    CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");
    // The reason is in the machine formats too.
    auto json = ws(repo, "ws-build", {"--format", "json"});
    CHECK(json.status == 1);
    auto doc = wstest::build_report(json.out);
    CHECK(doc["summary"]["all"] == true);
    CHECK(doc["summary"]["all_reason"] == "'.ws/kinds/agent.json' changed: checking every definition");
    auto github = ws(repo, "ws-build", {"--format", "github"});
    CHECK(github.out.find("::notice::'.ws/kinds/agent.json' changed: checking every definition\n") !=
          std::string::npos);
  }
  SECTION("index") {
    repo.git({"add", "-A"});
    auto r = ws(repo, "ws-build", {"--staged"});
    check_report(r, r.out);
  }
  SECTION("revision, and a proposal written by hand") {
    repo.git({"add", "-A"});
    repo.git({"commit", "-q", "-m", "owners"});
    auto r = ws(repo, "ws-build", {"--base", base, "--rev", "HEAD"});
    check_report(r, r.out);
    repo.git({"reset", "-q", "--hard", base});
    repo.write(".ws/kinds/agent.json", agent_manifest_with("owner", true));
    std::string id = hand_made_proposal(repo);
    auto applied = ws(repo, "ws-apply", {"--allow-policy-change", id});
    CHECK(applied.status == 1);
    CHECK(applied.err.find(" does not build on " + base.substr(0, 12) + ": " + summary + "; first: "
                           "agents/AGbilling01.json:1:1: WS006 missing required field 'owner'\n") != std::string::npos);
    check_nothing_applied(repo, base);
  }
  SECTION("deleting the manifest is a kind change too") {
    repo.write(".ws/kinds/agent.json", agent_manifest_with("owner", false));
    repo.commit_all("owners allowed");
    repo.remove(".ws/kinds/agent.json");
    auto r = ws(repo, "ws-build", {});
    CHECK(r.status == 0);
    CHECK(r.out == kOwnerNote + "\n18 files checked, compiled clean.\n");
  }
}

TEST_CASE("policy: an invalid config proposed by the change is a WS019 finding and never used", "[policy]") {
  TempRepo repo;
  std::string base = seed(repo, "");
  repo.write(".ws/config.json", "{\"unprotected\": [\".secrets/\"]}\n");
  auto build = ws(repo, "ws-build", {});
  CHECK(build.status == 1);
  CHECK(diagnostic_lines(build.out) ==
        std::vector<std::string>{".ws/config.json: error[WS019]: invalid .ws/config.json: 'unprotected' may name only "
                                 "default-protected paths (.gitattributes, .gitmodules, .pre-commit-config.yaml, "
                                 ".github/, .gitlab-ci.yml), not '.secrets/'"});
  CHECK(ws(repo, "ws-commit", {"-m", "Broken config"}).status == 1);
  // The tools still open the workspace: the base's config is the one in force.
  auto ls = ws(repo, "ws-ls", {"--changed"});
  CHECK(ls.status == 0);
  CHECK(ls.out == ".ws/config.json\n");
}

TEST_CASE("policy: a change to .ws/ is staged as a policy change and lands only with --allow-policy-change",
          "[policy]") {
  TempRepo repo;
  std::string base = seed(repo, "");
  repo.write(".ws/kinds/agent.json", agent_manifest_with("owner", false));
  repo.write("agents/AGbilling01.json",
             "{\n  \"name\": \"Billing\",\n  \"owner\": \"finance\",\n  \"prompt\": \"BillingInstructions\",\n"
             "  \"tools\": [\"LookupCustomer\"]\n}\n");

  auto commit = ws(repo, "ws-commit", {"-m", "Agents may name an owner"});
  INFO(commit.err);
  REQUIRE(commit.status == 0);
  std::string id = proposal_id(commit);
  auto out = lines(commit.out);
  REQUIRE(out.size() >= 4);  // proposal, session, base, then the policy paths
  CHECK(out[3] == "policy change: .ws/kinds/agent.json");
  auto json = ws(repo, "ws-commit", {"--json", "--session", "other", "-m", "Agents may name an owner"});
  INFO(json.err);
  REQUIRE(json.status == 0);
  CHECK(nlohmann::json::parse(json.out)["policy_change"] == nlohmann::json::array({".ws/kinds/agent.json"}));

  SECTION("--show names the policy paths first, before anything the author wrote") {
    auto shown = ws(repo, "ws-apply", {"--show", id});
    CHECK(shown.status == 0);
    CHECK(shown.out.rfind("=== policy change: ws-apply applies this proposal only with --allow-policy-change ===\n"
                          "    .ws/kinds/agent.json\n"
                          "\n"
                          "proposal " + id + "\n",
                          0) == 0);
    auto stat = ws(repo, "ws-apply", {"--show", id, "--stat"});
    CHECK(stat.out.rfind("=== policy change: ", 0) == 0);
    auto shown_json = ws(repo, "ws-apply", {"--show", id, "--json"});
    CHECK(nlohmann::json::parse(wstest::lines(shown_json.out).at(0))["policy_change"] ==
          nlohmann::json::array({".ws/kinds/agent.json"}));
  }

  SECTION("refused without the flag, applied with it") {
    auto refused = ws(repo, "ws-apply", {id});
    CHECK(refused.status == 1);
    CHECK(refused.out == "");
    CHECK(refused.err == "ws-apply: proposal " + id.substr(0, 12) +
                             " refused: policy change to '.ws/kinds/agent.json'; review it with --show, then apply "
                             "it with --allow-policy-change\n");
    check_nothing_applied(repo, base);
    auto applied = ws(repo, "ws-apply", {"--allow-policy-change", id});
    INFO(applied.err);
    CHECK(applied.status == 0);
    CHECK(rev(repo, "main^") == base);
    CHECK(repo.git({"show", "main:.ws/kinds/agent.json"}) == agent_manifest_with("owner", false));
    CHECK(rev(repo, "refs/ws/applied/" + id) == rev(repo, "main"));
  }
}

TEST_CASE("policy: a change without .ws/ is no policy change", "[policy]") {
  TempRepo repo;
  seed(repo, "");
  repo.write("skills/SKsummarize01.md", "---\nname: Summarize\n---\nShorter.\n");
  auto json = ws(repo, "ws-commit", {"--json", "-m", "Shorter"});
  REQUIRE(json.status == 0);
  auto staged = nlohmann::json::parse(json.out);
  CHECK(staged["policy_change"] == nlohmann::json::array());
  std::string id = staged["id"];
  auto shown = ws(repo, "ws-apply", {"--show", id});
  CHECK(shown.out.rfind("proposal " + id + "\n", 0) == 0);
  CHECK(ws(repo, "ws-apply", {id}).status == 0);
}

TEST_CASE("policy: a base that protects .ws/ refuses a policy change even with the flag", "[policy]") {
  TempRepo repo;
  std::string base = seed(repo, "{\"protected\": [\".ws/\"]}\n");
  repo.write(".ws/kinds/agent.json", agent_manifest_with("owner", false));
  auto commit = ws(repo, "ws-commit", {"-m", "Owners"});
  CHECK(commit.status == 1);
  CHECK(diagnostic_lines(commit.err) ==
        std::vector<std::string>{".ws/kinds/agent.json: error[WS004]: " + protected_line(".ws/kinds/agent.json")});
  std::string id = hand_made_proposal(repo);
  auto applied = ws(repo, "ws-apply", {"--allow-policy-change", id});
  CHECK(applied.status == 1);
  CHECK(applied.err ==
        "ws-apply: proposal " + id.substr(0, 12) + " refused: " + protected_line(".ws/kinds/agent.json") + "\n");
  check_nothing_applied(repo, base);
}

TEST_CASE("policy: a rebased proposal is judged by the policy of the tip it lands on", "[policy]") {
  TempRepo repo;
  repo.write("deploy/prod.txt", "v1\n");
  std::string base = seed(repo, "{\"unrouted\": \"ignore\"}\n");
  repo.write("deploy/prod.txt", "v2\n");
  auto commit = ws(repo, "ws-commit", {"-m", "Deploy v2"});
  INFO(commit.err);
  REQUIRE(commit.status == 0);
  std::string id = proposal_id(commit);
  repo.git({"checkout", "-q", "--", "."});
  // Meanwhile the branch protects deploy/ (a reviewed policy change).
  repo.write(".ws/config.json", "{\"unrouted\": \"ignore\", \"protected\": [\"deploy/\"]}\n");
  std::string tip = repo.commit_all("Protect deploy/");
  auto applied = ws(repo, "ws-apply", {"--rebase", id});
  CHECK(applied.status == 1);
  CHECK(applied.err == "ws-apply: proposal " + id.substr(0, 12) + " refused: " + protected_line("deploy/prod.txt") + "\n");
  check_nothing_applied(repo, tip);
}

TEST_CASE("policy: each default-protected path is refused and applies once the base unprotects it", "[policy]") {
  struct Case {
    std::string path;     // the file the change adds
    std::string name;     // as "unprotected" names it
    std::string content;
  };
  const std::vector<Case> cases{
      {".gitattributes", ".gitattributes", "*.json filter=run-me\n"},
      {"agents/.gitattributes", ".gitattributes", "* diff=run-me\n"},
      {".gitmodules", ".gitmodules", "[submodule \"x\"]\n\tpath = x\n\turl = ../x\n"},
      {".pre-commit-config.yaml", ".pre-commit-config.yaml", "repos: []\n"},
      {".github/workflows/ci.yml", ".github/", "on: push\n"},
      {".GitHub/workflows/ci.yml", ".github/", "on: push\n"},
      {".gitlab-ci.yml", ".gitlab-ci.yml", "job:\n  script: curl evil\n"},
  };
  for (const auto& c : cases) {
    INFO(c.path);
    TempRepo repo;
    std::string base = seed(repo, "{\"unrouted\": \"ignore\"}\n");
    const std::string unprotect = "{\"unrouted\": \"ignore\", \"unprotected\": [\"" + c.name + "\"]}\n";
    // Unprotected by the change itself: the base's protection holds.
    repo.write(".ws/config.json", unprotect);
    repo.write(c.path, c.content);
    auto commit = ws(repo, "ws-commit", {"-m", "Run something"});
    CHECK(commit.status == 1);
    CHECK(diagnostic_lines(commit.err) ==
          std::vector<std::string>{c.path + ": error[WS004]: " + protected_line(c.path)});
    CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");
    std::string id = hand_made_proposal(repo);
    auto applied = ws(repo, "ws-apply", {id});
    CHECK(applied.status == 1);
    CHECK(applied.err == "ws-apply: proposal " + id.substr(0, 12) + " refused: " + protected_line(c.path) + "\n");
    check_nothing_applied(repo, base);

    // Unprotected by the base (a policy change of its own, landed first).
    repo.write(".ws/config.json", unprotect);
    std::string unprotected = repo.commit_all("Unprotect " + c.name);
    repo.write(c.path, c.content);
    auto again = ws(repo, "ws-commit", {"-m", "Run something"});
    INFO(again.err);
    REQUIRE(again.status == 0);
    auto landed = ws(repo, "ws-apply", {proposal_id(again)});
    INFO(landed.err);
    CHECK(landed.status == 0);
    CHECK(rev(repo, "main^") == unprotected);
    CHECK(repo.git({"show", "main:" + c.path}) == c.content);
  }
}

TEST_CASE("policy: a kind the base never reads stays never read whatever the change's manifests say", "[policy]") {
  const std::string canary = "CANARY-7f3a9c";
  TempRepo repo;
  repo.write(".ws/kinds/credential.json",
             "{\"kind\": \"credential\", \"files\": \"credentials/*\", \"format\": \"opaque\", \"symbol\": "
             "\"Credentials\", \"name\": \"filename\"}\n");
  repo.write("credentials/db", "{\"name\": \"" + canary + "\"}\n");
  seed(repo, "");
  struct Case {
    std::string what;
    std::string manifest_text;  // empty: the manifest is deleted
    std::string message;
  };
  const std::string tail = ", which the base commit never reads; what is never read is the base's to decide: ";
  const std::vector<Case> cases{
      {"made readable",
       "{\"kind\": \"credential\", \"files\": \"credentials/*\", \"format\": \"json\", \"symbol\": \"Credentials\", "
       "\"name\": \"/name\"}\n",
       "kind manifest '.ws/kinds/credential.json': the change makes kind 'credential' readable or moves its files" +
           tail + "restore the manifest"},
      {"moved",
       "{\"kind\": \"credential\", \"files\": \"vault/*\", \"format\": \"opaque\", \"symbol\": \"Credentials\", "
       "\"name\": \"filename\"}\n",
       "kind manifest '.ws/kinds/credential.json': the change makes kind 'credential' readable or moves its files" +
           tail + "restore the manifest"},
      {"removed", "",
       "kind manifest '.ws/kinds/credential.json': the change removes kind 'credential'" + tail +
           "restore the manifest"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    if (c.manifest_text.empty()) repo.remove(".ws/kinds/credential.json");
    else repo.write(".ws/kinds/credential.json", c.manifest_text);
    for (const auto& [tool, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"ws-ls", {"-l"}}, {"ws-grep", {"CANARY"}}, {"ws-build", {"--all"}}, {"ws-commit", {"-m", "x"}}}) {
      INFO(tool);
      auto r = ws(repo, tool, args);
      CHECK(r.status == 2);
      CHECK(r.out == "");
      CHECK(r.err == tool + ": " + c.message + "\n");
    }
    repo.git({"add", "-A"});
    auto staged = ws(repo, "ws-grep", {"--staged", "CANARY"});
    CHECK(staged.status == 2);
    CHECK(staged.out.find(canary) == std::string::npos);
    repo.git({"reset", "-q", "--hard", "HEAD"});
  }
}

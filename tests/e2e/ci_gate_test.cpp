// The CI gate of docs/ci.md: `ws-build --base A --rev B` over ranges of real
// commits made in a temporary repository, the way a pipeline runs it on a
// checkout (also through a clone, with `--base origin/main --rev HEAD`).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/billing_rename.h"
#include "support/process.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::lines;
using wstest::RunResult;
using wstest::TempDir;
using wstest::TempRepo;

namespace {

const std::string kEscalate =
    "// name: EscalateTicket\n"
    "// description: Hands a ticket to the triage agent\n"
    "return await Agents.Triage.Run(args.Ticket);\n";

// base → clean → breaking → fix, on the example workspace.
struct History {
  TempRepo repo;
  std::string base, clean, breaking, fix;

  History() {
    base = wstest::commit_example_workspace(repo, "Support desk workspace");
    repo.write("ai-tools/TLescalate01.cs", kEscalate);
    clean = repo.commit_all("Add an escalation tool");
    // Half a rename: the agent's own file only.
    for (const auto& r : wstest::kRenameBilling) repo.replace(r.path, r.from, r.to);
    breaking = repo.commit_all("Rename the billing agent");
    for (const auto& r : wstest::kFollowBillingRename) repo.replace(r.path, r.from, r.to);
    fix = repo.commit_all("Follow the rename of the billing agent");
  }

  RunResult build(const std::string& a, const std::string& b, std::vector<std::string> extra = {}) const {
    std::vector<std::string> args{"--base", a, "--rev", b};
    args.insert(args.end(), extra.begin(), extra.end());
    return wstest::ws("ws-build", args, repo.path());
  }

  // Builds the range a..b, which must exit with `status` and report `out`
  // exactly, with nothing on stderr.
  RunResult check(const std::string& a, const std::string& b, int status, const std::string& out) const {
    auto r = build(a, b);
    CHECK(r.err == "");
    CHECK(r.status == status);
    CHECK(r.out == out);
    return r;
  }
};

// The diagnostics of the half-done rename, clang style, as a pipeline log shows them.
const std::string& kBrokenDiagnostics = wstest::kHalfRenameDiagnostics;

}  // namespace

TEST_CASE("CI gate: each commit of a history checked as its own range", "[ci]") {
  History h;

  h.check(h.base, h.clean, 0, "1 file changed, compiled clean.\n");

  h.check(h.clean, h.breaking, 1, kBrokenDiagnostics + "3 errors in 3 files (1 file changed)\n");

  // The fix, checked on its own against the broken base, is clean.
  h.check(h.breaking, h.fix, 0, "3 files changed, compiled clean.\n");
}

TEST_CASE("CI gate: a range of several commits is checked as one changeset", "[ci]") {
  History h;

  // A merge request that ends on the breaking commit is refused...
  auto to_breaking = h.check(h.base, h.breaking, 1, kBrokenDiagnostics + "3 errors in 3 files (2 files changed)\n");

  // ...and one whose later commit repairs the earlier breakage is clean as a whole.
  h.check(h.clean, h.fix, 0, "4 files changed, compiled clean.\n");

  h.check(h.base, h.fix, 0, "5 files changed, compiled clean.\n");

  // Revisions by any name git knows: a branch, HEAD~N.
  h.repo.git({"branch", "-q", "review", h.breaking});
  auto named = h.build("HEAD~3", "review");
  CHECK(named.status == 1);
  CHECK(named.out == to_breaking.out);
}

TEST_CASE("CI gate: --format github prints one annotation command per error", "[ci]") {
  History h;
  auto gh = h.build(h.clean, h.breaking, {"--format", "github"});
  CHECK(gh.err == "");
  CHECK(gh.status == 1);
  const std::string note = "%0Aagents/AGbilling01.json:2:12: note: 'Billing' was renamed to 'Payments' in "
                           "agents/AGbilling01.json";
  CHECK(lines(gh.out) ==
        std::vector<std::string>{
            "::error file=access/grants/GTsupport01.json,line=5,col=25,endLine=5,endColumn=31,title=WS013::"
            "unresolved reference to agent 'Billing'" + note,
            "::error file=agents/AGtriage01.json,line=8,col=17,endLine=8,endColumn=23,title=WS013::"
            "unresolved reference to agent 'Billing'" + note,
            "::error file=ai-tools/TLroute01.cs,line=8,col=18,endLine=8,endColumn=31,title=WS013::"
            "unresolved reference 'Agents.Billing'" + note,
            "3 errors in 3 files (1 file changed)",
        });

  // A clean range gives the summary line only: no annotation.
  auto ok = h.build(h.clean, h.fix, {"--format", "github"});
  CHECK(ok.status == 0);
  CHECK(ok.out == "4 files changed, compiled clean.\n");
}

TEST_CASE("CI gate: SARIF and GitLab Code Quality reports of a broken range", "[ci]") {
  History h;

  auto sarif = h.build(h.base, h.breaking, {"--format", "sarif"});
  CHECK(sarif.err == "");
  CHECK(sarif.status == 1);
  auto s = nlohmann::json::parse(sarif.out);
  CHECK(s["version"] == "2.1.0");
  REQUIRE(s["runs"].size() == 1);
  CHECK(s["runs"][0]["tool"]["driver"]["name"] == "ws-build");
  std::vector<std::string> found;
  for (const auto& r : s["runs"][0]["results"]) {
    const auto& loc = r["locations"][0]["physicalLocation"];
    found.push_back(r["ruleId"].get<std::string>() + " " + r["level"].get<std::string>() + " " +
                    loc["artifactLocation"]["uri"].get<std::string>() + ":" +
                    std::to_string(loc["region"]["startLine"].get<int>()) + ":" +
                    std::to_string(loc["region"]["startColumn"].get<int>()));
  }
  CHECK(found == std::vector<std::string>{
                     "WS013 error access/grants/GTsupport01.json:5:25",
                     "WS013 error agents/AGtriage01.json:8:17",
                     "WS013 error ai-tools/TLroute01.cs:8:18",
                 });

  auto gitlab = h.build(h.base, h.breaking, {"--format", "gitlab"});
  CHECK(gitlab.err == "");
  CHECK(gitlab.status == 1);
  auto g = nlohmann::json::parse(gitlab.out);
  REQUIRE(g.is_array());
  std::vector<std::string> issues;
  for (const auto& i : g)
    issues.push_back(i["check_name"].get<std::string>() + " " + i["severity"].get<std::string>() + " " +
                     i["location"]["path"].get<std::string>() + ":" +
                     std::to_string(i["location"]["lines"]["begin"].get<int>()));
  CHECK(issues == std::vector<std::string>{
                      "WS013 major access/grants/GTsupport01.json:5",
                      "WS013 major agents/AGtriage01.json:8",
                      "WS013 major ai-tools/TLroute01.cs:8",
                  });

  // A clean range is an empty Code Quality report, which GitLab shows as "no changes".
  auto clean = h.build(h.base, h.fix, {"--format", "gitlab"});
  CHECK(clean.status == 0);
  CHECK(nlohmann::json::parse(clean.out) == nlohmann::json::array());
}

TEST_CASE("CI gate: a clone runs --base origin/main --rev HEAD, a shallow one lacks the base", "[ci]") {
  History h;
  h.repo.git({"branch", "-q", "feature", h.fix});
  h.repo.git({"branch", "-q", "half-done", h.breaking});
  h.repo.git({"reset", "-q", "--hard", h.clean});  // main is at the clean commit

  TempDir ci;
  std::string url = "file://" + h.repo.path();
  std::string checkout = ci.path() + "/checkout";
  auto cloned = wstest::run({"git", "clone", "-q", "--no-local", url, checkout},
                            {.env = {{"GIT_CONFIG_NOSYSTEM", "1"}, {"GIT_CONFIG_GLOBAL", "/dev/null"}}});
  INFO(cloned.err);
  REQUIRE(cloned.status == 0);
  auto in_checkout = [&](std::vector<std::string> args) {
    std::vector<std::string> argv{"git", "-C", checkout};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = wstest::run(argv, {.env = {{"GIT_CONFIG_NOSYSTEM", "1"}, {"GIT_CONFIG_GLOBAL", "/dev/null"}}});
    INFO(r.err);
    REQUIRE(r.status == 0);
  };

  in_checkout({"checkout", "-q", "--detach", "origin/feature"});
  auto ok = wstest::ws("ws-build", {"--base", "origin/main", "--rev", "HEAD"}, checkout);
  CHECK(ok.err == "");
  CHECK(ok.status == 0);
  CHECK(ok.out == "4 files changed, compiled clean.\n");

  in_checkout({"checkout", "-q", "--detach", "origin/half-done"});
  auto bad = wstest::ws("ws-build", {"--base", "origin/main", "--rev", "HEAD"}, checkout);
  CHECK(bad.err == "");
  CHECK(bad.status == 1);
  CHECK(bad.out == kBrokenDiagnostics + "3 errors in 3 files (1 file changed)\n");

  // A depth-1 checkout (the default of actions/checkout) has no base commit:
  // an environment error (2), never a pass — hence fetch-depth: 0 in docs/ci.md.
  std::string shallow = ci.path() + "/shallow";
  auto shallow_clone = wstest::run({"git", "clone", "-q", "--depth", "1", "--branch", "feature", url, shallow},
                                   {.env = {{"GIT_CONFIG_NOSYSTEM", "1"}, {"GIT_CONFIG_GLOBAL", "/dev/null"}}});
  INFO(shallow_clone.err);
  REQUIRE(shallow_clone.status == 0);
  auto no_base = wstest::ws("ws-build", {"--base", h.clean, "--rev", "HEAD"}, shallow);
  CHECK(no_base.status == 2);
  CHECK(no_base.out == "");
  CHECK(no_base.err.rfind("ws-build: unknown revision '" + h.clean + "'", 0) == 0);
  CHECK(lines(no_base.err).size() == 1);
}

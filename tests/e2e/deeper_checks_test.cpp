// The checks users of the kinds expect beyond their schemas (ws-build(1),
// WS024 and WS025; ws(7), KINDS): a task's cron is a 5-field cron
// expression, prompts include one another in no cycle, and an edge type's
// ends and an index's fields name node types and fields that exist. Each
// test builds a real repository and checks ws-build's exact output, status
// and what the build left behind.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "support/process.h"
#include "support/temp_repo.h"

using wstest::lines;
using wstest::check_build;
using wstest::TempRepo;
using wstest::ws;

namespace {

// The example workspace, committed.
void seed(const TempRepo& repo, const std::string& config = "") {
  wstest::commit_example_workspace(repo, "example workspace", config);
}

// The example task with `cron` as its schedule.
std::string task_with(const std::string& cron) {
  return "{\n  \"name\": \"MorningDigest\",\n  \"endpoint\": \"DailyDigest\",\n  \"cron\": \"" + cron +
         "\",\n  \"enabled\": true\n}\n";
}

// A prompt named `name` that includes `includes` (front matter flow list).
std::string prompt(const std::string& name, const std::vector<std::string>& includes) {
  std::string s = "---\nname: " + name + "\n";
  if (!includes.empty()) {
    s += "includes: [";
    for (std::size_t i = 0; i < includes.size(); ++i) s += (i ? ", " : "") + includes[i];
    s += "]\n";
  }
  return s + "---\nText.\n";
}

// The ws-build lines that are diagnostics' first lines (path:line:col: ...).
std::vector<std::string> findings(const std::string& out) {
  std::vector<std::string> f;
  for (const auto& l : lines(out))
    if (l.find(": error[") != std::string::npos || l.find(": warning[") != std::string::npos) f.push_back(l);
  return f;
}

// A workspace kind manifest for recipes/*.json, named by /name, with
// `references` and `schema` as its JSON.
std::string recipe_kind(const std::string& references, const std::string& schema) {
  return "{\n"
         "  \"kind\": \"recipe\",\n"
         "  \"files\": \"recipes/*.json\",\n"
         "  \"format\": \"json\",\n"
         "  \"name\": \"/name\",\n"
         "  \"references\": " + references + ",\n"
         "  \"schema\": " + schema + "\n"
         "}";
}

}  // namespace

TEST_CASE("checks: each cron field's range and syntax is checked, exact lines", "[checks]") {
  TempRepo repo;
  seed(repo);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"60 8 * * *", "minute '60' is out of range 0-59"},
      {"0 24 * * *", "hour '24' is out of range 0-23"},
      {"0 25 * * *", "hour '25' is out of range 0-23"},
      {"0 8 0 * *", "day of month '0' is out of range 1-31"},
      {"0 8 32 * *", "day of month '32' is out of range 1-31"},
      {"0 8 * 0 *", "month '0' is out of range 1-12"},
      {"0 8 * 13 *", "month '13' is out of range 1-12"},
      {"0 8 * JANUARY *", "month 'JANUARY' is neither a number 1-12 nor a name JAN-DEC"},
      {"0 8 * * 8", "day of week '8' is out of range 0-7"},
      {"0 8 * * FUNDAY", "day of week 'FUNDAY' is neither a number 0-7 nor a name SUN-SAT"},
      {"0 8 * * SUN-JAN", "day of week 'JAN' is neither a number 0-7 nor a name SUN-SAT"},
      {"x 8 * * *", "minute 'x' is not a number 0-59"},
      {"007 8 * * *", "minute '007' is out of range 0-59"},
      {"-5 8 * * *", "minute has an empty value"},
      {"5- 8 * * *", "minute has an empty value"},
      {"1-2-3 8 * * *", "minute '2-3' is not a number 0-59"},
      {"1,,2 8 * * *", "minute '1,,2' has an empty list element"},
      {"1, 8 * * *", "minute '1,' has an empty list element"},
      {"30-10 8 * * *", "minute range '30-10' ends before it starts"},
      {"0 8 * DEC-JAN *", "month range 'DEC-JAN' ends before it starts"},
      {"*/0 8 * * *", "minute '*/0' has a step out of range 1-59"},
      {"0 */24 * * *", "hour '*/24' has a step out of range 1-23"},
      {"0 1-5/0 * * *", "hour '1-5/0' has a step out of range 1-23"},
      {"*/ 8 * * *", "minute '*/' has a step that is not a number 1-59"},
      {"*/x 8 * * *", "minute '*/x' has a step that is not a number 1-59"},
      {"*/1/2 8 * * *", "minute '*/1/2' has a step that is not a number 1-59"},
      {"5/10 8 * * *", "minute '5/10' has a step after a single value; write a range 'a-b/n' or '*/n'"},
      {"0 8 * *", "4 fields, a cron expression has 5 (minute hour day-of-month month day-of-week)"},
      {"0 8 * * * *", "6 fields, a cron expression has 5 (minute hour day-of-month month day-of-week)"},
      {"@daily", "1 field, a cron expression has 5 (minute hour day-of-month month day-of-week)"},
      {"", "0 fields, a cron expression has 5 (minute hour day-of-month month day-of-week)"},
  };
  for (const auto& [cron, fault] : cases) {
    INFO(cron);
    repo.write("tasks/TKdigest01.json", task_with(cron));
    auto r = ws("ws-build", {}, repo.path());
    CHECK(r.err == "");
    CHECK(lines(r.out) == std::vector<std::string>{
                              "tasks/TKdigest01.json:4:11: error[WS024]: invalid cron '" + cron + "': " + fault,
                              "  \"cron\": \"" + cron + "\",",
                              "          ^" + std::string(cron.size() + 1, '~'),
                              "1 error in 1 file (1 file changed)",
                          });
    CHECK(r.status == 1);
  }
  CHECK(repo.git({"status", "--porcelain"}) == " M tasks/TKdigest01.json\n");
}

TEST_CASE("checks: a valid cron of each form passes", "[checks]") {
  TempRepo repo;
  seed(repo);
  for (const std::string cron :
       {"0 9 * * 1-5", "* * * * *", "59 23 31 12 7", "0 0 1 1 0", "*/15 * * * *", "0-30/10 0,12 1-31/2 * *",
        "0 8 * jan-Dec/3 Sun,mon-FRI", "0 8 * JUL sat", "\\t0  8 * *  *  ", "05 08 01 01 00", "1,2,3-4,*/5 * * * *",
        "0 0 * * 0-7"}) {
    INFO(cron);
    repo.write("tasks/TKdigest01.json", task_with(cron));
    check_build(repo, {}, 0, "1 file changed, compiled clean.\n");
  }
}

TEST_CASE("checks: a cron value with control characters is shown escaped", "[checks]") {
  TempRepo repo;
  seed(repo);
  repo.write("tasks/TKdigest01.json", task_with("0 8 * * \\u001b[31mMON"));
  auto r = ws("ws-build", {}, repo.path());
  CHECK(r.err == "");
  CHECK(findings(r.out) ==
        std::vector<std::string>{"tasks/TKdigest01.json:4:11: error[WS024]: invalid cron '0 8 * * \\x1b[31mMON': day of "
                                 "week '\\x1b[31mMON' is neither a number 0-7 nor a name SUN-SAT"});
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.status == 1);
}

TEST_CASE("checks: a prompt that includes itself is a cycle", "[checks]") {
  TempRepo repo;
  seed(repo);
  repo.write("prompts/PRtone01.md", prompt("Tone", {"Tone"}));
  check_build(repo, {}, 1,
        "prompts/PRtone01.md:3:12: error[WS025]: include cycle: Tone -> Tone\n"
        "includes: [Tone]\n"
        "           ^~~~\n"
        "1 error in 1 file (1 file changed)\n");
}

TEST_CASE("checks: a 2-cycle is reported on the changed prompt and the unchanged one it closes", "[checks]") {
  const std::string expected =
      "prompts/PRbilling01.md:3:12: error[WS025]: include cycle: BillingInstructions -> Tone -> BillingInstructions\n"
      "includes: [Tone]\n"
      "           ^~~~\n"
      "prompts/PRtone01.md:3:12: error[WS025]: include cycle: Tone -> BillingInstructions -> Tone\n"
      "includes: [BillingInstructions]\n"
      "           ^~~~~~~~~~~~~~~~~~~\n"
      "2 errors in 2 files (1 file changed)\n";
  TempRepo repo;
  seed(repo);
  // Warm: the first build writes the base index the second reads.
  auto first = ws("ws-build", {}, repo.path());
  REQUIRE(first.status == 0);
  REQUIRE(repo.exists(".git/ws/cache/bases/" + wstest::chomp(repo.git({"rev-parse", "HEAD"}))));
  repo.write("prompts/PRtone01.md", prompt("Tone", {"BillingInstructions"}));
  for (const std::vector<std::string>& args : {std::vector<std::string>{}, {"--no-cache"}}) {
    INFO(args.size());
    check_build(repo, args, 1, expected);
  }
  // A pathspec that leaves the change out reports nothing it closed.
  check_build(repo, {"agents"}, 0, "0 files changed, compiled clean.\n");
}

TEST_CASE("checks: a 3-cycle closed by a change to an unchanged prompt's neighbour", "[checks]") {
  TempRepo repo;
  wstest::copy_example_workspace(repo);
  repo.write("prompts/PRtone01.md", prompt("Tone", {"Extra"}));
  repo.write("prompts/PRextra01.md", prompt("Extra", {}));
  repo.commit_all("base");
  REQUIRE(ws("ws-build", {"--all"}, repo.path()).status == 0);
  repo.write("prompts/PRextra01.md", prompt("Extra", {"BillingInstructions"}));
  const std::string expected =
      "prompts/PRbilling01.md:3:12: error[WS025]: include cycle: BillingInstructions -> Tone -> Extra -> "
      "BillingInstructions\n"
      "includes: [Tone]\n"
      "           ^~~~\n"
      "prompts/PRextra01.md:3:12: error[WS025]: include cycle: Extra -> BillingInstructions -> Tone -> Extra\n"
      "includes: [BillingInstructions]\n"
      "           ^~~~~~~~~~~~~~~~~~~\n"
      "prompts/PRtone01.md:3:12: error[WS025]: include cycle: Tone -> Extra -> BillingInstructions -> Tone\n"
      "includes: [Extra]\n"
      "           ^~~~~\n";
  for (const std::vector<std::string>& args : {std::vector<std::string>{}, {"--no-cache"}, {"--all"}}) {
    INFO(args.size());
    check_build(repo, args, 1,
                expected + (args == std::vector<std::string>{"--all"} ? "3 errors in 3 files (19 files checked)\n"
                                                                      : "3 errors in 3 files (1 file changed)\n"));
  }
  // Removing the include again ends the cycle.
  repo.write("prompts/PRextra01.md", prompt("Extra", {}));
  check_build(repo, {}, 0, "0 files changed, compiled clean.\n");
}

TEST_CASE("checks: a cycle the base already had is the audit's, not the change's", "[checks]") {
  TempRepo repo;
  wstest::copy_example_workspace(repo);
  repo.write("prompts/PRtone01.md", prompt("Tone", {"BillingInstructions"}));
  repo.commit_all("a cycle on the base");
  // A change elsewhere that reaches the cycle does not report it.
  repo.write("prompts/PRtriage01.md", prompt("TriageInstructions", {"Tone", "BillingInstructions"}));
  auto r = ws("ws-build", {}, repo.path());
  CHECK(r.out == "1 file changed, compiled clean.\n");
  CHECK(r.status == 0);
  auto all = ws("ws-build", {"--all", "prompts/PRtone01.md"}, repo.path());
  CHECK(all.out ==
        "prompts/PRtone01.md:3:12: error[WS025]: include cycle: Tone -> BillingInstructions -> Tone\n"
        "includes: [BillingInstructions]\n"
        "           ^~~~~~~~~~~~~~~~~~~\n"
        "1 error in 1 file (1 file checked)\n");
  CHECK(all.status == 1);
}

TEST_CASE("checks: a 10,000-long include chain, without a cycle and closed into one", "[checks]") {
  constexpr int kChain = 10000;
  TempRepo repo;
  seed(repo);
  auto name = [](int i) { return "Chain" + std::to_string(i); };
  auto file = [](int i) { return "prompts/PRchain" + std::to_string(i) + ".md"; };
  for (int i = 0; i < kChain; ++i)
    repo.write(file(i), prompt(name(i), i + 1 < kChain ? std::vector<std::string>{name(i + 1)} : std::vector<std::string>{}));
  auto start = std::chrono::steady_clock::now();
  check_build(repo, {}, 0, "10000 files changed, compiled clean.\n");
  repo.commit_all("a long chain");
  REQUIRE(ws("ws-build", {}, repo.path()).status == 0);

  // The last closes the chain: every one of them is on the cycle.
  repo.write(file(kChain - 1), prompt(name(kChain - 1), {name(0)}));
  for (const std::vector<std::string>& args : {std::vector<std::string>{}, {"--no-cache"}}) {
    INFO(args.size());
    auto r = ws("ws-build", args, repo.path());
    CHECK(r.err == "");
    auto found = findings(r.out);
    REQUIRE(found.size() == kChain);
    // In path order: PRchain0, PRchain1, PRchain10, ...
    CHECK(found[0] ==
          "prompts/PRchain0.md:3:12: error[WS025]: include cycle: Chain0 -> Chain1 -> Chain2 -> Chain3 -> Chain4 -> "
          "Chain5 -> Chain6 -> ... 9992 more ... -> Chain9999 -> Chain0");
    CHECK(found[kChain - 1] ==
          "prompts/PRchain9999.md:3:12: error[WS025]: include cycle: Chain9999 -> Chain0 -> Chain1 -> Chain2 -> Chain3 "
          "-> Chain4 -> Chain5 -> ... 9992 more ... -> Chain9998 -> Chain9999");
    CHECK(lines(r.out).back() == "10000 errors in 10000 files (1 file changed)");
    CHECK(r.status == 1);
  }
  // Bounded: well within the time a test of the suite may take under ASan.
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(50));
}

TEST_CASE("checks: hostile prompt names in a cycle come out escaped", "[checks]") {
  TempRepo repo;
  seed(repo);
  // A workspace kind whose names are free text: no symbol, so no identifier rule.
  repo.write(".ws/kinds/recipe.json",
             recipe_kind(R"([{"at": "/includes/*", "kind": "recipe", "acyclic": true}])",
                         R"({"type": "object", "required": ["name"],)" "\n"
                         R"(             "properties": {"name": {"type": "string"}, )"
                         R"("includes": {"type": "array", "items": {"type": "string"}}}})"));
  repo.write("recipes/a.json", "{\"name\": \"A\", \"includes\": []}\n");
  repo.write("recipes/b.json", "{\"name\": \"B\\u001b]0;owned\\u0007\\r\", \"includes\": [\"A\"]}\n");
  repo.commit_all("recipes");
  repo.write("recipes/a.json", "{\"name\": \"A\", \"includes\": [\"B\\u001b]0;owned\\u0007\\r\"]}\n");
  auto r = ws("ws-build", {}, repo.path());
  CHECK(r.err == "");
  CHECK(findings(r.out) == std::vector<std::string>{
                               "recipes/a.json:1:29: error[WS025]: include cycle: A -> B\\x1b]0;owned\\x07\\r -> A",
                               "recipes/b.json:1:51: error[WS025]: include cycle: B\\x1b]0;owned\\x07\\r -> A -> "
                               "B\\x1b]0;owned\\x07\\r",
                           });
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.out.find('\x07') == std::string::npos);
  CHECK(r.status == 1);

  // JSON carries the name as it is.
  auto j = ws("ws-build", {"--format", "json"}, repo.path());
  CHECK(j.out.find("include cycle: A -> B\\u001b]0;owned\\u0007\\r -> A") != std::string::npos);
}

TEST_CASE("checks: a manifest's acyclic flag is refused off a reference of the kind to itself", "[checks]") {
  TempRepo repo;
  seed(repo);
  repo.write(".ws/kinds/recipe.json",
             recipe_kind(R"([{"at": "/prompt", "kind": "prompt", "acyclic": true}])", R"({"type": "object"})"));
  auto r = ws("ws-build", {}, repo.path());
  CHECK(r.out == "");
  CHECK(r.err ==
        "ws-build: kind manifest '.ws/kinds/recipe.json': 'acyclic' must be a boolean, true only on a reference of "
        "the kind to itself\n");
  CHECK(r.status == 2);
}

TEST_CASE("checks: the rules config tunes WS024 and WS025 like any other code", "[checks][rules]") {
  TempRepo repo;
  seed(repo, R"({"rules": {"WS024": "warning", "WS025": "off"}})");
  repo.write("tasks/TKdigest01.json", task_with("0 25 * * *"));
  repo.write("prompts/PRtone01.md", prompt("Tone", {"Tone"}));
  check_build(repo, {}, 0,
        "tasks/TKdigest01.json:4:11: warning[WS024]: invalid cron '0 25 * * *': hour '25' is out of range 0-23\n"
        "  \"cron\": \"0 25 * * *\",\n"
        "          ^~~~~~~~~~~~\n"
        "2 files changed, compiled clean with 1 warning.\n");
  auto strict = ws("ws-build", {"--werror"}, repo.path());
  CHECK(strict.status == 1);
}

TEST_CASE("checks: --format sarif lists WS024 and WS025 among its rules", "[checks]") {
  TempRepo repo;
  seed(repo);
  repo.write("tasks/TKdigest01.json", task_with("0 25 * * *"));
  auto r = ws("ws-build", {"--format", "sarif"}, repo.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("\"id\": \"WS024\"") != std::string::npos);
  CHECK(r.out.find("\"id\": \"WS025\"") != std::string::npos);
  CHECK(r.out.find("\"ruleId\": \"WS024\"") != std::string::npos);
}

TEST_CASE("checks: an edge type's ends and an index's fields name what exists", "[checks]") {
  TempRepo repo;
  seed(repo);
  repo.replace("edge-types/EDraised01.json", "\"from\": \"Customer\"", "\"from\": \"Custmer\"");
  repo.replace("indexes/IXopen01.json", "\"OpenedAt\"", "\"OpenedOn\"");
  check_build(repo, {}, 1,
        "edge-types/EDraised01.json:3:12: error[WS010]: unresolved reference to node type 'Custmer'\n"
        "  \"from\": \"Custmer\",\n"
        "           ^~~~~~~\n"
        "note: did you mean 'Customer'?\n"
        "indexes/IXopen01.json:4:25: error[WS011]: node type 'Ticket' has no field 'OpenedOn'\n"
        "  \"fields\": [\"Status\", \"OpenedOn\"]\n"
        "                        ^~~~~~~~\n"
        "note: did you mean 'OpenedAt'?\n"
        "2 errors in 2 files (2 files changed)\n");

  // An index on a node type that does not exist: reported once, at "node".
  repo.git({"checkout", "--", "."});
  repo.replace("indexes/IXopen01.json", "\"node\": \"Ticket\"", "\"node\": \"Tickets\"");
  auto n = ws("ws-build", {}, repo.path());
  CHECK(findings(n.out) ==
        std::vector<std::string>{"indexes/IXopen01.json:3:12: error[WS010]: unresolved reference to node type 'Tickets'"});
  CHECK(n.status == 1);
}

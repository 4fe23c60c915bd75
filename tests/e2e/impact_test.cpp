// ws-build --impact and the plan of --json (ws-build(1), IMPACT): the
// definitions whose references reach a changed name, directly and through
// others, each with its shortest path of references; the same plan records
// from ws-build --json and ws-apply --show --json.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "support/output_schema.h"
#include "support/process.h"
#include "support/temp_repo.h"

using wstest::lines;
using wstest::TempRepo;
using wstest::ws;

namespace {

// An agent named `name` handing off to `handoffs`.
std::string agent(const std::string& name, const std::vector<std::string>& handoffs,
                  const std::string& description = "an agent") {
  std::string list;
  for (const auto& h : handoffs) list += (list.empty() ? "\"" : ", \"") + h + "\"";
  return "{\n  \"name\": \"" + name + "\",\n  \"description\": \"" + description + "\",\n  \"handoffs\": [" + list +
         "]\n}\n";
}

// Runs ws-build with `args` twice: the first build reads the whole view and
// leaves the index of its base, the second answers from that index's
// reverse table; both must print the same.
wstest::RunResult build_twice(const TempRepo& repo, const std::vector<std::string>& args) {
  auto first = ws("ws-build", args, repo.path());
  auto second = ws("ws-build", args, repo.path());
  CHECK(second.out == first.out);
  CHECK(second.err == first.err);
  CHECK(second.status == first.status);
  return first;
}

// The plan records of a ws-build --json output, each as its line.
std::vector<std::string> plan_lines(const std::string& out) {
  std::vector<std::string> plan;
  for (const auto& line : lines(out)) {
    auto type = nlohmann::json::parse(line)["type"];
    if (type == "change" || type == "impact" || type == "Impact-Truncated") plan.push_back(line);
  }
  return plan;
}

// A → B → C committed: A hands off to B, B to C.
void seed_chain(const TempRepo& repo) {
  repo.write("agents/a.json", agent("A", {"B"}));
  repo.write("agents/b.json", agent("B", {"C"}));
  repo.write("agents/c.json", agent("C", {}));
  repo.write("agents/d.json", agent("D", {}));
  repo.commit_all("chain");
}

}  // namespace

TEST_CASE("impact: a chain A -> B -> C with C renamed: B refers to it, A is impacted through B", "[impact]") {
  TempRepo repo;
  seed_chain(repo);
  repo.replace("agents/c.json", "\"C\"", "\"Cee\"");

  auto human = build_twice(repo, {"--impact", "--color=never"});
  INFO(human.err);
  // B's reference to C is broken now: the build fails, and --impact does not change that.
  CHECK(human.status == 1);
  const std::string impact =
      "Impact:\n"
      "  agent 'B' (agents/b.json): agent 'C' (renamed) <- agent 'B'\n"
      "  agent 'A' (agents/a.json): agent 'C' (renamed) <- agent 'B' <- agent 'A'\n"
      "\n";
  CHECK(human.out.substr(0, impact.size()) == impact);
  auto without = ws("ws-build", {"--color=never"}, repo.path());
  CHECK(without.status == 1);
  CHECK(human.out == impact + without.out);

  // Without --impact the report has no plan: the walk is paid for only when asked.
  CHECK(plan_lines(ws("ws-build", {"--json"}, repo.path()).out).empty());
  auto json = build_twice(repo, {"--json", "--impact"});
  CHECK(json.status == 1);
  CHECK(plan_lines(json.out) ==
        std::vector<std::string>{
            R"({"type":"change","version":1,"change":"renamed","kind":"agent","name":"Cee","path":"agents/c.json","old_name":"C","fields":["name"]})",
            R"({"type":"impact","version":1,"kind":"agent","name":"B","path":"agents/b.json","changed":false,"depth":1,"reaches":{"kind":"agent","name":"C","change":"renamed"},"through":[]})",
            R"({"type":"impact","version":1,"kind":"agent","name":"A","path":"agents/a.json","changed":false,"depth":2,"reaches":{"kind":"agent","name":"C","change":"renamed"},"through":[{"kind":"agent","name":"B","path":"agents/b.json"}]})"});
  // The plan comes after the diagnostics, before the summary.
  auto all = lines(json.out);
  REQUIRE(all.size() == 5);
  CHECK(nlohmann::json::parse(all[0])["type"] == "diagnostic");
  CHECK(nlohmann::json::parse(all[4])["type"] == "summary");
  // The branch, the index and the working tree are as they were.
  CHECK(repo.git({"status", "--porcelain"}) == " M agents/c.json\n");
}

TEST_CASE("impact: paths from a subfolder are printed from there, and the format stays the exit status's", "[impact]") {
  TempRepo repo;
  seed_chain(repo);
  repo.replace("agents/c.json", "an agent", "the last agent");
  auto r = ws("ws-build", {"--impact", "--color=never"}, repo.abs("agents"));
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out ==
        "Impact:\n"
        "  agent 'B' (b.json): agent 'C' (modified) <- agent 'B'\n"
        "  agent 'A' (a.json): agent 'C' (modified) <- agent 'B' <- agent 'A'\n"
        "\n"
        "1 file changed, compiled clean.\n");
  // The description changed, nothing else.
  auto json = ws("ws-build", {"--json", "--impact"}, repo.path());
  CHECK(plan_lines(json.out)[0] ==
        R"({"type":"change","version":1,"change":"modified","kind":"agent","name":"C","path":"agents/c.json","fields":["description"]})");
  // Only the human and JSON reports carry the impact.
  auto sarif = ws("ws-build", {"--impact", "--format", "sarif"}, repo.path());
  CHECK(sarif.status == 2);
  CHECK(sarif.out == "");
  CHECK(sarif.err == "ws-build: --impact goes with the human or json format, not 'sarif'\n");
}

TEST_CASE("impact: a cycle of references ends, each definition once at its shortest distance", "[impact]") {
  TempRepo repo;
  // A hands off to C and B; B back to A; E to itself and to B.
  repo.write("agents/a.json", agent("A", {"C", "B"}));
  repo.write("agents/b.json", agent("B", {"A"}));
  repo.write("agents/c.json", agent("C", {}));
  repo.write("agents/e.json", agent("E", {"E", "B"}));
  repo.commit_all("cycle");
  repo.replace("agents/c.json", "an agent", "changed");
  auto r = build_twice(repo, {"--impact", "--color=never"});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out ==
        "Impact:\n"
        "  agent 'A' (agents/a.json): agent 'C' (modified) <- agent 'A'\n"
        "  agent 'B' (agents/b.json): agent 'C' (modified) <- agent 'A' <- agent 'B'\n"
        "  agent 'E' (agents/e.json): agent 'C' (modified) <- agent 'A' <- agent 'B' <- agent 'E'\n"
        "\n"
        "1 file changed, compiled clean.\n");
}

TEST_CASE("impact: a removed definition impacts its referrers and theirs", "[impact]") {
  TempRepo repo;
  seed_chain(repo);
  repo.remove("agents/c.json");
  auto json = build_twice(repo, {"--json", "--impact"});
  CHECK(json.status == 1);
  CHECK(plan_lines(json.out) ==
        std::vector<std::string>{
            R"({"type":"change","version":1,"change":"removed","kind":"agent","name":"C","path":"agents/c.json"})",
            R"({"type":"impact","version":1,"kind":"agent","name":"B","path":"agents/b.json","changed":false,"depth":1,"reaches":{"kind":"agent","name":"C","change":"removed"},"through":[]})",
            R"({"type":"impact","version":1,"kind":"agent","name":"A","path":"agents/a.json","changed":false,"depth":2,"reaches":{"kind":"agent","name":"C","change":"removed"},"through":[{"kind":"agent","name":"B","path":"agents/b.json"}]})"});
}

TEST_CASE("impact: a changed definition's own new references count, its old ones do not", "[impact]") {
  TempRepo repo;
  // B refers to C in the base; the change points it at D instead, changes
  // C, and adds N, which refers to C.
  repo.write("agents/a.json", agent("A", {"B"}));
  repo.write("agents/b.json", agent("B", {"C"}));
  repo.write("agents/c.json", agent("C", {}));
  repo.write("agents/d.json", agent("D", {}));
  repo.commit_all("overlay");
  repo.replace("agents/b.json", "\"C\"", "\"D\"");
  repo.replace("agents/c.json", "an agent", "changed");
  repo.write("agents/n.json", agent("N", {"C"}));
  auto json = build_twice(repo, {"--json", "--impact"});
  INFO(json.err);
  CHECK(json.status == 0);
  CHECK(plan_lines(json.out) ==
        std::vector<std::string>{
            R"({"type":"change","version":1,"change":"modified","kind":"agent","name":"B","path":"agents/b.json","fields":["handoffs"]})",
            R"({"type":"change","version":1,"change":"modified","kind":"agent","name":"C","path":"agents/c.json","fields":["description"]})",
            R"({"type":"change","version":1,"change":"added","kind":"agent","name":"N","path":"agents/n.json"})",
            R"({"type":"impact","version":1,"kind":"agent","name":"A","path":"agents/a.json","changed":false,"depth":1,"reaches":{"kind":"agent","name":"B","change":"modified"},"through":[]})",
            R"({"type":"impact","version":1,"kind":"agent","name":"N","path":"agents/n.json","changed":true,"depth":1,"reaches":{"kind":"agent","name":"C","change":"modified"},"through":[]})"});
}

TEST_CASE("impact: hostile names reach the human output escaped and the JSON exact", "[impact]") {
  TempRepo repo;
  seed_chain(repo);
  repo.write("access/groups/staff.json", "{\"name\": \"Staff\"}\n");
  // A grant defines no symbol, so its name may be any string: here an
  // escape sequence that would clear the screen and a right-to-left override.
  repo.write("access/grants/g.json",
             "{\"name\": \"evil\\u001b[2J\\u202eend\", \"group\": \"Staff\", \"agents\": [\"B\"]}\n");
  repo.commit_all("grant");
  repo.replace("agents/c.json", "an agent", "changed");
  auto r = build_twice(repo, {"--impact", "--color=always"});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("\x1b[2J") == std::string::npos);
  CHECK(r.out.find("\u202e") == std::string::npos);
  CHECK(r.out.substr(0, r.out.find("\n\n") + 2) ==
        "Impact:\n"
        "  agent 'B' (agents/b.json): agent 'C' (modified) <- agent 'B'\n"
        "  access-grant 'evil\\x1b[2J\\u202eend' (access/grants/g.json): agent 'C' (modified) <- agent 'B' <- "
        "access-grant 'evil\\x1b[2J\\u202eend'\n"
        "  agent 'A' (agents/a.json): agent 'C' (modified) <- agent 'B' <- agent 'A'\n"
        "\n");
  auto json = ws("ws-build", {"--json", "--impact"}, repo.path());
  auto plan = plan_lines(json.out);
  REQUIRE(plan.size() == 4);
  CHECK(plan[2] ==
        "{\"type\":\"impact\",\"version\":1,\"kind\":\"access-grant\",\"name\":\"evil\\u001b[2J\u202eend\","
        "\"path\":\"access/grants/g.json\",\"changed\":false,\"depth\":2,"
        "\"reaches\":{\"kind\":\"agent\",\"name\":\"C\",\"change\":\"modified\"},"
        "\"through\":[{\"kind\":\"agent\",\"name\":\"B\",\"path\":\"agents/b.json\"}]}");
}

TEST_CASE("impact: a path longer than the depth limit stops the walk with a truncated marker", "[impact]") {
  // A chain of `n` agents, G0 -> G1 -> ... -> G(n-1), its last one changed.
  auto chain = [](const TempRepo& repo, int n) {
    for (int i = 0; i < n; ++i) {
      std::string id = std::to_string(100 + i);
      std::vector<std::string> to;
      if (i + 1 < n) to.push_back("G" + std::to_string(i + 1));
      repo.write("agents/g" + id + ".json", agent("G" + std::to_string(i), to));
    }
    repo.commit_all("chain");
    repo.replace("agents/g" + std::to_string(100 + n - 1) + ".json", "an agent", "changed");
  };
  SECTION("32 references: the whole chain") {
    TempRepo repo;
    chain(repo, 33);
    auto json = build_twice(repo, {"--json", "--impact"});
    auto plan = plan_lines(json.out);
    REQUIRE(plan.size() == 1 + 32);
    auto last = nlohmann::json::parse(plan.back());
    CHECK(last["name"] == "G0");
    CHECK(last["depth"] == 32);
    CHECK(last["through"].size() == 31);
    CHECK(last["through"][0]["name"] == "G31");
  }
  SECTION("33 references: the definition past the limit is left out, and the output says so") {
    TempRepo repo;
    chain(repo, 34);
    auto json = build_twice(repo, {"--json", "--impact"});
    auto plan = plan_lines(json.out);
    REQUIRE(plan.size() == 1 + 32 + 1);
    CHECK(nlohmann::json::parse(plan[32])["name"] == "G1");
    CHECK(plan.back() == R"({"type":"Impact-Truncated","version":1,"limit":"depth","max":32})");
    auto human = build_twice(repo, {"--impact"});
    CHECK(human.status == 0);
    CHECK(human.out.find("  agent 'G1' (agents/g101.json): agent 'G33' (modified) <- agent 'G32' <- ") !=
          std::string::npos);
    CHECK(human.out.find("'G0'") == std::string::npos);
    CHECK(human.out.find("\n  truncated: paths longer than 32 references are not followed\n\n1 file changed") !=
          std::string::npos);
  }
}

TEST_CASE("impact: ws-build --json and ws-apply --show --json print the same plan for the same change", "[impact]") {
  TempRepo repo;
  seed_chain(repo);
  repo.replace("agents/c.json", "an agent", "changed");
  repo.write("agents/n.json", agent("N", {"C"}));
  repo.remove("agents/d.json");
  auto built = ws("ws-build", {"--json", "--impact"}, repo.path());
  REQUIRE(built.status == 0);
  auto staged = ws("ws-commit", {"--json", "-m", "Change C"}, repo.path());
  INFO(staged.err);
  REQUIRE(staged.status == 0);
  std::string id = nlohmann::json::parse(staged.out)["id"];
  auto shown = ws("ws-apply", {"--json", "--show", id}, repo.path());
  INFO(shown.err);
  REQUIRE(shown.status == 0);
  auto records = lines(shown.out);
  REQUIRE(!records.empty());
  CHECK(nlohmann::json::parse(records[0])["type"] == "proposal");
  std::vector<std::string> plan(records.begin() + 1, records.end());
  CHECK(plan == plan_lines(built.out));
  CHECK(plan.size() == 3 + 3);
}

TEST_CASE("impact: an index of the base with flipped bytes never changes the answer", "[impact]") {
  TempRepo repo;
  seed_chain(repo);
  repo.replace("agents/c.json", "\"C\"", "\"Cee\"");
  // The first build leaves the index of the base; the second answers from it.
  auto intact = build_twice(repo, {"--impact", "--json"});
  REQUIRE(intact.status == 1);
  const std::string file = ".git/ws/cache/bases/" + wstest::chomp(repo.git({"rev-parse", "HEAD"}));
  const std::string good = repo.read(file);
  REQUIRE(!good.empty());
  // A byte in every stretch of the file: header, tables, paths and records.
  // Each damaged index is caught (checksum or a record's hash) and the
  // build made without it, so the walk on its numbers never sees a wrong one.
  const std::size_t stride = good.size() / 40 + 1;
  for (std::size_t at = 0; at < good.size(); at += stride) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x01);
    repo.write(file, bad);
    auto r = ws("ws-build", {"--impact", "--json"}, repo.path());
    INFO("byte " << at << " of " << good.size());
    CHECK(r.status == intact.status);
    CHECK(r.out == intact.out);
  }
}

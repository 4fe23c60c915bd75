// The output contract (ws(7), JSON OUTPUT): every --json output is JSON
// Lines, every record has a type and the version, and every record type of
// every tool is described by its published schema (schemas/output/), which
// allows no field it does not name. run() checks each --json output the
// suite sees against the schemas; these tests make every record type appear,
// check that the schemas name no type the tools never write, and that the
// check itself refuses what breaks the contract.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/output_schema.h"
#include "support/process.h"
#include "support/temp_repo.h"

using wstest::lines;
using wstest::RunResult;
using wstest::TempRepo;

namespace {

const std::vector<std::string> kTools{"ws-ls", "ws-grep", "ws-build", "ws-commit", "ws-apply"};

std::string schema_path(const std::string& tool) { return std::string(WS_SOURCE_DIR) + "/schemas/output/" + tool + ".json"; }

nlohmann::json schema_of(const std::string& tool) {
  std::ifstream in(schema_path(tool), std::ios::binary);
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

// The record types a tool's schema names.
std::set<std::string> schema_types(const std::string& tool) {
  std::set<std::string> types;
  const nlohmann::json schema = schema_of(tool);
  for (const auto& t : schema["properties"]["type"]["enum"]) types.insert(t.get<std::string>());
  return types;
}

RunResult ws(const TempRepo& repo, const std::string& tool, const std::vector<std::string>& args) {
  wstest::RunOptions o;
  o.env = {{"GIT_COMMITTER_NAME", "Ada Approver"}, {"GIT_COMMITTER_EMAIL", "approver@example.com"}};
  return wstest::ws(tool, args, repo.path(), o);
}

// Runs the tools so that each writes every record type it has; returns
// each tool's outputs.
std::map<std::string, std::vector<std::string>> every_record_type(const TempRepo& repo) {
  std::map<std::string, std::vector<std::string>> out;
  auto run = [&](const std::string& tool, const std::vector<std::string>& args, int status) {
    auto r = ws(repo, tool, args);
    INFO(tool << " " << r.err);
    CHECK(r.status == status);
    out[tool].push_back(r.out);
    return r.out;
  };
  run("ws-ls", {"--json"}, 0);
  run("ws-ls", {"--json", "--max", "1"}, 0);
  run("ws-grep", {"--json", "-C", "1", "Billing"}, 0);
  run("ws-grep", {"--json", "-l", "--max", "1", "Billing"}, 0);
  repo.replace("agents/AGtriage01.json", "\"name\": \"Triage\"", "\"name\": \"Intake\"");
  run("ws-build", {"--json"}, 1);
  run("ws-build", {"--json", "--impact"}, 1);
  repo.replace("agents/AGtriage01.json", "\"name\": \"Intake\"", "\"name\": \"Triage\"");
  repo.replace("agents/AGtriage01.json", "\"model\": \"small\"", "\"model\": \"large\"");
  auto id_of = [](const std::string& json_out) { return nlohmann::json::parse(json_out)["id"].get<std::string>(); };
  run("ws-commit", {"--json", "--session", "a", "-m", "First"}, 0);
  std::string applied = id_of(run("ws-commit", {"--json", "--session", "a", "-m", "Second"}, 0));  // supersedes
  std::string stale = id_of(run("ws-commit", {"--json", "--session", "b", "-m", "Third"}, 0));
  std::string rejected = id_of(run("ws-commit", {"--json", "--session", "c", "-m", "Fourth"}, 0));
  run("ws-apply", {"--json", "--reject", rejected.substr(0, 9), "-m", "Not now"}, 0);
  run("ws-apply", {"--json", applied}, 0);
  run("ws-apply", {"--json", "--list", "--all"}, 0);  // superseded, applied, stale, rejected
  run("ws-apply", {"--json", "--show", stale}, 0);
  run("ws-apply", {"--json", "--show", stale, "--stat"}, 0);
  run("ws-apply", {"--json", "--prune", "--dry-run"}, 0);  // superseded, applied, rejected
  // A chain of 34 agents, its last one changed: a path of 33 references,
  // past the impact walk's limit (Impact-Truncated).
  for (int i = 0; i < 34; ++i) {
    std::string handoffs = i + 1 < 34 ? "\"Hop" + std::to_string(i + 1) + "\"" : "";
    repo.write("agents/AGhop" + std::to_string(100 + i) + ".json",
               "{\"name\": \"Hop" + std::to_string(i) + "\", \"handoffs\": [" + handoffs + "]}\n");
  }
  repo.commit_all("a chain of handoffs");
  repo.write("agents/AGhop133.json", "{\"name\": \"Hop33\", \"description\": \"last\", \"handoffs\": []}\n");
  run("ws-build", {"--json", "--impact"}, 0);
  std::string deep = id_of(run("ws-commit", {"--json", "--session", "d", "-m", "Deep"}, 0));
  run("ws-apply", {"--json", "--show", deep, "--stat"}, 0);
  return out;
}

}  // namespace

TEST_CASE("output contract: every tool writes every record type of its schema, and no other", "[json-output]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "example workspace");
  auto outputs = every_record_type(repo);
  for (const auto& tool : kTools) {
    INFO(tool);
    std::set<std::string> seen;
    for (const auto& out : outputs[tool]) {
      CHECK(wstest::output_problems(tool, out) == "");
      for (const auto& r : wstest::json_records(tool, out)) {
        CHECK(r["version"] == 1);
        seen.insert(r["type"].get<std::string>());
      }
    }
    CHECK(seen == schema_types(tool));
  }
  // The states a listing names, each with the fields its state has.
  std::map<std::string, nlohmann::json> by_state;
  for (const auto& r : wstest::json_records("ws-apply", outputs["ws-apply"][2])) by_state[r["state"]] = r;
  CHECK(by_state.size() == 4);
  CHECK(by_state["stale"]["colliding_paths"] == nlohmann::json::array({"agents/AGtriage01.json"}));
  CHECK(by_state["superseded"].contains("superseded_by"));
  CHECK(by_state["applied"].contains("applied_as"));
  CHECK(by_state["rejected"].contains("state"));
  // --reject names the proposal by its full id, whatever prefix was given.
  auto rejected = wstest::json_records("ws-apply", outputs["ws-apply"][0]);
  REQUIRE(rejected.size() == 1);
  CHECK(rejected[0] == nlohmann::json{{"type", "rejected"}, {"version", 1}, {"id", by_state["rejected"]["id"]}});
}

TEST_CASE("output contract: a record without type, of another version, or with a field its schema lacks is refused",
          "[json-output]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "example workspace");
  auto ls = ws(repo, "ws-ls", {"--json", "agents/AGtriage01.json"});
  REQUIRE(ls.status == 0);
  REQUIRE(wstest::output_problems("ws-ls", ls.out) == "");
  const nlohmann::json entry = nlohmann::json::parse(ls.out);
  auto problems = [](nlohmann::json record, const std::string& tool = "ws-ls") {
    return wstest::output_problems(tool, record.dump() + "\n");
  };
  auto refused = [&](const std::string& what, const nlohmann::json& record, const std::string& tool = "ws-ls") {
    INFO(what << ": " << record.dump());
    std::string p = problems(record, tool);
    CHECK(p.rfind("line 1: " + record.dump() + "\n  ", 0) == 0);
  };
  auto without = [](nlohmann::json j, const std::string& key) { j.erase(key); return j; };
  auto with = [](nlohmann::json j, const std::string& key, nlohmann::json v) { j[key] = std::move(v); return j; };

  refused("no type", without(entry, "type"));
  refused("no version", without(entry, "version"));
  refused("version 2", with(entry, "version", 2));
  refused("version as text", with(entry, "version", "1"));
  refused("a type no tool writes", with(entry, "type", "entries"));
  refused("a type of another tool", with(entry, "type", "match"));
  refused("a field the schema lacks", with(entry, "colour", "red"));
  refused("a misspelt field", with(without(entry, "status"), "state", "unchanged"));
  refused("a required field missing", without(entry, "blob"));
  refused("a field of the wrong type", with(entry, "size", "12"));
  refused("a status no view has", with(entry, "status", "copied"));
  refused("a blob that is no object id", with(entry, "blob", "HEAD"));
  refused("_bytes beside valid UTF-8", with(entry, "path_bytes", "YWdlbnRz"));
  refused("_bytes that is not base64", with(entry, "path_bytes", "!!"));
  refused("_bytes without its text", with(without(entry, "name"), "name_bytes", "/w=="));
  refused("a note's field the schema lacks",
          nlohmann::json::parse(R"({"type":"diagnostic","version":1,"code":"WS001","severity":"error","path":"a",)"
                                R"("line":1,"column":1,"end_line":1,"end_column":2,"message":"m",)"
                                R"("notes":[{"path":null,"line":null,"column":null,"end_line":null,)"
                                R"("end_column":null,"message":"n","hint":"h"}]})"),
          "ws-build");
  CHECK(wstest::output_problems("ws-ls", "not json\n") == "line 1: not json\n  not one JSON value\n");
  CHECK(wstest::output_problems("ws-ls", ls.out.substr(0, ls.out.size() - 1)) ==
        "the output does not end with a line end\n");
  CHECK(wstest::output_problems("ws-ls", ls.out + "\n") == "line 2: \n  not one JSON value\n");

  // ws-build's summary ends its output, once.
  auto build = ws(repo, "ws-build", {"--json", "--all"});
  REQUIRE(build.status == 0);
  auto report = wstest::json_records("ws-build", build.out);
  REQUIRE(report.size() == 1);
  std::string summary = report[0].dump() + "\n";
  std::string diagnostic =
      R"({"type":"diagnostic","version":1,"code":"WS001","severity":"error","path":"a","line":null,)"
      R"("column":null,"end_line":null,"end_column":null,"message":"m","notes":[]})"
      "\n";
  CHECK(wstest::output_problems("ws-build", diagnostic + summary) == "");
  CHECK(wstest::output_problems("ws-build", summary + diagnostic) == "the summary is not the last record\n");
  CHECK(wstest::output_problems("ws-build", summary + summary) == "more than one summary record\n");
  CHECK(wstest::output_problems("ws-build", diagnostic) == "no summary record\n");
}

TEST_CASE("output contract: the schemas are draft-07 and accept what the tools write, by a second validator",
          "[json-output]") {
  auto probe = wstest::run({"/usr/bin/python3", "-c", "import jsonschema"});
  if (probe.status != 0) {
    WARN("SKIPPED: /usr/bin/python3 with jsonschema not available: " << probe.err);
    return;
  }
  TempRepo repo;
  wstest::commit_example_workspace(repo, "example workspace");
  auto outputs = every_record_type(repo);
  // Python's jsonschema checks each schema against the draft-07 meta-schema,
  // then every record against its tool's schema, and a record with an
  // unknown field against it too (which must fail).
  const char* kCheck =
      "import json, sys\n"
      "from jsonschema import Draft7Validator\n"
      "schema = json.load(open(sys.argv[1]))\n"
      "Draft7Validator.check_schema(schema)\n"
      "v = Draft7Validator(schema)\n"
      "n = 0\n"
      "for line in open(sys.argv[2], encoding='utf-8'):\n"
      "    record = json.loads(line)\n"
      "    v.validate(record)\n"
      "    record['unknown_field'] = 1\n"
      "    if v.is_valid(record): sys.exit('an unknown field passed: ' + line)\n"
      "    n += 1\n"
      "print(n)\n";
  wstest::TempDir dir;
  for (const auto& tool : kTools) {
    INFO(tool);
    std::string all;
    for (const auto& out : outputs[tool]) all += out;
    std::string path = dir.path() + "/" + tool + ".jsonl";
    std::ofstream(path, std::ios::binary) << all;
    auto v = wstest::run({"/usr/bin/python3", "-c", kCheck, schema_path(tool), path});
    INFO(v.err);
    CHECK(v.status == 0);
    CHECK(v.out == std::to_string(lines(all).size()) + "\n");
  }
}

namespace {

// The shell recipe of docs/ci.md that reads ws-build's records with jq.
std::string ci_jq_recipe() {
  std::ifstream f(std::string(WS_SOURCE_DIR) + "/docs/ci.md");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string doc = ss.str();
  auto start = doc.find("With `jq`,");
  REQUIRE(start != std::string::npos);
  start = doc.find("```sh\n", start);
  REQUIRE(start != std::string::npos);
  start += 6;
  auto end = doc.find("```\n", start);
  REQUIRE(end != std::string::npos);
  return doc.substr(start, end - start);
}

RunResult run_recipe(const TempRepo& repo, const std::string& base) {
  wstest::RunOptions o = wstest::ws_options(repo.path());
  o.env["PATH"] = std::string(WS_BIN_DIR) + ":/usr/bin:/bin";
  o.env["TARGET_BRANCH_OR_SHA"] = base;
  return wstest::run({"/bin/sh", "-c", "set -e\n" + ci_jq_recipe()}, o);
}

}  // namespace

TEST_CASE("output contract: docs/ci.md's jq recipe lists the errors and refuses a broken range", "[json-output]") {
  if (wstest::run({"/bin/sh", "-c", "command -v jq"}).status != 0) {
    WARN("SKIPPED: jq not installed");
    return;
  }
  TempRepo repo;
  std::string base = wstest::commit_example_workspace(repo, "example workspace");
  repo.write("agents/AGnew01.json", "{\"name\": \"New\", \"tools\": [\"LookupCustomer\"]}\n");
  repo.commit_all("a clean change");
  auto clean = run_recipe(repo, base);
  CHECK(clean.status == 0);
  CHECK(clean.out == "1 file changed, compiled clean.\n");
  repo.remove("agents/AGtriage01.json");
  repo.commit_all("a broken change");
  auto broken = run_recipe(repo, base);
  CHECK(broken.status != 0);
  CHECK(broken.out ==
        "access/grants/GTsupport01.json:5: unresolved reference to agent 'Triage'\n"
        "endpoints/EPtriage01.cs:6: unresolved reference 'Agents.Triage'\n"
        "2 errors in 2 files (3 files changed)\n");
}

// SARIF output against the official SARIF 2.1.0 JSON Schema (OASIS, in
// ../shared/data), validated by Debian's python3-jsonschema (Draft 4, the
// schema's own draft), plus the conversions a schema cannot see: UTF-16
// columns, URI encoding, rule indexes.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "libcheck/render.h"
#include "support/process.h"
#include "support/sarif_check.h"

using namespace ws;
namespace fs = std::filesystem;

namespace {

Span span(std::uint32_t l, std::uint32_t c, std::uint32_t el, std::uint32_t ec) {
  Span s;
  s.start = {l, c};
  s.end = {el, ec};
  return s;
}

const std::map<std::string, std::string> kFiles{
    // U+1F600 is four bytes and two UTF-16 units, U+00E9 two bytes and one unit.
    {"agents/a.json", "{\n\xf0\x9f\x98\x80\xc3\xa9 Agents\n}\n"},
    {"nodes/n.json", "{\n  \"name\": \"Ticket\"\n}\n"},
};

RenderOptions options(std::string version = "0.1.0") {
  RenderOptions o;
  o.tool_version = std::move(version);
  o.source = [](const std::string& p) -> std::optional<std::string> {
    auto it = kFiles.find(p);
    if (it == kFiles.end()) return std::nullopt;
    return it->second;
  };
  return o;
}

std::vector<Diagnostic> fixture() {
  std::vector<Diagnostic> ds;
  auto d = make_diag(DiagCode::broken_by_change, "agents/a.json", span(2, 8, 2, 14),
                     "no agent named 'Agents'");
  d.notes.push_back(Note{"nodes/n.json", span(2, 11, 2, 19), true, "renamed here"});
  d.notes.push_back(Note{"nodes/n.json", {}, false, "the file that changed"});
  d.notes.push_back(Note{"", {}, false, "update the reference in the same change"});
  ds.push_back(d);
  ds.push_back(make_diag(DiagCode::shadowed_root, "nodes/n.json", span(2, 3, 3, 1), "multi-line"));
  ds.push_back(make_file_diag(DiagCode::unrouted_file, "dir with space/a:b%#\xc3\xa9.json",
                              "file is in no kind's folder"));
  ds.push_back(make_diag(DiagCode::syntax_error, "unknown/source.json", span(4, 2, 4, 5),
                         "source not available"));
  auto note = make_file_diag(DiagCode::kind_manifest, "", "a note with no path at all");
  note.severity = Severity::note;
  ds.push_back(note);
  return ds;
}

std::string render_sarif(const std::vector<Diagnostic>& ds, const RenderOptions& o = options()) {
  std::ostringstream out;
  auto c = make_consumer(OutputFormat::sarif, out, o);
  BuildSummary s;
  s.files_changed = 3;
  render_all(*c, ds, tally(ds, s));
  return out.str();
}

}  // namespace

TEST_CASE("sarif output is valid against the SARIF 2.1.0 schema", "[render][sarif]") {
  for (auto [name, sarif] : {std::pair{"fixture", render_sarif(fixture())},
                             std::pair{"empty", render_sarif({})},
                             std::pair{"no version", render_sarif(fixture(), options(""))}}) {
    INFO(name << ":\n" << sarif);
    auto r = wstest::validate_sarif(sarif);
    if (!r) return;
    INFO(r->out << r->err);
    CHECK(r->status == 0);
  }
}

TEST_CASE("the schema check catches an invalid log", "[render][sarif]") {
  // A negative control: the validation above would be worthless if the
  // validator accepted anything.
  auto doc = nlohmann::json::parse(render_sarif(fixture()));
  doc["runs"][0]["results"][0]["level"] = "fatal";
  auto r = wstest::validate_sarif(doc.dump());
  if (!r) return;
  INFO(r->out << r->err);
  CHECK(r->status == 1);
  CHECK(r->out.find("fatal") != std::string::npos);
}

TEST_CASE("sarif content: rules, columns, uris, related locations", "[render][sarif]") {
  std::string out = render_sarif(fixture());
  CHECK(out.back() == '\n');
  CHECK(render_sarif(fixture()) == out);  // deterministic
  auto doc = nlohmann::json::parse(out);
  CHECK(doc["version"] == "2.1.0");
  CHECK(doc["$schema"] ==
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json");
  REQUIRE(doc["runs"].size() == 1);
  auto& run = doc["runs"][0];
  CHECK(run["columnKind"] == "utf16CodeUnits");
  auto& driver = run["tool"]["driver"];
  CHECK(driver["name"] == "ws-build");
  CHECK(driver["version"] == "0.1.0");
  auto table = all_diagnostics();
  REQUIRE(driver["rules"].size() == table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    CHECK(driver["rules"][i]["id"] == table[i].id);
    CHECK(driver["rules"][i]["shortDescription"]["text"] == table[i].summary);
    CHECK(driver["rules"][i]["fullDescription"]["text"] == table[i].explanation);
  }
  CHECK(driver["rules"][9]["name"] == "UnresolvedReference");
  CHECK(driver["rules"][13]["defaultConfiguration"]["level"] == "warning");

  auto& results = run["results"];
  REQUIRE(results.size() == 5);
  for (auto& r : results)
    CHECK(driver["rules"][r["ruleIndex"].get<std::size_t>()]["id"] == r["ruleId"]);

  // Byte columns 8..14 after a 4-byte and a 2-byte character: UTF-16 5..11.
  CHECK(results[0]["locations"][0]["physicalLocation"] == nlohmann::json::parse(R"({
    "artifactLocation": {"uri": "agents/a.json", "uriBaseId": "%SRCROOT%"},
    "region": {"startLine": 2, "startColumn": 5, "endLine": 2, "endColumn": 11}})"));
  CHECK(results[0]["level"] == "error");
  CHECK(results[0]["message"]["text"] ==
        "no agent named 'Agents'\nnote: update the reference in the same change");
  CHECK(results[0]["relatedLocations"] == nlohmann::json::parse(R"([
    {"id": 1, "physicalLocation": {
       "artifactLocation": {"uri": "nodes/n.json", "uriBaseId": "%SRCROOT%"},
       "region": {"startLine": 2, "startColumn": 11, "endLine": 2, "endColumn": 19}},
     "message": {"text": "renamed here"}},
    {"id": 2, "physicalLocation": {
       "artifactLocation": {"uri": "nodes/n.json", "uriBaseId": "%SRCROOT%"}},
     "message": {"text": "the file that changed"}}])"));

  CHECK(results[1]["level"] == "warning");
  CHECK(results[1]["locations"][0]["physicalLocation"]["region"] ==
        nlohmann::json::parse(R"({"startLine": 2, "startColumn": 3, "endLine": 3, "endColumn": 1})"));
  CHECK(results[2]["locations"][0]["physicalLocation"] == nlohmann::json::parse(R"({
    "artifactLocation": {"uri": "dir%20with%20space/a%3Ab%25%23%C3%A9.json",
                         "uriBaseId": "%SRCROOT%"}})"));
  // Without the source the byte columns cannot be converted: lines only.
  CHECK(results[3]["locations"][0]["physicalLocation"]["region"] ==
        nlohmann::json::parse(R"({"startLine": 4, "endLine": 4})"));
  CHECK(results[4]["level"] == "note");
  CHECK_FALSE(results[4].contains("locations"));

  auto unversioned = nlohmann::json::parse(render_sarif({}, options("")));
  CHECK_FALSE(unversioned["runs"][0]["tool"]["driver"].contains("version"));
  CHECK(unversioned["runs"][0]["results"] == nlohmann::json::array());
}

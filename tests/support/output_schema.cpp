#include "support/output_schema.h"

#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string_view>

#include <catch2/catch.hpp>

#include "libcheck/json_output.h"
#include "valijson_include.h"

namespace wstest {

namespace {

using Json = nlohmann::json;

std::string base_name(const std::string& path) {
  std::size_t slash = path.rfind('/');
  return path.substr(slash == std::string::npos ? 0 : slash + 1);
}

// "ws-ls" for ws-ls, and for `ws ls`; "" for any other program.
std::string tool_of(const std::vector<std::string>& argv) {
  if (argv.empty()) return "";
  std::string program = base_name(argv[0]);
  if (program == "ws") return argv.size() > 1 && argv[1].rfind('-', 0) != 0 ? "ws-" + argv[1] : "";
  for (const char* t : {"ws-ls", "ws-grep", "ws-build", "ws-commit", "ws-apply"})
    if (program == t) return program;
  return "";
}

// The schemas, each parsed once; valijson's parser and validator are not
// shared between threads.
std::mutex schemas_mutex;

const valijson::Schema& schema_of(const std::string& tool) {
  static std::map<std::string, std::unique_ptr<valijson::Schema>> schemas;
  auto& slot = schemas[tool];
  if (slot) return *slot;
  std::ifstream in(std::string(WS_SOURCE_DIR) + "/schemas/output/" + tool + ".json", std::ios::binary);
  if (!in) throw std::runtime_error("no schema schemas/output/" + tool + ".json");
  Json doc = Json::parse(in);
  auto schema = std::make_unique<valijson::Schema>();
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::NlohmannJsonAdapter adapter(doc);
  parser.populateSchema(adapter, *schema);
  slot = std::move(schema);
  return *slot;
}

std::string schema_problems(const valijson::Schema& schema, const Json& record) {
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(record);
  if (validator.validate(schema, target, &results)) return "";
  std::string problems;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    std::string where;
    for (const auto& c : error.context) where += c;
    problems += "  " + where + ": " + error.description + "\n";
  }
  return problems;
}

// A "<name>_bytes" member holds the base64 of bytes that are not UTF-8, and
// "<name>" their U+FFFD form (ws(7), JSON OUTPUT).
std::string bytes_problem(const std::string& text, const Json& bytes, const std::string& key) {
  if (!bytes.is_string()) return key + " is not a string";
  auto decoded = ws::base64_decode(bytes.get<std::string>());
  if (!decoded) return key + " is not base64";
  if (ws::is_valid_utf8(*decoded)) return key + " holds valid UTF-8, which needs no _bytes member";
  if (ws::utf8_replaced(*decoded) != text) return key + " does not hold the bytes of its text";
  return "";
}

void check_bytes_members(const Json& value, std::string& problems) {
  if (value.is_array())
    for (const auto& v : value) check_bytes_members(v, problems);
  if (!value.is_object()) return;
  for (auto it = value.begin(); it != value.end(); ++it) {
    check_bytes_members(it.value(), problems);
    const std::string& key = it.key();
    if (key.size() <= 6 || key.compare(key.size() - 6, 6, "_bytes") != 0) continue;
    auto text = value.find(key.substr(0, key.size() - 6));
    std::string problem;
    if (text == value.end()) problem = key + " without its text member";
    else if (text->is_string()) problem = bytes_problem(text->get<std::string>(), it.value(), key);
    else if (!text->is_array() || !it.value().is_array() || text->size() != it.value().size())
      problem = key + " is no list as long as its text member";
    else
      for (std::size_t i = 0; i < text->size() && problem.empty(); ++i)
        if (!it.value()[i].is_null()) problem = bytes_problem((*text)[i].get<std::string>(), it.value()[i], key);
    if (!problem.empty()) problems += "  " + problem + "\n";
  }
}

// The summary of ws-build and ws-grep ends the output, once.
std::string summary_problem(const std::string& tool, const std::vector<Json>& records) {
  if (tool != "ws-build" && tool != "ws-grep") return "";
  std::size_t summaries = 0;
  for (const auto& r : records) summaries += r.value("type", "") == "summary";
  if (tool == "ws-build" && !records.empty() && summaries == 0) return "no summary record\n";
  if (summaries > 1) return "more than one summary record\n";
  if (summaries == 1 && records.back().value("type", "") != "summary") return "the summary is not the last record\n";
  return "";
}

}  // namespace

std::string json_output_tool(const std::vector<std::string>& argv) {
  std::string tool = tool_of(argv);
  if (tool.empty()) return "";
  bool json = false;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--") break;
    if (a == "--help" || a == "-h" || a == "--help-options" || a == "--version") return "";
    if (a == "-e" || a == "--regexp" || a == "-m" || a == "--message") { ++i; continue; }  // their values
    json |= a == "--json" || a == "--format=json" || (a == "--format" && i + 1 < argv.size() && argv[i + 1] == "json");
  }
  return json ? tool : "";
}

std::string output_problems(const std::string& tool, const std::string& out) {
  if (out.empty()) return "";
  if (out.back() != '\n') return "the output does not end with a line end\n";
  std::lock_guard<std::mutex> lock(schemas_mutex);
  const valijson::Schema& schema = schema_of(tool);
  std::string problems;
  std::vector<Json> records;
  std::istringstream lines(out);
  std::size_t n = 0;
  for (std::string line; std::getline(lines, line);) {
    ++n;
    Json record = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    std::string found;
    if (record.is_discarded()) found = "  not one JSON value\n";
    else {
      found = schema_problems(schema, record);
      check_bytes_members(record, found);
      records.push_back(std::move(record));
    }
    if (!found.empty()) problems += "line " + std::to_string(n) + ": " + line.substr(0, 1000) + "\n" + found;
  }
  return problems + summary_problem(tool, records);
}

void expect_valid_output(const std::string& tool, const std::string& out) {
  std::string problems = output_problems(tool, out);
  if (problems.empty()) return;
  static std::mutex one_at_a_time;  // Catch2 asserts from one thread at a time
  std::lock_guard<std::mutex> lock(one_at_a_time);
  FAIL_CHECK(tool << " --json output breaks schemas/output/" << tool << ".json:\n" << problems);
}

std::vector<nlohmann::json> json_records(const std::string& tool, const std::string& out) {
  expect_valid_output(tool, out);
  std::vector<Json> records;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) records.push_back(Json::parse(line));
  return records;
}

nlohmann::json build_report(const std::string& out) {
  Json report{{"diagnostics", Json::array()}, {"plan", Json::array()}, {"summary", nullptr}};
  for (auto& r : json_records("ws-build", out)) {
    if (r["type"] == "summary") report["summary"] = std::move(r);
    else if (r["type"] == "diagnostic") report["diagnostics"].push_back(std::move(r));
    else report["plan"].push_back(std::move(r));
  }
  return report;
}

}  // namespace wstest

// SARIF 2.1.0 output (for GitHub code scanning and other SARIF viewers): one
// log with one run. The driver lists every code of the table as a rule, so a
// viewer can show the explanation of any result. Columns: our spans count
// bytes, SARIF counts UTF-16 code units by default (columnKind
// "utf16CodeUnits", which we state explicitly); we convert with the source
// line, and leave a column out rather than guess when the source is unknown.
// The tests validate this output against the official schema.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

#include "libcheck/json_output.h"
#include "libcheck/render.h"
#include "render_common.h"

namespace ws::render_detail {

namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kSchema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

// "unresolved reference" -> "UnresolvedReference": SARIF rule names are
// identifier-like, the summary is the human title.
std::string rule_name(std::string_view summary) {
  std::string out;
  bool upper = true;
  for (char c : summary) {
    if (!std::isalnum(static_cast<unsigned char>(c))) { upper = true; continue; }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

// A repository-relative path as a relative URI reference: every byte outside
// the unreserved and sub-delim characters is percent-encoded, and so is ':'
// (in a first segment it would read as a scheme).
std::string path_uri(std::string_view path) {
  static constexpr std::string_view kKeep = "-._~!$&'()*+,;=@/";
  std::string out;
  for (char c : path) {
    auto b = static_cast<unsigned char>(c);
    if (std::isalnum(b) && b < 0x80) out += c;
    else if (kKeep.find(c) != std::string_view::npos) out += c;
    else out += fmt::format("%{:02X}", b);
  }
  return out;
}

const char* level(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

class SarifConsumer final : public DiagnosticConsumer {
 public:
  SarifConsumer(std::ostream& out, const RenderOptions& o)
      : DiagnosticConsumer(out), version_(o.tool_version), cache_(o.source) {}

  void diagnostic(const Diagnostic& d) override {
    const DiagInfo& info = diag_info(d.code);
    auto table = all_diagnostics();
    auto at = std::find_if(table.begin(), table.end(),
                           [&](const DiagInfo& i) { return i.code == d.code; });
    ojson r;
    r["ruleId"] = info.id;
    r["ruleIndex"] = at - table.begin();
    r["level"] = level(d.severity);
    std::string text = d.message;
    for (const auto& n : d.notes)
      if (n.path.empty()) text += "\nnote: " + n.message;
    r["message"]["text"] = text;
    if (!d.path.empty())
      r["locations"] = ojson::array(
          {{{"physicalLocation", physical(d.path, d.has_span ? &d.span : nullptr)}}});
    ojson related = ojson::array();
    for (const auto& n : d.notes) {
      if (n.path.empty()) continue;
      ojson l;
      l["id"] = related.size() + 1;
      l["physicalLocation"] = physical(n.path, n.has_span ? &n.span : nullptr);
      l["message"]["text"] = n.message;
      related.push_back(std::move(l));
    }
    if (!related.empty()) r["relatedLocations"] = std::move(related);
    results_.push_back(std::move(r));
  }

  void end(const BuildSummary&) override {
    ojson driver;
    driver["name"] = "ws-build";
    if (!version_.empty()) driver["version"] = version_;
    ojson rules = ojson::array();
    for (const auto& info : all_diagnostics()) {
      ojson rule;
      rule["id"] = info.id;
      rule["name"] = rule_name(info.summary);
      rule["shortDescription"]["text"] = info.summary;
      rule["fullDescription"]["text"] = info.explanation;
      rule["help"]["text"] = info.explanation;
      rule["defaultConfiguration"]["level"] = level(info.severity);
      rules.push_back(std::move(rule));
    }
    driver["rules"] = std::move(rules);

    ojson run;
    run["tool"]["driver"] = std::move(driver);
    run["columnKind"] = "utf16CodeUnits";
    run["results"] = ojson(std::move(results_));
    results_.clear();

    ojson log;
    log["$schema"] = kSchema;
    log["version"] = "2.1.0";
    log["runs"] = ojson::array({std::move(run)});
    // SARIF's schema is fixed: U+FFFD only, no "_bytes" members.
    out_ << json_text(std::move(log), JsonBytes::replaced_only, 2) << '\n';
  }

 private:
  ojson physical(const std::string& path, const Span* span) {
    ojson phys;
    phys["artifactLocation"]["uri"] = path_uri(path);
    phys["artifactLocation"]["uriBaseId"] = "%SRCROOT%";
    if (span) {
      ojson region;
      std::uint32_t start_line = std::max<std::uint32_t>(span->start.line, 1);
      std::uint32_t end_line = std::max(span->end.line, start_line);
      region["startLine"] = start_line;
      if (auto l = cache_.line(path, start_line))
        region["startColumn"] = utf16_column(*l, std::max<std::uint32_t>(span->start.column, 1));
      region["endLine"] = end_line;
      if (auto l = cache_.line(path, end_line); l && region.contains("startColumn")) {
        std::uint32_t end = utf16_column(*l, std::max<std::uint32_t>(span->end.column, 1));
        // SARIF's end column is exclusive like ours; a span that ends before it
        // starts (bad data) is shown empty rather than made invalid.
        if (end_line == start_line) end = std::max(end, region["startColumn"].get<std::uint32_t>());
        region["endColumn"] = end;
      }
      phys["region"] = std::move(region);
    }
    return phys;
  }

  std::string version_;
  SourceCache cache_;
  std::vector<ojson> results_;
};

}  // namespace

std::unique_ptr<DiagnosticConsumer> make_sarif(std::ostream& out, const RenderOptions& o) {
  return std::make_unique<SarifConsumer>(out, o);
}

}  // namespace ws::render_detail

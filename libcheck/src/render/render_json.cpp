// JSON output: JSON Lines, one "diagnostic" record per diagnostic as it
// comes, then one "summary" record, for scripts (`ws-build --json | jq`);
// the schema is schemas/output/ws-build.json (ws(7), JSON OUTPUT). Keys keep
// the documented order (ordered_json); a diagnostic without a span has null
// positions. The records:
//   {"type": "diagnostic", "version": 1, "code", "severity", "path", "line",
//    "column", "end_line", "end_column", "message",
//    "notes": [{"path", "line", ..., "message"}]}
//   {"type": "summary", "version": 1, "files_changed", "files_checked",
//    "errors", "warnings", "files_with_errors", "all", "all_reason" (only
//    when a change to the kinds or config made it check every definition),
//    "clean", "text", "tool": {"name": "ws-build", "version": "0.1.0"}}
// "version" is the version of the record shapes (kJsonRecordVersion);
// "tool.version" is the program's.
#include <nlohmann/json.hpp>

#include "libcheck/json_output.h"
#include "libcheck/render.h"
#include "render_common.h"

namespace ws::render_detail {

namespace {

using ojson = nlohmann::ordered_json;

void put_position(ojson& j, const Span* span) {
  if (span) {
    j["line"] = span->start.line;
    j["column"] = span->start.column;
    j["end_line"] = span->end.line;
    j["end_column"] = span->end.column;
  } else {
    for (const char* key : {"line", "column", "end_line", "end_column"}) j[key] = nullptr;
  }
}

class JsonConsumer final : public DiagnosticConsumer {
 public:
  JsonConsumer(std::ostream& out, const RenderOptions& o)
      : DiagnosticConsumer(out), version_(o.tool_version) {}

  void diagnostic(const Diagnostic& d) override { write(diagnostic_json(d)); }

  void end(const BuildSummary& s) override {
    ojson sum = json_record("summary");
    sum["files_changed"] = s.files_changed;
    sum["files_checked"] = s.files_checked;
    sum["errors"] = s.errors;
    sum["warnings"] = s.warnings;
    sum["files_with_errors"] = s.files_with_errors;
    sum["all"] = s.all;
    if (!s.all_reason.empty()) sum["all_reason"] = s.all_reason;
    sum["clean"] = s.errors == 0;
    sum["text"] = summary_line(s);
    sum["tool"]["name"] = "ws-build";
    if (!version_.empty()) sum["tool"]["version"] = version_;
    write(std::move(sum));
  }

 private:
  void write(ojson record) { out_ << json_text(std::move(record)) << '\n'; }

  std::string version_;
};

}  // namespace

std::unique_ptr<DiagnosticConsumer> make_json(std::ostream& out, const RenderOptions& o) {
  return std::make_unique<JsonConsumer>(out, o);
}

}  // namespace ws::render_detail

namespace ws {

nlohmann::ordered_json diagnostic_json(const Diagnostic& d) {
  using render_detail::ojson;
  using render_detail::put_position;
  ojson j = json_record("diagnostic");
  j["code"] = diag_info(d.code).id;
  j["severity"] = severity_name(d.severity);
  j["path"] = d.path;
  put_position(j, d.has_span ? &d.span : nullptr);
  j["message"] = d.message;
  ojson notes = ojson::array();
  for (const auto& n : d.notes) {
    ojson jn;
    if (n.path.empty()) jn["path"] = nullptr;
    else jn["path"] = n.path;
    put_position(jn, n.has_span && !n.path.empty() ? &n.span : nullptr);
    jn["message"] = n.message;
    notes.push_back(std::move(jn));
  }
  j["notes"] = std::move(notes);
  return j;
}

}  // namespace ws

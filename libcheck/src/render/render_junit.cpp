// JUnit XML (ws-build(1), --format junit): the test-report format Jenkins'
// JUnit plugin and GitLab's unit test reports read, as Apache Ant's JUnit
// task writes it: <testsuites> holding one <testsuite name="ws-build">, one
// <testcase> per checked definition (and per other path with a finding),
// named by its path. A test case fails when it has an error (a warning too
// under --werror): one <failure> whose type is the first failing code and
// whose text lists every finding of the file, one per line, as the human
// report's first lines; other findings go to its <system-out>.
// tests/junit/junit.xsd is the schema the tests validate against.
//
// Every text comes from the workspace and is untrusted. XML 1.0 cannot carry
// most control characters at all, and a report viewer is a screen: each text
// is first made terminal-safe (terminal_text.h: controls, stray bytes, bidi
// overrides become visible escapes such as \x1b), then the two characters
// that terminal-safe text may still hold and XML 1.0 refuses, U+FFFE and
// U+FFFF, are spelled \ufffe and \uffff, then markup is escaped. No time or
// host is written: the same diagnostics give the same bytes.
#include <fmt/format.h>

#include <map>
#include <vector>

#include "libcheck/render.h"
#include "render_common.h"

namespace ws::render_detail {

namespace {

std::string xml_escape(std::string_view raw, bool attribute) {
  std::string safe = terminal_safe(raw, attribute ? LineBreaks::escape : LineBreaks::keep);
  std::string out;
  out.reserve(safe.size());
  for (std::size_t i = 0; i < safe.size(); ++i) {
    char c = safe[i];
    if (c == '\xEF' && i + 2 < safe.size() && safe[i + 1] == '\xBF' && (safe[i + 2] == '\xBE' || safe[i + 2] == '\xBF')) {
      out += safe[i + 2] == '\xBE' ? "\\ufffe" : "\\uffff";
      i += 2;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      default: out += c;
    }
  }
  return out;
}

std::string location(const Diagnostic& d) {
  if (d.path.empty()) return {};
  if (!d.has_span) return d.path + ": ";
  return fmt::format("{}:{}:{}: ", d.path, d.span.start.line, d.span.start.column);
}

// "path:3:5: error[WS010]: message" and its notes, one line each.
std::string finding_text(const Diagnostic& d) {
  std::string s = fmt::format("{}{}[{}]: {}\n", location(d), severity_name(d.severity), diag_info(d.code).id,
                              terminal_safe(d.message, LineBreaks::escape));
  for (const Note& n : d.notes) s += "  " + terminal_safe(note_text(n), LineBreaks::escape) + "\n";
  return s;
}

class JunitConsumer final : public DiagnosticConsumer {
 public:
  JunitConsumer(std::ostream& out, const RenderOptions& o) : DiagnosticConsumer(out), warnings_fail_(o.warnings_fail) {}

  void diagnostic(const Diagnostic& d) override { by_path_[d.path].push_back(d); }

  void end(const BuildSummary& summary) override {
    for (const auto& path : summary.checked) by_path_[path];
    std::size_t failures = 0;
    std::string cases;
    for (const auto& [path, diags] : by_path_) cases += testcase(path, diags, failures);
    out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         << fmt::format("<testsuites name=\"ws-build\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"0\">\n",
                        by_path_.size(), failures)
         << fmt::format("  <testsuite name=\"ws-build\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" "
                        "time=\"0\">\n",
                        by_path_.size(), failures)
         << cases << "  </testsuite>\n</testsuites>\n";
  }

 private:
  bool fails(const Diagnostic& d) const {
    return d.severity == Severity::error || (warnings_fail_ && d.severity == Severity::warning);
  }

  std::string testcase(const std::string& path, const std::vector<Diagnostic>& diags, std::size_t& failures) const {
    std::string name = xml_escape(path.empty() ? "(workspace)" : path, true);
    std::string head = fmt::format("    <testcase name=\"{}\" classname=\"ws-build\"{} time=\"0\"", name,
                                   path.empty() ? "" : " file=\"" + name + "\"");
    const Diagnostic* first = nullptr;
    std::size_t failing = 0;
    std::string failed_text, other_text;
    for (const auto& d : diags) {
      bool f = fails(d);
      if (f && !first) first = &d;
      failing += f;
      (f ? failed_text : other_text) += finding_text(d);
    }
    if (!first && other_text.empty()) return head + "/>\n";
    std::string body;
    if (first) {
      ++failures;
      std::string message = first->message;
      if (failing > 1) message += fmt::format(" (and {} more)", failing - 1);
      body += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n", diag_info(first->code).id,
                          xml_escape(message, true), xml_escape(failed_text, false));
    }
    if (!other_text.empty()) body += "      <system-out>" + xml_escape(other_text, false) + "</system-out>\n";
    return head + ">\n" + body + "    </testcase>\n";
  }

  bool warnings_fail_;
  std::map<std::string, std::vector<Diagnostic>> by_path_;
};

}  // namespace

std::unique_ptr<DiagnosticConsumer> make_junit(std::ostream& out, const RenderOptions& o) {
  return std::make_unique<JunitConsumer>(out, o);
}

}  // namespace ws::render_detail

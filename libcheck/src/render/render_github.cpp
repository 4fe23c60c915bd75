// GitHub Actions workflow commands: one `::error ...::message` line per
// diagnostic, which the runner turns into an annotation on the file and line,
// then the plain summary line for the log. Escaping follows the runner
// (actions/toolkit command.ts): in the message '%', '\r', '\n'; in property
// values also ':' and ','. Notes go into the message, one line each.
// Columns: the runner refuses col/endColumn when line and endLine differ, and
// its endColumn is inclusive (it defaults to col), while our span's end is
// exclusive, so a multi-line span gives lines only and endColumn is the last
// byte's column; a span that runs to the end of its line (ends at column 1 of
// the next) gives col only, as the end column is unknown without the source.
#include <fmt/format.h>

#include <algorithm>

#include "libcheck/render.h"
#include "render_common.h"

namespace ws::render_detail {

namespace {

// A one-line text (a message, a note, a path) as a terminal may show it.
std::string one_line(std::string_view s) { return terminal_safe(s, LineBreaks::escape); }

std::string escape_data(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      default: out += c;
    }
  }
  return out;
}

std::string escape_property(std::string_view s) {
  std::string out;
  for (char c : escape_data(one_line(s))) {
    switch (c) {
      case ':': out += "%3A"; break;
      case ',': out += "%2C"; break;
      default: out += c;
    }
  }
  return out;
}

const char* command(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "notice";
  }
  return "error";
}

class GithubConsumer final : public DiagnosticConsumer {
 public:
  using DiagnosticConsumer::DiagnosticConsumer;

  void diagnostic(const Diagnostic& d) override {
    std::vector<std::string> props;
    if (!d.path.empty()) {
      props.push_back("file=" + escape_property(d.path));
      if (d.has_span) {
        std::uint32_t line = std::max<std::uint32_t>(d.span.start.line, 1);
        props.push_back(fmt::format("line={}", line));
        // A span that ends at column 1 ends with the line before (its newline).
        std::uint32_t end_line = d.span.end.line;
        if (end_line > line && d.span.end.column <= 1) --end_line;
        if (end_line <= line && d.span.end.line > line) {
          props.push_back(fmt::format("col={}", std::max<std::uint32_t>(d.span.start.column, 1)));
        } else if (end_line <= line) {
          std::uint32_t col = std::max<std::uint32_t>(d.span.start.column, 1);
          std::uint32_t last = d.span.end.column > 0 ? d.span.end.column - 1 : 0;
          props.push_back(fmt::format("col={}", col));
          props.push_back(fmt::format("endLine={}", line));
          props.push_back(fmt::format("endColumn={}", std::max(col, last)));
        } else {
          props.push_back(fmt::format("endLine={}", end_line));
        }
      }
    }
    props.push_back("title=" + escape_property(diag_info(d.code).id));
    std::string message = one_line(d.message);
    for (const auto& n : d.notes) message += "\n" + one_line(note_text(n));
    out_ << "::" << command(d.severity) << ' ' << fmt::format("{}", fmt::join(props, ","))
         << "::" << escape_data(message) << '\n';
  }

  void end(const BuildSummary& summary) override {
    if (!summary.all_reason.empty()) out_ << "::notice::" << escape_data(one_line(summary.all_reason)) << '\n';
    out_ << summary_line(summary) << '\n';
  }
};

}  // namespace

std::unique_ptr<DiagnosticConsumer> make_github(std::ostream& out, const RenderOptions&) {
  return std::make_unique<GithubConsumer>(out);
}

}  // namespace ws::render_detail

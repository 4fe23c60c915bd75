// Human output, clang style:
//   agents/a.json:3:12: error[WS010]: unresolved reference 'Triage'
//     "prompt": "Triage",
//               ^~~~~~~~
//   prompts/t.md:1:7: note: 'Triage' was renamed to 'Intake' in prompts/t.md
// then the summary line. Paths, messages and quoted source lines go through
// terminal_safe() (ws(7), TERMINAL OUTPUT): a definition is untrusted text and
// must not be able to move the cursor or recolour the terminal of whoever
// reads the report.
#include <fmt/format.h>

#include <algorithm>

#include "libcheck/render.h"
#include "libcheck/sgr.h"
#include "display_width.h"
#include "render_common.h"

namespace ws::render_detail {

namespace {

// clang's colours (libcheck/sgr.h).
constexpr std::string_view kReset = sgr::reset;
constexpr std::string_view kBold = sgr::bold;
constexpr std::string_view kRed = sgr::bold_red;
constexpr std::string_view kMagenta = sgr::bold_magenta;
constexpr std::string_view kCyan = sgr::bold_cyan;
constexpr std::string_view kGreen = sgr::bold_green;

std::string_view severity_colour(Severity s) {
  switch (s) {
    case Severity::error: return kRed;
    case Severity::warning: return kMagenta;
    case Severity::note: return kCyan;
  }
  return kRed;
}

// The quoted line and the caret line beneath it. Columns are bytes; the caret
// line copies each tab of the prefix so it lines up whatever the tab width,
// and gives every other character (a UTF-8 sequence, not a byte) the cells a
// terminal gives it (display_width: 2 for CJK and emoji, 0 for a combining
// mark), or the width of its escape ("\x1b" is four cells), so the caret
// stays under the character it points at (ws-build(1), OUTPUT).
struct Quote {
  std::string text;
  std::string prefix;
  std::string marks;
};

Quote quote_line(std::string_view line, const Span& span) {
  Quote q;
  std::size_t start = span.start.column > 0 ? span.start.column - 1 : 0;
  std::size_t stop = line.size();
  if (span.end.line < span.start.line) stop = start;
  else if (span.end.line == span.start.line)
    stop = span.end.column > 0 ? span.end.column - 1 : 0;
  stop = std::min(stop, line.size());

  bool caret = false;
  for (std::size_t i = 0; i < line.size();) {
    TerminalChar t = terminal_char(line, i, LineBreaks::escape);
    const Utf8Unit& u = t.unit;
    i += u.length;
    bool tab = u.valid && u.code_point == '\t';
    std::size_t width = tab ? 0 : t.escaped() ? t.spelled_size : u.valid ? detail::display_width(u.code_point) : 1;
    if (t.escaped()) q.text += t.escape();
    else q.text.append(line.substr(u.offset, u.length));
    if (u.offset + u.length <= start) {
      if (tab) q.prefix += '\t';
      else q.prefix.append(width, ' ');
    } else if (!caret) {
      // A span that starts on a zero-width character still gets its caret.
      q.marks += '^';
      if (width > 1) q.marks.append(width - 1, '~');
      caret = true;
    } else if (u.offset < stop) {
      if (tab) q.marks += '\t';
      else q.marks.append(width, '~');
    }
  }
  if (!caret) {  // the span starts at or past the end of the line
    q.prefix.append(start - std::min(start, line.size()), ' ');
    q.marks.assign(1, '^');
  }
  while (!q.marks.empty() && q.marks.back() == '\t') q.marks.pop_back();
  return q;
}

class HumanConsumer final : public DiagnosticConsumer {
 public:
  HumanConsumer(std::ostream& out, const RenderOptions& o)
      : DiagnosticConsumer(out), color_(o.color), cache_(o.source), shown_path_(o.shown_path) {}

  void diagnostic(const Diagnostic& d) override {
    std::string label = fmt::format("{}[{}]", severity_name(d.severity), diag_info(d.code).id);
    header(d.path, d.has_span ? &d.span : nullptr, d.severity, label, d.message);
    if (d.has_span) quote(d.path, d.span);
    for (const auto& n : d.notes) {
      bool located = n.has_span && !n.path.empty();
      header(n.path, located ? &n.span : nullptr, Severity::note, "note", n.message);
      if (located) quote(n.path, n.span);
    }
  }

  void end(const BuildSummary& summary) override {
    if (!summary.all_reason.empty()) header({}, nullptr, Severity::note, "note", summary.all_reason);
    out_ << summary_line(summary) << '\n';
  }

 private:
  void paint(std::string_view colour, std::string_view text) {
    if (color_) out_ << colour << text << kReset;
    else out_ << text;
  }

  void header(const std::string& path, const Span* span, Severity severity,
              std::string_view label, const std::string& message) {
    if (!path.empty()) {
      std::string where = terminal_safe(shown_path_ ? shown_path_(path) : path, LineBreaks::escape);
      if (span) where += fmt::format(":{}:{}", span->start.line, span->start.column);
      paint(kBold, where + ":");
      out_ << ' ';
    }
    paint(severity_colour(severity), label);
    out_ << ": " << terminal_safe(message, LineBreaks::escape) << '\n';
  }

  void quote(const std::string& path, const Span& span) {
    auto line = cache_.line(path, span.start.line);
    if (!line) return;
    Quote q = quote_line(*line, span);
    out_ << q.text << '\n' << q.prefix;
    paint(kGreen, q.marks);
    out_ << '\n';
  }

  bool color_;
  SourceCache cache_;
  std::function<std::string(const std::string&)> shown_path_;
};

}  // namespace

std::unique_ptr<DiagnosticConsumer> make_human(std::ostream& out, const RenderOptions& o) {
  return std::make_unique<HumanConsumer>(out, o);
}

}  // namespace ws::render_detail

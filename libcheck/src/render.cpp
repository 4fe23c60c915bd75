// The renderer factory, the summary line, and helpers every format shares.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "libcheck/render.h"
#include "render_common.h"

namespace ws {

const char* output_format_name(OutputFormat f) {
  switch (f) {
    case OutputFormat::human: return "human";
    case OutputFormat::json: return "json";
    case OutputFormat::sarif: return "sarif";
    case OutputFormat::github: return "github";
    case OutputFormat::gitlab: return "gitlab";
  }
  return "human";
}

std::optional<OutputFormat> parse_output_format(std::string_view name) {
  for (auto f : {OutputFormat::human, OutputFormat::json, OutputFormat::sarif,
                 OutputFormat::github, OutputFormat::gitlab})
    if (name == output_format_name(f)) return f;
  return std::nullopt;
}

BuildSummary tally(std::span<const Diagnostic> diagnostics, BuildSummary base) {
  base.errors = base.warnings = 0;
  std::set<std::string_view> files;
  for (const auto& d : diagnostics) {
    if (d.severity == Severity::error) ++base.errors;
    else if (d.severity == Severity::warning) ++base.warnings;
    else continue;
    files.insert(d.path);
  }
  base.files_with_errors = files.size();
  return base;
}

namespace {

std::string count(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

std::string summary_line(const BuildSummary& s) {
  std::size_t files = s.all ? s.files_checked : s.files_changed;
  std::string scope = fmt::format("{} {}", count(files, "file", "files"),
                                  s.all ? "checked" : "changed");
  if (s.errors == 0) {
    if (s.warnings == 0) return scope + ", compiled clean.";
    return fmt::format("{}, compiled clean with {}.", scope,
                       count(s.warnings, "warning", "warnings"));
  }
  std::string findings = count(s.errors, "error", "errors");
  if (s.warnings > 0) findings += ", " + count(s.warnings, "warning", "warnings");
  return fmt::format("{} in {} ({})", findings, count(s.files_with_errors, "file", "files"),
                     scope);
}

std::unique_ptr<DiagnosticConsumer> make_consumer(OutputFormat format, std::ostream& out,
                                                  const RenderOptions& options) {
  switch (format) {
    case OutputFormat::human: return render_detail::make_human(out, options);
    case OutputFormat::json: return render_detail::make_json(out, options);
    case OutputFormat::sarif: return render_detail::make_sarif(out, options);
    case OutputFormat::github: return render_detail::make_github(out, options);
    case OutputFormat::gitlab: return render_detail::make_gitlab(out, options);
  }
  return render_detail::make_human(out, options);
}

void render_all(DiagnosticConsumer& consumer, std::span<const Diagnostic> diagnostics,
                const BuildSummary& summary) {
  consumer.begin();
  for (const auto& d : diagnostics) consumer.diagnostic(d);
  consumer.end(summary);
}

namespace render_detail {

Unit next_unit(std::string_view s, std::size_t at) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char b0 = byte(at);
  Unit u{at, 1, b0, true};
  if (b0 < 0x80) return u;
  std::size_t len = 0;
  std::uint32_t cp = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) { len = 2; cp = b0 & 0x1F; }
  else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3; cp = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;   // overlong
    if (b0 == 0xED) hi = 0x9F;   // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4; cp = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;   // overlong
    if (b0 == 0xF4) hi = 0x8F;   // above U+10FFFF
  }
  if (len == 0 || at + len > s.size()) { u.valid = false; return u; }
  for (std::size_t i = 1; i < len; ++i) {
    unsigned char b = byte(at + i);
    unsigned char l = i == 1 ? lo : 0x80, h = i == 1 ? hi : 0xBF;
    if (b < l || b > h) { u.valid = false; return u; }
    cp = (cp << 6) | (b & 0x3F);
  }
  u.length = len;
  u.code_point = cp;
  return u;
}

bool needs_escape(const Unit& u) {
  if (!u.valid) return true;
  std::uint32_t c = u.code_point;
  return (c < 0x20 && c != '\t') || (c >= 0x7F && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C;
}

std::string escape_unit(const Unit& u, std::string_view s) {
  if (!u.valid) return fmt::format("<{:02X}>", static_cast<unsigned char>(s[u.offset]));
  return fmt::format("<U+{:04X}>", u.code_point);
}

std::string terminal_safe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    Unit u = next_unit(s, i);
    if (needs_escape(u)) out += escape_unit(u, s);
    else out.append(s.substr(i, u.length));
    i += u.length;
  }
  return out;
}

std::uint32_t utf16_column(std::string_view line, std::uint32_t byte_column) {
  std::size_t target = byte_column > 0 ? byte_column - 1 : 0;
  std::uint32_t units = 0;
  std::size_t i = 0;
  while (i < line.size() && i < target) {
    Unit u = next_unit(line, i);
    if (u.offset + u.length > target) break;  // a column inside a character: stop at it
    units += u.valid && u.code_point >= 0x10000 ? 2 : 1;
    i += u.length;
  }
  if (target > line.size()) units += static_cast<std::uint32_t>(target - line.size());
  return units + 1;
}

std::string note_text(const Note& n) {
  if (n.path.empty()) return "note: " + n.message;
  if (!n.has_span) return fmt::format("{}: note: {}", n.path, n.message);
  return fmt::format("{}:{}:{}: note: {}", n.path, n.span.start.line, n.span.start.column,
                     n.message);
}

SourceCache::Entry* SourceCache::find_or_load(const std::string& path) {
  auto it = std::find_if(entries_.begin(), entries_.end(),
                         [&](const auto& e) { return e->path == path; });
  if (it != entries_.end()) {
    std::rotate(entries_.begin(), it, it + 1);
    return entries_.front().get();
  }
  auto e = std::make_unique<Entry>();
  e->path = path;
  e->text = fetch_(path);
  if (e->text) {
    e->starts.push_back(0);
    for (std::size_t i = 0; i < e->text->size(); ++i)
      if ((*e->text)[i] == '\n') e->starts.push_back(i + 1);
  }
  constexpr std::size_t kKeep = 4;
  if (entries_.size() >= kKeep) entries_.pop_back();
  entries_.insert(entries_.begin(), std::move(e));
  return entries_.front().get();
}

std::optional<std::string_view> SourceCache::line(const std::string& path, std::uint32_t line) {
  if (!fetch_ || path.empty()) return std::nullopt;
  Entry* e = find_or_load(path);
  if (!e->text || line == 0 || line > e->starts.size()) return std::nullopt;
  std::string_view text = *e->text;
  std::size_t begin = e->starts[line - 1];
  std::size_t end = line < e->starts.size() ? e->starts[line] - 1 : text.size();
  std::string_view l = text.substr(begin, end - begin);
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return l;
}

}  // namespace render_detail
}  // namespace ws

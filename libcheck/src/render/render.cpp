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
    case OutputFormat::junit: return "junit";
  }
  return "human";
}

std::optional<OutputFormat> parse_output_format(std::string_view name) {
  for (auto f : {OutputFormat::human, OutputFormat::json, OutputFormat::sarif,
                 OutputFormat::github, OutputFormat::gitlab, OutputFormat::junit})
    if (name == output_format_name(f)) return f;
  return std::nullopt;
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
    case OutputFormat::junit: return render_detail::make_junit(out, options);
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

std::uint32_t utf16_column(std::string_view line, std::uint32_t byte_column) {
  std::size_t target = byte_column > 0 ? byte_column - 1 : 0;
  std::uint32_t units = 0;
  std::size_t i = 0;
  while (i < line.size() && i < target) {
    Utf8Unit u = decode_utf8(line, i);
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

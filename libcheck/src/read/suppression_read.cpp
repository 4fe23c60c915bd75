#include "suppression_read.h"

#include <algorithm>
#include <optional>
#include <string>

#include "libcheck/reader.h"
#include "line_index.h"

namespace ws::detail {

namespace {

constexpr std::string_view kDirective = "ws-ignore";

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (is_blank(s.front()) || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (is_blank(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The directive's text after "ws-ignore" when `comment` ("// ...") is one.
std::optional<std::string_view> directive_text(std::string_view comment) {
  if (comment.substr(0, 2) != "//") return std::nullopt;
  std::string_view rest = trim(comment.substr(2));
  if (rest.substr(0, kDirective.size()) != kDirective) return std::nullopt;
  rest.remove_prefix(kDirective.size());
  // "ws-ignored" is prose; "ws-ignore:" is a directive naming no code.
  if (!rest.empty() && !is_blank(rest.front()) && rest.front() != ':') return std::nullopt;
  return trim(rest);
}

// Whether only blanks stand between the start of its line and `at`.
bool starts_its_line(std::string_view bytes, std::uint32_t at) {
  while (at > 0 && is_blank(bytes[at - 1])) --at;
  return at == 0 || bytes[at - 1] == '\n';
}

Diagnostic carried(const std::string& path, Span at, std::string_view text, std::optional<std::uint32_t> line) {
  Diagnostic d = make_diag(DiagCode::unused_suppression, path, at, std::string(text));
  Note scope;
  if (line) {
    scope.has_span = true;
    scope.span.start.line = scope.span.end.line = *line;
  }
  scope.message = line ? "applies to a line" : "applies to the file";
  d.notes.push_back(std::move(scope));
  return d;
}

}  // namespace

void read_code_suppressions(std::string_view bytes, std::uint32_t begin, Definition& def) {
  // Most files have none: the syntax classes are asked for only when the
  // word occurs at all.
  if (bytes.find(kDirective, begin) == std::string_view::npos) return;
  LineIndex lines(bytes);
  for (const ClassRange& r : classify_syntax(Format::csharp, bytes)) {
    if (r.cls != SyntaxClass::comment || r.start_byte < begin) continue;
    auto text = directive_text(bytes.substr(r.start_byte, r.end_byte - r.start_byte));
    if (!text) continue;
    Span at = lines.span(r.start_byte, r.end_byte);
    std::uint32_t target = starts_its_line(bytes, r.start_byte) ? at.start.line + 1 : at.start.line;
    def.diagnostics.push_back(carried(def.path, at, *text, target));
  }
}

void take_front_matter_suppressions(JsonDoc& doc, Definition& def) {
  const std::string key(kDirective);
  if (!doc.value.is_object() || !doc.value.contains(key)) return;
  const nlohmann::json value = doc.value[key];
  doc.value.erase(key);
  std::string pointer = "/";
  pointer += pointer_token(key);
  const Located* at = doc.find(pointer);
  Span where = at ? at->value : Span{};
  if (value.is_string()) {
    def.diagnostics.push_back(carried(def.path, where, trim(value.get_ref<const std::string&>()), std::nullopt));
    return;
  }
  if (value.is_array() && !value.empty() &&
      std::all_of(value.begin(), value.end(), [](const nlohmann::json& v) { return v.is_string(); })) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      const Located* item = doc.find(pointer + "/" + std::to_string(i));
      def.diagnostics.push_back(
          carried(def.path, item ? item->value : where, trim(value[i].get_ref<const std::string&>()), std::nullopt));
    }
    return;
  }
  def.diagnostics.push_back(make_diag(DiagCode::bad_suppression, def.path, where,
                                      "front matter 'ws-ignore' must be a string or a list of strings, as "
                                      "'WS014: reason'"));
}

}  // namespace ws::detail

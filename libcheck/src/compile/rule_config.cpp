#include "rule_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

namespace ws::compile_detail {

namespace {

// One inline suppression as its comment or front matter key wrote it.
struct Directive {
  const Diagnostic* at = nullptr;        // the carried WS022: path, span, text
  std::optional<std::uint32_t> line;     // the line it applies to; none: the whole file
  std::vector<DiagCode> codes;
  std::vector<bool> used;                // per code
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

Diagnostic refused(const Diagnostic& at, std::string message) {
  Diagnostic d = make_diag(DiagCode::bad_suppression, at.path, at.span, std::move(message));
  d.has_span = at.has_span;
  return d;
}

// "WS014, WS010: reason": the codes before the first ':', the reason after
// it. The refusal when it is not a directive a build may follow.
std::optional<std::string> parse_codes(std::string_view text, bool require_reason, Directive& out) {
  std::size_t colon = text.find(':');
  std::string_view list = trim(text.substr(0, colon));
  std::string_view reason = colon == std::string_view::npos ? std::string_view() : trim(text.substr(colon + 1));
  if (list.empty()) return std::string("suppression names no code; write 'ws-ignore WS014: reason'");
  while (!list.empty()) {
    std::size_t comma = list.find(',');
    std::string_view id = trim(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    auto code = find_diag_code(id);
    if (!code) return fmt::format("suppression names '{}', which is no diagnostic code; write 'ws-ignore WS014: reason'", id);
    if (is_trust_boundary(*code))
      return fmt::format("suppression of '{}' refused: {} guards a trust boundary and is never suppressed (ws(7), RULES)",
                         id, id);
    out.codes.push_back(*code);
  }
  if (require_reason && reason.empty())
    return fmt::format("suppression of '{}' gives no reason, and .ws/config.json sets \"require_suppression_reason\"; "
                       "write 'ws-ignore {}: why'",
                       diag_info(out.codes.front()).id, diag_info(out.codes.front()).id);
  out.used.assign(out.codes.size(), false);
  return std::nullopt;
}

// The level the rules give `d` at its path; nullopt: it is off there.
std::optional<Severity> level_for(const RuleConfig& rules, const Diagnostic& d) {
  if (is_trust_boundary(d.code)) return d.severity;
  for (const auto& p : rules.paths_off)
    if (p.code == d.code && is_ignored_path(p.globs, d.path)) return std::nullopt;
  for (const auto& [code, level] : rules.levels) {
    if (code != d.code) continue;
    switch (level) {
      case RuleLevel::off: return std::nullopt;
      case RuleLevel::note: return Severity::note;
      case RuleLevel::warning: return Severity::warning;
      case RuleLevel::error: return Severity::error;
    }
  }
  return d.severity;
}

void apply_levels(const RuleConfig& rules, std::vector<Diagnostic>& diags) {
  if (rules.levels.empty() && rules.paths_off.empty()) return;
  std::erase_if(diags, [&](Diagnostic& d) {
    auto level = level_for(rules, d);
    if (level) d.severity = *level;
    return !level;
  });
}

bool covers(const Directive& dir, const Diagnostic& d) {
  if (d.path != dir.at->path) return false;
  return !dir.line || (d.has_span && d.span.start.line == *dir.line);
}

// Drops every diagnostic a directive names at its place, marking the codes used.
void suppress(std::vector<Directive>& directives, std::vector<Diagnostic>& diags) {
  std::erase_if(diags, [&](const Diagnostic& d) {
    if (is_trust_boundary(d.code)) return false;
    bool silenced = false;
    for (auto& dir : directives) {
      if (!covers(dir, d)) continue;
      for (std::size_t i = 0; i < dir.codes.size(); ++i)
        if (dir.codes[i] == d.code) silenced = dir.used[i] = true;
    }
    return silenced;
  });
}

Diagnostic unused(const Directive& dir, DiagCode code) {
  const char* id = diag_info(code).id;
  Diagnostic d = make_diag(DiagCode::unused_suppression, dir.at->path, dir.at->span,
                           fmt::format("suppression of '{}' suppresses nothing: no {} is reported {}; remove it", id, id,
                                       dir.line ? fmt::format("at line {}", *dir.line) : std::string("in this file")));
  d.has_span = dir.at->has_span;
  return d;
}

}  // namespace

void apply_rules(const RuleConfig& rules, std::vector<Diagnostic>& diags) {
  auto is_carried = [](const Diagnostic& d) { return d.code == DiagCode::unused_suppression; };
  auto first = std::stable_partition(diags.begin(), diags.end(), [&](const Diagnostic& d) { return !is_carried(d); });
  std::vector<Diagnostic> carried(std::make_move_iterator(first), std::make_move_iterator(diags.end()));
  diags.erase(first, diags.end());
  apply_levels(rules, diags);
  if (carried.empty()) return;

  std::vector<Diagnostic> found;  // what the directives themselves call for
  std::vector<Directive> directives;
  for (const Diagnostic& c : carried) {
    Directive dir;
    dir.at = &c;
    if (!c.notes.empty() && c.notes.front().has_span) dir.line = c.notes.front().span.start.line;
    if (auto why = parse_codes(c.message, rules.require_suppression_reason, dir)) found.push_back(refused(c, *why));
    else directives.push_back(std::move(dir));
  }
  suppress(directives, diags);
  for (const auto& dir : directives)
    for (std::size_t i = 0; i < dir.codes.size(); ++i)
      if (!dir.used[i]) found.push_back(unused(dir, dir.codes[i]));
  apply_levels(rules, found);
  diags.insert(diags.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
}

}  // namespace ws::compile_detail

#include "common/impact_text.h"

#include <fmt/core.h>

#include "common/cli.h"

namespace wscli {

namespace {

// "agent 'Triage'", or "agent (no name)" for a file that carries none.
std::string definition(const std::string& kind, const std::string& name) {
  return shown(kind) + (name.empty() ? std::string(" (no name)") : " '" + shown(name) + "'");
}

std::string impacted_line(const ws::ImpactedDefinition& d, const std::string& path) {
  std::string line = "  " + definition(d.kind, d.name) + " (" + shown(path) + (d.changed ? ", changed" : "") + "): ";
  line += definition(d.reaches.kind, d.reaches.name) + " (" + ws::definition_change_name(d.reaches.change) + ")";
  for (const auto& step : d.through) line += " <- " + definition(step.kind, step.name);
  return line + " <- " + definition(d.kind, d.name) + "\n";
}

std::string truncation_line(const ws::ChangeImpact& impact) {
  switch (impact.truncated) {
    case ws::ImpactTruncation::none: return {};
    case ws::ImpactTruncation::definitions:
      return fmt::format("  truncated: more than {} definitions are impacted\n", impact.limits.max_definitions);
    case ws::ImpactTruncation::depth:
      return fmt::format("  truncated: paths longer than {} references are not followed\n", impact.limits.max_depth);
  }
  return {};
}

}  // namespace

std::string impact_text(const ws::ChangeImpact& impact,
                        const std::function<std::string(const std::string&)>& shown_path) {
  std::string out = "Impact:\n";
  for (const auto& d : impact.impacted) out += impacted_line(d, shown_path ? shown_path(d.path) : d.path);
  if (impact.impacted.empty()) out += "  none\n";
  return out + truncation_line(impact) + "\n";
}

}  // namespace wscli

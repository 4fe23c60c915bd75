#include "common/impact_text.h"

#include <fmt/core.h>

#include <ostream>
#include <string_view>
#include <utility>
#include <vector>

#include "libcheck/terminal_text.h"

#include "common/cli.h"

namespace wscli {

namespace {

using namespace std::string_view_literals;

// "agent 'Triage'", or "agent (no name)" for a file that carries none.
void append_definition(std::string& out, const std::string& kind, const std::string& name) {
  ws::append_terminal_safe(out, kind, ws::LineBreaks::escape);
  if (name.empty()) {
    out += " (no name)"sv;
    return;
  }
  out += " '"sv;
  ws::append_terminal_safe(out, name, ws::LineBreaks::escape);
  out += '\'';
}

// Each impacted definition as "agent 'A'", and each changed name as
// "agent 'C' (renamed)", spelled once into one buffer: a popular name
// reaches much of a workspace along long shared paths, so the same
// definitions stand on many lines.
class Spelled {
 public:
  explicit Spelled(const ws::ChangeImpact& impact) {
    for (const auto& d : impact.impacted) {
      std::size_t start = text_.size();
      append_definition(text_, d.kind, d.name);
      at_.emplace_back(start, text_.size() - start);
    }
    reached_from_ = at_.size();
    for (const auto& r : impact.reached) {
      std::size_t start = text_.size();
      append_definition(text_, r.kind, r.name);
      text_ += " ("sv;
      text_ += ws::definition_change_name(r.change);
      text_ += ')';
      at_.emplace_back(start, text_.size() - start);
    }
  }
  std::string_view definition(std::size_t i) const { return at(i); }
  std::string_view reached(std::size_t r) const { return at(reached_from_ + r); }

 private:
  std::string_view at(std::size_t i) const { return std::string_view(text_).substr(at_[i].first, at_[i].second); }

  std::string text_;
  std::vector<std::pair<std::size_t, std::size_t>> at_;  // offset and length in text_
  std::size_t reached_from_ = 0;
};

// "agent 'C' (renamed) <- agent 'B' <- agent 'A'": the changed name, then
// the definitions on the path of impacted definition `i`, then itself.
void append_reference_path(std::string& out, const ws::ChangeImpact& impact, const Spelled& spelled, std::size_t i,
                           std::vector<std::size_t>& path) {
  path.clear();
  // `via` is listed before the one that names it, so the walk ends.
  for (std::size_t at = i; at < impact.impacted.size() && path.size() <= impact.impacted[i].depth;
       at = impact.impacted[at].via)
    path.push_back(at);
  out += spelled.reached(impact.impacted[path.back()].reaches);
  for (auto step = path.rbegin(); step != path.rend(); ++step) {
    out += " <- "sv;
    out += spelled.definition(*step);
  }
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

void write_impact_text(std::ostream& out, const ws::ChangeImpact& impact,
                       const std::function<std::string(const std::string&)>& shown_path) {
  Spelled spelled(impact);
  std::vector<std::size_t> path;
  // Written a block at a time: ten thousand lines need not be held at once.
  constexpr std::size_t kBlock = 64 * 1024;
  std::string block = "Impact:\n";
  block.reserve(kBlock + 4096);
  for (std::size_t i = 0; i < impact.impacted.size(); ++i) {
    const ws::ImpactedDefinition& d = impact.impacted[i];
    block += "  "sv;
    block += spelled.definition(i);
    block += " ("sv;
    if (shown_path)
      ws::append_terminal_safe(block, shown_path(d.path), ws::LineBreaks::escape);
    else
      ws::append_terminal_safe(block, d.path, ws::LineBreaks::escape);
    block += d.changed ? ", changed): "sv : "): "sv;
    append_reference_path(block, impact, spelled, i, path);
    block += '\n';
    if (block.size() >= kBlock) {
      out << block;
      block.clear();
    }
  }
  if (impact.impacted.empty()) block += "  none\n"sv;
  out << block << truncation_line(impact) << "\n";
}

}  // namespace wscli

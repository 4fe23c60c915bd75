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

// " 'Triage'" after a kind, or " (no name)" for a file that carries none.
void append_name(std::string& out, const std::string& name) {
  if (name.empty()) {
    out += " (no name)"sv;
    return;
  }
  out += " '"sv;
  ws::append_terminal_safe(out, name, ws::LineBreaks::escape);
  out += '\'';
}

// "agent 'Triage'", or "agent (no name)".
void append_definition(std::string& out, const std::string& kind, const std::string& name) {
  ws::append_terminal_safe(out, kind, ws::LineBreaks::escape);
  append_name(out, name);
}

// Each impacted definition as " <- agent 'A'" (definition() leaves the
// arrow out), and each changed name as "agent 'C' (renamed)", spelled once
// into one buffer: a popular name reaches much of a workspace along long
// shared paths, so the same definitions stand on many lines.
class Spelled {
 public:
  explicit Spelled(const ws::ChangeImpact& impact) {
    const std::string* kind = nullptr;  // the kind spelled last, and where
    std::pair<std::size_t, std::size_t> kind_at;
    for (const auto& d : impact.impacted) {
      std::size_t start = text_.size();
      text_ += " <- "sv;
      // Most definitions are of a few kinds, listed one after the other.
      if (kind && *kind == d.kind) {
        text_.append(text_, kind_at.first, kind_at.second);
      } else {
        kind = &d.kind;
        kind_at.first = text_.size();
        ws::append_terminal_safe(text_, d.kind, ws::LineBreaks::escape);
        kind_at.second = text_.size() - kind_at.first;
      }
      append_name(text_, d.name);
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
  std::string_view definition(std::size_t i) const { return arrow_definition(i).substr(4); }
  std::string_view arrow_definition(std::size_t i) const { return at(i); }
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
  for (auto step = path.rbegin(); step != path.rend(); ++step) out += spelled.arrow_definition(*step);
}

// The reference paths of the impacted definitions in turn, each as
// append_reference_path spells it but from the path of its `via`: the
// definitions come by depth, so the paths of one depth that others go
// through are kept while the next depth's are written, and a line copies
// the path before it whole.
class ReferencePaths {
 public:
  ReferencePaths(const ws::ChangeImpact& impact, const Spelled& spelled)
      : impact_(impact), spelled_(spelled), at_(impact.impacted.size()), gone_through_(impact.impacted.size()) {
    for (const auto& d : impact.impacted)
      if (d.via < gone_through_.size()) gone_through_[d.via] = true;
  }

  // Appends impacted definition i's path to `out`.
  void append(std::string& out, std::size_t i) {
    const ws::ImpactedDefinition& d = impact_.impacted[i];
    if (d.depth != depth_) {
      std::swap(kept_, made_);
      made_.clear();
      depth_ = d.depth;
      ++generation_;
    }
    std::size_t start = out.size();
    std::string_view before = d.via == ws::ImpactedDefinition::kNone ? spelled_.reached(d.reaches) : kept(d);
    if (!before.empty()) {
      out += before;
      out += spelled_.arrow_definition(i);
    } else {
      append_reference_path(out, impact_, spelled_, i, path_);
    }
    if (!gone_through_[i]) return;
    at_[i] = {generation_, made_.size(), out.size() - start};
    made_.append(out, start);
  }

 private:
  struct Made {
    std::size_t generation = 0, start = 0, length = 0;
  };

  // The path of d's `via` when it is one depth less and was kept just
  // before d's depth; else empty.
  std::string_view kept(const ws::ImpactedDefinition& d) const {
    if (d.depth < 2 || d.via >= at_.size() || impact_.impacted[d.via].depth + 1 != d.depth) return {};
    const Made& m = at_[d.via];
    if (m.generation + 1 != generation_ || m.length == 0) return {};
    return std::string_view(kept_).substr(m.start, m.length);
  }

  const ws::ChangeImpact& impact_;
  const Spelled& spelled_;
  std::vector<Made> at_;             // by impacted definition, once kept
  std::vector<bool> gone_through_;   // by impacted definition: another's via
  std::string kept_, made_;          // the paths kept of the depth before, and of this one
  std::size_t depth_ = 0, generation_ = 0;
  std::vector<std::size_t> path_;
};

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
  ReferencePaths paths(impact, spelled);
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
    paths.append(block, i);
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

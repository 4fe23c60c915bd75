#include "common/impact_text.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <ostream>
#include <string_view>
#include <utility>
#include <vector>

#include "libcheck/terminal_text.h"

#include "common/cli.h"

namespace wscli {

namespace {

using namespace std::string_view_literals;

// Text being made: pieces copied in with an inline check of room. A line
// is a dozen pieces, and std::string::append, called out of line for each,
// cost about as much as the copying.
class Buffer {
 public:
  [[gnu::always_inline]] void add(std::string_view s) {
    if (s.size() > room_ - size_) grow(s.size());
    std::memcpy(bytes_.get() + size_, s.data(), s.size());
    size_ += s.size();
  }
  [[gnu::always_inline]] void add(char c) {
    if (size_ == room_) grow(1);
    bytes_[size_++] = c;
  }
  // The `length` bytes at `from`, already in the buffer, once more.
  void add_again(std::size_t from, std::size_t length) {
    if (length > room_ - size_) grow(length);
    std::memcpy(bytes_.get() + size_, bytes_.get() + from, length);
    size_ += length;
  }
  // `s` as a terminal may show it (ws::append_terminal_safe), copied as it
  // is in the usual case that nothing in it needs escaping.
  void add_safe(std::string_view s) {
    if (ws::first_unsafe(s, ws::LineBreaks::escape) == std::string_view::npos) return add(s);
    std::string escaped;
    ws::append_terminal_safe(escaped, s, ws::LineBreaks::escape);
    add(escaped);
  }
  std::size_t size() const { return size_; }
  std::string_view view(std::size_t from = 0, std::size_t length = std::string_view::npos) const {
    return std::string_view(bytes_.get(), size_).substr(from, length);
  }
  void clear() { size_ = 0; }
  // Room for `n` more bytes.
  void reserve(std::size_t n) {
    if (n > room_ - size_) grow(n);
  }

 private:
  // The text is copied, not the room after it, and the new room is left
  // as it comes: it is written before it is read.
  [[gnu::noinline]] void grow(std::size_t n) {
    std::size_t room = std::max(2 * room_, size_ + n);
    std::unique_ptr<char[]> bytes(new char[room]);
    if (size_ != 0) std::memcpy(bytes.get(), bytes_.get(), size_);
    bytes_ = std::move(bytes);
    room_ = room;
  }

  std::unique_ptr<char[]> bytes_ = std::unique_ptr<char[]>(new char[1024]);  // the text is the first size_ bytes
  std::size_t room_ = 1024, size_ = 0;
};

// " 'Triage'" after a kind, or " (no name)" for a file that carries none.
void append_name(Buffer& out, std::string_view name) {
  if (name.empty()) {
    out.add(" (no name)"sv);
    return;
  }
  out.add(" '"sv);
  out.add_safe(name);
  out.add('\'');
}

// "agent 'Triage'", or "agent (no name)".
void append_definition(Buffer& out, std::string_view kind, std::string_view name) {
  out.add_safe(kind);
  append_name(out, name);
}

// Each impacted definition as " <- agent 'A'" (definition() leaves the
// arrow out), and each changed name as "agent 'C' (renamed)", spelled once
// into one buffer: a popular name reaches much of a workspace along long
// shared paths, so the same definitions stand on many lines.
class Spelled {
 public:
  explicit Spelled(const ws::ChangeImpact& impact) {
    std::string_view kind;  // the kind spelled last (empty: none yet), and where
    std::pair<std::size_t, std::size_t> kind_at;
    at_.reserve(impact.impacted.size() + impact.reached.size());
    std::size_t guess = 0;  // as spelled when nothing needs escaping
    for (const auto& d : impact.impacted) guess += 8 + d.kind.size() + d.name.size();
    text_.reserve(guess);
    for (const auto& d : impact.impacted) {
      std::size_t start = text_.size();
      text_.add(" <- "sv);
      // Most definitions are of a few kinds, listed one after the other.
      if (!kind.empty() && kind == d.kind) {
        text_.add_again(kind_at.first, kind_at.second);
      } else {
        kind = d.kind;
        kind_at.first = text_.size();
        text_.add_safe(d.kind);
        kind_at.second = text_.size() - kind_at.first;
      }
      append_name(text_, d.name);
      at_.emplace_back(start, text_.size() - start);
    }
    reached_from_ = at_.size();
    for (const auto& r : impact.reached) {
      std::size_t start = text_.size();
      append_definition(text_, r.kind, r.name);
      text_.add(" ("sv);
      text_.add(ws::definition_change_name(r.change));
      text_.add(')');
      at_.emplace_back(start, text_.size() - start);
    }
  }
  std::string_view definition(std::size_t i) const { return arrow_definition(i).substr(4); }
  std::string_view arrow_definition(std::size_t i) const { return at(i); }
  std::string_view reached(std::size_t r) const { return at(reached_from_ + r); }

 private:
  std::string_view at(std::size_t i) const { return text_.view(at_[i].first, at_[i].second); }

  Buffer text_;
  std::vector<std::pair<std::size_t, std::size_t>> at_;  // offset and length in text_
  std::size_t reached_from_ = 0;
};

// "agent 'C' (renamed) <- agent 'B' <- agent 'A'": the changed name, then
// the definitions on the path of impacted definition `i`, then itself.
void append_reference_path(Buffer& out, const ws::ChangeImpact& impact, const Spelled& spelled, std::size_t i,
                           std::vector<std::size_t>& path) {
  path.clear();
  // `via` is listed before the one that names it, so the walk ends.
  for (std::size_t at = i; at < impact.impacted.size() && path.size() <= impact.impacted[i].depth;
       at = impact.impacted[at].via)
    path.push_back(at);
  out.add(spelled.reached(impact.impacted[path.back()].reaches));
  for (auto step = path.rbegin(); step != path.rend(); ++step) out.add(spelled.arrow_definition(*step));
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
  void append(Buffer& out, std::size_t i) {
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
      out.add(before);
      out.add(spelled_.arrow_definition(i));
    } else {
      append_reference_path(out, impact_, spelled_, i, path_);
    }
    if (!gone_through_[i]) return;
    at_[i] = {generation_, made_.size(), out.size() - start};
    made_.add(out.view(start));
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
    return kept_.view(m.start, m.length);
  }

  const ws::ChangeImpact& impact_;
  const Spelled& spelled_;
  std::vector<Made> at_;             // by impacted definition, once kept
  std::vector<bool> gone_through_;   // by impacted definition: another's via
  Buffer kept_, made_;               // the paths kept of the depth before, and of this one
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
  Buffer block;
  block.reserve(kBlock + 4096);
  block.add("Impact:\n"sv);
  for (std::size_t i = 0; i < impact.impacted.size(); ++i) {
    const ws::ImpactedDefinition& d = impact.impacted[i];
    block.add("  "sv);
    block.add(spelled.definition(i));
    block.add(" ("sv);
    block.add_safe(shown_path ? std::string_view(shown_path(std::string(d.path))) : d.path);
    block.add(d.changed ? ", changed): "sv : "): "sv);
    paths.append(block, i);
    block.add('\n');
    if (block.size() >= kBlock) {
      out << block.view();
      block.clear();
    }
  }
  if (impact.impacted.empty()) block.add("  none\n"sv);
  out << block.view() << truncation_line(impact) << "\n";
}

}  // namespace wscli

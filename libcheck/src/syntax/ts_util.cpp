#include "ts_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "ts_alloc.h"

namespace ws::detail {

const TSLanguage* language(Grammar g) {
  switch (g) {
    case Grammar::csharp: return tree_sitter_c_sharp();
    case Grammar::json: return tree_sitter_json();
    case Grammar::yaml: return tree_sitter_yaml();
  }
  return nullptr;
}

TypeSet::TypeSet(Grammar g, const std::vector<const char*>& names) {
  const TSLanguage* lang = language(g);
  std::uint32_t count = ts_language_symbol_count(lang);
  bits_.assign(count, false);
  // ts_node_type(n) is the name of the node's own symbol, ts_node_symbol(n)
  // that of the first symbol sharing it; marking every symbol of a name
  // makes has() true for exactly the nodes is() accepts.
  for (std::uint32_t s = 0; s < count; ++s) {
    const char* name = ts_language_symbol_name(lang, static_cast<TSSymbol>(s));
    for (const char* want : names)
      if (name && std::strcmp(name, want) == 0) bits_[s] = true;
  }
}

SyntaxRules SyntaxRules::compile(Grammar g) const {
  SyntaxRules out = *this;
  out.container_types = TypeSet(g, containers);
  out.chain_types = TypeSet(g, chains);
  out.comment_types = TypeSet(g, {"comment"});
  return out;
}

namespace {

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
using Parser = std::unique_ptr<TSParser, ParserDeleter>;

// Error recovery on megabytes of junk can take seconds; past this the file
// is reported as unparseable rather than holding up a build.
constexpr std::uint64_t kParseTimeoutMicros = 30'000'000;

// One parser per grammar per thread: parsers are not thread-safe but are
// cheap to keep, and readers run on many threads at once.
TSParser* parser_for(Grammar g) {
  thread_local Parser parsers[3];
  Parser& p = parsers[static_cast<int>(g)];
  if (!p) {
    use_tree_sitter_block_cache();
    p.reset(ts_parser_new());
    ts_parser_set_language(p.get(), language(g));
    ts_parser_set_timeout_micros(p.get(), kParseTimeoutMicros);
  }
  return p.get();
}

bool is_error(TSNode n) { return ts_node_symbol(n) == static_cast<TSSymbol>(-1); }

TSPoint point(const LineIndex& lines, std::uint32_t offset) {
  Position pos = lines.position(offset);
  return TSPoint{pos.line - 1, pos.column - 1};
}

// Tree-sitter's memory grows with the nesting its error recovery works
// through: 2^16 `$"{` in a C# body take 200 MB, so a few such files on as
// many threads exhaust a bounded process. No reader accepts nesting past
// kMaxNesting, so input whose brackets open this much deeper (where the
// parse costs tens of megabytes) is not parsed at all. Brackets are counted
// over the raw bytes, strings and comments included: the count is never
// below the real nesting, and no real file has this many unclosed brackets
// in its strings. Shallower input is parsed, and WS016 is placed by the
// tree's own nesting.
constexpr int kMaxUnparsedNesting = 1 << 14;

}  // namespace

std::optional<std::uint32_t> nesting_past_limit(std::string_view bytes, std::uint32_t begin, std::uint32_t end) {
  // A file long enough is scanned before it is parsed: one table load per byte.
  static constexpr auto kBracket = [] {
    std::array<signed char, 256> t{};
    for (unsigned char c : {'(', '[', '{'}) t[c] = 1;
    for (unsigned char c : {')', ']', '}'}) t[c] = -1;
    return t;
  }();
  // Passing kMaxUnparsedNesting takes more opening brackets than that: a
  // shorter range (almost every file) cannot, and is not scanned.
  if (end <= begin || end - begin <= static_cast<std::uint32_t>(kMaxUnparsedNesting)) return std::nullopt;
  int depth = 0, deepest = 0;
  std::optional<std::uint32_t> first_too_deep;
  for (std::uint32_t i = begin; i < end && i < bytes.size(); ++i) {
    signed char step = kBracket[static_cast<unsigned char>(bytes[i])];
    if (step > 0) {
      if (++depth > kMaxNesting && !first_too_deep) first_too_deep = i;
      deepest = std::max(deepest, depth);
      if (deepest > kMaxUnparsedNesting) return first_too_deep;
    } else if (step < 0 && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

Tree parse(Grammar g, std::string_view bytes, std::uint32_t begin, std::uint32_t end,
           const LineIndex& lines) {
  if (nesting_past_limit(bytes, begin, end)) return Tree();
  TSParser* p = parser_for(g);
  ts_parser_reset(p);
  TSRange range{point(lines, begin), point(lines, end), begin, end};
  ts_parser_set_included_ranges(p, &range, 1);
  Tree tree(ts_parser_parse_string(p, nullptr, bytes.data(), static_cast<std::uint32_t>(bytes.size())));
  if (!tree) ts_parser_reset(p);
  return tree;
}

std::vector<TSNode> children(TSNode n, bool named_only) {
  std::vector<TSNode> out;
  Cursor c(n);
  if (!c.first_child()) return out;
  do {
    TSNode child = c.node();
    if (!named_only || ts_node_is_named(child)) out.push_back(child);
  } while (c.next_sibling());
  return out;
}

std::string excerpt(std::string_view text, std::size_t kMax) {
  std::size_t cut = text.find_first_of("\r\n");
  bool truncated = cut != std::string_view::npos;
  text = text.substr(0, cut);
  if (text.size() > kMax) {
    std::size_t n = kMax;
    // Never cut inside a UTF-8 sequence.
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
    text = text.substr(0, n);
    truncated = true;
  }
  std::string out;
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else
      out += ch;
  }
  if (truncated) out += "...";
  return out;
}

namespace {

// Only the first kMaxSyntaxErrors of a file are shown; the last one shown
// says how many more there are, so a capped list never reads as whole.
void note_more_errors(std::vector<Diagnostic>& out, int more) {
  for (auto it = out.rbegin(); it != out.rend(); ++it) {
    if (it->code != DiagCode::syntax_error) continue;
    Note n;
    n.message = fmt::format("{} more syntax error{} in this file not shown", more, more == 1 ? "" : "s");
    it->notes.push_back(std::move(n));
    return;
  }
}

}  // namespace

bool Nesting::enter(TSNode n, int depth) {
  auto d = static_cast<std::size_t>(depth);
  if (levels_.size() <= d) levels_.resize(d + 1);
  TSSymbol symbol = ts_node_symbol(n);
  bool in_chain = rules_.chain_types.has(symbol);
  const Level* parent = d > 0 ? &levels_[d - 1] : nullptr;
  bool counted = false;
  if (!rules_.containers.empty())
    counted = rules_.container_types.has(symbol);
  else if (ts_node_is_named(n))  // a chain's link directly under another link does not count
    counted = !(in_chain && parent && parent->in_chain);
  levels_[d] = Level{(parent ? parent->nesting : 0) + (counted ? 1 : 0), in_chain};
  return levels_[d].nesting <= kMaxNesting;
}

Diagnostic too_deep(std::string_view path, const LineIndex& lines, std::uint32_t at) {
  return make_diag(DiagCode::too_deep, std::string(path), lines.span(at, at + 1),
                   fmt::format("nesting deeper than {} levels", kMaxNesting));
}

namespace {

Diagnostic missing_node(TSNode n, const LineIndex& lines, std::string_view path, const SyntaxRules& rules) {
  std::uint32_t s = ts_node_start_byte(n);
  const char* type = ts_node_type(n);
  std::string what = ts_node_is_named(n) ? std::string(type) : fmt::format("'{}'", type);
  for (auto [from, to] : rules.missing_names)
    if (std::strcmp(type, from) == 0) what = to;
  for (char& c : what)
    if (c == '_' && ts_node_is_named(n)) c = ' ';
  return make_diag(DiagCode::syntax_error, std::string(path), lines.span(s, s), "syntax error: missing " + what);
}

// An ERROR node, or a comment where the format has none.
Diagnostic unexpected_node(TSNode n, std::string_view bytes, const LineIndex& lines, std::string_view path,
                           const SyntaxRules& rules, std::uint32_t end_of_input) {
  std::uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  // An error region often starts with comments the parser swept into
  // it; the problem is where the first real token is.
  if (is_error(n)) {
    Cursor c(n);
    if (c.first_child()) {
      while (ts_node_is_extra(c.node()) && c.next_sibling()) {
      }
      if (!ts_node_is_extra(c.node())) s = std::max(s, ts_node_start_byte(c.node()));
    }
  }
  std::string message;
  if (!is_error(n))
    message = rules.comment_error;
  else if (s >= e)
    message = s >= end_of_input ? "syntax error: unexpected end of file" : "syntax error: unexpected input";
  else
    message = fmt::format("syntax error: unexpected '{}'", excerpt(bytes.substr(s, e - s)));
  return make_diag(DiagCode::syntax_error, std::string(path), lines.span(s, e), message);
}

}  // namespace

bool check_syntax(TSNode root, std::string_view bytes, const LineIndex& lines, std::string_view path,
                  const SyntaxRules& rules, std::uint32_t end_of_input, std::vector<Diagnostic>& out) {
  int errors = 0;
  bool clean = true;
  Nesting nesting(rules);
  auto visit = [&](TSNode n, int depth, bool& stop) {
    bool missing = ts_node_is_missing(n);
    if (missing || is_error(n) || (rules.comment_error && rules.comment_types.has(n))) {
      clean = false;
      if (errors++ < kMaxSyntaxErrors)  // past the cap: counted for the note below
        out.push_back(missing ? missing_node(n, lines, path, rules)
                              : unexpected_node(n, bytes, lines, path, rules, end_of_input));
      return false;
    }
    if (!nesting.enter(n, depth)) {
      out.push_back(too_deep(path, lines, ts_node_start_byte(n)));
      clean = false;
      stop = true;
      return false;
    }
    return true;
  };
  if (ts_node_has_error(root)) {
    walk(root, [&](TSNode n, int depth, const char*, bool& stop) { return visit(n, depth, stop); });
  } else {
    bool stop = false;
    walk_clean(root, [&](TSNode n, int depth, std::uint32_t) { return !stop && visit(n, depth, stop); });
  }
  if (errors > kMaxSyntaxErrors) note_more_errors(out, errors - kMaxSyntaxErrors);
  return clean;
}

Diagnostic parse_gave_up(std::string_view bytes, std::uint32_t begin, std::uint32_t end, std::string_view path,
                         const LineIndex& lines) {
  if (auto at = nesting_past_limit(bytes, begin, end)) return too_deep(path, lines, *at);
  return make_diag(DiagCode::syntax_error, std::string(path), lines.span(0, 0),
                   "syntax error: the file is too complex to parse");
}

}  // namespace ws::detail

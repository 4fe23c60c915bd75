#include "ts_util.h"

#include <fmt/format.h>

#include <algorithm>

#include "libcheck/reader.h"

namespace ws::detail {

namespace {

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
using Parser = std::unique_ptr<TSParser, ParserDeleter>;

// Error recovery on megabytes of junk can take seconds; past this the file
// is reported as unparseable rather than holding up a build.
constexpr std::uint64_t kParseTimeoutMicros = 30'000'000;

const TSLanguage* language(Grammar g) {
  switch (g) {
    case Grammar::csharp: return tree_sitter_c_sharp();
    case Grammar::json: return tree_sitter_json();
    case Grammar::yaml: return tree_sitter_yaml();
  }
  return nullptr;
}

// One parser per grammar per thread: parsers are not thread-safe but are
// cheap to keep, and readers run on many threads at once.
TSParser* parser_for(Grammar g) {
  thread_local Parser parsers[3];
  Parser& p = parsers[static_cast<int>(g)];
  if (!p) {
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
  int depth = 0, deepest = 0;
  std::optional<std::uint32_t> first_too_deep;
  for (std::uint32_t i = begin; i < end && i < bytes.size(); ++i) {
    char c = bytes[i];
    if (c == '(' || c == '[' || c == '{') {
      if (++depth > kMaxNesting && !first_too_deep) first_too_deep = i;
      deepest = std::max(deepest, depth);
      if (deepest > kMaxUnparsedNesting) return first_too_deep;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
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

bool check_syntax(TSNode root, std::string_view bytes, const LineIndex& lines,
                  std::string_view path, const SyntaxRules& rules, std::vector<Diagnostic>& out) {
  int errors = 0;
  bool clean = true;
  // nesting[d]: containers on the path from the root to the node at depth d.
  std::vector<int> nesting;
  std::vector<const char*> types;  // types[d]: type of the ancestor at depth d
  auto counts = [&](TSNode n, int depth) {
    if (rules.containers.empty()) {
      if (!ts_node_is_named(n)) return false;
      bool in_chain = false, parent_in_chain = false;
      for (const char* type : rules.chains) {
        in_chain = in_chain || is(n, type);
        parent_in_chain = parent_in_chain || (depth > 0 && std::strcmp(types[depth - 1], type) == 0);
      }
      return !(in_chain && parent_in_chain);
    }
    for (const char* type : rules.containers)
      if (is(n, type)) return true;
    return false;
  };
  walk(root, [&](TSNode n, int depth, const char*, bool& stop) {
    std::uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (ts_node_is_missing(n)) {
      const char* type = ts_node_type(n);
      std::string what = ts_node_is_named(n) ? std::string(type) : fmt::format("'{}'", type);
      for (auto [from, to] : rules.missing_names)
        if (std::strcmp(type, from) == 0) what = to;
      for (char& c : what)
        if (c == '_' && ts_node_is_named(n)) c = ' ';
      clean = false;
      if (errors++ < kMaxSyntaxErrors)
        out.push_back(make_diag(DiagCode::syntax_error, std::string(path), lines.span(s, s),
                                "syntax error: missing " + what));
      return false;
    }
    if (is_error(n) || (rules.comment_error && is(n, "comment"))) {
      clean = false;
      if (errors++ >= kMaxSyntaxErrors) return false;  // counted for the note below
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
        message = s >= rules.end_of_input ? "syntax error: unexpected end of file"
                                          : "syntax error: unexpected input";
      else
        message = fmt::format("syntax error: unexpected '{}'", excerpt(bytes.substr(s, e - s)));
      out.push_back(make_diag(DiagCode::syntax_error, std::string(path), lines.span(s, e), message));
      return false;
    }
    nesting.resize(static_cast<std::size_t>(depth) + 1);
    types.resize(static_cast<std::size_t>(depth) + 1);
    types[depth] = ts_node_type(n);
    nesting[depth] = (depth > 0 ? nesting[depth - 1] : 0) + (counts(n, depth) ? 1 : 0);
    if (nesting[depth] > kMaxNesting) {
      out.push_back(make_diag(DiagCode::too_deep, std::string(path), lines.span(s, s + 1),
                              fmt::format("nesting deeper than {} levels", kMaxNesting)));
      clean = false;
      stop = true;
      return false;
    }
    return true;
  });
  if (errors > kMaxSyntaxErrors) note_more_errors(out, errors - kMaxSyntaxErrors);
  return clean;
}

Diagnostic parse_gave_up(std::string_view bytes, std::uint32_t begin, std::uint32_t end, std::string_view path,
                         const LineIndex& lines) {
  if (auto at = nesting_past_limit(bytes, begin, end))
    return make_diag(DiagCode::too_deep, std::string(path), lines.span(*at, *at + 1),
                     fmt::format("nesting deeper than {} levels", kMaxNesting));
  return make_diag(DiagCode::syntax_error, std::string(path), lines.span(0, 0),
                   "syntax error: the file is too complex to parse");
}

}  // namespace ws::detail

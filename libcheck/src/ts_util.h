// Tree-sitter helpers shared by the readers and the classifier: RAII over
// parsers, trees and cursors, a recursion-free walk, and the syntax check
// (ERROR/MISSING nodes, nesting limit) every format runs first.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "libcheck/diagnostic.h"
#include "line_index.h"

extern "C" {
const TSLanguage* tree_sitter_c_sharp();
const TSLanguage* tree_sitter_json();
const TSLanguage* tree_sitter_yaml();
}

namespace ws::detail {

enum class Grammar { csharp, json, yaml };

struct TreeDeleter {
  void operator()(TSTree* t) const { ts_tree_delete(t); }
};
using Tree = std::unique_ptr<TSTree, TreeDeleter>;

// Parses bytes[begin, end) of `bytes`; node offsets are offsets into the whole
// buffer, so a front matter block or a file after its BOM keeps file
// positions. Null when the parser gave up (time limit on pathological input).
Tree parse(Grammar g, std::string_view bytes, std::uint32_t begin, std::uint32_t end,
           const LineIndex& lines);

class Cursor {
 public:
  explicit Cursor(TSNode n) : c_(ts_tree_cursor_new(n)) {}
  ~Cursor() { ts_tree_cursor_delete(&c_); }
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;
  TSNode node() const { return ts_tree_cursor_current_node(&c_); }
  const char* field() const { return ts_tree_cursor_current_field_name(&c_); }
  bool first_child() { return ts_tree_cursor_goto_first_child(&c_); }
  bool next_sibling() { return ts_tree_cursor_goto_next_sibling(&c_); }
  bool parent() { return ts_tree_cursor_goto_parent(&c_); }

 private:
  mutable TSTreeCursor c_;
};

// Pre-order walk over `root` and its descendants with a cursor: no recursion,
// so a 10,000-deep tree costs no stack. `visit(node, depth, field)` returns
// whether to descend into the node; depth of `root` is 0. Returning from the
// walk early is done by `stop` set to true inside visit.
template <class Visit>
void walk(TSNode root, Visit&& visit) {
  Cursor c(root);
  int depth = 0;
  bool stop = false;
  for (;;) {
    const char* field = depth == 0 ? nullptr : c.field();
    if (visit(c.node(), depth, field, stop) && !stop && c.first_child()) {
      ++depth;
      continue;
    }
    if (stop) return;
    for (;;) {
      if (depth == 0) return;
      if (c.next_sibling()) break;
      c.parent();
      --depth;
    }
  }
}

// Children of `n` (all, or named only), through a cursor: linear, where
// ts_node_child(n, i) would rescan from the first child on every call.
std::vector<TSNode> children(TSNode n, bool named_only = true);

inline bool is(TSNode n, const char* type) { return std::strcmp(ts_node_type(n), type) == 0; }
inline std::string_view text(TSNode n, std::string_view bytes) {
  std::uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return bytes.substr(s, e - s);
}

// A short, printable rendering of source text for messages: its first line,
// at most `max` bytes, control bytes escaped.
std::string excerpt(std::string_view text, std::size_t max = 24);

struct SyntaxRules {
  // Node types counted for the nesting limit; empty: every named node counts.
  std::vector<const char*> containers;
  // With every named node counting: types whose left-leaning chains
  // (`a + b + c`, `x.A().B()`, `else if`) nest in the tree without the text
  // nesting, so one of them directly under another does not count.
  std::vector<const char*> chains;
  // A message for comment nodes, which are then errors (JSON has no comments).
  const char* comment_error = nullptr;
  // Friendlier names for MISSING named nodes ("number" -> "value").
  std::vector<std::pair<const char*, const char*>> missing_names;
  std::uint32_t end_of_input = 0;  // where "unexpected end of file" applies
};

inline constexpr int kMaxSyntaxErrors = 5;

// Reports ERROR and MISSING nodes (WS001, at most kMaxSyntaxErrors) and
// nesting deeper than kMaxNesting (WS016). True when the tree is clean.
bool check_syntax(TSNode root, std::string_view bytes, const LineIndex& lines,
                  std::string_view path, const SyntaxRules& rules, std::vector<Diagnostic>& out);

// Where brackets in bytes [begin, end) first open deeper than kMaxNesting,
// when they go on to open far deeper still: input parse() refuses to hand
// to tree-sitter (see ts_util.cpp). nullopt for everything else.
std::optional<std::uint32_t> nesting_past_limit(std::string_view bytes, std::uint32_t begin, std::uint32_t end);

// The diagnostic for bytes [begin, end) that parse() gave no tree for: WS016
// where the nesting passed the limit, else WS001 (the parse timed out).
Diagnostic parse_gave_up(std::string_view bytes, std::uint32_t begin, std::uint32_t end, std::string_view path,
                         const LineIndex& lines);

}  // namespace ws::detail

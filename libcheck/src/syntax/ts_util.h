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

namespace ws {

// Nesting beyond this (JSON/YAML containers, C# syntax depth) is WS016.
inline constexpr int kMaxNesting = 256;

}  // namespace ws

namespace ws::detail {

enum class Grammar { csharp, json, yaml };

const TSLanguage* language(Grammar g);

// Node types as symbol ids of one grammar: `has(n)` is `is(n, name)` for
// any of the names, without a string compare per node. Built once per
// grammar (a function-local static): building scans every symbol name.
class TypeSet {
 public:
  TypeSet() = default;
  TypeSet(Grammar g, const std::vector<const char*>& names);
  bool has(TSSymbol s) const { return s < bits_.size() && bits_[s]; }
  bool has(TSNode n) const { return has(ts_node_symbol(n)); }

 private:
  std::vector<unsigned char> bits_;
};

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

// The pre-order walk of a tree without errors (ts_node_has_error false)
// over its named nodes only, by child index: a cursor step climbs and
// rescans the hidden nodes around it, which made the walks a third of a
// cold build. `visit(node, depth, index)` returns whether to descend;
// `index` is the node's place among its parent's named children
// (ts_node_named_child), 0 for `root`, and depth counts named nodes.
// Skipping anonymous nodes loses nothing: they are tokens, never parents
// (no grammar's node-types.json gives one children). Only for such trees:
// error recovery leaves nodes with thousands of flat children, where
// finding each by index would be quadratic; the repetitions of a clean
// tree are balanced, so a child is found in logarithmic steps.
template <class Visit>
void walk_clean(TSNode root, Visit&& visit) {
  struct Level {
    TSNode node;
    std::uint32_t next, count;
  };
  if (!visit(root, 0, std::uint32_t{0})) return;
  std::vector<Level> stack{{root, 0, ts_node_named_child_count(root)}};
  while (!stack.empty()) {
    Level& top = stack.back();
    if (top.next == top.count) {
      stack.pop_back();
      continue;
    }
    std::uint32_t index = top.next++;
    TSNode child = ts_node_named_child(top.node, index);
    if (!visit(child, static_cast<int>(stack.size()), index)) continue;
    if (std::uint32_t count = ts_node_named_child_count(child)) stack.push_back({child, 0, count});
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

// A format's syntax rules, as names; compile() turns the type lists into
// symbol sets, which check_syntax and Nesting use. Readers keep one
// compiled copy per format (a function-local static).
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

  TypeSet container_types, chain_types, comment_types;  // filled by compile()
  SyntaxRules compile(Grammar g) const;
};

inline constexpr int kMaxSyntaxErrors = 5;

// Reports ERROR and MISSING nodes (WS001, at most kMaxSyntaxErrors) and
// nesting deeper than kMaxNesting (WS016). True when the tree is clean.
// `rules` are compiled; "unexpected end of file" applies at `end_of_input`.
bool check_syntax(TSNode root, std::string_view bytes, const LineIndex& lines, std::string_view path,
                  const SyntaxRules& rules, std::uint32_t end_of_input, std::vector<Diagnostic>& out);

// The nesting limit of check_syntax, node by node in pre-order, for a walk
// that does other work too: enter(n, depth) after the node's parent was
// entered at depth - 1; false when the node nests deeper than kMaxNesting.
// Only named nodes count, so a walk may skip anonymous ones.
class Nesting {
 public:
  explicit Nesting(const SyntaxRules& rules) : rules_(rules) {}
  bool enter(TSNode n, int depth);

 private:
  struct Level {
    int nesting;    // counted nodes from the root to this one
    bool in_chain;  // the node is one of rules_.chains
  };
  const SyntaxRules& rules_;
  std::vector<Level> levels_;  // levels_[d]: the node last entered at depth d
};

// WS016 at byte `at` of the file at `path`.
Diagnostic too_deep(std::string_view path, const LineIndex& lines, std::uint32_t at);

// Where brackets in bytes [begin, end) first open deeper than kMaxNesting,
// when they go on to open far deeper still: input parse() refuses to hand
// to tree-sitter (see ts_util.cpp). nullopt for everything else.
std::optional<std::uint32_t> nesting_past_limit(std::string_view bytes, std::uint32_t begin, std::uint32_t end);

// The diagnostic for bytes [begin, end) that parse() gave no tree for: WS016
// where the nesting passed the limit, else WS001 (the parse timed out).
Diagnostic parse_gave_up(std::string_view bytes, std::uint32_t begin, std::uint32_t end, std::string_view path,
                         const LineIndex& lines);

}  // namespace ws::detail

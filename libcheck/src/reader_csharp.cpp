// C# definitions (endpoints, AI tools): a header of `// key: value` lines,
// validated like a JSON object, then a body of top-level statements parsed
// with tree-sitter-c-sharp, from which code references are read.
//
// A code reference is a member-access chain (or a qualified name in a type
// position) whose leftmost identifier is a symbol root of the pack. Only
// syntax nodes are looked at, so strings and comments never count.
//
// Shadowing is decided per file, not per scope: if the file declares a
// local of a root's name anywhere (variable, parameter, lambda parameter,
// foreach variable, local function, catch variable, pattern or out
// variable, query range variable), that declaration earns WS014 and no chain
// starting with that root counts anywhere in the file. Scope-exact
// resolution would need C# binding rules; the file-wide rule errs towards
// not inventing references, and the warning tells the author to rename.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "definition_build.h"
#include "json_values.h"
#include "libcheck/reader.h"
#include "readers.h"
#include "ts_util.h"

namespace ws::detail {

namespace {

bool is_key_start(char c) { return c >= 'a' && c <= 'z'; }
bool is_key_char(char c) { return is_key_start(c) || (c >= '0' && c <= '9') || c == '_' || c == '-'; }
bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Reads the header into `doc`; returns the offset where the header ends.
std::uint32_t read_header(std::string_view bytes, std::uint32_t begin, const LineIndex& lines, JsonDoc& doc,
                          Definition& def) {
  doc.value = nlohmann::json::object();
  std::size_t pos = begin;
  while (pos < bytes.size()) {
    std::size_t nl = bytes.find('\n', pos);
    std::size_t end = nl == std::string_view::npos ? bytes.size() : nl;
    std::size_t line_end = end > pos && bytes[end - 1] == '\r' ? end - 1 : end;
    std::string_view line = bytes.substr(pos, line_end - pos);
    if (line.substr(0, 2) != "//") break;
    std::size_t k = 2;
    while (k < line.size() && is_blank(line[k])) ++k;
    std::size_t key_start = k;
    if (k >= line.size() || !is_key_start(line[k])) break;
    while (k < line.size() && is_key_char(line[k])) ++k;
    std::size_t key_end = k;
    if (k >= line.size() || line[k] != ':') break;
    ++k;
    while (k < line.size() && is_blank(line[k])) ++k;
    std::size_t value_end = line.size();
    while (value_end > k && is_blank(line[value_end - 1])) --value_end;

    std::string key(line.substr(key_start, key_end - key_start));
    auto at = [&](std::size_t a, std::size_t b) {
      return lines.span(static_cast<std::uint32_t>(pos + a), static_cast<std::uint32_t>(pos + b));
    };
    if (doc.value.contains(key)) {
      def.diagnostics.push_back(make_diag(DiagCode::bad_header, def.path, at(key_start, key_end),
                                          fmt::format("duplicate header key '{}'", key)));
    } else {
      doc.value[key] = std::string(line.substr(k, value_end - k));
      Located& loc = doc.at["/" + pointer_token(key)];
      loc.value = loc.content = at(k, value_end);
      loc.key = at(key_start, key_end);
      loc.has_key = true;
    }
    if (nl == std::string_view::npos) {
      pos = bytes.size();
      break;
    }
    pos = nl + 1;
  }
  doc.at[""].value = doc.at[""].content = lines.span(begin, static_cast<std::uint32_t>(pos));
  return static_cast<std::uint32_t>(pos);
}

struct Chain {
  std::string root;
  TSNode root_node;
  std::vector<TSNode> segments;  // after the root
};

// Flattens `Agents.Triage.Run` (nested member accesses or qualified names)
// into its leftmost identifier and the names after it.
bool flatten(TSNode node, Chain& chain) {
  std::vector<TSNode> reversed;
  while (is(node, "member_access_expression") || is(node, "qualified_name")) {
    bool access = is(node, "member_access_expression");
    TSNode name = ts_node_child_by_field_name(node, "name", 4);
    TSNode left = access ? ts_node_child_by_field_name(node, "expression", 10)
                         : ts_node_child_by_field_name(node, "qualifier", 9);
    if (ts_node_is_null(name) || ts_node_is_null(left)) return false;
    reversed.push_back(name);
    node = left;
  }
  if (!is(node, "identifier")) return false;
  chain.root_node = node;
  chain.segments.assign(reversed.rbegin(), reversed.rend());
  return true;
}

// Declarations that introduce a local name: (parent type, field of the name).
bool declares_local(const char* parent, const char* field) {
  static const std::set<std::string_view> kNamed{
      "variable_declarator", "parameter",          "local_function_statement",
      "catch_declaration",   "declaration_expression", "declaration_pattern",
      "var_pattern",         "recursive_pattern",  "parenthesized_variable_designation",
      "tuple_pattern",       "from_clause",        "join_clause"};
  if (!field) return false;
  std::string_view f(field), p(parent);
  if (f == "name") return kNamed.count(p) > 0;
  return f == "left" && p == "foreach_statement";
}

void read_code(const Kind& kind, std::string_view bytes, TSNode root, const LineIndex& lines, const KindPack& pack,
               Definition& def) {
  std::vector<Chain> chains;
  std::map<std::string, std::vector<TSNode>> shadows;  // root name -> its local declarations
  std::vector<TSNode> path;                            // ancestors of the visited node, by depth
  walk(root, [&](TSNode n, int depth, const char* field, bool&) {
    path.resize(static_cast<std::size_t>(depth));
    path.push_back(n);
    const char* parent = depth > 0 ? ts_node_type(path[depth - 1]) : "";
    bool named_local = (is(n, "identifier") && declares_local(parent, field)) || is(n, "implicit_parameter") ||
                       (is(n, "identifier") && std::string_view(parent) == "let_clause" &&
                        ts_node_eq(ts_node_named_child(path[depth - 1], 0), n));
    if (named_local) {
      std::string name(text(n, bytes));
      if (pack.by_root(name)) shadows[name].push_back(n);
      return true;
    }
    bool chain_node = is(n, "member_access_expression") || is(n, "qualified_name");
    // Inner links of a chain are handled with the chain's outermost node.
    bool inner = field && ((std::string_view(field) == "expression" && std::string_view(parent) == "member_access_expression") ||
                           (std::string_view(field) == "qualifier" && std::string_view(parent) == "qualified_name"));
    if (chain_node && !inner) {
      Chain c;
      if (flatten(n, c)) {
        c.root = std::string(text(c.root_node, bytes));
        if (pack.by_root(c.root) && !c.segments.empty() && is(c.segments[0], "identifier")) chains.push_back(c);
      }
    }
    return true;
  });

  for (const auto& [name, nodes] : shadows)
    for (TSNode n : nodes)
      def.diagnostics.push_back(make_diag(
          DiagCode::shadowed_root, def.path, lines.span(ts_node_start_byte(n), ts_node_end_byte(n)),
          fmt::format("local '{}' shadows the symbol root {}: in this file '{}' is the local, so {}.<name> "
                      "is not a reference; rename the local",
                      name, name, name, name)));

  for (const Chain& c : chains) {
    if (shadows.count(c.root)) continue;
    const Kind* target = pack.by_root(c.root);
    std::uint32_t start = ts_node_start_byte(c.root_node);
    TSNode last = c.segments[0];
    std::string member;
    // Only node types have checked members; after a name the chain is runtime API.
    if (!target->member_pointer.empty() && c.segments.size() >= 2 && is(c.segments[1], "identifier")) {
      last = c.segments[1];
      member = std::string(text(last, bytes));
    }
    Span span = lines.span(start, ts_node_end_byte(last));
    if (std::find(kind.scope.begin(), kind.scope.end(), c.root) == kind.scope.end()) {
      std::string allowed;
      for (const std::string& r : kind.scope) allowed += (allowed.empty() ? "" : ", ") + r;
      def.diagnostics.push_back(make_diag(
          DiagCode::out_of_scope, def.path, span,
          fmt::format("{} code may not use '{}'; {}", kind.name, c.root,
                      allowed.empty() ? std::string("it may use no symbol roots") : "allowed roots: " + allowed)));
      continue;
    }
    Reference ref;
    ref.target_kind = target->name;
    ref.name = std::string(text(c.segments[0], bytes));
    ref.member = std::move(member);
    ref.span = span;
    ref.origin = RefOrigin::code;
    ref.text = std::string(bytes.substr(span.start_byte, span.end_byte - span.start_byte));
    def.refs.push_back(std::move(ref));
  }
}

}  // namespace

void read_csharp(const Kind& kind, std::string_view bytes, std::uint32_t begin, const KindPack& pack,
                 Definition& def) {
  LineIndex lines(bytes);
  JsonDoc doc;
  read_header(bytes, begin, lines, doc, def);
  Span file_start = lines.span(begin, std::min<std::uint32_t>(begin + 1, static_cast<std::uint32_t>(bytes.size())));
  std::string field;
  for (const std::string& token : pointer_tokens(kind.name_pointer)) field = token;
  finish_definition(kind, doc, file_start,
                    fmt::format("missing name: the file has no '// {}: ...' header line", field), def);

  Tree tree = parse(Grammar::csharp, bytes, begin, static_cast<std::uint32_t>(bytes.size()), lines);
  if (!tree) {
    def.diagnostics.push_back(parse_gave_up(def.path, lines));
    return;
  }
  TSNode root = ts_tree_root_node(tree.get());
  SyntaxRules rules;
  rules.chains = {"binary_expression", "member_access_expression", "invocation_expression",
                  "conditional_access_expression", "element_access_expression", "if_statement",
                  "qualified_name"};
  rules.end_of_input = static_cast<std::uint32_t>(bytes.size());
  if (!check_syntax(root, bytes, lines, def.path, rules, def.diagnostics)) return;
  read_code(kind, bytes, root, lines, pack, def);
  std::stable_sort(def.refs.begin(), def.refs.end(),
                   [](const Reference& a, const Reference& b) { return a.span.start_byte < b.span.start_byte; });
}

}  // namespace ws::detail

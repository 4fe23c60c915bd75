// C# definitions (endpoints, AI tools): a header of `// key: value` lines,
// validated like a JSON object, then a body of top-level statements parsed
// with tree-sitter-c-sharp, from which code references are read.
//
// A code reference is a member-access chain (or a qualified name in a type
// position) whose leftmost identifier is a symbol root of the pack. Only
// syntax nodes are looked at, so strings and comments never count.
//
// `@Agents.Triage`, `global::Agents.Triage` and `Agents?.Triage` are
// references too. A declaration of a root's name (local, parameter, lambda
// parameter, foreach, catch or pattern variable, local function, query range
// variable, type, type parameter, property, field, method, event, namespace,
// using alias) earns WS014 and shadows the root inside its scope only, as C#
// scoping has it (declaration_scope below); outside it the root is the
// definition again. See ws-build(1), WS014. A using directive naming a root
// (`using S = Secrets;`, `using static Agents;`) would hide the names used
// through it, so it is WS020.
#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>
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

}  // namespace

std::uint32_t read_csharp_header(std::string_view bytes, std::uint32_t begin, const LineIndex& lines, JsonDoc& doc,
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

namespace {

// A name with C#'s verbatim prefix removed: `@Agents` is `Agents`.
std::string_view plain_name(std::string_view name) { return name.substr(0, 1) == "@" ? name.substr(1) : name; }

bool field_is(const char* field, std::string_view want) { return field && want == field; }

// The nodes from the root to the node being visited, with the field each
// has in its parent. A walk by named child index gives the field as the
// parent and the index, looked up on first use: only the few nodes whose
// chain or declaration is read need it, and a lookup per node would cost
// as much as the walk.
struct Frame {
  Frame(TSNode n, const char* f) : node(n), field_(f) {}
  Frame(TSNode n, TSNode parent, std::uint32_t named_index)
      : node(n), parent_(parent), index_(named_index), known_(false) {}

  const char* field() const {
    if (!known_) {
      field_ = ts_node_field_name_for_named_child(parent_, index_);
      known_ = true;
    }
    return field_;
  }

  TSNode node;

 private:
  mutable const char* field_ = nullptr;
  TSNode parent_{};
  std::uint32_t index_ = 0;
  mutable bool known_ = true;
};
using Path = std::vector<Frame>;

// A run of source bytes: a token of the tree, or a word read between the
// tokens of a part that did not parse.
struct Token {
  std::uint32_t start, end;
  bool identifier;  // a name (not a keyword, literal or punctuation)
};
Token token_of(TSNode n) { return {ts_node_start_byte(n), ts_node_end_byte(n), is(n, "identifier")}; }
std::string_view token_text(const Token& t, std::string_view bytes) { return bytes.substr(t.start, t.end - t.start); }

struct Chain {
  std::string root;
  Token root_token;
  std::vector<Token> segments;  // after the root: at most two are needed
};

// The names that follow the root at path[at] (an identifier, or the
// `global::Root` around it) in a member-access chain: `Agents.Triage`,
// `Agents?.Triage`, `Agents.Triage.Run`, a qualified name in a type position.
std::vector<Token> segments_after(const Path& path, std::size_t at) {
  std::vector<Token> out;
  while (at > 0 && out.size() < 2) {
    TSNode parent = path[at - 1].node;
    const char* field = path[at].field();
    TSNode name{};
    if (is(parent, "member_access_expression") && field_is(field, "expression")) {
      name = ts_node_child_by_field_name(parent, "name", 4);
    } else if (is(parent, "qualified_name") && field_is(field, "qualifier")) {
      name = ts_node_child_by_field_name(parent, "name", 4);
    } else if (is(parent, "conditional_access_expression") && field_is(field, "condition")) {
      for (TSNode c : children(parent))
        if (is(c, "member_binding_expression")) name = ts_node_child_by_field_name(c, "name", 4);
    }
    if (ts_node_is_null(name)) break;
    out.push_back(token_of(name));
    --at;
  }
  return out;
}

// Whether the identifier at the end of `path` begins a chain, and where
// the chain's root sits in the path (the `global::` qualified name around
// it, if any).
std::optional<std::size_t> chain_root(const Path& path, std::string_view bytes) {
  std::size_t at = path.size() - 1;
  if (at > 0 && is(path[at - 1].node, "alias_qualified_name")) {
    TSNode alias = ts_node_child_by_field_name(path[at - 1].node, "alias", 5);
    if (!field_is(path[at].field(), "name") || ts_node_is_null(alias) || text(alias, bytes) != "global")
      return std::nullopt;
    --at;
  }
  return at;
}

// Whether the root identifier at the end of `path` begins the target of a
// using directive (`using S = Secrets;`, `using static Agents;`,
// `using T = N.Ticket;`, `global::` or not). Names used through such an
// alias or import are not chains of the root, so they could not be checked:
// the directive itself is WS020.
bool begins_using_target(const Path& path, std::string_view bytes) {
  auto at = chain_root(path, bytes);
  if (!at) return false;
  std::size_t i = *at;
  while (i > 0 && is(path[i - 1].node, "qualified_name") && field_is(path[i].field(), "qualifier")) --i;
  return i > 0 && is(path[i - 1].node, "using_directive") && !field_is(path[i].field(), "name");
}

// The node whose extent is the scope of a declaration at the end of
// `path`, as C# scoping has it: a parameter's function, a local's block,
// a loop's or catch clause's variable in that statement, a member or type
// parameter in its type or method, a type, namespace or using alias in
// the whole file. Expression variables (`out var`, patterns) are taken to
// the enclosing block, as an `if` condition's are; that is wider than a
// `while` condition's scope, which errs towards not inventing references.
TSNode declaration_scope(const Path& path) {
  std::size_t decl = path.size() - 1;
  auto up = [&](std::size_t from, std::initializer_list<const char*> types) -> TSNode {
    for (std::size_t i = from; i-- > 0;)
      for (const char* t : types)
        if (is(path[i].node, t)) return path[i].node;
    return path[0].node;
  };
  const char* parent = decl > 0 ? ts_node_type(path[decl - 1].node) : "";
  std::string_view p(parent);
  if (p == "parameter" || p == "implicit_parameter" || is(path[decl].node, "implicit_parameter"))
    return up(decl, {"lambda_expression", "anonymous_method_expression", "local_function_statement",
                     "method_declaration", "constructor_declaration", "operator_declaration",
                     "conversion_operator_declaration", "indexer_declaration", "delegate_declaration",
                     "record_declaration", "class_declaration", "struct_declaration"});
  if (p == "type_parameter")
    return up(decl, {"local_function_statement", "method_declaration", "delegate_declaration", "class_declaration",
                     "struct_declaration", "interface_declaration", "record_declaration"});
  if (p == "foreach_statement") return path[decl - 1].node;
  if (p == "catch_declaration") return up(decl, {"catch_clause"});
  if (p == "from_clause" || p == "join_clause" || p == "join_into_clause" || p == "let_clause" ||
      p == "query_expression")
    return up(decl, {"query_expression"});
  if (p == "property_declaration" || p == "event_declaration" || p == "field_declaration" ||
      p == "method_declaration" ||
      (p == "variable_declarator" && decl >= 3 &&
       (is(path[decl - 3].node, "field_declaration") || is(path[decl - 3].node, "event_field_declaration"))))
    return up(decl, {"class_declaration", "struct_declaration", "interface_declaration", "record_declaration"});
  if (p == "class_declaration" || p == "struct_declaration" || p == "interface_declaration" ||
      p == "enum_declaration" || p == "record_declaration" || p == "delegate_declaration")
    return up(decl - 1, {"class_declaration", "struct_declaration", "interface_declaration", "record_declaration"});
  if (p == "namespace_declaration" || p == "file_scoped_namespace_declaration" || p == "using_directive" ||
      p == "qualified_name")
    return path[0].node;
  if (p == "variable_declarator" && decl >= 3 &&
      (is(path[decl - 3].node, "for_statement") || is(path[decl - 3].node, "fixed_statement")))
    return path[decl - 3].node;
  return up(decl, {"block", "switch_section", "switch_expression_arm", "lambda_expression",
                   "anonymous_method_expression", "catch_clause", "using_statement", "for_statement",
                   "foreach_statement", "query_expression"});
}

// The first named child of a join clause that is not its type: the range
// variable's name.
TSNode first_untyped_child(TSNode join) {
  for (std::uint32_t i = 0; i < ts_node_named_child_count(join); ++i) {
    TSNode c = ts_node_named_child(join, i);
    TSNode type = ts_node_child_by_field_name(join, "type", 4);
    if (ts_node_is_null(type) || !ts_node_eq(c, type)) return c;
  }
  return TSNode{};
}

// Declarations of a local or member name: (parent type, field of the name).
bool declares_name(const Path& path) {
  static const std::set<std::string_view> kNamed{
      "variable_declarator",  "parameter",          "local_function_statement",
      "catch_declaration",    "declaration_expression", "declaration_pattern",
      "var_pattern",          "recursive_pattern",  "parenthesized_variable_designation",
      "tuple_pattern",        "from_clause",        "join_clause",
      "type_parameter",       "property_declaration", "event_declaration",
      "class_declaration",    "struct_declaration", "interface_declaration",
      "enum_declaration",     "record_declaration", "delegate_declaration", "method_declaration",
      "namespace_declaration", "file_scoped_namespace_declaration", "using_directive"};
  std::size_t at = path.size() - 1;
  if (at == 0) return false;
  const char* field = path[at].field();
  std::string_view parent(ts_node_type(path[at - 1].node));
  if (field_is(field, "name") && kNamed.count(parent)) return true;
  if (field_is(field, "left") && parent == "foreach_statement") return true;
  if (parent == "let_clause") return ts_node_eq(ts_node_named_child(path[at - 1].node, 0), path[at].node);
  // `join Agents in ...` (the name is the first child that is not the type),
  // `... into Agents`, and a query continuation `select x into Agents`.
  if (parent == "join_clause") return !field && ts_node_eq(first_untyped_child(path[at - 1].node), path[at].node);
  if (parent == "join_into_clause") return true;
  if (parent == "query_expression") {
    TSNode before = ts_node_prev_sibling(path[at].node);
    return !ts_node_is_null(before) && is(before, "into");
  }
  // `namespace Agents.Billing` declares Agents.
  if (parent == "qualified_name" && field_is(field, "qualifier")) {
    std::size_t q = at - 1;
    while (q > 0 && is(path[q - 1].node, "qualified_name") && field_is(path[q].field(), "qualifier")) --q;
    return q > 0 && field_is(path[q].field(), "name") &&
           (is(path[q - 1].node, "namespace_declaration") || is(path[q - 1].node, "file_scoped_namespace_declaration"));
  }
  return false;
}

bool is_word_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '@'; }
bool is_word_char(char c) { return is_word_start(c) || (c >= '0' && c <= '9'); }

// The bytes between two tokens of a part that did not parse, split into
// words and punctuation: error recovery keeps some tokens (an identifier
// read where only a hidden token could stand) in no node of their own.
void gap_tokens(std::string_view bytes, std::uint32_t from, std::uint32_t to, std::vector<Token>& out) {
  std::uint32_t i = from;
  while (i < to) {
    char c = bytes[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
      continue;
    }
    std::uint32_t start = i;
    if (is_word_start(c)) {
      while (i < to && is_word_char(bytes[i])) ++i;
      out.push_back({start, i, !is_csharp_keyword(plain_name(bytes.substr(start, i - start)))});
    } else {
      ++i;
      out.push_back({start, i, false});
    }
  }
}

// Inside a part the grammar could not parse, the tree holds the tokens
// but not the expressions they form: a chain there is the token run
// `Root . Name [. Member]` (or `?.`), names and dots only. Strings and
// comments are tokens of their own, never split into words, so they still
// never count.
void chains_in_error(TSNode error, std::string_view bytes, const KindPack& pack, std::vector<Chain>& chains) {
  std::vector<Token> tokens;
  std::uint32_t at = ts_node_start_byte(error);
  walk(error, [&](TSNode n, int, const char*, bool&) {
    if (ts_node_child_count(n) > 0) return true;
    if (ts_node_end_byte(n) == ts_node_start_byte(n)) return false;  // MISSING
    gap_tokens(bytes, at, ts_node_start_byte(n), tokens);
    tokens.push_back(token_of(n));
    at = ts_node_end_byte(n);
    return false;
  });
  gap_tokens(bytes, at, ts_node_end_byte(error), tokens);
  auto dot_at = [&](std::size_t i) -> std::size_t {
    if (i >= tokens.size()) return 0;
    std::string_view t = token_text(tokens[i], bytes);
    if (t == "." || t == "?.") return 1;
    if (t == "?" && i + 1 < tokens.size() && token_text(tokens[i + 1], bytes) == ".") return 2;
    return 0;
  };
  auto name_at = [&](std::size_t i) { return i < tokens.size() && tokens[i].identifier; };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!name_at(i)) continue;
    std::string root(plain_name(token_text(tokens[i], bytes)));
    if (!pack.by_root(root)) continue;
    // A root right after a dot is a member of something else (`Other.Agents.X`).
    if (i > 0 && (token_text(tokens[i - 1], bytes) == "." || token_text(tokens[i - 1], bytes) == "?.")) continue;
    std::size_t d = dot_at(i + 1);
    if (!d || !name_at(i + 1 + d)) continue;
    Chain c{root, tokens[i], {tokens[i + 1 + d]}};
    std::size_t j = i + 1 + d;
    if (std::size_t d2 = dot_at(j + 1); d2 && name_at(j + 1 + d2)) c.segments.push_back(tokens[j + 1 + d2]);
    chains.push_back(std::move(c));
  }
}

struct Shadow {
  TSNode declaration;
  std::uint32_t scope_start, scope_end;
};

void report_shadows(const std::map<std::string, std::vector<Shadow>>& shadows, const LineIndex& lines,
                    Definition& def) {
  for (const auto& [name, list] : shadows)
    for (const Shadow& s : list)
      def.diagnostics.push_back(make_diag(
          DiagCode::shadowed_root, def.path,
          lines.span(ts_node_start_byte(s.declaration), ts_node_end_byte(s.declaration)),
          fmt::format("local '{}' shadows the symbol root {}: where it is in scope '{}' is the local, so {}.<name> "
                      "is not a reference there; rename the local",
                      name, name, name, name)));
}

void report_aliased(const std::vector<TSNode>& roots, std::string_view bytes, const LineIndex& lines,
                    Definition& def) {
  for (TSNode n : roots) {
    std::string root(plain_name(text(n, bytes)));
    def.diagnostics.push_back(make_diag(
        DiagCode::aliased_root, def.path, lines.span(ts_node_start_byte(n), ts_node_end_byte(n)),
        fmt::format("using directive names the symbol root '{}': names used through it cannot be checked; "
                    "remove it and write '{}.<name>' in full",
                    root, root)));
  }
}

bool shadowed(const std::map<std::string, std::vector<Shadow>>& shadows, const Chain& c) {
  auto it = shadows.find(c.root);
  if (it == shadows.end()) return false;
  std::uint32_t at = c.root_token.start;
  for (const Shadow& s : it->second)
    if (s.scope_start <= at && at < s.scope_end) return true;
  return false;
}

// What one walk of the tree gathers, node by node: the chains that may be
// references, and the declarations that shadow a root.
class CodeScan {
 public:
  CodeScan(std::string_view bytes, const KindPack& pack) : bytes_(bytes), pack_(pack) {}

  // The node at the end of `path`; returns whether to descend into it.
  bool visit(const Path& path);
  // WS014 for each shadowing declaration, then the references (or WS011)
  // of the chains outside the scopes of those declarations.
  void finish(const Kind& kind, const LineIndex& lines, Definition& def) const;

 private:
  void add_reference(const Kind& kind, const Chain& c, const LineIndex& lines, Definition& def) const;

  std::string_view bytes_;
  const KindPack& pack_;
  std::vector<Chain> chains_;
  std::map<std::string, std::vector<Shadow>> shadows_;  // root name -> declarations of it
  std::vector<TSNode> aliased_;                          // roots named by using directives
};

bool CodeScan::visit(const Path& path) {
  static const TypeSet identifier(Grammar::csharp, {"identifier"});
  static const TypeSet implicit_parameter(Grammar::csharp, {"implicit_parameter"});
  TSNode n = path.back().node;
  TSSymbol symbol = ts_node_symbol(n);
  // What the grammar could not parse is read token by token.
  if (symbol == static_cast<TSSymbol>(-1)) {  // ts_node_is_error
    chains_in_error(n, bytes_, pack_, chains_);
    return false;
  }
  bool implicit = implicit_parameter.has(symbol);
  if (!implicit && !identifier.has(symbol)) return true;
  std::string_view word = plain_name(text(n, bytes_));
  if (!pack_.by_root(word)) return true;
  std::string name(word);
  if (!implicit && begins_using_target(path, bytes_)) {
    aliased_.push_back(n);
    return true;
  }
  if (implicit || declares_name(path)) {
    TSNode scope = declaration_scope(path);
    shadows_[name].push_back({n, ts_node_start_byte(scope), ts_node_end_byte(scope)});
    return true;
  }
  auto at = chain_root(path, bytes_);
  if (!at) return true;
  Chain c{name, token_of(n), segments_after(path, *at)};
  if (!c.segments.empty() && c.segments[0].identifier) chains_.push_back(std::move(c));
  return true;
}

void CodeScan::finish(const Kind& kind, const LineIndex& lines, Definition& def) const {
  report_shadows(shadows_, lines, def);
  report_aliased(aliased_, bytes_, lines, def);
  for (const Chain& c : chains_)
    if (!shadowed(shadows_, c)) add_reference(kind, c, lines, def);
}

void CodeScan::add_reference(const Kind& kind, const Chain& c, const LineIndex& lines, Definition& def) const {
  const Kind* target = pack_.by_root(c.root);
  std::uint32_t start = c.root_token.start;
  Token last = c.segments[0];
  std::string member;
  // Only node types have checked members; after a name the chain is runtime API.
  if (!target->member_pointer.empty() && c.segments.size() >= 2 && c.segments[1].identifier) {
    last = c.segments[1];
    member = std::string(plain_name(token_text(last, bytes_)));
  }
  Span span = lines.span(start, last.end);
  if (std::find(kind.scope.begin(), kind.scope.end(), c.root) == kind.scope.end()) {
    std::string allowed;
    for (const std::string& r : kind.scope) allowed += (allowed.empty() ? "" : ", ") + r;
    def.diagnostics.push_back(make_diag(
        DiagCode::out_of_scope, def.path, span,
        fmt::format("{} code may not use '{}'; {}", kind.name, c.root,
                    allowed.empty() ? std::string("it may use no symbol roots") : "allowed roots: " + allowed)));
    return;
  }
  Reference ref;
  ref.target_kind = target->name;
  ref.name = std::string(plain_name(token_text(c.segments[0], bytes_)));
  ref.name_at = lines.span(c.segments[0].start, c.segments[0].end);
  if (!member.empty()) ref.member_at = lines.span(last.start, last.end);
  ref.member = std::move(member);
  ref.span = span;
  ref.origin = RefOrigin::code;
  ref.text = std::string(bytes_.substr(span.start_byte, span.end_byte - span.start_byte));
  def.refs.push_back(std::move(ref));
}

const SyntaxRules& csharp_syntax() {
  static const SyntaxRules rules = [] {
    SyntaxRules r;
    r.chains = {"binary_expression", "member_access_expression", "invocation_expression",
                "conditional_access_expression", "element_access_expression", "if_statement",
                "qualified_name"};
    return r.compile(Grammar::csharp);
  }();
  return rules;
}

// A tree with errors: check_syntax reports them, then a cursor walk (which
// stays linear through error recovery's flat nodes) reads the code.
bool check_and_read_code(const Kind& kind, std::string_view bytes, TSNode root, const LineIndex& lines,
                         const KindPack& pack, Definition& def) {
  bool whole = check_syntax(root, bytes, lines, def.path, csharp_syntax(), static_cast<std::uint32_t>(bytes.size()),
                            def.diagnostics);
  CodeScan scan(bytes, pack);
  Path path;
  walk(root, [&](TSNode n, int depth, const char* field, bool&) {
    path.erase(path.begin() + depth, path.end());  // back to the parent: depth never grows by more than one
    path.emplace_back(n, field);
    return scan.visit(path);
  });
  scan.finish(kind, lines, def);
  return whole;
}

// A tree without errors, where check_syntax could find only nesting past
// the limit: one walk of the named nodes (the only ones either job looks
// at) reads the code and checks the nesting. The order of the diagnostics
// is check_syntax's then the code's, as above.
bool read_clean_code(const Kind& kind, std::string_view bytes, TSNode root, const LineIndex& lines,
                     const KindPack& pack, Definition& def) {
  CodeScan scan(bytes, pack);
  Nesting nesting(csharp_syntax());
  bool within_limit = true;
  Path path;
  walk_clean(root, [&](TSNode n, int depth, std::uint32_t index) {
    if (within_limit && !nesting.enter(n, depth)) {
      def.diagnostics.push_back(too_deep(def.path, lines, ts_node_start_byte(n)));
      within_limit = false;
    }
    path.erase(path.begin() + depth, path.end());  // back to the parent, as above
    if (depth == 0)
      path.emplace_back(n, nullptr);
    else
      path.emplace_back(n, path.back().node, index);
    return scan.visit(path);
  });
  scan.finish(kind, lines, def);
  return within_limit;
}

// A file the grammar cannot parse whole still has its references read
// outside the parts it could not parse (valid C# the pinned grammar does not
// know yet among them): its first syntax error says that some may be missing,
// and the definition is marked partly read (counted by ws-build --stats).
void note_partial_references(Definition& def, std::size_t first_new, const char* message) {
  def.partly_read = true;
  for (std::size_t i = first_new; i < def.diagnostics.size(); ++i) {
    Diagnostic& d = def.diagnostics[i];
    if (d.code != DiagCode::syntax_error && d.code != DiagCode::too_deep) continue;
    Note n;
    n.message = message;
    d.notes.push_back(std::move(n));
    return;
  }
}

}  // namespace

void read_csharp(const Kind& kind, std::string_view bytes, std::uint32_t begin, const KindPack& pack,
                 Definition& def) {
  LineIndex lines(bytes);
  JsonDoc doc;
  read_csharp_header(bytes, begin, lines, doc, def);
  Span file_start = lines.span(begin, std::min<std::uint32_t>(begin + 1, static_cast<std::uint32_t>(bytes.size())));
  std::string field;
  for (const std::string& token : pointer_tokens(kind.name_pointer)) field = token;
  finish_definition(kind, doc, file_start,
                    fmt::format("missing name: the file has no '// {}: ...' header line", field), def);

  Tree tree = parse(Grammar::csharp, bytes, begin, static_cast<std::uint32_t>(bytes.size()), lines);
  if (!tree) {
    def.diagnostics.push_back(parse_gave_up(bytes, begin, static_cast<std::uint32_t>(bytes.size()), def.path, lines));
    note_partial_references(def, def.diagnostics.size() - 1, "no references are read from this file; any it has are missing");
    return;
  }
  TSNode root = ts_tree_root_node(tree.get());
  std::size_t first_new = def.diagnostics.size();
  bool whole = ts_node_has_error(root) ? check_and_read_code(kind, bytes, root, lines, pack, def)
                                       : read_clean_code(kind, bytes, root, lines, pack, def);
  if (!whole)
    note_partial_references(def, first_new,
                            "references in this file are read outside the parts that do not parse; some may be missing");
  std::stable_sort(def.refs.begin(), def.refs.end(),
                   [](const Reference& a, const Reference& b) { return a.span.start_byte < b.span.start_byte; });
}

}  // namespace ws::detail

// JSON definitions: tree-sitter-json gives the syntax tree and its errors;
// nlohmann decodes each string and number token, so escapes and number
// forms follow the JSON grammar exactly.
#include <fmt/format.h>

#include <memory>

#include "definition_build.h"
#include "json_values.h"
#include "libcheck/reader.h"
#include "readers.h"
#include "ts_util.h"

namespace ws::detail {

namespace {

// The node types and fields the converter asks about, as ids of
// tree-sitter-json (compared per node; see TypeSet).
struct JsonGrammar {
  TypeSet object{Grammar::json, {"object"}}, array{Grammar::json, {"array"}}, string{Grammar::json, {"string"}};
  TypeSet true_{Grammar::json, {"true"}}, false_{Grammar::json, {"false"}}, null{Grammar::json, {"null"}};
  TypeSet comment{Grammar::json, {"comment"}};
  TSFieldId key = ts_language_field_id_for_name(language(Grammar::json), "key", 3);
  TSFieldId value = ts_language_field_id_for_name(language(Grammar::json), "value", 5);
};

const JsonGrammar& json_grammar() {
  static const JsonGrammar g;
  return g;
}

// A string token nlohmann would decode to its bytes between the quotes: no
// escape and no control byte inside (the file is valid UTF-8 already).
bool is_plain_string(std::string_view token) {
  if (token.size() < 2 || token.front() != '"' || token.back() != '"') return false;
  for (std::size_t i = 1; i + 1 < token.size(); ++i) {
    auto c = static_cast<unsigned char>(token[i]);
    if (c < 0x20 || c == '"' || c == '\\') return false;
  }
  return true;
}

class Converter {
 public:
  Converter(std::string_view bytes, const LineIndex& lines, Definition& def)
      : bytes_(bytes), lines_(lines), def_(def) {}

  // Builds doc from the value node `root` without recursion: one frame per
  // open container, each walking its children with its own cursor.
  bool convert(TSNode root, JsonDoc& doc) {
    struct Frame {
      nlohmann::json* target;
      std::string pointer;
      std::unique_ptr<Cursor> cursor;
      bool is_object;
      bool started = false;
      std::size_t index = 0;
    };
    std::vector<Frame> stack;
    const JsonGrammar& g = json_grammar();
    auto enter = [&](TSNode node, nlohmann::json* target, std::string pointer) -> bool {
      Located& at = doc.at[pointer];
      at.value = lines_.span(ts_node_start_byte(node), ts_node_end_byte(node));
      at.content = at.value;
      TSSymbol symbol = ts_node_symbol(node);
      if (g.object.has(symbol) || g.array.has(symbol)) {
        bool object = g.object.has(symbol);
        *target = object ? nlohmann::json::object() : nlohmann::json::array();
        stack.push_back(Frame{target, std::move(pointer), std::make_unique<Cursor>(node), object});
        return true;
      }
      if (g.string.has(symbol) && at.value.end_byte - at.value.start_byte >= 2)
        at.content = lines_.span(at.value.start_byte + 1, at.value.end_byte - 1);
      return scalar(node, *target);
    };
    if (!enter(root, &doc.value, "")) return false;
    while (!stack.empty()) {
      Frame& f = stack.back();
      bool more = f.started ? f.cursor->next_sibling() : f.cursor->first_child();
      f.started = true;
      if (!more) {
        stack.pop_back();
        continue;
      }
      TSNode child = f.cursor->node();
      if (!ts_node_is_named(child) || g.comment.has(child)) continue;
      if (!f.is_object) {
        f.target->push_back(nullptr);
        std::string pointer = f.pointer + "/" + std::to_string(f.index++);
        if (!enter(child, &f.target->back(), std::move(pointer))) return false;
        continue;
      }
      TSNode key = ts_node_child_by_field_id(child, g.key);
      TSNode value = ts_node_child_by_field_id(child, g.value);
      nlohmann::json name;
      if (ts_node_is_null(key) || ts_node_is_null(value) || !scalar(key, name) || !name.is_string()) return false;
      Span key_span = lines_.span(ts_node_start_byte(key), ts_node_end_byte(key));
      const std::string& k = name.get_ref<const std::string&>();
      if (f.target->contains(k)) {
        def_.diagnostics.push_back(make_diag(DiagCode::schema_violation, def_.path, key_span,
                                             fmt::format("duplicate key '{}'", excerpt(k, 80))));
        continue;
      }
      std::string pointer = f.pointer + "/" + pointer_token(k);
      Located& at = doc.at[pointer];
      at.key = key_span;
      at.has_key = true;
      nlohmann::json* target = &(*f.target)[k];
      if (!enter(value, target, std::move(pointer))) return false;
    }
    return true;
  }

 private:
  // A string or number token, decoded by nlohmann; tree-sitter-json is more
  // lenient in places (raw control characters in strings).
  bool scalar(TSNode node, nlohmann::json& out) {
    const JsonGrammar& g = json_grammar();
    TSSymbol symbol = ts_node_symbol(node);
    std::string_view t = text(node, bytes_);
    if (g.true_.has(symbol) || g.false_.has(symbol) || g.null.has(symbol)) {
      out = g.null.has(symbol) ? nlohmann::json(nullptr) : nlohmann::json(g.true_.has(symbol));
      return true;
    }
    if (g.string.has(symbol) && is_plain_string(t)) {
      out = std::string(t.substr(1, t.size() - 2));
      return true;
    }
    out = nlohmann::json::parse(t.begin(), t.end(), nullptr, false);
    if (!out.is_discarded() && (out.is_string() || out.is_number())) return true;
    const char* what = g.string.has(symbol) ? "string" : "number";
    def_.diagnostics.push_back(make_diag(DiagCode::syntax_error, def_.path,
                                         lines_.span(ts_node_start_byte(node), ts_node_end_byte(node)),
                                         fmt::format("syntax error: invalid {} '{}'", what, excerpt(t))));
    return false;
  }

  std::string_view bytes_;
  const LineIndex& lines_;
  Definition& def_;
};

const SyntaxRules& json_syntax() {
  static const SyntaxRules rules = [] {
    SyntaxRules r;
    r.containers = {"object", "array"};
    r.comment_error = "syntax error: comments are not allowed in JSON";
    r.missing_names = {{"number", "value"}, {"string", "value"}, {"object", "value"}};
    return r.compile(Grammar::json);
  }();
  return rules;
}

// For a tree without errors of bytes[begin, end), whether check_syntax
// could still find something: a comment, which starts with '/' outside a
// string (no other JSON token holds one), or nesting past kMaxNesting
// (each object and array opens with a bracket outside a string). Strings
// end as in the tree: an escape is a backslash and one byte. False saves
// the walk over the whole tree.
bool may_hold_comment_or_deep_nesting(std::string_view bytes, std::uint32_t begin, std::uint32_t end) {
  int depth = 0;
  bool in_string = false;
  for (std::uint32_t i = begin; i < end; ++i) {
    char c = bytes[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '/') {
      return true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

}  // namespace

std::string missing_name_message(const Kind& kind, std::string_view where) {
  std::string field;
  for (const std::string& token : pointer_tokens(kind.name_pointer)) field += (field.empty() ? "" : ".") + token;
  return fmt::format("missing name: {} has no '{}' field", where, field);
}

bool read_json_object(const Kind& kind, std::string_view bytes, std::uint32_t begin, const LineIndex& lines,
                      JsonDoc& doc, Definition& def) {
  auto end = static_cast<std::uint32_t>(bytes.size());
  Tree tree = parse(Grammar::json, bytes, begin, end, lines);
  if (!tree) {
    def.diagnostics.push_back(parse_gave_up(bytes, begin, end, def.path, lines));
    return false;
  }
  TSNode root = ts_tree_root_node(tree.get());
  bool clean = !ts_node_has_error(root) && !may_hold_comment_or_deep_nesting(bytes, begin, end);
  if (!clean && !check_syntax(root, bytes, lines, def.path, json_syntax(), end, def.diagnostics)) return false;

  std::vector<TSNode> values;
  for (TSNode n : children(root))
    if (!is(n, "comment")) values.push_back(n);
  if (values.empty()) {
    def.diagnostics.push_back(make_diag(DiagCode::syntax_error, def.path, lines.span(end, end),
                                        "syntax error: the file is empty; expected a JSON object"));
    return false;
  }
  if (values.size() > 1) {
    std::uint32_t s = ts_node_start_byte(values[1]), e = ts_node_end_byte(values[1]);
    def.diagnostics.push_back(make_diag(DiagCode::syntax_error, def.path, lines.span(s, e),
                                        fmt::format("syntax error: unexpected '{}' after the JSON value",
                                                    excerpt(bytes.substr(s, e - s)))));
    return false;
  }
  Converter converter(bytes, lines, def);
  if (!converter.convert(values[0], doc)) return false;
  if (!doc.value.is_object()) {
    def.diagnostics.push_back(make_diag(DiagCode::schema_violation, def.path, doc.at[""].value,
                                        fmt::format("the {} definition must be a JSON object", kind.name)));
    return false;
  }
  return true;
}

void read_json(const Kind& kind, std::string_view bytes, std::uint32_t begin, Definition& def) {
  LineIndex lines(bytes);
  JsonDoc doc;
  if (!read_json_object(kind, bytes, begin, lines, doc, def)) return;
  const Located& at = doc.at[""];
  Span brace = lines.span(at.value.start_byte, at.value.start_byte + 1);
  finish_definition(kind, doc, brace, missing_name_message(kind, "the " + kind.name + " definition"), def);
}

}  // namespace ws::detail

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
    auto enter = [&](TSNode node, nlohmann::json* target, std::string pointer) -> bool {
      Located& at = doc.at[pointer];
      at.value = lines_.span(ts_node_start_byte(node), ts_node_end_byte(node));
      at.content = at.value;
      if (is(node, "object") || is(node, "array")) {
        bool object = is(node, "object");
        *target = object ? nlohmann::json::object() : nlohmann::json::array();
        stack.push_back(Frame{target, std::move(pointer), std::make_unique<Cursor>(node), object});
        return true;
      }
      if (is(node, "string") && at.value.end_byte - at.value.start_byte >= 2)
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
      if (!ts_node_is_named(child) || is(child, "comment")) continue;
      if (!f.is_object) {
        f.target->push_back(nullptr);
        std::string pointer = f.pointer + "/" + std::to_string(f.index++);
        if (!enter(child, &f.target->back(), std::move(pointer))) return false;
        continue;
      }
      TSNode key = ts_node_child_by_field_name(child, "key", 3);
      TSNode value = ts_node_child_by_field_name(child, "value", 5);
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
    std::string_view t = text(node, bytes_);
    if (is(node, "true") || is(node, "false") || is(node, "null")) {
      out = is(node, "null") ? nlohmann::json(nullptr) : nlohmann::json(is(node, "true"));
      return true;
    }
    out = nlohmann::json::parse(t.begin(), t.end(), nullptr, false);
    if (!out.is_discarded() && (out.is_string() || out.is_number())) return true;
    const char* what = is(node, "string") ? "string" : "number";
    def_.diagnostics.push_back(make_diag(DiagCode::syntax_error, def_.path,
                                         lines_.span(ts_node_start_byte(node), ts_node_end_byte(node)),
                                         fmt::format("syntax error: invalid {} '{}'", what, excerpt(t))));
    return false;
  }

  std::string_view bytes_;
  const LineIndex& lines_;
  Definition& def_;
};

}  // namespace

std::string missing_name_message(const Kind& kind, std::string_view where) {
  std::string field;
  for (const std::string& token : pointer_tokens(kind.name_pointer)) field += (field.empty() ? "" : ".") + token;
  return fmt::format("missing name: {} has no '{}' field", where, field);
}

void read_json(const Kind& kind, std::string_view bytes, std::uint32_t begin, Definition& def) {
  LineIndex lines(bytes);
  auto end = static_cast<std::uint32_t>(bytes.size());
  Tree tree = parse(Grammar::json, bytes, begin, end, lines);
  if (!tree) {
    def.diagnostics.push_back(parse_gave_up(bytes, begin, end, def.path, lines));
    return;
  }
  TSNode root = ts_tree_root_node(tree.get());
  SyntaxRules rules;
  rules.containers = {"object", "array"};
  rules.comment_error = "syntax error: comments are not allowed in JSON";
  rules.missing_names = {{"number", "value"}, {"string", "value"}, {"object", "value"}};
  rules.end_of_input = end;
  if (!check_syntax(root, bytes, lines, def.path, rules, def.diagnostics)) return;

  std::vector<TSNode> values;
  for (TSNode n : children(root))
    if (!is(n, "comment")) values.push_back(n);
  if (values.empty()) {
    def.diagnostics.push_back(make_diag(DiagCode::syntax_error, def.path, lines.span(end, end),
                                        "syntax error: the file is empty; expected a JSON object"));
    return;
  }
  if (values.size() > 1) {
    std::uint32_t s = ts_node_start_byte(values[1]), e = ts_node_end_byte(values[1]);
    def.diagnostics.push_back(make_diag(DiagCode::syntax_error, def.path, lines.span(s, e),
                                        fmt::format("syntax error: unexpected '{}' after the JSON value",
                                                    excerpt(bytes.substr(s, e - s)))));
    return;
  }
  JsonDoc doc;
  Converter converter(bytes, lines, def);
  if (!converter.convert(values[0], doc)) return;
  const Located& at = doc.at[""];
  if (!doc.value.is_object()) {
    def.diagnostics.push_back(make_diag(DiagCode::schema_violation, def.path, at.value,
                                        fmt::format("the {} definition must be a JSON object", kind.name)));
    return;
  }
  Span brace = lines.span(at.value.start_byte, at.value.start_byte + 1);
  finish_definition(kind, doc, brace, missing_name_message(kind, "the " + kind.name + " definition"), def);
}

}  // namespace ws::detail

// Markdown definitions: the YAML front matter between the two '---' lines
// is the definition object; the body is free text. tree-sitter-yaml parses
// only the front matter's bytes (an included range), so its node offsets
// are already file offsets.
//
// Values: mappings become objects, sequences arrays, and scalars strings,
// except that a plain true/false (YAML core schema spellings) is a boolean.
// Numbers and nulls are not guessed: "12" stays a string, and an empty
// value is null. Anchors, aliases, tags and directives are refused (WS006):
// a definition says what it means in place.
#include <fmt/format.h>

#include <memory>
#include <vector>

#include "definition_build.h"
#include "json_values.h"
#include "libcheck/reader.h"
#include "readers.h"
#include "ts_util.h"
#include "front_matter.h"
#include "suppression_read.h"
#include "yaml_scalars.h"

namespace ws::detail {

namespace {

class YamlConverter {
 public:
  YamlConverter(std::string_view bytes, const LineIndex& lines, Definition& def)
      : bytes_(bytes), lines_(lines), def_(def) {}

  // `root` is a document's block_node or flow_node; without recursion, one
  // frame per open mapping or sequence.
  bool convert(TSNode root, JsonDoc& doc) {
    doc_ = &doc;
    stack_.clear();
    if (!enter(root, Span{}, &doc.value, "")) return false;
    while (!stack_.empty()) {
      Frame& f = stack_.back();
      bool more = f.started ? f.cursor->next_sibling() : f.cursor->first_child();
      f.started = true;
      if (!more) {
        stack_.pop_back();
        continue;
      }
      TSNode child = f.cursor->node();
      if (!ts_node_is_named(child) || is(child, "comment")) continue;
      Span end_of_child = lines_.span(ts_node_end_byte(child), ts_node_end_byte(child));
      // Either may push a frame, which `f` does not outlive.
      if (!(f.is_mapping ? mapping_entry(f, child, end_of_child) : sequence_item(f, child, end_of_child)))
        return false;
    }
    return true;
  }

 private:
  // An open mapping or sequence: where its values go and where it is read.
  struct Frame {
    nlohmann::json* target;
    std::string pointer;
    std::unique_ptr<Cursor> cursor;
    bool is_mapping;
    bool started = false;
    std::size_t index = 0;
  };

  // Sets *target from `wrapper` (a block_node/flow_node, or null for an
  // empty value located at `empty_at`); a mapping or sequence is opened as
  // a frame, read by convert().
  bool enter(TSNode wrapper, Span empty_at, nlohmann::json* target, std::string pointer) {
    TSNode node = wrapper;
    if (!ts_node_is_null(node) && !unwrap(node)) return false;
    Located& at = doc_->at[pointer];
    if (ts_node_is_null(node)) {
      *target = nullptr;
      at.value = at.content = empty_at;
      return true;
    }
    at.value = at.content = lines_.span(ts_node_start_byte(node), ts_node_end_byte(node));
    bool mapping = is(node, "block_mapping") || is(node, "flow_mapping");
    if (mapping || is(node, "block_sequence") || is(node, "flow_sequence")) {
      *target = mapping ? nlohmann::json::object() : nlohmann::json::array();
      stack_.push_back(Frame{target, std::move(pointer), std::make_unique<Cursor>(node), mapping});
      return true;
    }
    if ((is(node, "double_quote_scalar") || is(node, "single_quote_scalar")) &&
        at.value.end_byte - at.value.start_byte >= 2)
      at.content = lines_.span(at.value.start_byte + 1, at.value.end_byte - 1);
    return scalar(node, *target);
  }

  // The next item of sequence `f`.
  bool sequence_item(Frame& f, TSNode child, Span end_of_child) {
    TSNode item = child;
    if (is(child, "block_sequence_item")) {
      item = TSNode{};
      for (TSNode n : children(child))
        if (!is(n, "comment")) item = n;
    } else if (is(child, "flow_pair")) {
      return refuse(child, "a 'key: value' pair inside a flow sequence is not supported in front matter");
    }
    f.target->push_back(nullptr);
    std::string pointer = f.pointer + "/" + std::to_string(f.index++);
    return enter(item, end_of_child, &f.target->back(), std::move(pointer));
  }

  // The next entry of mapping `f`; a duplicate key is reported and skipped.
  bool mapping_entry(Frame& f, TSNode child, Span end_of_child) {
    TSNode key_node = child, value_node{};
    if (is(child, "block_mapping_pair") || is(child, "flow_pair")) {
      key_node = ts_node_child_by_field_name(child, "key", 3);
      value_node = ts_node_child_by_field_name(child, "value", 5);
    }
    if (ts_node_is_null(key_node)) return refuse(child, "a mapping entry has no key");
    std::string key;
    Span key_span;
    if (!key_of(key_node, key, key_span)) return false;
    if (f.target->contains(key)) {
      def_.diagnostics.push_back(make_diag(DiagCode::schema_violation, def_.path, key_span,
                                           fmt::format("duplicate key '{}'", excerpt(key, 80))));
      return true;
    }
    std::string pointer = f.pointer + "/" + pointer_token(key);
    Located& at = doc_->at[pointer];
    at.key = key_span;
    at.has_key = true;
    nlohmann::json* target = &(*f.target)[key];
    return enter(value_node, end_of_child, target, std::move(pointer));
  }

  bool refuse(TSNode n, std::string message) {
    def_.diagnostics.push_back(make_diag(DiagCode::schema_violation, def_.path,
                                         lines_.span(ts_node_start_byte(n), ts_node_end_byte(n)), std::move(message)));
    return false;
  }

  // From a block_node / flow_node wrapper to the node that holds the value.
  bool unwrap(TSNode& node) {
    if (!is(node, "block_node") && !is(node, "flow_node")) return true;
    TSNode inner{};
    for (TSNode n : children(node)) {
      if (is(n, "anchor")) return refuse(n, "YAML anchors are not supported in front matter; write the value in place");
      if (is(n, "tag")) return refuse(n, "YAML tags are not supported in front matter");
      if (is(n, "alias")) return refuse(n, "YAML aliases are not supported in front matter; write the value in place");
      if (!is(n, "comment")) inner = n;
    }
    node = inner;
    return true;
  }

  bool key_of(TSNode key_node, std::string& key, Span& span) {
    TSNode node = key_node;
    if (!unwrap(node)) return false;
    if (ts_node_is_null(node) ||
        !(is(node, "plain_scalar") || is(node, "double_quote_scalar") || is(node, "single_quote_scalar")))
      return refuse(key_node, "front matter keys must be plain or quoted words");
    nlohmann::json value;
    if (!scalar(node, value)) return false;
    key = value.is_string() ? value.get<std::string>() : std::string(text(node, bytes_));
    span = lines_.span(ts_node_start_byte(node), ts_node_end_byte(node));
    return true;
  }

  bool scalar(TSNode node, nlohmann::json& out) {
    std::string_view raw = text(node, bytes_);
    if (is(node, "plain_scalar")) {
      std::vector<TSNode> kids = children(node);
      if (kids.size() == 1 && is(kids[0], "boolean_scalar") && !raw.empty()) {
        out = raw.front() == 't' || raw.front() == 'T';
        return true;
      }
      out = plain_scalar_value(raw);
      return true;
    }
    if (is(node, "single_quote_scalar")) {
      out = single_quoted_value(raw);
      return true;
    }
    if (is(node, "double_quote_scalar")) {
      std::string value, error;
      if (!double_quoted_value(raw, value, error)) {
        def_.diagnostics.push_back(make_diag(DiagCode::syntax_error, def_.path,
                                             lines_.span(ts_node_start_byte(node), ts_node_end_byte(node)),
                                             "syntax error: " + error));
        return false;
      }
      out = std::move(value);
      return true;
    }
    if (is(node, "block_scalar")) {
      std::uint32_t start = ts_node_start_byte(node);
      std::uint32_t line_start = lines_.line_start(lines_.position(start).line);
      std::size_t indent = 0;
      while (line_start + indent < start && bytes_[line_start + indent] == ' ') ++indent;
      out = block_scalar_value(raw, indent);
      return true;
    }
    return refuse(node, fmt::format("unsupported YAML in front matter: '{}'", excerpt(raw)));
  }

  std::string_view bytes_;
  const LineIndex& lines_;
  Definition& def_;
  JsonDoc* doc_ = nullptr;     // what convert() fills
  std::vector<Frame> stack_;   // its open mappings and sequences
};

const SyntaxRules& yaml_syntax() {
  static const SyntaxRules rules = [] {
    SyntaxRules r;
    r.containers = {"block_mapping", "block_sequence", "flow_mapping", "flow_sequence"};
    return r.compile(Grammar::yaml);
  }();
  return rules;
}

}  // namespace

bool read_front_matter_object(const Kind& kind, std::string_view bytes, std::uint32_t begin, const LineIndex& lines,
                              JsonDoc& doc, Definition& def) {
  FrontMatter fm = find_front_matter(bytes, begin);
  std::size_t first_end = bytes.find_first_of("\r\n", begin);
  Span first_line = lines.span(begin, static_cast<std::uint32_t>(first_end == std::string_view::npos ? bytes.size() : first_end));
  if (!fm.present) {
    def.diagnostics.push_back(make_diag(
        DiagCode::missing_name, def.path, first_line,
        fmt::format("missing name: a {} needs a front matter block at the top of the file: a '---' line, "
                    "'name: ...', and a closing '---' line",
                    kind.name)));
    return false;
  }
  if (!fm.closed) {
    def.diagnostics.push_back(make_diag(DiagCode::syntax_error, def.path, first_line,
                                        "syntax error: the front matter is not closed by a '---' line"));
    return false;
  }

  doc.value = nlohmann::json::object();
  doc.at[""].value = doc.at[""].content = lines.span(fm.yaml_begin, fm.yaml_begin);
  Tree tree;
  if (fm.yaml_end > fm.yaml_begin) {
    tree = parse(Grammar::yaml, bytes, fm.yaml_begin, fm.yaml_end, lines);
    if (!tree) {
      def.diagnostics.push_back(parse_gave_up(bytes, fm.yaml_begin, fm.yaml_end, def.path, lines));
      return false;
    }
    TSNode stream = ts_tree_root_node(tree.get());
    if (!check_syntax(stream, bytes, lines, def.path, yaml_syntax(), fm.yaml_end, def.diagnostics)) return false;

    std::vector<TSNode> documents;
    for (TSNode n : children(stream))
      if (is(n, "document")) documents.push_back(n);
    if (documents.size() > 1) {
      TSNode second = documents[1];
      def.diagnostics.push_back(make_diag(DiagCode::syntax_error, def.path,
                                          lines.span(ts_node_start_byte(second), ts_node_start_byte(second)),
                                          "syntax error: front matter must be a single YAML document"));
      return false;
    }
    TSNode value{};
    if (!documents.empty()) {
      for (TSNode n : children(documents[0])) {
        if (is(n, "yaml_directive") || is(n, "tag_directive") || is(n, "reserved_directive")) {
          def.diagnostics.push_back(make_diag(DiagCode::schema_violation, def.path,
                                              lines.span(ts_node_start_byte(n), ts_node_end_byte(n)),
                                              "YAML directives are not supported in front matter"));
          return false;
        }
        if (is(n, "block_node") || is(n, "flow_node")) value = n;
      }
    }
    if (!ts_node_is_null(value)) {
      YamlConverter converter(bytes, lines, def);
      if (!converter.convert(value, doc)) return false;
    }
    if (doc.value.is_null()) doc.value = nlohmann::json::object();
  }
  const Located& at = doc.at[""];
  if (!doc.value.is_object()) {
    def.diagnostics.push_back(make_diag(DiagCode::schema_violation, def.path, at.value,
                                        "the front matter must be a YAML mapping of 'key: value' lines"));
    return false;
  }
  return true;
}

void read_markdown(const Kind& kind, std::string_view bytes, std::uint32_t begin, Definition& def) {
  LineIndex lines(bytes);
  JsonDoc doc;
  if (!read_front_matter_object(kind, bytes, begin, lines, doc, def)) return;
  const Located& at = doc.at[""];
  std::uint32_t yaml_end = find_front_matter(bytes, begin).yaml_end;
  Span start = lines.span(at.value.start_byte, std::min<std::uint32_t>(at.value.start_byte + 1, yaml_end));
  take_front_matter_suppressions(doc, def);
  finish_definition(kind, doc, start, missing_name_message(kind, "the front matter"), def);
}

}  // namespace ws::detail

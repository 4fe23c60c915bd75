// Syntax classes for `ws-grep --in`: which bytes of a file are code,
// comment, string, key or value, from the same tree-sitter grammars the
// readers use. Works on any bytes (a match may lie in a broken file).
#include <algorithm>
#include <string_view>

#include "libcheck/reader.h"
#include "ts_util.h"
#include "front_matter.h"

namespace ws {

namespace {

using detail::is;

struct Ranges {
  std::vector<ClassRange> out;
  void add(TSNode n, SyntaxClass cls) {
    std::uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (s >= e) return;
    if (!out.empty() && out.back().cls == cls && out.back().end_byte == s)
      out.back().end_byte = e;
    else
      out.push_back(ClassRange{s, e, cls});
  }
};

bool is_csharp_string(TSNode n) {
  return is(n, "string_literal") || is(n, "verbatim_string_literal") || is(n, "raw_string_literal") ||
         is(n, "character_literal");
}

std::vector<ClassRange> classify_csharp(std::string_view bytes, std::uint32_t begin) {
  detail::LineIndex lines(bytes);
  auto end = static_cast<std::uint32_t>(bytes.size());
  detail::Tree tree = detail::parse(detail::Grammar::csharp, bytes, begin, end, lines);
  if (!tree) return {ClassRange{begin, end, SyntaxClass::code}};
  Ranges found;
  std::vector<TSNode> path;
  detail::walk(ts_tree_root_node(tree.get()), [&](TSNode n, int depth, const char*, bool&) {
    path.resize(static_cast<std::size_t>(depth));
    path.push_back(n);
    if (is(n, "comment")) {
      found.add(n, SyntaxClass::comment);
      return false;
    }
    if (is_csharp_string(n)) {
      found.add(n, SyntaxClass::string);
      return false;
    }
    // `#region Label` and `#endregion label`: the label is free text, as a
    // comment is; the directive itself stays code.
    if (is(n, "preproc_arg") && depth > 0 &&
        (is(path[depth - 1], "preproc_region") || is(path[depth - 1], "preproc_endregion"))) {
      found.add(n, SyntaxClass::comment);
      return false;
    }
    // `{x:F2}`: a format specifier is text handed to the formatter, not code.
    if (is(n, "interpolation_format_clause")) {
      found.add(n, SyntaxClass::string);
      return false;
    }
    // In an interpolated string the text parts are string and the holes code.
    if (depth > 0 && is(path[depth - 1], "interpolated_string_expression") && !is(n, "interpolation")) {
      found.add(n, SyntaxClass::string);
      return false;
    }
    return true;
  });
  // Everything between strings and comments is code.
  std::vector<ClassRange> out;
  std::uint32_t at = begin;
  for (const ClassRange& r : found.out) {
    if (r.start_byte > at) out.push_back(ClassRange{at, r.start_byte, SyntaxClass::code});
    out.push_back(r);
    at = r.end_byte;
  }
  if (at < end) out.push_back(ClassRange{at, end, SyntaxClass::code});
  return out;
}

// The comments, keys and values of a parsed document; `is_key` (given the
// node and whether it stands in a "key" field) and `is_value` say which
// nodes are which, as the grammars name them differently.
template <typename IsKey, typename IsValue>
std::vector<ClassRange> classify_tree(const detail::Tree& tree, IsKey is_key, IsValue is_value) {
  Ranges found;
  detail::walk(ts_tree_root_node(tree.get()), [&](TSNode n, int, const char* field, bool&) {
    const bool in_key_field = field && std::string_view(field) == "key";
    if (is(n, "comment")) found.add(n, SyntaxClass::comment);
    else if (is_key(n, in_key_field)) found.add(n, SyntaxClass::key);
    else if (is_value(n)) found.add(n, SyntaxClass::value);
    else return true;
    return false;
  });
  return std::move(found.out);
}

std::vector<ClassRange> classify_json(std::string_view bytes, std::uint32_t begin) {
  detail::LineIndex lines(bytes);
  detail::Tree tree = detail::parse(detail::Grammar::json, bytes, begin, static_cast<std::uint32_t>(bytes.size()), lines);
  if (!tree) return {};
  return classify_tree(
      tree, [](TSNode n, bool in_key_field) { return in_key_field && is(n, "string"); },
      [](TSNode n) { return is(n, "string") || is(n, "number") || is(n, "true") || is(n, "false") || is(n, "null"); });
}

std::vector<ClassRange> classify_markdown(std::string_view bytes, std::uint32_t begin) {
  detail::FrontMatter fm = detail::find_front_matter(bytes, begin);
  if (!fm.present || !fm.closed || fm.yaml_end <= fm.yaml_begin) return {};
  detail::LineIndex lines(bytes);
  detail::Tree tree = detail::parse(detail::Grammar::yaml, bytes, fm.yaml_begin, fm.yaml_end, lines);
  if (!tree) return {};
  return classify_tree(
      tree, [](TSNode, bool in_key_field) { return in_key_field; },
      [](TSNode n) {
        return is(n, "plain_scalar") || is(n, "double_quote_scalar") || is(n, "single_quote_scalar") ||
               is(n, "block_scalar");
      });
}

}  // namespace

const char* syntax_class_name(SyntaxClass c) {
  switch (c) {
    case SyntaxClass::code: return "code";
    case SyntaxClass::comment: return "comment";
    case SyntaxClass::string: return "string";
    case SyntaxClass::key: return "key";
    case SyntaxClass::value: return "value";
  }
  return "code";
}

std::vector<ClassRange> classify_syntax(Format format, std::string_view bytes) {
  if (bytes.size() >= 0xFFFFFFFFu) return {};
  auto begin = static_cast<std::uint32_t>(bom_length(bytes));
  std::vector<ClassRange> out;
  switch (format) {
    case Format::csharp: out = classify_csharp(bytes, begin); break;
    case Format::json: out = classify_json(bytes, begin); break;
    case Format::markdown: out = classify_markdown(bytes, begin); break;
    case Format::opaque: break;
  }
  std::sort(out.begin(), out.end(), [](const ClassRange& a, const ClassRange& b) { return a.start_byte < b.start_byte; });
  return out;
}

}  // namespace ws

// The values of YAML scalars as front matter writes them: tree-sitter-yaml
// finds where a scalar is; these turn its text into the string it means
// (line folding, quote escapes, block scalar indentation and chomping).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ws::detail {

// Each returns false with `error` set when the text is not a valid scalar
// of its style (a bad escape).
std::string plain_scalar_value(std::string_view raw);
bool double_quoted_value(std::string_view raw, std::string& out, std::string& error);
std::string single_quoted_value(std::string_view raw);
// `raw` starts at the '|' or '>' header; `parent_indent` is the indentation
// of the line holding the header, which an explicit indentation indicator
// counts from.
std::string block_scalar_value(std::string_view raw, std::size_t parent_indent);

}  // namespace ws::detail

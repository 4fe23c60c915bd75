// The positioned JSON model every format reduces to: a JSON file, YAML front
// matter and a C# header all become an nlohmann::json value plus the span of
// every value and key, addressed by JSON pointer. Schema checks, names,
// members and references then work the same way for all three.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcheck/source.h"

namespace ws::detail {

struct Located {
  Span value;    // the whole value as written (quotes, brackets included)
  Span content;  // a string's text inside its quotes; otherwise the same as value
  Span key;      // the key that names this value in its object
  bool has_key = false;
};

struct JsonDoc {
  nlohmann::json value;
  std::unordered_map<std::string, Located> at;  // by JSON pointer; "" is the root

  const Located* find(const std::string& pointer) const {
    auto it = at.find(pointer);
    return it == at.end() ? nullptr : &it->second;
  }
};

// "a/b~c" -> "a~1b~0c", the RFC 6901 escaping of one reference token.
std::string pointer_token(std::string_view key);
// The unescaped tokens of a pointer; "" has none.
std::vector<std::string> pointer_tokens(std::string_view pointer);
// True for "" or "/..." with only ~0 and ~1 escapes ("*" tokens of
// reference patterns are plain tokens here).
bool is_valid_pointer(std::string_view pointer);

// The value at a concrete pointer, or null.
const nlohmann::json* value_at(const nlohmann::json& root, std::string_view pointer);
// Concrete pointers matching `pattern`, where a "*" token stands for every
// element of an array, in document order. Tokens that do not resolve drop out.
std::vector<std::string> expand_pointer(const nlohmann::json& root, std::string_view pattern);
// How a user reads a pointer into `root`: "/fields/0/type" -> "fields[0].type".
std::string display_path(const nlohmann::json& root, std::string_view pointer);

}  // namespace ws::detail

// Names of kinds that define a symbol are written in code as Root.Name, so
// they must be plain ASCII C# identifiers a compiler takes (not reserved
// keywords, not over its length limit).
#include <algorithm>
#include <array>
#include <string_view>

#include "libcheck/kinds.h"

namespace ws {

namespace {

// The reserved keywords of C# (contextual keywords such as `var` or `async`
// are valid identifiers and are deliberately absent). Sorted for binary search.
constexpr std::array<std::string_view, 77> kKeywords{
    "abstract", "as",       "base",      "bool",       "break",     "byte",     "case",
    "catch",    "char",     "checked",   "class",      "const",     "continue", "decimal",
    "default",  "delegate", "do",        "double",     "else",      "enum",     "event",
    "explicit", "extern",   "false",     "finally",    "fixed",     "float",    "for",
    "foreach",  "goto",     "if",        "implicit",   "in",        "int",      "interface",
    "internal", "is",       "lock",      "long",       "namespace", "new",      "null",
    "object",   "operator", "out",       "override",   "params",    "private",  "protected",
    "public",   "readonly", "ref",       "return",     "sbyte",     "sealed",   "short",
    "sizeof",   "stackalloc", "static",  "string",     "struct",    "switch",   "this",
    "throw",    "true",     "try",       "typeof",     "uint",      "ulong",    "unchecked",
    "unsafe",   "ushort",   "using",     "virtual",    "void",      "volatile", "while",
};

}  // namespace

bool is_ascii_identifier(std::string_view s) {
  if (s.empty()) return false;
  auto head = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  auto tail = [&](char c) { return head(c) || (c >= '0' && c <= '9'); };
  if (!head(s.front())) return false;
  return std::all_of(s.begin() + 1, s.end(), tail);
}

bool is_csharp_keyword(std::string_view s) {
  static_assert(std::is_sorted(kKeywords.begin(), kKeywords.end()));
  return std::binary_search(kKeywords.begin(), kKeywords.end(), s);
}

bool is_valid_symbol_name(std::string_view s) {
  return s.size() <= kMaxNameLength && is_ascii_identifier(s) && !is_csharp_keyword(s);
}

}  // namespace ws

// ASCII case folding, the one case-insensitive comparison of libcheck: kind
// symbols ("Secrets"), the path policy's reserved and secret names, and the
// protocol's header names and URI schemes. Locale-free on purpose: only A-Z
// fold, every other byte (UTF-8 included) compares as it is.
#pragma once

#include <cstddef>
#include <string_view>

namespace ws::detail {

constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr bool iequals_ascii(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

constexpr bool istarts_with_ascii(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals_ascii(s.substr(0, prefix.size()), prefix);
}

}  // namespace ws::detail

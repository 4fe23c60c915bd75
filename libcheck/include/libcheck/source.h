// Positions in a definition file. Lines and columns are 1-based; columns
// count bytes, as clang and ripgrep do.
#pragma once

#include <cstdint>

namespace ws {

struct Position {
  std::uint32_t line = 1;
  std::uint32_t column = 1;
  friend bool operator==(const Position&, const Position&) = default;
};

struct Span {
  std::uint32_t start_byte = 0;
  std::uint32_t end_byte = 0;
  Position start;
  Position end;
};

}  // namespace ws

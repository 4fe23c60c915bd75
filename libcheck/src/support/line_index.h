// Byte offset -> (line, byte column) for one file, built once per read so
// that every span of the file costs a binary search, not a rescan.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "libcheck/source.h"

namespace ws::detail {

class LineIndex {
 public:
  explicit LineIndex(std::string_view bytes) : size_(static_cast<std::uint32_t>(bytes.size())) {
    starts_.push_back(0);
    const char* begin = bytes.data();
    const char* end = begin + size_;
    for (const char* p = begin; p != end && (p = static_cast<const char*>(std::memchr(p, '\n', end - p))); ++p)
      starts_.push_back(static_cast<std::uint32_t>(p - begin) + 1);
  }

  // Lines end at '\n' only: a CRLF file's '\r' is the last byte of its line.
  Position position(std::uint32_t offset) const {
    offset = std::min(offset, size_);
    auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
    auto line = static_cast<std::uint32_t>(it - starts_.begin());
    return Position{line, offset - starts_[line - 1] + 1};
  }

  Span span(std::uint32_t start, std::uint32_t end) const {
    return Span{start, end, position(start), position(end)};
  }

  std::uint32_t line_start(std::uint32_t line) const { return starts_[line - 1]; }
  std::uint32_t line_count() const { return static_cast<std::uint32_t>(starts_.size()); }

 private:
  std::vector<std::uint32_t> starts_;
  std::uint32_t size_;
};

}  // namespace ws::detail

// Where the YAML front matter of a Markdown file is.
#pragma once

#include <cstdint>
#include <string_view>

namespace ws::detail {

// The front matter block of a Markdown file: the first line is exactly
// "---", the block ends at the next line that is exactly "---" (a CR before
// the LF is tolerated on both).
struct FrontMatter {
  bool present = false;      // the first line is "---"
  bool closed = false;       // a closing "---" line was found
  std::uint32_t yaml_begin = 0;  // first byte after the opening line
  std::uint32_t yaml_end = 0;    // first byte of the closing line
};

inline FrontMatter find_front_matter(std::string_view bytes, std::uint32_t begin) {
  FrontMatter fm;
  // The line at `start` without its CR LF; `next` is where the next one starts.
  auto line_at = [&](std::size_t start, std::size_t& next) {
    std::size_t nl = bytes.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? bytes.size() : nl;
    next = nl == std::string_view::npos ? bytes.size() : nl + 1;
    std::string_view line = bytes.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  };
  std::size_t next = 0;
  fm.present = line_at(begin, next) == "---";
  if (!fm.present) return fm;
  fm.yaml_begin = static_cast<std::uint32_t>(next);
  fm.yaml_end = static_cast<std::uint32_t>(bytes.size());
  for (std::size_t start = next; start < bytes.size(); start = next) {
    if (line_at(start, next) == "---") {
      fm.closed = true;
      fm.yaml_end = static_cast<std::uint32_t>(start);
      break;
    }
  }
  return fm;
}

}  // namespace ws::detail

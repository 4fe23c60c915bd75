#include "yaml_scalars.h"

#include <cstdint>
#include <vector>

namespace ws::detail {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  for (;;) {
    std::size_t nl = s.find('\n', start);
    std::string_view line = s.substr(start, nl == std::string_view::npos ? nl : nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  return s;
}
std::string_view trim_right(std::string_view s) {
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// Flow scalar line folding: a single line break between text becomes a
// space, each empty line a newline, and the white space around breaks goes.
// `joins` says whether a line's break was escaped (double quotes: "\" at
// the end of the line) and joins the next line without a space.
std::string fold(std::string_view text, bool escaped_breaks) {
  std::vector<std::string_view> lines = split_lines(text);
  if (lines.size() == 1) return std::string(text);
  std::string out;
  std::size_t empties = 0;
  bool join = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    if (i > 0) line = trim_left(line);
    if (i + 1 < lines.size()) line = trim_right(line);
    bool escaped = false;
    if (escaped_breaks && i + 1 < lines.size()) {
      std::size_t slashes = 0;
      while (slashes < line.size() && line[line.size() - 1 - slashes] == '\\') ++slashes;
      if (slashes % 2 == 1) {
        escaped = true;
        line.remove_suffix(1);
      }
    }
    if (i > 0 && line.empty() && i + 1 < lines.size()) {
      ++empties;
      continue;
    }
    if (i > 0) {
      if (empties > 0)
        out.append(empties, '\n');
      else if (!join)
        out += ' ';
    }
    empties = 0;
    out += line;
    join = escaped;
  }
  return out;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

std::string plain_scalar_value(std::string_view raw) { return fold(raw, false); }

std::string single_quoted_value(std::string_view raw) {
  if (raw.size() >= 2) raw = raw.substr(1, raw.size() - 2);
  std::string folded = fold(raw, false);
  std::string out;
  for (std::size_t i = 0; i < folded.size(); ++i) {
    out += folded[i];
    if (folded[i] == '\'' && i + 1 < folded.size() && folded[i + 1] == '\'') ++i;
  }
  return out;
}

bool double_quoted_value(std::string_view raw, std::string& out, std::string& error) {
  if (raw.size() >= 2) raw = raw.substr(1, raw.size() - 2);
  std::string folded = fold(raw, true);
  out.clear();
  for (std::size_t i = 0; i < folded.size(); ++i) {
    char c = folded[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= folded.size()) {
      error = "unfinished escape at the end of a string";
      return false;
    }
    char e = folded[i];
    std::size_t hex = 0;
    switch (e) {
      case '0': out += '\0'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 't': case '\t': out += '\t'; break;
      case 'n': out += '\n'; break;
      case 'v': out += '\v'; break;
      case 'f': out += '\f'; break;
      case 'r': out += '\r'; break;
      case 'e': out += '\x1b'; break;
      case ' ': out += ' '; break;
      case '"': out += '"'; break;
      case '/': out += '/'; break;
      case '\\': out += '\\'; break;
      case 'N': append_utf8(out, 0x85); break;
      case '_': append_utf8(out, 0xA0); break;
      case 'L': append_utf8(out, 0x2028); break;
      case 'P': append_utf8(out, 0x2029); break;
      case 'x': hex = 2; break;
      case 'u': hex = 4; break;
      case 'U': hex = 8; break;
      default:
        error = std::string("invalid escape '\\") + e + "'";
        return false;
    }
    if (hex == 0) continue;
    std::uint32_t cp = 0;
    for (std::size_t k = 1; k <= hex; ++k) {
      char h = i + k < folded.size() ? folded[i + k] : '\0';
      int digit = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (digit < 0) {
        error = std::string("invalid escape '\\") + e + "': expected " + std::to_string(hex) + " hex digits";
        return false;
      }
      cp = cp * 16 + static_cast<std::uint32_t>(digit);
    }
    i += hex;
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      error = "escape names no Unicode character";
      return false;
    }
    append_utf8(out, cp);
  }
  return true;
}

std::string block_scalar_value(std::string_view raw, std::size_t parent_indent) {
  std::vector<std::string_view> lines = split_lines(raw);
  std::string_view header = lines.front();
  bool folded = !header.empty() && header.front() == '>';
  char chomp = 'c';
  std::size_t explicit_indent = 0;
  for (std::size_t i = 1; i < header.size() && !is_blank(header[i]); ++i) {
    if (header[i] == '+' || header[i] == '-') chomp = header[i];
    if (header[i] >= '1' && header[i] <= '9') explicit_indent = static_cast<std::size_t>(header[i] - '0');
  }
  lines.erase(lines.begin());
  std::size_t indent = parent_indent + explicit_indent;
  if (explicit_indent == 0) {
    indent = 0;
    for (std::string_view line : lines) {
      std::size_t spaces = 0;
      while (spaces < line.size() && line[spaces] == ' ') ++spaces;
      if (spaces < line.size()) {
        indent = spaces;
        break;
      }
    }
  }
  std::vector<std::string_view> content;
  for (std::string_view line : lines) content.push_back(line.size() > indent ? line.substr(indent) : std::string_view());
  std::size_t trailing = 0;
  while (!content.empty() && content.back().empty()) {
    content.pop_back();
    ++trailing;
  }
  // Between two text lines with k empty lines in between: literal keeps k+1
  // breaks; folded turns the first break into a space when k is 0 and drops
  // it otherwise, except next to more-indented lines, whose breaks stay.
  std::string out;
  std::size_t empties = 0;
  bool first = true, prev_more = false;
  for (std::string_view line : content) {
    if (line.empty()) {
      ++empties;
      continue;
    }
    bool more = is_blank(line.front());
    if (first)
      out.append(empties, '\n');
    else if (folded && !more && !prev_more)
      out += empties == 0 ? std::string(" ") : std::string(empties, '\n');
    else
      out.append(empties + 1, '\n');
    out += line;
    first = false;
    prev_more = more;
    empties = 0;
  }
  if (chomp == '-' || content.empty()) return out;
  out += '\n';
  if (chomp == '+') out.append(trailing > 0 ? trailing - 1 : 0, '\n');
  return out;
}

}  // namespace ws::detail

#include "support/source_scan.h"

#include <fstream>
#include <sstream>

namespace wstest {

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string strip_comments(const std::string& src, Literals literals) {
  const bool keep = literals == Literals::keep;
  std::string out;
  out.reserve(src.size());
  enum { code, line_comment, block_comment, str, chr } st = code;
  for (std::size_t i = 0; i < src.size(); ++i) {
    const char c = src[i], n = i + 1 < src.size() ? src[i + 1] : '\0';
    switch (st) {
      case code:
        if (c == '/' && n == '/') { st = line_comment; ++i; break; }
        if (c == '/' && n == '*') { st = block_comment; ++i; break; }
        if (c == '"') st = str;
        else if (c == '\'') st = chr;
        out += st != code && !keep ? ' ' : c;
        break;
      case line_comment:
        if (c == '\n') { st = code; out += '\n'; }
        break;
      case block_comment:
        if (c == '*' && n == '/') { st = code; ++i; }
        break;
      case str:
      case chr:
        if (keep) out += c;
        if (c == '\\' && n) {
          if (keep) out += n;
          ++i;
        } else if (c == (st == str ? '"' : '\'')) {
          st = code;
        }
        break;
    }
  }
  return out;
}

}  // namespace wstest

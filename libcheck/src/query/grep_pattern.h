// ws-grep patterns in rg's Unicode sense, for RE2: RE2's \w \d \s and \b
// are ASCII-only, rg's are Unicode (ws-grep(1), PATTERNS). The classes are
// spelled out as code point ranges taken from rg itself
// (unicode_classes.gen.py); a word boundary, which RE2 can only test in
// ASCII, is accepted where it reduces to a test of one neighbouring code
// point, and refused elsewhere.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "libcheck/result.h"

namespace ws::detail {

struct RgPattern {
  std::string re2;  // the pattern for RE2, \w \d \s \W \D \S spelled out
  // A leading '\b' before a sure word character: the match must not follow
  // a word character. Removed from `re2`.
  bool leading_boundary = false;
  // A trailing '\b' after a sure word character: the match must not be
  // followed by a word character. Removed from `re2`.
  bool trailing_boundary = false;
};

// Translates a pattern written for rg. A '\b' or '\B' anywhere else is an
// Errc::usage error whose message says why, without the pattern (the
// caller names it).
Result<RgPattern> translate_pattern(std::string_view pattern);

// Whether `cp` is a word character as rg's \w counts it.
bool is_word_char(char32_t cp);

// "[^...]": one code point that is not a word character (as rg's \W).
const std::string& non_word_class();

// Where the code point that ends at `pos` (> 0) of UTF-8 `text` starts, and
// whether it is a word character; a stray byte is one non-word code point.
struct PreviousCodePoint {
  std::size_t start = 0;
  bool word = false;
};
PreviousCodePoint previous_code_point(std::string_view text, std::size_t pos);

}  // namespace ws::detail

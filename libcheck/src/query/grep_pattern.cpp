// rg's Unicode classes and word boundaries in RE2 syntax (grep_pattern.h).
#include "grep_pattern.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <fmt/core.h>

namespace ws::detail {

namespace {

struct CodePointRange {
  char32_t first, last;
};

#include "unicode_classes.inc"

constexpr char32_t kMaxCodePoint = 0x10FFFF;

template <std::size_t N>
std::vector<CodePointRange> to_vector(const CodePointRange (&r)[N]) {
  return std::vector<CodePointRange>(r, r + N);
}

// The code points not in `in` (ascending ranges), surrogates left out.
std::vector<CodePointRange> complement(const std::vector<CodePointRange>& in) {
  std::vector<CodePointRange> out;
  char32_t next = 0;
  auto add = [&](char32_t a, char32_t b) {
    if (a > b) return;
    if (a < 0xD800 && b > 0xDFFF) {
      out.push_back({a, 0xD7FF});
      out.push_back({0xE000, b});
    } else {
      out.push_back({a, b});
    }
  };
  for (const auto& r : in) {
    if (r.first > next) add(next, r.first - 1);
    next = r.last + 1;
  }
  if (next <= kMaxCodePoint) add(next, kMaxCodePoint);
  return out;
}

// Ranges as the inside of an RE2 class: "\x{30}-\x{39}\x{5F}".
std::string class_body(const std::vector<CodePointRange>& ranges) {
  std::string out;
  for (const auto& r : ranges) {
    out += fmt::format("\\x{{{:X}}}", static_cast<std::uint32_t>(r.first));
    if (r.last != r.first) out += fmt::format("-\\x{{{:X}}}", static_cast<std::uint32_t>(r.last));
  }
  return out;
}

// The body of the class of a Perl escape letter (w d s, or W D S for the
// complement), computed once.
const std::string& escape_body(char letter) {
  static const std::string word = class_body(to_vector(kWordRanges));
  static const std::string non_word = class_body(complement(to_vector(kWordRanges)));
  static const std::string digit = class_body(to_vector(kDigitRanges));
  static const std::string non_digit = class_body(complement(to_vector(kDigitRanges)));
  static const std::string space = class_body(to_vector(kSpaceRanges));
  static const std::string non_space = class_body(complement(to_vector(kSpaceRanges)));
  switch (letter) {
    case 'w': return word;
    case 'W': return non_word;
    case 'd': return digit;
    case 'D': return non_digit;
    case 's': return space;
    default: return non_space;
  }
}

bool is_class_escape(char c) { return c == 'w' || c == 'W' || c == 'd' || c == 'D' || c == 's' || c == 'S'; }

// Length of the UTF-8 sequence starting at `i` (1 for a stray byte), and its code point.
std::size_t decode(std::string_view p, std::size_t i, char32_t& cp) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(p[k]); };
  unsigned char c = b(i);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > p.size()) { cp = 0xFFFD; return 1; }
  cp = n == 1 ? c : c & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) { cp = 0xFFFD; return 1; }
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  return n;
}

enum class Tok { atom, word_atom, quantifier, boundary, not_boundary, alternation, open, close };

struct Token {
  Tok kind = Tok::atom;
  std::string text;      // RE2 text for the token
  std::size_t min = 0;   // a quantifier's least count
};

// Index just past the '}' of a "{...}" starting at `i`, or past the end.
std::size_t past_brace(std::string_view p, std::size_t i) {
  std::size_t close = p.find('}', i);
  return close == std::string_view::npos ? p.size() : close + 1;
}

// An escape outside or inside a class, from its backslash at `i`; sets `next`.
// Perl class escapes become a class (outside) or its body (inside).
Token escape(std::string_view p, std::size_t i, bool in_class, std::size_t& next) {
  Token t;
  if (i + 1 >= p.size()) { t.text = std::string(p.substr(i)); next = p.size(); return t; }  // RE2 says what is wrong
  char c = p[i + 1];
  next = i + 2;
  if (is_class_escape(c)) {
    const std::string& body = escape_body(c);
    t.text = in_class ? body : "[" + body + "]";
    t.kind = c == 'w' || c == 'd' ? Tok::word_atom : Tok::atom;
    return t;
  }
  if (!in_class && (c == 'b' || c == 'B')) {
    t.kind = c == 'b' ? Tok::boundary : Tok::not_boundary;
    t.text = std::string(p.substr(i, 2));
    return t;
  }
  if (c == 'Q') {  // literal text up to \E
    std::size_t e = p.find("\\E", i + 2);
    next = e == std::string_view::npos ? p.size() : e + 2;
  } else if ((c == 'p' || c == 'P' || c == 'x') && next < p.size() && p[next] == '{') {
    next = past_brace(p, next);
  } else if (c == 'x') {
    next = std::min(p.size(), next + 2);
  } else {
    char32_t cp;
    next = i + 1 + decode(p, i + 1, cp);
  }
  t.text = std::string(p.substr(i, next - i));
  return t;
}

// A bracketed class from its '[' at `i`: its escapes translated; sets `next`.
Token bracket(std::string_view p, std::size_t i, std::size_t& next) {
  Token t;
  t.text = "[";
  std::size_t k = i + 1;
  if (k < p.size() && p[k] == '^') t.text += p[k++];
  if (k < p.size() && p[k] == ']') t.text += p[k++];  // a leading ']' is literal
  while (k < p.size() && p[k] != ']') {
    if (p[k] == '[' && k + 1 < p.size() && p[k + 1] == ':') {  // [:alpha:]
      std::size_t e = p.find(":]", k + 2);
      std::size_t to = e == std::string_view::npos ? p.size() : e + 2;
      t.text += p.substr(k, to - k);
      k = to;
    } else if (p[k] == '\\') {
      std::size_t to;
      t.text += escape(p, k, true, to).text;
      k = to;
    } else {
      t.text += p[k++];
    }
  }
  if (k < p.size()) t.text += p[k++];
  next = k;
  return t;
}

// A counted repetition "{n}", "{n,}" or "{n,m}" at `i`; false when the brace
// is a literal (RE2 reads "{" without such a form as itself).
bool counted(std::string_view p, std::size_t i, std::size_t& min, std::size_t& next) {
  std::size_t k = i + 1, digits = 0;
  min = 0;
  for (; k < p.size() && p[k] >= '0' && p[k] <= '9' && digits < 6; ++k, ++digits) min = min * 10 + (p[k] - '0');
  if (!digits || k >= p.size()) return false;
  if (p[k] == ',') {
    ++k;
    while (k < p.size() && p[k] >= '0' && p[k] <= '9') ++k;
  }
  if (k >= p.size() || p[k] != '}') return false;
  next = k + 1;
  return true;
}

std::vector<Token> tokenize(std::string_view p) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < p.size();) {
    std::size_t next = i + 1;
    Token t;
    char c = p[i];
    std::size_t min = 0;
    if (c == '\\') {
      t = escape(p, i, false, next);
    } else if (c == '[') {
      t = bracket(p, i, next);
    } else if (c == '*' || c == '+' || c == '?' || (c == '{' && counted(p, i, min, next))) {
      t.kind = Tok::quantifier;
      t.min = c == '+' ? 1 : c == '{' ? min : 0;
      if (next < p.size() && p[next] == '?') ++next;  // lazy
      t.text = std::string(p.substr(i, next - i));
    } else if (c == '|' || c == '(' || c == ')') {
      t.kind = c == '|' ? Tok::alternation : c == '(' ? Tok::open : Tok::close;
      t.text = std::string(1, c);
    } else {
      char32_t cp;
      next = i + decode(p, i, cp);
      t.text = std::string(p.substr(i, next - i));
      bool meta = c == '.' || c == '^' || c == '$';
      t.kind = !meta && is_word_char(cp) ? Tok::word_atom : Tok::atom;
    }
    out.push_back(std::move(t));
    i = next;
  }
  return out;
}

bool has_top_level_alternation(const std::vector<Token>& toks) {
  int depth = 0;
  for (const auto& t : toks) {
    if (t.kind == Tok::open) ++depth;
    else if (t.kind == Tok::close) --depth;
    else if (t.kind == Tok::alternation && depth <= 0) return true;
  }
  return false;
}

// A leading '\b' reduces to "not after a word character" when the first
// atom surely matches a word character (and is not optional).
bool boundary_leads(const std::vector<Token>& t) {
  return t.size() > 1 && t[0].kind == Tok::boundary && t[1].kind == Tok::word_atom &&
         !(t.size() > 2 && t[2].kind == Tok::quantifier && t[2].min == 0);
}

// A trailing '\b' reduces to "not before a word character" when the last
// atom surely matched a word character.
bool boundary_trails(const std::vector<Token>& t) {
  std::size_t n = t.size();
  if (n < 2 || t[n - 1].kind != Tok::boundary) return false;
  if (t[n - 2].kind == Tok::word_atom) return true;
  return n >= 3 && t[n - 2].kind == Tok::quantifier && t[n - 2].min >= 1 && t[n - 3].kind == Tok::word_atom;
}

}  // namespace

bool is_word_char(char32_t cp) {
  auto it = std::upper_bound(std::begin(kWordRanges), std::end(kWordRanges), cp,
                             [](char32_t c, const CodePointRange& r) { return c < r.first; });
  return it != std::begin(kWordRanges) && cp <= std::prev(it)->last;
}

const std::string& non_word_class() {
  static const std::string cls = "[" + escape_body('W') + "]";
  return cls;
}

PreviousCodePoint previous_code_point(std::string_view text, std::size_t pos) {
  // A UTF-8 sequence is at most 4 bytes: find its lead byte, then check
  // that it decodes to exactly [start, pos).
  std::size_t start = pos - 1;
  while (start > 0 && pos - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  char32_t cp;
  if (decode(text, start, cp) != pos - start || cp == 0xFFFD) return {pos - 1, false};
  return {start, is_word_char(cp)};
}

Result<RgPattern> translate_pattern(std::string_view pattern) {
  std::vector<Token> toks = tokenize(pattern);
  RgPattern out;
  if (!has_top_level_alternation(toks)) {
    out.leading_boundary = boundary_leads(toks);
    out.trailing_boundary = boundary_trails(toks);
  }
  std::size_t first = out.leading_boundary ? 1 : 0;
  std::size_t last = toks.size() - (out.trailing_boundary ? 1 : 0);
  for (std::size_t i = first; i < last; ++i) {
    if (toks[i].kind == Tok::not_boundary)
      return make_error(Errc::usage, "'\\B' is not supported: RE2 knows only ASCII word boundaries (see ws-grep(1))");
    if (toks[i].kind == Tok::boundary)
      return make_error(Errc::usage,
                        "'\\b' is supported only at the start or end of a pattern, next to a word character "
                        "or '\\w': RE2 knows only ASCII word boundaries; -w matches whole words (see ws-grep(1))");
    out.re2 += toks[i].text;
  }
  return out;
}

}  // namespace ws::detail

// The matcher of ws-grep: RE2 over whole files, line selection without
// splitting a file into lines first.
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "grep_pattern.h"
#include "libcheck/grep.h"

namespace ws {

struct Matcher::Impl {
  std::unique_ptr<RE2> re;        // the search, word-bounded with -w or an edge '\b'
  std::unique_ptr<RE2> plain;     // when bounded: the bare alternation, to find candidates fast
  std::string literal;            // non-empty: a plain literal, searched with memmem
  // Non-empty: a literal under -i searched bytewise (see ascii_foldable),
  // held lowercase; `fold` has 0x20 where the needle has a letter, so
  // (byte | fold[i]) == folded[i] is the ASCII case-insensitive compare.
  std::string folded;
  std::string fold;
  std::size_t off1 = 0, off2 = 0;  // the needle's two rarest bytes, scanned for
  bool kelvin = false, long_s = false;  // the needle holds k/K, s/S
  bool word = false;     // -w, or a leading or trailing '\b': `re` has the match as group 1
  // A leading '\b' (grep_pattern.h): the code point before the search's
  // start is looked at too, as rg's \b sees it (-w, as rg 13's, does not).
  bool look_back = false;
};

namespace {

RE2::Options re2_options(const GrepOptions& o) {
  RE2::Options opt;
  opt.set_log_errors(false);  // the library never prints; the error is returned
  // A match never spans a newline: classes such as \s and [^a] lose '\n', a
  // literal '\n' matches nothing. Whole-buffer search is then line search.
  opt.set_never_nl(true);
  opt.set_case_sensitive(!o.ignore_case);
  // DFA states are cached per RE2 object; more room keeps big files on the
  // DFA rather than the slower (still linear) NFA.
  opt.set_max_mem(64 << 20);
  return opt;
}

bool is_plain_literal(std::string_view p) {
  for (char c : p)
    if (std::strchr("\\.+*?()|[]{}^$", c) || c == '\0') return false;
  return !p.empty();
}

// Whether `p` under -i can be searched bytewise: printable ASCII (and tab)
// only. RE2 folds with Unicode's simple case folds, and of these bytes only
// k/K and s/S have a fold outside ASCII: KELVIN SIGN (U+212A) and LONG S
// (U+017F); the unit tests check this against RE2 over every code point.
// Such a needle is searched bytewise too, and RE2 settles the call when one
// of those two signs lies where a match could be (see Matcher::find).
// Non-ASCII needle bytes have folds of their own, and other control bytes
// are left to RE2 for simplicity.
bool ascii_foldable(std::string_view p) {
  for (char ch : p) {
    unsigned char c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\t') || c > 0x7e) return false;
  }
  return !p.empty();
}

// Whether [from, to) holds the start of `sign` (UTF-8, a lead byte first).
bool holds(std::string_view text, std::size_t from, std::size_t to, std::string_view sign) {
  const char* p = text.data() + from;
  const char* end = text.data() + to;
  while ((p = static_cast<const char*>(std::memchr(p, sign[0], static_cast<std::size_t>(end - p))))) {
    if (text.substr(static_cast<std::size_t>(p - text.data()), sign.size()) == sign) return true;
    ++p;
  }
  return false;
}

// How common a byte is in configuration and source text, higher is more
// common: the order of byte counts over this repository's tracked text files
// (sources, schemas, example workspace; letters counted case-folded), most
// common first. Bytes not listed count as rarest. Only the order matters: it
// picks which needle bytes the scan looks for, so a rare one keeps false
// candidates few; a poor pick costs speed, never correctness.
constexpr std::string_view kByFrequency =
    " etsnrioadcl\"p:h()um.fg,_;bw=k-/yv0{}\n1><'&+j2z[`]|*#3!q$465879%?~@^";

constexpr auto kFrequencyRank = [] {
  std::array<unsigned char, 256> rank{};
  for (std::size_t i = 0; i < kByFrequency.size(); ++i)
    rank[static_cast<unsigned char>(kByFrequency[i])] = static_cast<unsigned char>(kByFrequency.size() - i);
  return rank;
}();

unsigned char lower_ascii(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 0x20 : c; }

bool same_folded(const unsigned char* t, const Matcher::Impl& im) {
  for (std::size_t i = 0; i < im.folded.size(); ++i)
    if ((t[i] | static_cast<unsigned char>(im.fold[i])) != static_cast<unsigned char>(im.folded[i])) return false;
  return true;
}

// The leftmost start in [from, to - n] of an ASCII case-insensitive match of
// the needle (n bytes). Looks for the needle's two rarest bytes at their
// offsets, 32 candidate starts at a time, and verifies each candidate whose
// two bytes both fit; the loads stay inside [from, to).
bool find_folded(const Matcher::Impl& im, std::string_view text, std::size_t from, std::size_t to,
                 std::size_t& start) {
  const std::size_t n = im.folded.size();
  if (to - from < n) return false;
  const std::size_t last = to - n;  // the last possible start
  const auto* t = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t b = from;
#if defined(__SSE2__)
  const __m128i m1 = _mm_set1_epi8(im.fold[im.off1]), c1 = _mm_set1_epi8(im.folded[im.off1]);
  const __m128i m2 = _mm_set1_epi8(im.fold[im.off2]), c2 = _mm_set1_epi8(im.folded[im.off2]);
  auto block = [&](std::size_t at) {
    __m128i v1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + at + im.off1));
    __m128i v2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + at + im.off2));
    __m128i eq = _mm_and_si128(_mm_cmpeq_epi8(_mm_or_si128(v1, m1), c1), _mm_cmpeq_epi8(_mm_or_si128(v2, m2), c2));
    return static_cast<std::uint32_t>(_mm_movemask_epi8(eq));
  };
  for (; b <= last && last - b >= 31; b += 32) {
    std::uint32_t bits = block(b) | (block(b + 16) << 16);
    for (; bits; bits &= bits - 1) {
      std::size_t at = b + static_cast<std::size_t>(__builtin_ctz(bits));
      if (same_folded(t + at, im)) {
        start = at;
        return true;
      }
    }
  }
#endif
  for (; b <= last; ++b)
    if (same_folded(t + b, im)) {
      start = b;
      return true;
    }
  return false;
}

// A pattern as the user wrote it, cut for a message.
std::string shown_pattern(const std::string& p) { return p.size() > 200 ? p.substr(0, 200) + "..." : p; }

// One pattern in RE2's syntax (-F quoted, else rg's classes spelled out;
// grep_pattern.h), compiled alone so that an error names the user's
// pattern, not the alternation it ends up in.
Result<detail::RgPattern> piece_of(const std::string& p, const GrepOptions& o, const RE2::Options& opt) {
  auto invalid = [&](const std::string& why) {
    return make_error(Errc::usage, "invalid pattern '" + shown_pattern(p) + "': " + why, p, Rule::pattern);
  };
  detail::RgPattern piece;
  if (o.fixed_strings) {
    piece.re2 = RE2::QuoteMeta(p);
  } else {
    auto t = detail::translate_pattern(p);
    if (!t) return invalid(t.error().message);
    piece = std::move(t).value();
  }
  RE2 alone(piece.re2, opt);
  if (alone.ok()) return piece;
  // RE2's words about what was written, not about the classes spelled out in it.
  RE2 as_written(p, opt);
  return invalid(as_written.ok() ? alone.error() : as_written.error());
}

// The patterns as one RE2 alternation, each in a group of its own; the
// edge boundaries they share (every pattern has them, or none does).
Result<detail::RgPattern> alternation_of(const std::vector<std::string>& patterns, const GrepOptions& o,
                                         const RE2::Options& opt) {
  detail::RgPattern out;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    auto piece = piece_of(patterns[i], o, opt);
    if (!piece) return piece.error();
    if (i && (piece->leading_boundary != out.leading_boundary || piece->trailing_boundary != out.trailing_boundary))
      return make_error(Errc::usage,
                        "invalid pattern '" + shown_pattern(patterns[i]) +
                            "': a leading or trailing '\\b' must be in every pattern or in none (see ws-grep(1))",
                        patterns[i], Rule::pattern);
    out.leading_boundary = piece->leading_boundary;
    out.trailing_boundary = piece->trailing_boundary;
    out.re2 += (i ? "|(?:" : "(?:") + piece->re2 + ")";
  }
  return out;
}

// The match as capture group 1 between tests of its neighbours (RE2 has no
// look-around): a line edge or a non-word character (rg's \W) before it,
// after it, or both. With `look_back`, a non-word character before it comes
// first, as the search may start on that character (Matcher::find).
std::string bounded(const std::string& alternation, bool before, bool after, bool look_back) {
  const std::string& nw = detail::non_word_class();
  std::string re = "(?m)";
  if (before) re += look_back ? "(?:" + nw + "|^)" : "(?:^|" + nw + ")";
  re += "(" + alternation + ")";
  if (after) re += "(?:$|" + nw + ")";
  return re;
}

}  // namespace

Result<Matcher> Matcher::compile(const GrepOptions& o) {
  std::vector<std::string> patterns;
  for (const auto& p : o.patterns) {
    // One pattern per line, as grep does: a match never spans lines anyway.
    std::size_t from = 0;
    while (true) {
      std::size_t nl = p.find('\n', from);
      patterns.push_back(p.substr(from, nl == std::string::npos ? std::string::npos : nl - from));
      if (nl == std::string::npos) break;
      from = nl + 1;
    }
  }
  Matcher m;
  if (patterns.empty()) return m;

  RE2::Options opt = re2_options(o);
  auto alt = alternation_of(patterns, o, opt);
  if (!alt) return alt.error();
  const std::string& alternation = alt->re2;
  auto impl = std::make_shared<Impl>();
  const bool before = o.word || alt->leading_boundary, after = o.word || alt->trailing_boundary;
  impl->word = before || after;
  // -w already keeps the match off a word character before it; rg 13's -w
  // does not look behind where a search starts.
  impl->look_back = alt->leading_boundary && !o.word;
  std::string plain = "(?m)" + alternation;
  if (impl->word) {
    impl->re = std::make_unique<RE2>(bounded(alternation, before, after, impl->look_back), opt);
    impl->plain = std::make_unique<RE2>(plain, opt);
    if (!impl->plain->ok())
      return make_error(Errc::usage, "invalid pattern: " + impl->plain->error(), {}, Rule::pattern);
  } else {
    impl->re = std::make_unique<RE2>(plain, opt);
    if (patterns.size() == 1 && !o.ignore_case && (o.fixed_strings || is_plain_literal(patterns[0])) &&
        !patterns[0].empty())
      impl->literal = patterns[0];
    if (patterns.size() == 1 && o.ignore_case && (o.fixed_strings || is_plain_literal(patterns[0])) &&
        ascii_foldable(patterns[0])) {
      const std::string& p = patterns[0];
      for (char ch : p) {
        unsigned char c = lower_ascii(static_cast<unsigned char>(ch));
        impl->folded += static_cast<char>(c);
        impl->fold += (c >= 'a' && c <= 'z') ? '\x20' : '\0';
        impl->kelvin = impl->kelvin || c == 'k';
        impl->long_s = impl->long_s || c == 's';
      }
      // The rarest byte, then the rarest at another offset (the same one for
      // a single byte); the first of equals, for a stable choice.
      auto rank = [&](std::size_t i) { return kFrequencyRank[static_cast<unsigned char>(impl->folded[i])]; };
      for (std::size_t i = 1; i < p.size(); ++i)
        if (rank(i) < rank(impl->off1)) impl->off1 = i;
      impl->off2 = impl->off1 == 0 && p.size() > 1 ? 1 : 0;
      for (std::size_t i = 0; i < p.size(); ++i)
        if (i != impl->off1 && rank(i) < rank(impl->off2)) impl->off2 = i;
    }
  }
  if (!impl->re->ok())  // the alternation can exceed RE2's memory budget on its own
    return make_error(Errc::usage, "invalid pattern: " + impl->re->error(), {}, Rule::pattern);
  m.impl_ = std::move(impl);
  return m;
}

bool Matcher::find(std::string_view text, std::size_t from, std::size_t to, std::size_t& start,
                   std::size_t& end) const {
  const Impl& im = *impl_;
  if (from > to) return false;
  if (!im.literal.empty()) {
    // A plain literal: memmem is the fastest scan there is, and a literal
    // cannot hold a newline, so it agrees with the regex exactly.
    const void* hit = memmem(text.data() + from, to - from, im.literal.data(), im.literal.size());
    if (!hit) return false;
    start = static_cast<std::size_t>(static_cast<const char*>(hit) - text.data());
    end = start + im.literal.size();
    return true;
  }
  re2::StringPiece whole(text.data(), text.size());
  if (!im.folded.empty()) {
    // The bytewise match is RE2's (same leftmost start, same length) unless
    // RE2 would match a KELVIN SIGN or LONG S for a k or s of the needle.
    // A match that does must hold one, and if it started before the bytewise
    // match it ends before start + 3n (no fold is longer than 3 bytes), so
    // only that stretch is looked at; the next call starts past it.
    const std::size_t n = im.folded.size();
    bool hit = find_folded(im, text, from, to, start);
    std::size_t upto = hit ? std::min(to, start + 3 * n) : to;
    if (!(im.kelvin && holds(text, from, upto, "\xE2\x84\xAA")) &&
        !(im.long_s && holds(text, from, upto, "\xC5\xBF"))) {
      end = start + n;
      return hit;
    }
  }
  if (!im.word) {
    re2::StringPiece m;
    if (!im.re->Match(whole, from, to, RE2::UNANCHORED, &m, 1)) return false;
    start = static_cast<std::size_t>(m.data() - text.data());
    end = start + m.size();
    return true;
  }
  // -w or an edge '\b': the bare alternation finds the first candidate with RE2's literal
  // prefix acceleration; the bounded search starts on its line, as no word
  // match can start before the first bare match.
  re2::StringPiece c;
  if (!im.plain->Match(whole, from, to, RE2::UNANCHORED, &c, 1)) return false;
  std::size_t cand = static_cast<std::size_t>(c.data() - text.data());
  std::size_t line = cand;
  while (line > from && text[line - 1] != '\n') --line;
  // A leading '\b' holds at `from` when the code point before it is not a
  // word character: the bounded search starts on that code point, to take
  // it as the non-word character before the match (it cannot be where the
  // match starts: the pattern starts with a word character).
  if (im.look_back && line == from && from > 0 && text[from - 1] != '\n') {
    detail::PreviousCodePoint before = detail::previous_code_point(text, from);
    if (!before.word) line = before.start;
  }
  re2::StringPiece groups[2];
  if (!im.re->Match(whole, line, to, RE2::UNANCHORED, groups, 2)) return false;
  start = static_cast<std::size_t>(groups[1].data() - text.data());
  end = start + groups[1].size();
  return true;
}

std::size_t FileHits::counted() const {
  return static_cast<std::size_t>(std::count_if(hits.begin(), hits.end(), [](const LineHit& h) { return h.counted; }));
}

namespace {

class ClassFilter {
 public:
  explicit ClassFilter(const SelectOptions& o) : ranges_(o.classes) {
    for (SyntaxClass c : o.in) mask_ |= 1u << static_cast<unsigned>(c);
  }
  bool accepts(std::size_t pos) const {
    if (!mask_) return true;
    if (!ranges_) return false;
    auto it = std::upper_bound(ranges_->begin(), ranges_->end(), pos,
                               [](std::size_t p, const ClassRange& r) { return p < r.start_byte; });
    if (it == ranges_->begin()) return false;
    --it;
    return pos < it->end_byte && (mask_ & (1u << static_cast<unsigned>(it->cls)));
  }

 private:
  const std::vector<ClassRange>* ranges_;
  unsigned mask_ = 0;
};

std::size_t line_end(std::string_view t, std::size_t pos) {
  const void* nl = std::memchr(t.data() + pos, '\n', t.size() - pos);
  return nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - t.data()) : t.size();
}

}  // namespace

FileHits select_lines(const Matcher& m, std::string_view t, const SelectOptions& o) {
  FileHits out;
  const std::size_t n = t.size();
  if (!m.has_pattern() || (o.max_count && *o.max_count == 0)) return out;
  ClassFilter filter(o);
  std::size_t counted = 0;
  std::uint32_t stop_line = std::numeric_limits<std::uint32_t>::max();

  // Collects the counting matches of line [ls, le) whose first match is
  // [s, e); without `collect`, only says whether one counts.
  auto eval_line = [&](std::size_t le, std::size_t s, std::size_t e, bool collect) {
    bool any = false;
    while (true) {
      if (filter.accepts(s)) {
        any = true;
        if (!collect || !o.all_spans) break;
        out.spans.push_back({static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(e)});
      }
      std::size_t next = e > s ? e : e + 1;
      if (next > le || !m.find(t, next, le, s, e)) break;
    }
    if (any && collect && !o.all_spans)
      out.spans.push_back({static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(e)});
    return any;
  };
  auto add_hit = [&](std::uint32_t line, std::size_t ls, std::size_t le, std::size_t span_begin) {
    bool counts = !o.max_count || counted < *o.max_count;
    out.hits.push_back({line, static_cast<std::uint32_t>(ls), static_cast<std::uint32_t>(le),
                        static_cast<std::uint32_t>(span_begin),
                        static_cast<std::uint32_t>(out.spans.size() - span_begin), counts});
    if (counts && ++counted == o.max_count) stop_line = o.after ? line + static_cast<std::uint32_t>(o.after) : line;
  };

  std::uint32_t line_no = 1;
  std::size_t line_start = 0;
  if (!o.invert) {
    // Jump from match to match; only lines holding a match are ever split out.
    std::size_t pos = 0, s = 0, e = 0;
    while (pos <= n && m.find(t, pos, n, s, e)) {
      if (s == n && (n == 0 || t[n - 1] == '\n')) break;  // past the last line
      for (const char* p = t.data() + line_start; (p = static_cast<const char*>(std::memchr(p, '\n', s - (p - t.data()))));) {
        ++line_no;
        line_start = static_cast<std::size_t>(++p - t.data());
      }
      if (line_no > stop_line) break;
      std::size_t le = line_end(t, s);
      std::size_t span_begin = out.spans.size();
      if (eval_line(le, s, e, true)) add_hit(line_no, line_start, le, span_begin);
      else out.spans.resize(span_begin);
      if (le >= n || line_no >= stop_line) break;
      pos = line_start = le + 1;
      ++line_no;
    }
    return out;
  }
  // -v: every line, but the regex runs only where the next match lies.
  bool have = false, exhausted = false;
  std::size_t ms = 0, me = 0;
  while (line_start < n && line_no <= stop_line) {
    std::size_t le = line_end(t, line_start);
    if (!exhausted && (!have || ms < line_start)) {
      have = m.find(t, line_start, n, ms, me);
      exhausted = !have;
    }
    bool matches = have && ms <= le && eval_line(le, ms, me, false);
    if (!matches) add_hit(line_no, line_start, le, out.spans.size());
    if (le >= n) break;
    line_start = le + 1;
    ++line_no;
  }
  return out;
}

}  // namespace ws

// rg's Unicode \w \d \s and edge \b for RE2 (grep_pattern.h): what the
// translation accepts, refuses and spells out, and what the matcher then
// finds.
#include <catch2/catch.hpp>
#include <re2/re2.h>

#include <string>
#include <vector>

#include "grep_pattern.h"
#include "libcheck/grep.h"

using ws::detail::translate_pattern;

namespace {

// Whether the translated `pattern` matches the whole of `text` (one code point, say).
bool full(const std::string& pattern, const std::string& text) {
  auto t = translate_pattern(pattern);
  REQUIRE(t.ok());
  RE2 re(t->re2);
  REQUIRE(re.ok());
  return RE2::FullMatch(text, re);
}

std::string refusal(const std::string& pattern) {
  auto t = translate_pattern(pattern);
  REQUIRE_FALSE(t.ok());
  CHECK(t.error().code == ws::Errc::usage);
  return t.error().message;
}

// Every match of `pattern` in `text` as the search steps through them: "match@start".
std::vector<std::string> matches(const std::string& pattern, std::string_view text, bool word = false) {
  ws::GrepOptions o;
  o.patterns = {pattern};
  o.word = word;
  auto m = ws::Matcher::compile(o);
  REQUIRE(m.ok());
  std::vector<std::string> out;
  std::size_t pos = 0, s = 0, e = 0;
  while (pos <= text.size() && m->find(text, pos, text.size(), s, e)) {
    out.push_back(std::string(text.substr(s, e - s)) + "@" + std::to_string(s));
    pos = e > s ? e : e + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("the Perl classes are rg's Unicode classes", "[grep-pattern]") {
  for (const char* word : {"a", "Z", "_", "7", "\xC3\xA9" /* é */, "\xC3\x9F" /* ß */, "\xD0\x96" /* Ж */,
                           "\xE4\xB8\xAD" /* 中 */, "\xCC\x81" /* U+0301 combining acute */,
                           "\xD9\xA3" /* ٣ Arabic-Indic three */, "\xE2\x80\xBF" /* ‿ Pc */,
                           "\xE2\x80\x8D" /* ZWJ, Join_Control */, "\xE2\x92\xB6" /* Ⓐ, Other_Alphabetic */}) {
    INFO(word);
    CHECK(full("\\w", word));
    CHECK_FALSE(full("\\W", word));
    CHECK(full("[\\w-]", word));
    CHECK_FALSE(full("[^\\w]", word));
  }
  for (const char* other : {"-", " ", "\xC2\xB2" /* ² No */, "\xE2\x82\xAC" /* € */, "\xF0\x9F\x98\x80" /* emoji */}) {
    INFO(other);
    CHECK_FALSE(full("\\w", other));
    CHECK(full("\\W", other));
    CHECK(full("[\\W]", other));
  }
  CHECK(full("[\\w-]", "-"));
  CHECK(full("\\d", "\xD9\xA3"));
  CHECK(full("\\d", "\xEF\xBC\x95"));  // fullwidth 5
  CHECK_FALSE(full("\\d", "\xC2\xB2"));
  CHECK(full("\\D", "\xC2\xB2"));
  CHECK(full("\\s", "\xE3\x80\x80"));  // ideographic space
  CHECK(full("\\s", "\xC2\xA0"));
  CHECK(full("\\s", "\r"));
  CHECK_FALSE(full("\\s", "\xE2\x80\x8B"));  // zero width space is no White_Space
  CHECK(full("\\S", "\xE2\x80\x8B"));
  CHECK(full("[^\\s\\d]+", "ab\xC3\xA9"));
  CHECK_FALSE(full("[^\\s\\d]+", "a\xD9\xA3"));
}

TEST_CASE("escapes that are not classes are left as written", "[grep-pattern]") {
  CHECK(translate_pattern("\\\\w")->re2 == "\\\\w");  // a backslash, then w
  CHECK(full("\\\\w", "\\w"));
  CHECK(translate_pattern("\\Q\\w\\b\\E")->re2 == "\\Q\\w\\b\\E");
  CHECK(full("\\Q\\w\\E", "\\w"));
  CHECK(translate_pattern("\\p{Greek}\\pL\\x{41}\\x41\\.")->re2 == "\\p{Greek}\\pL\\x{41}\\x41\\.");
  CHECK(translate_pattern("[[:alpha:]]")->re2 == "[[:alpha:]]");
  CHECK(translate_pattern("[]a]")->re2 == "[]a]");
  CHECK(translate_pattern("a{2,3}b+")->re2 == "a{2,3}b+");
  CHECK(translate_pattern("")->re2.empty());
  CHECK(translate_pattern("\\")->re2 == "\\");  // RE2 then says what is wrong
}

TEST_CASE("an edge word boundary next to a word character is kept as a neighbour test", "[grep-pattern]") {
  auto both = translate_pattern("\\bword\\b");
  REQUIRE(both.ok());
  CHECK(both->re2 == "word");
  CHECK(both->leading_boundary);
  CHECK(both->trailing_boundary);
  auto lead = translate_pattern("\\b\\w+");
  REQUIRE(lead.ok());
  CHECK(lead->leading_boundary);
  CHECK_FALSE(lead->trailing_boundary);
  auto trail = translate_pattern("x\\d{2,}\\b");
  REQUIRE(trail.ok());
  CHECK_FALSE(trail->leading_boundary);
  CHECK(trail->trailing_boundary);
  CHECK(translate_pattern("\\b\xC3\xA9t\xC3\xA9\\b")->leading_boundary);
  auto literal = translate_pattern("\\\\b");  // a backslash, then b
  REQUIRE(literal.ok());
  CHECK_FALSE(literal->leading_boundary);
}

TEST_CASE("any other word boundary is refused saying why", "[grep-pattern]") {
  const std::string b =
      "'\\b' is supported only at the start or end of a pattern, next to a word character or '\\w': RE2 knows "
      "only ASCII word boundaries; -w matches whole words (see ws-grep(1))";
  CHECK(refusal("a\\bb") == b);
  CHECK(refusal("\\b") == b);
  CHECK(refusal("\\b-x") == b);      // not next to a word character
  CHECK(refusal("\\ba?") == b);      // the word character may be missing
  CHECK(refusal("x\\w*\\b") == b);
  CHECK(refusal("\\bfoo|bar") == b);  // an edge of one alternative only
  CHECK(refusal("(?i)\\bfoo") == b);
  CHECK(refusal("\\b(foo)") == b);
  CHECK(refusal("foo\\B") == "'\\B' is not supported: RE2 knows only ASCII word boundaries (see ws-grep(1))");
}

TEST_CASE("the code point before a position and its class", "[grep-pattern]") {
  std::string t = "a\xC3\xA9-\xE4\xB8\xAD\xFF";
  auto p = ws::detail::previous_code_point(t, 3);  // é
  CHECK(p.start == 1);
  CHECK(p.word);
  p = ws::detail::previous_code_point(t, 4);  // -
  CHECK(p.start == 3);
  CHECK_FALSE(p.word);
  p = ws::detail::previous_code_point(t, 7);  // 中
  CHECK(p.start == 4);
  CHECK(p.word);
  p = ws::detail::previous_code_point(t, 8);  // a stray byte
  CHECK(p.start == 7);
  CHECK_FALSE(p.word);
  p = ws::detail::previous_code_point(t, 6);  // inside 中: a stray continuation byte
  CHECK(p.start == 5);
  CHECK_FALSE(p.word);
}

TEST_CASE("the matcher applies Unicode classes and word boundaries", "[grep-pattern]") {
  CHECK(matches("\\w+", "participants\xC3\xA2 x") == std::vector<std::string>{"participants\xC3\xA2@0", "x@15"});
  CHECK(matches("\\bfoo-", "foo-foo-xfoo-") == std::vector<std::string>{"foo-@0", "foo-@4"});
  CHECK(matches("\\bstra\xC3\x9F" "e\\b", "stra\xC3\x9F" "e \xC3\xA9stra\xC3\x9F" "e stra\xC3\x9F" "en") ==
        std::vector<std::string>{"stra\xC3\x9F" "e@0"});
  CHECK(matches("\\b\\d+", "\xD9\xA3\xD9\xA4 x12 7") == std::vector<std::string>{"\xD9\xA3\xD9\xA4@0", "7@9"});
  // -w and \b: a word character outside ASCII is a word character.
  CHECK(matches("na", "na\xC3\xAFve na", true) == std::vector<std::string>{"na@7"});
  CHECK(matches("x", "x\xC2\xB2 \xC3\xA9x", true) == std::vector<std::string>{"x@0"});
  CHECK(matches("\\bx\\b", "x\xC2\xB2 \xC3\xA9x") == std::vector<std::string>{"x@0"});
}

TEST_CASE("patterns must agree on edge word boundaries", "[grep-pattern]") {
  ws::GrepOptions o;
  o.patterns = {"\\bfoo\\b", "bar"};
  auto m = ws::Matcher::compile(o);
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().message ==
        "invalid pattern 'bar': a leading or trailing '\\b' must be in every pattern or in none (see ws-grep(1))");
  o.patterns = {"\\bfoo\\b", "\\bbar\\b"};
  CHECK(ws::Matcher::compile(o).ok());
}

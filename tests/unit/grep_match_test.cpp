// The matcher's scan for a case-insensitive plain literal must find exactly
// what RE2's -i search finds, and leave to RE2 the needles whose folds reach
// outside ASCII.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "libcheck/grep.h"

using ws::GrepOptions;

namespace {

ws::Matcher compile_icase(std::string p, bool fixed = false) {
  GrepOptions o;
  o.patterns = {std::move(p)};
  o.ignore_case = true;
  o.fixed_strings = fixed;
  auto m = ws::Matcher::compile(o);
  REQUIRE(m.ok());
  return std::move(m).value();
}

// The same needle in a form that is not a plain literal, so RE2 searches it.
ws::Matcher compile_icase_regex(const std::string& needle) {
  std::string quoted = "(?:";
  for (char c : needle) {
    if (std::strchr("\\.+*?()|[]{}^$", c)) quoted += '\\';
    quoted += c;
  }
  return compile_icase(quoted + ")");
}

std::string found(const ws::Matcher& m, std::string_view text, std::size_t from, std::size_t to) {
  std::size_t s = 0, e = 0;
  if (!m.find(text, from, to, s, e)) return "none";
  return std::to_string(s) + "-" + std::to_string(e);
}

// Every match of a whole-text scan, as select_lines steps through them.
std::vector<std::string> all_matches(const ws::Matcher& m, std::string_view text) {
  std::vector<std::string> out;
  std::size_t pos = 0, s = 0, e = 0;
  while (pos <= text.size() && m.find(text, pos, text.size(), s, e)) {
    out.push_back(std::string(text.substr(s, e - s)) + "@" + std::to_string(s));
    pos = e > s ? e : e + 1;
  }
  return out;
}

// Both matchers agree on the leftmost match of every [from, to) of `text`.
void check_agree(const std::string& needle, const std::string& text, bool every_to) {
  INFO("needle '" << needle << "' text '" << text << "'");
  // Without -F a needle with a regex metacharacter is no literal: -F only.
  bool plain = needle.find_first_of("\\.+*?()|[]{}^$") == std::string::npos;
  ws::Matcher fixed = compile_icase(needle, true);
  ws::Matcher fast = plain ? compile_icase(needle) : fixed;
  ws::Matcher re2 = compile_icase_regex(needle);
  for (std::size_t from = 0; from <= text.size(); ++from) {
    for (std::size_t to = every_to ? from : text.size(); to <= text.size(); ++to) {
      INFO("from " << from << " to " << to);
      std::string want = found(re2, text, from, to);
      REQUIRE(found(fast, text, from, to) == want);
      REQUIRE(found(fixed, text, from, to) == want);
    }
  }
  CHECK(all_matches(fast, text) == all_matches(re2, text));
}

// UTF-8 of a code point.
std::string utf8(char32_t c) {
  std::string s;
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (c >> 18));
    s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
  return s;
}

}  // namespace

TEST_CASE("grep match: -i literal scan agrees with RE2 on every position", "[grep][match]") {
  struct Case {
    std::string needle, text;
  };
  const std::string pad(40, 'x');  // long enough for the 32-byte blocks
  const std::vector<Case> cases = {
      {"escalation", "ESCALATION\nEscalation escalation eScAlAtIoN\n"},
      {"Agent", "agent"},                     // the whole buffer
      {"agent", "AGENT" + pad + "aGeNt"},     // at the start and at the end
      {"aaA", "aaaaaA"},                      // overlapping candidates
      {"aaA", pad + "aaaaaA" + pad + "AaAaAaA"},
      {"refund", "ref"},                      // needle longer than the text
      {"refund", ""},
      {"x", pad + "X" + pad},                 // one byte
      {"x", "\n\nX\nx\n"},
      {"line2", "line1\nLINE2\nline3\nLiNe2"},  // several lines
      {"ab", "a\nb a\nB\nab"},                // never across a newline
      {"caf", "\xC3\xA9" "CAF\xC3\xA9\x80" "caf\xFF" "Caf"},  // bytes >= 0x80 around
      {"e", "\xC3\x89\xC3\xA9" + pad + "\xC3\x89" "E"},      // non-ASCII E's are no E
      {"a-b.c", "A-B.C a-bxc a-b.C" + pad + "A-b.c"},       // punctuation, '.' literal
      {"zz", pad + pad + "ZzzZ" + pad + "zZ"},
      {"q0", std::string(100, 'Q') + "q0" + std::string(70, 'q') + "Q0"},
      {"ID\t7", "id\t7 Id 7 iD\t7"},
      // k and s: their Unicode folds, before, after and amid bytewise matches.
      {"escalation", "e\xC5\xBF" "calation ESCALATION" + pad + "escalation E\xC5\xBF" "CALATION"},
      {"desk", "de\xC5\xBF\xE2\x84\xAA DESK" + pad + "DESK de\xC5\xBF\xE2\x84\xAA" + pad + "desk"},
      {"ask", pad + "A\xC5\xBFK" + pad + "as\xE2\x84\xAA" "ASK"},
      {"k", "\xE2\x84\xAAk\xE2\x84K" + pad + "\xE2\x84\xAA"},  // and a cut-off sign
      {"s", "\xC5" "s\xC5\xBF" + pad + "S\xBF\xC5\xBF"},
      {"ss", "s\xC5\xBF\xC5\xBFS"},
  };
  for (const auto& c : cases) check_agree(c.needle, c.text, c.text.size() < 120);
}

TEST_CASE("grep match: -i literal scan agrees with RE2 on random text", "[grep][match]") {
  // Few distinct bytes, so candidates and matches are dense and overlap.
  const std::vector<std::string> alphabet = {"a", "A", "b", "B", "s", "S", "k", "-", "\n", "\x80", "\xC3",
                                             "\xC5\xBF", "\xE2\x84\xAA", "\xC5", "\xE2\x84"};
  std::mt19937 rng(20240611);
  for (int round = 0; round < 200; ++round) {
    std::string text;
    for (int i = std::uniform_int_distribution<int>(0, 300)(rng); i > 0; --i)
      text += alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
    std::string needle(std::uniform_int_distribution<int>(1, 5)(rng), ' ');
    for (char& c : needle) c = "aAbBsSk-"[std::uniform_int_distribution<int>(0, 7)(rng)];
    check_agree(needle, text, false);
  }
}

TEST_CASE("grep match: -i keeps Unicode folds of k and s, and no other ASCII has any", "[grep][match]") {
  // Every code point outside ASCII (surrogates have no UTF-8), one a line.
  std::string all;
  for (char32_t c = 0x80; c <= 0x10FFFF; ++c)
    if (c < 0xD800 || c > 0xDFFF) all += utf8(c) + "\n";
  std::size_t s = 0, e = 0;
  // What the bytewise scan relies on: with -i, no printable ASCII byte but
  // k, K, s and S (nor tab) matches anything outside ASCII...
  GrepOptions rest;
  rest.patterns = {"[\\t\\x20-\\x4a\\x4c-\\x52\\x54-\\x6a\\x6c-\\x72\\x74-\\x7e]"};
  rest.ignore_case = true;
  auto m = ws::Matcher::compile(rest);
  REQUIRE(m.ok());
  CHECK_FALSE(m.value().find(all, 0, all.size(), s, e));
  // ...and those only KELVIN SIGN and LONG S.
  for (std::string p : {"[kK]", "[sS]"}) {
    rest.patterns = {p};
    auto ks = ws::Matcher::compile(rest);
    REQUIRE(ks.ok());
    std::vector<std::string> signs;
    std::size_t pos = 0;
    while (ks.value().find(all, pos, all.size(), s, e)) {
      signs.push_back(all.substr(s, e - s));
      pos = e;
    }
    CHECK(signs == std::vector<std::string>{p == "[kK]" ? "\xE2\x84\xAA" : "\xC5\xBF"});
  }

  // Needles with k or s find the folded forms.
  const std::string kelvin = "\xE2\x84\xAA", long_s = "\xC5\xBF";
  CHECK(all_matches(compile_icase("k"), "a" + kelvin + "K\n") == std::vector<std::string>{kelvin + "@1", "K@4"});
  CHECK(all_matches(compile_icase("S", true), long_s + "s") == std::vector<std::string>{long_s + "@0", "s@2"});
  CHECK(all_matches(compile_icase("desk"), "DE" + long_s + kelvin + " desk") ==
        std::vector<std::string>{"DE" + long_s + kelvin + "@0", "desk@8"});
  // A non-ASCII needle folds too: É matches é.
  CHECK(all_matches(compile_icase("caf\xC3\x89"), "CAF\xC3\xA9") == std::vector<std::string>{"CAF\xC3\xA9@0"});
}

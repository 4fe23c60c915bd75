// terminal_safe(): what a terminal is shown of untrusted text (ws(7),
// TERMINAL OUTPUT). One table of inputs and the exact text shown, then the
// properties every output must have whatever the input.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "libcheck/terminal_text.h"

using ws::LineBreaks;
using ws::terminal_safe;

namespace {

struct Case {
  const char* what;
  std::string in;
  std::string kept;     // LineBreaks::keep
  std::string escaped;  // LineBreaks::escape
};

std::string bytes(std::initializer_list<int> bs) {
  std::string s;
  for (int b : bs) s += static_cast<char>(b);
  return s;
}

// Whether `shown` holds a byte a terminal acts on or that reorders text:
// C0 (but tab and, if allowed, LF), DEL, C1 and the bidi and separator code
// points as UTF-8, or a byte that is not part of valid UTF-8.
bool holds_raw_control(const std::string& shown, bool newline_allowed) {
  for (std::size_t i = 0; i < shown.size();) {
    ws::Utf8Unit u = ws::decode_utf8(shown, i);
    if (!u.valid) return true;
    std::uint32_t c = u.code_point;
    if (c == '\n' && !newline_allowed) return true;
    if ((c < 0x20 && c != '\t' && c != '\n') || (c >= 0x7F && c <= 0x9F)) return true;
    if (c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x2028 && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069))
      return true;
    i += u.length;
  }
  return false;
}

}  // namespace

TEST_CASE("terminal_safe: every class of control, escaped as documented", "[terminal]") {
  const std::vector<Case> cases = {
      {"plain ASCII", "agents/AGtriage01.json", "agents/AGtriage01.json", "agents/AGtriage01.json"},
      {"empty", "", "", ""},
      {"tab stays", "a\tb", "a\tb", "a\tb"},
      {"LF kept or escaped", "a\nb\n", "a\nb\n", "a\\nb\\n"},
      {"cursor up, erase line", "ok\x1b[1A\x1b[2Kgone", "ok\\x1b[1A\\x1b[2Kgone", "ok\\x1b[1A\\x1b[2Kgone"},
      {"clear screen", "\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H", "\\x1b[2J\\x1b[H"},
      {"CR", "evil\rgood", "evil\\rgood", "evil\\rgood"},
      {"CRLF", "line\r\n", "line\\r\n", "line\\r\\n"},
      {"BEL, BS, NUL, VT, FF", bytes({'a', 7, 8, 0, 11, 12, 'z'}), "a\\x07\\x08\\x00\\x0b\\x0cz",
       "a\\x07\\x08\\x00\\x0b\\x0cz"},
      {"unit separator, DEL", bytes({0x1f, 0x7f}), "\\x1f\\x7f", "\\x1f\\x7f"},
      {"OSC title and hyperlink", "\x1b]0;owned\x07\x1b]8;;http://x\x1b\\", "\\x1b]0;owned\\x07\\x1b]8;;http://x\\x1b\\",
       "\\x1b]0;owned\\x07\\x1b]8;;http://x\\x1b\\"},
      {"C1 CSI as UTF-8", "a\xc2\x9b" "2Jb", "a\\u009b2Jb", "a\\u009b2Jb"},
      {"C1 first and last", "\xc2\x80\xc2\x9f", "\\u0080\\u009f", "\\u0080\\u009f"},
      {"NEL", "x\xc2\x85y", "x\\u0085y", "x\\u0085y"},
      {"U+00A0 is not C1", "\xc2\xa0", "\xc2\xa0", "\xc2\xa0"},
      {"RLO (Trojan Source)", "if (admin\xe2\x80\xae) {", "if (admin\\u202e) {", "if (admin\\u202e) {"},
      {"LRE..RLO", "\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad\xe2\x80\xae", "\\u202a\\u202b\\u202c\\u202d\\u202e",
       "\\u202a\\u202b\\u202c\\u202d\\u202e"},
      {"isolates LRI..PDI", "\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9", "\\u2066\\u2067\\u2068\\u2069",
       "\\u2066\\u2067\\u2068\\u2069"},
      {"LRM, RLM, ALM", "\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", "\\u200e\\u200f\\u061c", "\\u200e\\u200f\\u061c"},
      {"line and paragraph separators", "a\xe2\x80\xa8" "b\xe2\x80\xa9", "a\\u2028b\\u2029", "a\\u2028b\\u2029"},
      {"neighbours of the bidi ranges pass", "\xe2\x80\x8d\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xd8\x9b",
       "\xe2\x80\x8d\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xd8\x9b",
       "\xe2\x80\x8d\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\xd8\x9b"},
      {"accents, CJK, emoji pass", "caf\xc3\xa9 \xe6\xbc\xa2\xe5\xad\x97 \xf0\x9f\x98\x80",
       "caf\xc3\xa9 \xe6\xbc\xa2\xe5\xad\x97 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe6\xbc\xa2\xe5\xad\x97 \xf0\x9f\x98\x80"},
      {"stray byte", "a\xff" "b", "a\\xffb", "a\\xffb"},
      {"truncated sequence at the end", "ok\xe2\x80", "ok\\xe2\\x80", "ok\\xe2\\x80"},
      {"truncated sequence then ASCII", "\xe2\x80" "a", "\\xe2\\x80a", "\\xe2\\x80a"},
      {"overlong ESC", "\xc0\x9b", "\\xc0\\x9b", "\\xc0\\x9b"},
      {"overlong slash", "\xe0\x80\xaf", "\\xe0\\x80\\xaf", "\\xe0\\x80\\xaf"},
      {"surrogate", "\xed\xa0\x80", "\\xed\\xa0\\x80", "\\xed\\xa0\\x80"},
      {"past U+10FFFF", "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80", "\\xf4\\x90\\x80\\x80"},
      {"lone continuation bytes", "\x80\xbf", "\\x80\\xbf", "\\x80\\xbf"},
      {"a backslash stays", "\"a\\nb\" \\x1b \\u202e C:\\dir", "\"a\\nb\" \\x1b \\u202e C:\\dir",
       "\"a\\nb\" \\x1b \\u202e C:\\dir"},
      {"escape after a backslash", "\\\x1b", "\\\\x1b", "\\\\x1b"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(terminal_safe(c.in, LineBreaks::keep) == c.kept);
    CHECK(terminal_safe(c.in, LineBreaks::escape) == c.escaped);
    std::string appended = "prefix:";
    ws::append_terminal_safe(appended, c.in, LineBreaks::keep);
    CHECK(appended == "prefix:" + c.kept);
    bool clean = c.in == c.kept;
    CHECK((ws::first_unsafe(c.in, LineBreaks::keep) == std::string_view::npos) == clean);
  }
}

TEST_CASE("terminal_safe: the first unsafe offset is the first escaped character", "[terminal]") {
  CHECK(ws::first_unsafe("abc", LineBreaks::escape) == std::string_view::npos);
  CHECK(ws::first_unsafe("ab\ncd", LineBreaks::keep) == std::string_view::npos);
  CHECK(ws::first_unsafe("ab\ncd", LineBreaks::escape) == 2);
  CHECK(ws::first_unsafe("caf\xc3\xa9\x1b", LineBreaks::keep) == 5);
  CHECK(ws::first_unsafe("\xe6\xbc\xa2\xe2\x80\xae", LineBreaks::keep) == 3);
  CHECK(ws::first_unsafe("ab\xff", LineBreaks::keep) == 2);
}

TEST_CASE("terminal_safe: an unsafe byte is found at every offset of a long text", "[terminal]") {
  // The scan reads eight bytes at a time: each unsafe character, at each
  // offset of a word and across a word's end, must still be found.
  const std::vector<std::pair<std::string, std::string>> unsafe = {
      {"\x1b", "\\x1b"}, {"\x7f", "\\x7f"}, {"\x01", "\\x01"}, {"\r", "\\r"},
      {"\xc2\x9b", "\\u009b"}, {"\xe2\x80\xae", "\\u202e"}, {"\xff", "\\xff"}};
  for (const auto& [raw, shown] : unsafe) {
    for (std::size_t at = 0; at < 20; ++at) {
      std::string in = std::string(at, 'a') + raw + std::string(20, 'z');
      INFO(shown << " at " << at);
      CHECK(ws::first_unsafe(in, LineBreaks::keep) == at);
      CHECK(terminal_safe(in) == std::string(at, 'a') + shown + std::string(20, 'z'));
    }
  }
  // Tab, LF and every printable byte, in words of eight, pass.
  std::string printable;
  for (int b = 0x20; b < 0x7f; ++b) printable += static_cast<char>(b);
  printable += "\t\n\xc3\xa9\xe6\xbc\xa2";
  CHECK(ws::first_unsafe(printable, LineBreaks::keep) == std::string_view::npos);
  CHECK(ws::first_unsafe(printable, LineBreaks::escape) == printable.find('\n'));
}

TEST_CASE("terminal_safe: the view form returns the input itself when it is clean", "[terminal]") {
  std::string storage = "untouched";
  std::string_view clean = "agents/AGtriage01.json";
  std::string_view same = ws::terminal_safe(clean, storage, LineBreaks::escape);
  CHECK(same.data() == clean.data());
  CHECK(same.size() == clean.size());
  CHECK(storage == "untouched");
  std::string_view dirty = "a\nb\x1b";
  std::string_view shown = ws::terminal_safe(dirty, storage, LineBreaks::escape);
  CHECK(shown == "a\\nb\\x1b");
  CHECK(shown.data() == storage.data());
}

TEST_CASE("terminal_char: the width of each escape, for the caret line", "[terminal]") {
  std::string s = "a\x1b\xe2\x80\xae\xc3\xa9\xff";
  auto a = ws::terminal_char(s, 0, LineBreaks::keep);
  CHECK(!a.escaped());
  CHECK(a.unit.length == 1);
  auto esc = ws::terminal_char(s, 1, LineBreaks::keep);
  CHECK(esc.escape() == "\\x1b");
  CHECK(esc.unit.length == 1);
  auto rlo = ws::terminal_char(s, 2, LineBreaks::keep);
  CHECK(rlo.escape() == "\\u202e");
  CHECK(rlo.unit.length == 3);
  auto e_acute = ws::terminal_char(s, 5, LineBreaks::keep);
  CHECK(!e_acute.escaped());
  CHECK(e_acute.unit.length == 2);
  auto stray = ws::terminal_char(s, 7, LineBreaks::keep);
  CHECK(stray.escape() == "\\xff");
  CHECK(!stray.unit.valid);
}

TEST_CASE("terminal_safe: no raw control survives any input, and clean text is untouched", "[terminal]") {
  // Random bytes weighted towards the interesting ones: ESC, CR, LF, the
  // lead and continuation bytes of C1, bidi and separator code points.
  const std::vector<int> pool = {0x1b, '\r', '\n', '\t', 0x07, 0x7f, 0xc2, 0x9b, 0x85, 0xe2, 0x80, 0x81,
                                 0xae, 0xa8, 0xa9, 0xd8, 0x9c, 0xff, 0xf0, 0x9f, '[', '2', 'J', '\\', 'a'};
  std::mt19937 rng(14);
  for (int round = 0; round < 5000; ++round) {
    std::string in;
    std::size_t n = rng() % 24;
    for (std::size_t i = 0; i < n; ++i) in += static_cast<char>(pool[rng() % pool.size()]);
    INFO("round " << round);
    std::string kept = terminal_safe(in, LineBreaks::keep);
    std::string escaped = terminal_safe(in, LineBreaks::escape);
    CHECK(!holds_raw_control(kept, true));
    CHECK(!holds_raw_control(escaped, false));
    // Escaping is idempotent: what is shown needs no second pass.
    CHECK(terminal_safe(kept, LineBreaks::keep) == kept);
    CHECK(terminal_safe(escaped, LineBreaks::escape) == escaped);
    // Text with nothing to escape is shown byte for byte.
    if (!holds_raw_control(in, true)) CHECK(kept == in);
  }
}

// Text made safe to show on a terminal (ws(7), TERMINAL OUTPUT). Whatever a
// workspace holds — a file's bytes, a proposal's message, an author's name, a
// path — is written by someone else: shown raw, an ESC sequence could move
// the cursor and erase the line an approver is reading, and a bidirectional
// override could show code in another order than it runs. Every human
// output of the tools passes its text through terminal_safe(); JSON and -z
// output carry the exact bytes instead.
//
// What is escaped, and how it is spelled (lower-case hex, fixed width):
//   CR                                         \r
//   LF, with LineBreaks::escape only           \n
//   any other C0 control but tab, and DEL      \x00 ... \x1f, \x7f   (ESC is \x1b)
//   C1 controls U+0080-U+009F (valid UTF-8)    \u0080 ... \u009f     (CSI is \u009b)
//   bidi controls: U+061C, U+200E, U+200F,     \u061c, \u200e, \u200f,
//     U+202A-U+202E, U+2066-U+2069             \u202a ... \u202e, \u2066 ... \u2069
//   line and paragraph separators              \u2028, \u2029
//   a byte that does not begin valid UTF-8     \x80 ... \xff, one escape per byte
// Tab stays as it is, and so does LF with LineBreaks::keep. Every other valid
// UTF-8 character (accents, CJK, emoji) passes unchanged.
//
// A backslash in the text stays as it is: diffs and quoted source lines must
// read as the file does, and JSON and C# are full of "\n", "\"" and "\u00e9".
// So "\x1b" on screen may also be those four characters in the file; the
// escapes are never ambiguous among themselves (\x with two digits below 80
// is a control, from 80 up a stray byte; \u with four digits is a character),
// and --json output, which carries the exact bytes, tells the two apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ws {

// One UTF-8 sequence of a byte string, or one byte that does not begin a
// valid one (valid == false, length == 1): overlong forms, surrogates, code
// points past U+10FFFF and truncated sequences are invalid.
struct Utf8Unit {
  std::size_t offset = 0;
  std::size_t length = 1;
  std::uint32_t code_point = 0;
  bool valid = true;
};
Utf8Unit decode_utf8(std::string_view s, std::size_t at);

// Whether a line feed is text (a diff, a message body) or would break a
// one-line field (a path, a name, an error line) and so is escaped as "\n".
enum class LineBreaks { keep, escape };

// One character of a text as a terminal is shown it: the unit it stands for
// and, when it is escaped, its escape ("\x1b", "\u202e"); `escape` is empty
// when the character is shown as it is.
struct TerminalChar {
  Utf8Unit unit;
  char spelled[8] = {};
  std::uint8_t spelled_size = 0;
  bool escaped() const { return spelled_size != 0; }
  std::string_view escape() const { return {spelled, spelled_size}; }
};

// The one rule: how the character of `text` that starts at byte `at` is shown.
TerminalChar terminal_char(std::string_view text, std::size_t at, LineBreaks breaks);

// Offset of the first byte of `text` that must be escaped, or npos when none
// must: one scan, which decodes only the bytes from 0x80 up.
std::size_t first_unsafe(std::string_view text, LineBreaks breaks);

// `text` as it may be shown on a terminal; a copy of `text` when nothing in
// it needs escaping.
std::string terminal_safe(std::string_view text, LineBreaks breaks = LineBreaks::keep);
// The same without a copy: `text` itself when nothing in it needs escaping,
// else its escaped form, written to `storage` (valid until its next use).
std::string_view terminal_safe(std::string_view text, std::string& storage, LineBreaks breaks);
// The same, appended to `out` (for renderers that build a buffer).
void append_terminal_safe(std::string& out, std::string_view text, LineBreaks breaks = LineBreaks::keep);

}  // namespace ws

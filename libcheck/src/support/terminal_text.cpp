// Text made safe to show on a terminal: the rule and its spelling are
// described in libcheck/terminal_text.h and ws(7), TERMINAL OUTPUT.
#include "libcheck/terminal_text.h"

#include <array>
#include <cstring>

namespace ws {

namespace {

constexpr char kHex[] = "0123456789abcdef";

// Code points from U+0080 up that a terminal acts on (C1 controls: U+009B is
// CSI, as ESC '[' is) or that change what is shown without being seen: the
// bidirectional marks, embeddings, overrides and isolates (the "Trojan
// Source" trick), and the line and paragraph separators that break a line
// in some terminals and viewers.
bool is_hidden_control(std::uint32_t c) {
  return (c >= 0x80 && c <= 0x9F) || c == 0x061C || c == 0x200E || c == 0x200F ||
         (c >= 0x2028 && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

// Whether an ASCII byte is escaped: C0 controls but tab (and LF when kept), DEL.
bool ascii_unsafe(unsigned char b, LineBreaks breaks) {
  if (b == '\t') return false;
  if (b == '\n') return breaks == LineBreaks::escape;
  return b < 0x20 || b == 0x7F;
}

void spell(TerminalChar& t, std::string_view s) {
  for (char ch : s) t.spelled[t.spelled_size++] = ch;
}

void spell_byte(TerminalChar& t, unsigned char b) {
  const char text[] = {'\\', 'x', kHex[b >> 4], kHex[b & 0xF]};
  spell(t, std::string_view(text, sizeof text));
}

void spell_code_point(TerminalChar& t, std::uint32_t c) {
  const char text[] = {'\\', 'u', kHex[(c >> 12) & 0xF], kHex[(c >> 8) & 0xF], kHex[(c >> 4) & 0xF],
                       kHex[c & 0xF]};
  spell(t, std::string_view(text, sizeof text));
}

// Whether any of the 8 bytes of `w` is below 0x20, 0x7F, or from 0x80 up:
// the bytes first_unsafe() must look at one by one. May also say so of a
// word whose only such byte is tab or LF (which it then lets through), never
// the other way round.
bool word_needs_look(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  std::uint64_t below_space = (w - 0x20 * kOnes) & ~w;  // high bit set where a byte < 0x20 (or after one)
  std::uint64_t del_or_high = w + kOnes;                // high bit set where a byte >= 0x7F
  return ((below_space | del_or_high | w) & kHigh) != 0;
}

}  // namespace

Utf8Unit decode_utf8(std::string_view s, std::size_t at) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char b0 = byte(at);
  Utf8Unit u{at, 1, b0, true};
  if (b0 < 0x80) return u;
  std::size_t len = 0;
  std::uint32_t cp = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    cp = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    cp = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  }
  if (len == 0 || at + len > s.size()) {
    u.valid = false;
    return u;
  }
  for (std::size_t i = 1; i < len; ++i) {
    unsigned char b = byte(at + i);
    unsigned char l = i == 1 ? lo : 0x80, h = i == 1 ? hi : 0xBF;
    if (b < l || b > h) {
      u.valid = false;
      return u;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  u.length = len;
  u.code_point = cp;
  return u;
}

TerminalChar terminal_char(std::string_view text, std::size_t at, LineBreaks breaks) {
  TerminalChar t;
  t.unit = decode_utf8(text, at);
  const Utf8Unit& u = t.unit;
  if (!u.valid) spell_byte(t, static_cast<unsigned char>(text[at]));
  else if (u.code_point < 0x80) {
    if (!ascii_unsafe(static_cast<unsigned char>(u.code_point), breaks)) return t;
    if (u.code_point == '\r') spell(t, "\\r");
    else if (u.code_point == '\n') spell(t, "\\n");
    else spell_byte(t, static_cast<unsigned char>(u.code_point));
  } else if (is_hidden_control(u.code_point)) {
    spell_code_point(t, u.code_point);
  }
  return t;
}

std::size_t first_unsafe(std::string_view text, LineBreaks breaks) {
  // One table lookup per ASCII byte; 2 marks a byte to decode.
  static const auto kClass = [] {
    std::array<std::array<std::uint8_t, 256>, 2> table{};
    for (int mode = 0; mode < 2; ++mode)
      for (int b = 0; b < 256; ++b)
        table[mode][b] = b >= 0x80 ? 2 : ascii_unsafe(static_cast<unsigned char>(b),
                                                       mode ? LineBreaks::escape : LineBreaks::keep);
    return table;
  }();
  const auto& cls = kClass[breaks == LineBreaks::escape];
  for (std::size_t i = 0; i < text.size();) {
    // Plain printable ASCII, the common case, eight bytes at a time.
    while (i + 8 <= text.size()) {
      std::uint64_t w;
      std::memcpy(&w, text.data() + i, 8);
      if (word_needs_look(w)) break;
      i += 8;
    }
    if (i >= text.size()) break;
    // Fewer than eight bytes left: the last eight, read as one word, often
    // settle them at once (every byte before `i` was safe).
    if (i + 8 > text.size() && text.size() >= 8) {
      std::uint64_t w;
      std::memcpy(&w, text.data() + text.size() - 8, 8);
      if (!word_needs_look(w)) break;
    }
    std::uint8_t c = cls[static_cast<unsigned char>(text[i])];
    if (c == 0) {
      ++i;
      continue;
    }
    if (c == 1) return i;
    Utf8Unit u = decode_utf8(text, i);
    if (!u.valid || is_hidden_control(u.code_point)) return i;
    i += u.length;
  }
  return std::string_view::npos;
}

void append_terminal_safe(std::string& out, std::string_view text, LineBreaks breaks) {
  // Clean stretches are copied whole; only the characters between them are
  // looked at one by one.
  while (!text.empty()) {
    std::size_t i = first_unsafe(text, breaks);
    if (i == std::string_view::npos) {
      out += text;
      return;
    }
    out.append(text.substr(0, i));
    TerminalChar t = terminal_char(text, i, breaks);
    out += t.escape();
    text.remove_prefix(i + t.unit.length);
  }
}

std::string_view terminal_safe(std::string_view text, std::string& storage, LineBreaks breaks) {
  if (first_unsafe(text, breaks) == std::string_view::npos) return text;
  storage.clear();
  append_terminal_safe(storage, text, breaks);
  return storage;
}

std::string terminal_safe(std::string_view text, LineBreaks breaks) {
  std::string out;
  out.reserve(text.size());
  append_terminal_safe(out, text, breaks);
  return out;
}

}  // namespace ws

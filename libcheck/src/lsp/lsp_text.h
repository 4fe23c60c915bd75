// Text as the protocol addresses it: positions of (line, character) in the
// negotiated encoding (UTF-16 code units unless the client takes UTF-8),
// file URIs, and the edits of textDocument/didChange.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws::lsp::detail {

enum class Encoding { utf8, utf16 };

struct LinePos {
  std::uint32_t line = 0;
  std::uint32_t character = 0;
};

// The lines of a text, for converting between byte offsets and positions.
// A line ends at "\r\n", "\n" or "\r" (LSP 3.17, Text Documents).
class TextLines {
 public:
  TextLines(std::string_view text, Encoding encoding);
  // The position of byte `offset` (clamped to the text); an offset inside
  // a line's terminator or a UTF-8 sequence counts from its start.
  LinePos position(std::size_t offset) const;
  // The byte offset of `pos`: a character past the line's end is its end,
  // a line past the last is the text's end, a position inside a UTF-16
  // surrogate pair is the character's start.
  std::size_t offset(LinePos pos) const;

 private:
  std::size_t line_end(std::size_t line) const;  // before the terminator

  std::string_view text_;
  Encoding encoding_;
  std::vector<std::size_t> starts_;
};

// The absolute path of a file: URI, percent-decoded; nullopt for another
// scheme, a host other than "" or "localhost", a bad escape or a NUL.
std::optional<std::string> uri_path(std::string_view uri);
// The file: URI of an absolute path (RFC 3986: everything but unreserved
// characters and '/' percent-encoded).
std::string path_uri(std::string_view path);

}  // namespace ws::lsp::detail

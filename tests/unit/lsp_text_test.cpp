// The protocol's text: frames split anywhere, positions in UTF-16 and
// UTF-8 over every line end, and file URIs.
#include <catch2/catch.hpp>

#include <string>

#include "libcheck/lsp.h"
#include "lsp_text.h"

using ws::lsp::FrameReader;
using ws::lsp::detail::Encoding;
using ws::lsp::detail::LinePos;
using ws::lsp::detail::TextLines;

namespace {

std::string next_message(FrameReader& r) {
  auto m = r.next();
  REQUIRE(m);
  return *m ? **m : std::string("<none>");
}

}  // namespace

TEST_CASE("frames come whole whatever the reads split, headers in any case", "[lsp]") {
  std::string two = "Content-Length: 2\r\n\r\n{}content-length:3\r\nContent-Type: x\r\n\r\n[1]";
  for (std::size_t cut = 0; cut <= two.size(); ++cut) {
    INFO(cut);
    FrameReader r;
    r.feed(two.substr(0, cut));
    std::vector<std::string> got;
    for (std::string m; (m = next_message(r)) != "<none>";) got.push_back(m);
    r.feed(two.substr(cut));
    for (std::string m; (m = next_message(r)) != "<none>";) got.push_back(m);
    CHECK(got == std::vector<std::string>{"{}", "[1]"});
  }
}

TEST_CASE("a malformed frame is an error and the next one is read", "[lsp]") {
  FrameReader r;
  // Header names fold A-Z only: a '\r' is no '-'.
  r.feed("Content-Length: x1\r\n\r\nContent-Length: -1\r\n\r\nno colon\r\n\r\nContent\rLength: 1\r\n\r\n"
         "Content-Length: 1\r\n\r\n7");
  for (int i = 0; i < 4; ++i) {
    auto m = r.next();
    REQUIRE(!m);
    CHECK(m.error().message == "malformed frame: no valid Content-Length header");
  }
  CHECK(next_message(r) == "7");
  r.feed(std::string(70 * 1024, 'h'));
  auto long_header = r.next();
  REQUIRE(!long_header);
  CHECK(long_header.error().message == "malformed frame: a header longer than 64 KiB");
  r.feed("Content-Length: 1\r\n\r\n8");
  CHECK(next_message(r) == "8");
}

TEST_CASE("positions count UTF-16 units or bytes, lines end at LF, CRLF and CR", "[lsp]") {
  // "a😀b" (the emoji: 4 bytes, 2 UTF-16 units), CRLF, "é" (2 bytes), CR, "x", LF.
  std::string text = "a\xF0\x9F\x98\x80" "b\r\n\xC3\xA9\rx\n";
  TextLines u16(text, Encoding::utf16), u8(text, Encoding::utf8);
  struct Row {
    std::size_t offset;
    LinePos utf16, utf8;
  };
  for (const Row& row : {Row{0, {0, 0}, {0, 0}}, Row{1, {0, 1}, {0, 1}}, Row{5, {0, 3}, {0, 5}}, Row{6, {0, 4}, {0, 6}},
                         Row{8, {1, 0}, {1, 0}}, Row{10, {1, 1}, {1, 2}}, Row{11, {2, 0}, {2, 0}}, Row{13, {3, 0}, {3, 0}}}) {
    INFO(row.offset);
    CHECK(u16.position(row.offset).line == row.utf16.line);
    CHECK(u16.position(row.offset).character == row.utf16.character);
    CHECK(u8.position(row.offset).character == row.utf8.character);
    CHECK(u16.offset(row.utf16) == row.offset);
    CHECK(u8.offset(row.utf8) == row.offset);
  }
  // Inside the surrogate pair: the emoji's start. Past the line's end: its
  // end, before the CRLF. A line past the last: the end of the text.
  CHECK(u16.offset({0, 2}) == 1);
  CHECK(u16.offset({0, 99}) == 6);
  CHECK(u16.offset({9, 0}) == text.size());
}

TEST_CASE("file URIs decode to paths and paths encode to URIs", "[lsp]") {
  using ws::lsp::detail::path_uri;
  using ws::lsp::detail::uri_path;
  CHECK(uri_path("file:///tmp/a%20b/c%C3%A9.json") == "/tmp/a b/c\xC3\xA9.json");
  CHECK(uri_path("file://localhost/tmp/x") == "/tmp/x");
  CHECK(uri_path("FILE:///tmp/x?query#frag") == "/tmp/x");
  CHECK(!uri_path("file://server/share/x"));
  CHECK(!uri_path("https://example.org/x"));
  CHECK(!uri_path("file:///tmp/%2"));
  CHECK(!uri_path("file:///tmp/%00x"));
  CHECK(!uri_path("file:"));
  CHECK(path_uri("/tmp/a b/c\xC3\xA9#.json") == "file:///tmp/a%20b/c%C3%A9%23.json");
  CHECK(uri_path(path_uri("/tmp/a b/%/\xF0\x9F\x98\x80")) == "/tmp/a b/%/\xF0\x9F\x98\x80");
}

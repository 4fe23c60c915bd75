// ws mcp's transport (mcp.h LineReader): one JSON-RPC message a line,
// whatever pieces the bytes come in.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "libcheck/mcp.h"

using ws::mcp::kMaxMessage;
using ws::mcp::LineReader;

namespace {

// Every line (or "ERROR: message") the reader gives for `pieces`, fed in
// turn; a line over 64 bytes as "N bytes of C".
std::vector<std::string> lines_of(const std::vector<std::string>& pieces) {
  LineReader reader;
  std::vector<std::string> out;
  for (const std::string& p : pieces) {
    reader.feed(p);
    for (;;) {
      auto next = reader.next();
      if (!next) {
        out.push_back("ERROR: " + next.error().message);
        continue;
      }
      if (!*next) break;
      // A long line by its size and first byte, so a failed check prints little.
      const std::string& l = **next;
      out.push_back(l.size() > 64 ? std::to_string(l.size()) + " bytes of " + l.substr(0, 1) : l);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("mcp lines: whole lines whatever the pieces, CR LF and blank lines", "[mcp][unit]") {
  const std::string text = "{\"a\":1}\r\n\n\n{\"b\":2}\n{\"c\":3}";
  const std::vector<std::string> expected = {"{\"a\":1}", "{\"b\":2}"};
  CHECK(lines_of({text}) == expected);
  std::vector<std::string> bytes;
  for (char c : text) bytes.emplace_back(1, c);
  CHECK(lines_of(bytes) == expected);
  // The last line is given once its end comes.
  CHECK(lines_of({text, "\n"}) == std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"});
  // A CR inside a line is the line's.
  CHECK(lines_of({"a\rb\r\n"}) == std::vector<std::string>{"a\rb"});
}

TEST_CASE("mcp lines: a line over the limit is refused once and skipped to its end", "[mcp][unit]") {
  const std::string error = "ERROR: parse error: a message over 16777216 bytes was dropped";
  std::string at_limit(kMaxMessage, 'x');
  const std::string whole = "16777216 bytes of x";
  CHECK(lines_of({at_limit + "\n", "next\n"}) == std::vector<std::string>{whole, "next"});
  // Over it, in one piece and in pieces of 1 MiB: one error, then the next line.
  std::string over(kMaxMessage + 1, 'y');
  CHECK(lines_of({over + "\nnext\n"}) == std::vector<std::string>{error, "next"});
  std::vector<std::string> pieces;
  for (std::size_t i = 0; i < 3 * kMaxMessage; i += 1u << 20) pieces.push_back(std::string(1u << 20, 'z'));
  pieces.push_back("\nnext\n");
  CHECK(lines_of(pieces) == std::vector<std::string>{error, "next"});
  // A CR LF line whose CR takes it to the limit is within it.
  CHECK(lines_of({at_limit + "\r\n"}) == std::vector<std::string>{whole});
  CHECK(lines_of({at_limit + "\r", "\n"}) == std::vector<std::string>{whole});
  CHECK(lines_of({at_limit + "x\r", "\n", "next\n"}) == std::vector<std::string>{error, "next"});
}

// Helpers shared by the renderers (render_*.cpp); private to libcheck.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libcheck/diagnostic.h"
#include "libcheck/render.h"
#include "libcheck/terminal_text.h"

namespace ws::render_detail {

// 1-based column in UTF-16 code units (SARIF's default columnKind) of the
// 1-based byte column `byte_column` of `line`; bytes past the end of the line
// count one unit each, invalid bytes count one unit each.
std::uint32_t utf16_column(std::string_view line, std::uint32_t byte_column);

// "path:line:col: note: message", "path: note: message" or "note: message";
// plain text, for the formats that carry notes inside a message.
std::string note_text(const Note& n);

// Asks RenderOptions::source for file texts, keeping the last few (reports are
// sorted by path, so a file's diagnostics come together) with a line index.
class SourceCache {
 public:
  using Fetch = std::function<std::optional<std::string>(const std::string&)>;
  explicit SourceCache(Fetch fetch) : fetch_(std::move(fetch)) {}

  // Line `line` (1-based) of `path` without its terminator ("\n" or "\r\n");
  // nullopt when the text is unknown or has no such line. The view is valid
  // until the next call.
  std::optional<std::string_view> line(const std::string& path, std::uint32_t line);

 private:
  struct Entry {
    std::string path;
    std::optional<std::string> text;
    std::vector<std::size_t> starts;  // byte offset of each line
  };
  Entry* find_or_load(const std::string& path);

  Fetch fetch_;
  std::vector<std::unique_ptr<Entry>> entries_;  // most recently used first
};

// The consumers, one per render_<format>.cpp; make_consumer picks one.
std::unique_ptr<DiagnosticConsumer> make_human(std::ostream& out, const RenderOptions& o);
std::unique_ptr<DiagnosticConsumer> make_json(std::ostream& out, const RenderOptions& o);
std::unique_ptr<DiagnosticConsumer> make_sarif(std::ostream& out, const RenderOptions& o);
std::unique_ptr<DiagnosticConsumer> make_github(std::ostream& out, const RenderOptions& o);
std::unique_ptr<DiagnosticConsumer> make_gitlab(std::ostream& out, const RenderOptions& o);
std::unique_ptr<DiagnosticConsumer> make_junit(std::ostream& out, const RenderOptions& o);

}  // namespace ws::render_detail

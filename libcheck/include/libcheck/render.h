// Diagnostic renderers, on clang's DiagnosticConsumer model: the build feeds
// each diagnostic to one consumer, which writes it to the stream it was given
// (never to stdout/stderr on its own). Formats: human (clang style, with the
// source line and a caret), JSON Lines, SARIF 2.1.0, GitHub Actions
// workflow commands, GitLab Code Quality, JUnit XML. Every output is deterministic: the
// same diagnostics in the same order give the same bytes.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "libcheck/diagnostic.h"

namespace ws {

enum class OutputFormat { human, json, sarif, github, gitlab, junit };

// "human", "json", "sarif", "github", "gitlab", "junit" (the --format values).
const char* output_format_name(OutputFormat f);
std::optional<OutputFormat> parse_output_format(std::string_view name);

// The last line of a human report, without the newline:
//   "1 file changed, compiled clean."
//   "2 files changed, compiled clean with 1 warning."
//   "3 errors in 2 files (12 files changed)"
//   "1 error, 2 warnings in 1 file (1 file changed)"
// With `all`, "files checked" replaces "files changed".
std::string summary_line(const BuildSummary& summary);

// The JSON record of one diagnostic, as ws-build --format json writes it
// (schemas/output/ws-build.json): {"type": "diagnostic", "version", "code",
// "severity", "path", "line", ..., "message", "notes"}. The one way a
// diagnostic becomes JSON; ws-apply --show --json embeds the same records.
// Its texts are as the diagnostic holds them: json_text makes them UTF-8.
nlohmann::ordered_json diagnostic_json(const Diagnostic& d);

struct RenderOptions {
  bool color = false;  // ANSI colour in human output; never any ESC byte when false
  // The text of a file by repository-relative path, to quote the line of a
  // span (human) and to convert byte columns to UTF-16 columns (SARIF).
  // May be empty or return nullopt; the renderers then do without.
  std::function<std::optional<std::string>(const std::string& path)> source;
  std::string tool_version;  // written into JSON and SARIF; omitted when empty
  // Human output only: how a diagnostic's location names its path (from the
  // current folder, ws(7), PATHSPECS); empty: repository-relative, as the
  // machine formats always are.
  std::function<std::string(const std::string& path)> shown_path;
  // JUnit only: warnings fail a test case too (ws-build --werror).
  bool warnings_fail = false;
};

class DiagnosticConsumer {
 public:
  explicit DiagnosticConsumer(std::ostream& out) : out_(out) {}
  virtual ~DiagnosticConsumer() = default;
  DiagnosticConsumer(const DiagnosticConsumer&) = delete;
  DiagnosticConsumer& operator=(const DiagnosticConsumer&) = delete;

  // Call begin() once, diagnostic() for each diagnostic in report order (the
  // caller sorts, see diag_less), then end() once. Document formats (SARIF,
  // GitLab) write everything at end(); JSON Lines writes each record as it
  // comes and its summary at end().
  virtual void begin() {}
  virtual void diagnostic(const Diagnostic& d) = 0;
  virtual void end(const BuildSummary& summary) = 0;

 protected:
  std::ostream& out_;
};

// The consumer for `format`, writing to `out` (which must outlive it).
std::unique_ptr<DiagnosticConsumer> make_consumer(OutputFormat format, std::ostream& out,
                                                  const RenderOptions& options);

// Convenience: begin, every diagnostic, end.
void render_all(DiagnosticConsumer& consumer, std::span<const Diagnostic> diagnostics,
                const BuildSummary& summary);

}  // namespace ws

// Printing one file's results for ws-grep: rg --no-heading's text format, or
// JSON Lines. Pure functions of their inputs, so workers can format files in
// parallel and the printer can re-format the one file a --max cap cuts.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "libcheck/grep.h"

namespace ws::detail {

struct GrepFile {
  std::string_view path;
  std::string_view shown_path;  // the path as text output names it; empty: `path`
  std::string_view bytes;
  std::string_view kind;    // kind name, "config" or "unrouted"
  std::string_view name;    // definition name; empty when unknown
  // --ref/--defines: the symbols, as LineHit::symbol indexes them; null otherwise.
  const std::vector<std::string>* symbols = nullptr;
};

// Results one file yields without a cap: selected lines, matches with -o or
// --json, one per file with -l/-c.
std::size_t result_count(const FileHits& hits, const GrepOptions& o);

// Appends up to `limit` results of `file` to `out`; returns how many it wrote.
// Never writes the "--" that separates files with context: the caller does.
std::size_t format_file(std::string& out, const GrepFile& file, const FileHits& hits,
                        const GrepOptions& o, std::size_t limit);

// The record a capped output ends with.
std::string truncated_record(std::size_t omitted, const GrepOptions& o);
// The JSON summary record (with its newline).
std::string summary_record(const GrepSummary& s);

}  // namespace ws::detail

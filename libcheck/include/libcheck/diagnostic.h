// The diagnostic model: every code is declared once in diagnostic.cpp's
// table (id, severity, summary, explanation) and emitted with a source span.
// Renderers are separate consumers (render.h).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "libcheck/source.h"

namespace ws {

enum class Severity { note, warning, error };
const char* severity_name(Severity s);  // "note", "warning", "error"

// Numbered WS001..; never renumber a released code.
enum class DiagCode {
  syntax_error = 1,     // WS001
  bad_encoding,         // WS002 not UTF-8, NUL bytes, binary
  file_too_large,       // WS003
  path_refused,         // WS004 path policy
  unrouted_file,        // WS005
  schema_violation,     // WS006
  missing_name,         // WS007
  invalid_name,         // WS008
  duplicate_name,       // WS009
  unresolved_reference, // WS010
  unknown_member,       // WS011
  out_of_scope,         // WS012
  broken_by_change,     // WS013
  shadowed_root,        // WS014
  bad_header,           // WS015
  too_deep,             // WS016
  unreadable_file,      // WS017 symlink, special file
  kind_manifest,        // WS018 a kind manifest of the workspace is invalid
  workspace_config,     // WS019 the .ws/config.json a change proposes is invalid
  aliased_root,         // WS020 a C# using directive names a symbol root
  merge_conflict,       // WS021 the change does not merge into its base
};

struct DiagInfo {
  DiagCode code;
  const char* id;        // "WS001"
  Severity severity;     // default severity
  const char* summary;   // short name, "syntax error"
  const char* explanation;  // a paragraph for ws-build(1) and SARIF rule help
};

std::span<const DiagInfo> all_diagnostics();
const DiagInfo& diag_info(DiagCode code);

struct Note {
  std::string path;   // may be empty: a note with no location
  Span span;
  bool has_span = false;
  std::string message;
};

struct Diagnostic {
  DiagCode code;
  Severity severity;
  std::string path;
  Span span;
  bool has_span = true;  // false: the whole file (unrouted, unreadable)
  std::string message;
  std::vector<Note> notes;
};

Diagnostic make_diag(DiagCode code, std::string path, Span span, std::string message);
Diagnostic make_file_diag(DiagCode code, std::string path, std::string message);

// Sort order of every report: path, line, column, code.
bool diag_less(const Diagnostic& a, const Diagnostic& b);

struct BuildSummary {
  std::size_t files_changed = 0;      // definitions in the changeset
  std::size_t files_checked = 0;      // definitions read (with --all: every one in the view)
  std::size_t errors = 0;
  std::size_t warnings = 0;
  // Distinct files with at least one error or warning: the "in N files" of the
  // summary line, which counts every finding it names. tally() fills it.
  std::size_t files_with_errors = 0;
  bool all = false;                   // --all: the line counts files checked, not changed
  // Why every definition was checked though --all was not asked for (a
  // change to the kinds or the config); shown as a note before the summary.
  std::string all_reason;
};

// Fills errors, warnings and files_with_errors from the diagnostics (notes at
// top level are not counted); the file counts and `all` come from the caller.
BuildSummary tally(std::span<const Diagnostic> diagnostics, BuildSummary base = {});

}  // namespace ws

// The diagnostic model: every code is declared once in diagnostic.cpp's
// table (id, severity, summary, explanation) and emitted with a source span.
// Renderers are separate consumers (render.h).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
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
  unused_suppression,   // WS022 an inline suppression that suppresses nothing
  bad_suppression,      // WS023 an inline suppression refused (malformed, a trust-boundary code, no reason)
  invalid_cron,         // WS024 a field of format "cron" is not a 5-field cron expression
  include_cycle,        // WS025 acyclic references (prompt includes) form a cycle
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
// The code an id ("WS014") names; nullopt for any other text.
std::optional<DiagCode> find_diag_code(std::string_view id);
// Codes that guard a trust boundary (ws(7), RULES): what may be read or
// written (path policy, secrets, protected paths, links, size and depth
// caps), what code may reach (scope, aliased roots), and the workspace's own
// kinds, config and suppressions. Neither .ws/config.json's rules nor an
// inline suppression may lower or silence them.
bool is_trust_boundary(DiagCode code);

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
  // The definitions checked, by path in view order, when the build was asked
  // for them (BuildOptions::list_checked); empty otherwise.
  std::vector<std::string> checked;
};

// Fills errors, warnings and files_with_errors from the diagnostics (notes at
// top level are not counted); the file counts and `all` come from the caller.
BuildSummary tally(std::span<const Diagnostic> diagnostics, BuildSummary base = {});

}  // namespace ws

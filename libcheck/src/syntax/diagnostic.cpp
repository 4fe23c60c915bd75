#include "libcheck/diagnostic.h"

#include <array>
#include <set>
#include <string_view>
#include <tuple>

namespace ws {

namespace {

constexpr std::array<DiagInfo, 25> kTable{{
    {DiagCode::syntax_error, "WS001", Severity::error, "syntax error",
     "The file does not parse in its kind's format (C#, JSON, or YAML front matter). "
     "The position is where the parser first lost its way; fix the text there."},
    {DiagCode::bad_encoding, "WS002", Severity::error, "bad encoding",
     "The file is not valid UTF-8 or contains NUL bytes; definitions are UTF-8 text. "
     "The position is the first offending byte."},
    {DiagCode::file_too_large, "WS003", Severity::error, "file too large",
     "The file is over the size cap (1 MiB unless .ws/config.json sets \"size_cap\"). "
     "Definitions are small; split the file or raise the cap."},
    {DiagCode::path_refused, "WS004", Severity::error, "path refused",
     "The path breaks the path policy: it is absolute, has '.' or '..' components, a "
     "backslash, a drive or UNC prefix, control characters, a spelling of '.git', or is "
     "protected. Rename the file to a plain repository-relative path."},
    {DiagCode::unrouted_file, "WS005", Severity::error, "unrouted file",
     "No reader claims the file. In a kind's folder (its name does not fit the kind's "
     "pattern) it is an error: rename, move or delete it. In a top-level folder no kind uses "
     "it is a warning, or what \"unrouted\" in .ws/config.json says; \"ignore\" globs there "
     "silence either. Root-level files, dot-folders and docs/ are never reported."},
    {DiagCode::schema_violation, "WS006", Severity::error, "schema violation",
     "A field is unknown, missing, or of the wrong type or value for the kind's JSON Schema. "
     "The position is the offending value (or the object missing a required field)."},
    {DiagCode::missing_name, "WS007", Severity::error, "missing name",
     "The definition has no name: the JSON field, front matter key or '// name:' header "
     "line the kind names it by is absent or empty."},
    {DiagCode::invalid_name, "WS008", Severity::error, "invalid name",
     "Names of kinds that define a symbol are ASCII C# identifiers ([A-Za-z_][A-Za-z0-9_]*) "
     "of at most 512 characters and not C# keywords, since code refers to them as Root.Name."},
    {DiagCode::duplicate_name, "WS009", Severity::error, "duplicate name",
     "Two definitions of one kind carry the same name; references could not tell them apart. "
     "Both places are reported; rename one."},
    {DiagCode::unresolved_reference, "WS010", Severity::error, "unresolved reference",
     "A reference names a definition that does not exist in the view (base plus pending "
     "changes). The closest existing name of that kind is suggested when there is one."},
    {DiagCode::unknown_member, "WS011", Severity::error, "unknown member",
     "A reference names a member (a node type's field) that the node type does not have. "
     "N.<type>.Type always exists."},
    {DiagCode::out_of_scope, "WS012", Severity::error, "reference outside scope",
     "Code uses a symbol root its kind's manifest does not allow (the kind's \"scope\")."},
    {DiagCode::broken_by_change, "WS013", Severity::error, "broken by change",
     "An unchanged definition references a symbol or member that the changeset deletes or "
     "renames. It is reported at its own line, with a note naming the change that broke it; "
     "update the reference in the same changeset."},
    {DiagCode::shadowed_root, "WS014", Severity::warning, "shadowed root",
     "A local declaration has the name of a symbol root, so uses of that name in the file "
     "are the local, not references. Rename the local."},
    {DiagCode::bad_header, "WS015", Severity::error, "bad header",
     "A '// key: value' header line of a C# definition is malformed or repeats a key."},
    {DiagCode::too_deep, "WS016", Severity::error, "nesting too deep",
     "The file nests containers deeper than 256 levels; it is refused rather than read."},
    {DiagCode::unreadable_file, "WS017", Severity::error, "unreadable file",
     "The file could not be read safely: it is a symlink, a FIFO or device, has more than "
     "one hard link, or is a submodule."},
    {DiagCode::kind_manifest, "WS018", Severity::error, "bad kind manifest",
     "A kind manifest in .ws/kinds/ is not valid JSON or lacks a required field; the "
     "workspace's kinds cannot be trusted until it is fixed."},
    {DiagCode::workspace_config, "WS019", Severity::error, "bad workspace config",
     "The .ws/config.json the change proposes is not valid: not JSON, an unknown key, or a "
     "value of the wrong type. The tools read the config from the base commit, so once such a "
     "change landed every tool would refuse to open the workspace; fix the file."},
    {DiagCode::aliased_root, "WS020", Severity::error, "aliased root",
     "A using directive names a symbol root ('using S = Secrets;', 'using static Agents;', "
     "'using T = N.Ticket;'). Names used through the alias or import are not references the "
     "check can see, so the scope, rename and delete checks would miss them. Remove the "
     "directive and write the root in full at each use."},
    {DiagCode::merge_conflict, "WS021", Severity::error, "merge conflict",
     "The change does not merge into the base it is checked against: git's three-way merge "
     "leaves this path in conflict. The rest of the change is checked as merged, with the "
     "change's side of this path. Rebase the change onto the base, or merge the base into "
     "it, and resolve the conflict."},
    {DiagCode::unused_suppression, "WS022", Severity::warning, "unused suppression",
     "An inline suppression ('// ws-ignore WS014: reason' in C#, 'ws-ignore' in Markdown front "
     "matter) names a code that no diagnostic at its place has. Remove it, or fix the code it names."},
    {DiagCode::bad_suppression, "WS023", Severity::error, "bad suppression",
     "An inline suppression is refused: it is malformed, names an unknown code or one that guards a "
     "trust boundary, or gives no reason though .ws/config.json sets \"require_suppression_reason\"."},
    {DiagCode::invalid_cron, "WS024", Severity::error, "invalid cron",
     "A task's cron (a field whose schema says \"format\": \"cron\") is not a standard 5-field "
     "cron expression as crontab(5) reads it: minute 0-59, hour 0-23, day of month 1-31, month 1-12 "
     "or JAN-DEC, day of week 0-7 or SUN-SAT, each '*', a value, a range 'a-b' or a list 'a,b', "
     "'*' and ranges with a step '/n'. The message names the field and what is wrong."},
    {DiagCode::include_cycle, "WS025", Severity::error, "include cycle",
     "Prompts include one another in a cycle (a prompt that includes itself, A includes B "
     "includes A), so the included text would never end. Each prompt on the cycle is reported at "
     "the include that starts it, unchanged ones too when the change closes the cycle; remove "
     "one include of the cycle."},
}};

constexpr DiagCode kTrustBoundary[] = {
    DiagCode::file_too_large, DiagCode::path_refused,  DiagCode::out_of_scope,    DiagCode::too_deep,
    DiagCode::unreadable_file, DiagCode::kind_manifest, DiagCode::workspace_config, DiagCode::aliased_root,
    DiagCode::merge_conflict, DiagCode::bad_suppression,
};

}  // namespace

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

std::span<const DiagInfo> all_diagnostics() { return kTable; }

const DiagInfo& diag_info(DiagCode code) {
  return kTable[static_cast<std::size_t>(code) - 1];
}

std::optional<DiagCode> find_diag_code(std::string_view id) {
  for (const auto& info : kTable)
    if (id == info.id) return info.code;
  return std::nullopt;
}

bool is_trust_boundary(DiagCode code) {
  for (DiagCode c : kTrustBoundary)
    if (c == code) return true;
  return false;
}

Diagnostic make_diag(DiagCode code, std::string path, Span span, std::string message) {
  return Diagnostic{code, diag_info(code).severity, std::move(path), span, true,
                    std::move(message), {}};
}

Diagnostic make_file_diag(DiagCode code, std::string path, std::string message) {
  Diagnostic d = make_diag(code, std::move(path), Span{}, std::move(message));
  d.has_span = false;
  return d;
}

bool diag_less(const Diagnostic& a, const Diagnostic& b) {
  return std::tuple(a.path, a.span.start.line, a.span.start.column, static_cast<int>(a.code),
                    a.message) <
         std::tuple(b.path, b.span.start.line, b.span.start.column, static_cast<int>(b.code),
                    b.message);
}

BuildSummary tally(std::span<const Diagnostic> diagnostics, BuildSummary base) {
  base.errors = base.warnings = 0;
  std::set<std::string_view> files;
  for (const auto& d : diagnostics) {
    if (d.severity == Severity::error) ++base.errors;
    else if (d.severity == Severity::warning) ++base.warnings;
    else continue;
    files.insert(d.path);
  }
  base.files_with_errors = files.size();
  return base;
}

}  // namespace ws

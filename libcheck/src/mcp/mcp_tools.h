// The tools of ws mcp (ws-mcp(1), TOOLS): what each takes, what it answers,
// and the caps every answer keeps. Each tool answers for the files as they
// are now, whoever changed them: it opens the workspace afresh, but for
// write and delete, which keep theirs while what it was read from is
// unchanged, and ls, read and build, which reuse the working tree's stats
// the kernel vouches for (ws-mcp(1), WARM STATE).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcheck/grep.h"
#include "libcheck/object_id.h"
#include "libcheck/result.h"
#include "libcheck/workspace.h"
#include "tree_watch.h"

namespace ws::mcp::detail {

using Record = nlohmann::ordered_json;

// What a tool answers: its records, or the error that refused the call.
struct ToolOutcome {
  std::vector<Record> records;
  std::optional<Error> error;
};

// A delete the first call showed and the second may carry out.
struct PendingDelete {
  std::string path;
  ObjectId blob;
};

struct Caps {
  std::size_t records = 0;
  std::size_t bytes = 0;
};

// The workspace write and delete open, kept with what it was opened from.
struct EditWorkspace {
  StagedSources sources;
  Workspace workspace;
};

// What every tool call shares: how to open the workspace, the server's
// caps, the delete tokens handed out and not yet used, the names of the
// definitions grep has read (by their bytes, so never stale), the
// workspace write and delete use (kept while its sources are the same, so
// never stale either), and the watch of the working tree.
struct ToolContext {
  OpenOptions open;
  Caps caps;
  std::map<std::string, PendingDelete> tokens;
  DefinitionNames names;
  std::optional<EditWorkspace> edit;
  // The working tree's stats, kept between calls while the kernel vouches
  // for them (tree_watch.h): ls, read, build and the resources use it;
  // commit, whose answer is the change itself, stats every file.
  std::shared_ptr<TreeWatch> watch = std::make_shared<TreeWatch>();
};

struct ToolSpec {
  const char* name;
  const char* description;
  const char* input_schema;  // JSON Schema text
  ToolOutcome (*run)(ToolContext& context, const nlohmann::json& arguments);
  std::vector<const char*> record_types;  // every "type" its records may have
};

// Every tool, in the order tools/list gives them.
const std::vector<ToolSpec>& tool_specs();
const ToolSpec* find_tool(std::string_view name);
// A tool's output schema: {"records": [...]}, each record an object of
// version 1 whose "type" is one of the tool's record_types. The fields of
// each type are those of schemas/output/ (ws(7), JSON OUTPUT).
nlohmann::json output_schema(const ToolSpec& tool);

// One record as the command-line tools write it: through json_text, so
// text that is not UTF-8 is U+FFFD with its exact bytes alongside in base64.
Record as_record(Record record);
// A JSON Lines line of a tool's output as a record.
Record record_of_line(std::string_view line);

// Drops the records past `max_bytes` of JSON text and says so: the
// `truncated_type` record (one already there from a count cap gains the
// records dropped here) with "omitted" and "max_bytes". With `keep_last`,
// the last record (a summary) is always kept.
void cap_bytes(std::vector<Record>& records, std::size_t max_bytes, const char* truncated_type, bool keep_last);

// The workspace as the tools open it, in the server's session.
Result<Workspace> open_for_tool(const ToolContext& context, bool changes_only, bool for_build);
// The workspace as write and delete open it: the index's view (the base's
// and the index's secrets, the kinds, the configuration), without the walk
// of the working tree, which they do not need: they read the one file they
// change from disk themselves (file_edit.h). Opened again only when what
// it was opened from changed (StagedSources); valid until the next call.
Result<const Workspace*> open_for_edit(ToolContext& context);

// The tools' own functions (mcp_tools.cpp, mcp_edit_tools.cpp).
ToolOutcome run_ls(ToolContext& context, const nlohmann::json& arguments);
ToolOutcome run_grep(ToolContext& context, const nlohmann::json& arguments);
ToolOutcome run_read(ToolContext& context, const nlohmann::json& arguments);
ToolOutcome run_build(ToolContext& context, const nlohmann::json& arguments);
ToolOutcome run_commit(ToolContext& context, const nlohmann::json& arguments);
ToolOutcome run_write(ToolContext& context, const nlohmann::json& arguments);
ToolOutcome run_delete(ToolContext& context, const nlohmann::json& arguments);

// The file `path` of the view as read answers it, whole: its text, kind
// and blob id; refused as every tool refuses a path (policy, secrets,
// links, several hard links, the size cap). Shared by read and
// resources/read.
struct ViewFile {
  std::string text;
  std::string kind;  // "" when no kind reads it
  ObjectId blob;
};
Result<ViewFile> read_view_file(const Workspace& ws, std::string_view path);

}  // namespace ws::mcp::detail

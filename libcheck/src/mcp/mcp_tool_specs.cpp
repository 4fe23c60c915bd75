// What each tool of ws mcp takes (ws-mcp(1), TOOLS): the table tools/list
// sends, one row per tool, the input schema beside the function.
#include "mcp_tools.h"

namespace ws::mcp::detail {

namespace {

// long-function: one row per tool, each schema a literal to read as a whole.
const std::vector<ToolSpec>& table() {
  static const std::vector<ToolSpec> specs = {
      {"ls", "List the definitions of the view (the base commit with the pending changes on top), as ws-ls --json: one "
             "'entry' record each with path, kind, name, status and blob id. Secrets are listed, by file name only, when "
             "'kinds' holds 'secret'.",
       R"json({"type":"object","additionalProperties":false,"properties":{
         "kinds":{"type":"array","items":{"type":"string"},"description":"only these kinds ('agent', 'endpoint', ...)"},
         "changed":{"type":"boolean","description":"only the pending changes, deleted files included"},
         "paths":{"type":"array","items":{"type":"string"},"description":"pathspecs, from the workspace's root"},
         "max":{"type":"integer","minimum":0,"description":"at most this many records (never more than the server allows)"}}})json",
       run_ls,
       {"entry", "refused", "Listing-Truncated"}},
      {"grep", "Search the files of the view with RE2, as ws-grep --json: 'match' records with path, line, column and "
               "text, then a 'summary'. 'ref' and 'defines' find a symbol's references and definition (Agents.Billing). "
               "Secrets are never searched.",
       R"json({"type":"object","additionalProperties":false,"properties":{
         "patterns":{"type":"array","items":{"type":"string"},"description":"RE2 patterns, any of them"},
         "fixed_strings":{"type":"boolean"},"ignore_case":{"type":"boolean"},"word":{"type":"boolean"},
         "invert":{"type":"boolean","description":"select the lines that do not match"},
         "kinds":{"type":"array","items":{"type":"string"}},
         "in":{"type":"array","items":{"enum":["code","comment","string","key","value"]},"description":"count a match only inside these syntax classes"},
         "ref":{"type":"array","items":{"type":"string"},"description":"symbols whose references to find (Root.Name or Root.Name.Member)"},
         "defines":{"type":"array","items":{"type":"string"},"description":"symbols whose definitions to find"},
         "paths":{"type":"array","items":{"type":"string"}},
         "context":{"type":"integer","minimum":0,"description":"lines of context before and after"},
         "max":{"type":"integer","minimum":0}}})json",
       run_grep,
       {"match", "context", "refused", "Grep-Truncated", "summary"}},
      {"read", "Read one file of the view: a 'file' record with its text, kind, blob id (pass it to write as 'expected') "
               "and line count. Secrets, links and protected paths are refused.",
       R"json({"type":"object","additionalProperties":false,"required":["path"],"properties":{
         "path":{"type":"string","description":"from the workspace's root"},
         "start_line":{"type":"integer","minimum":1},"end_line":{"type":"integer","minimum":1},
         "max_bytes":{"type":"integer","minimum":1}}})json",
       run_read,
       {"file", "Read-Truncated"}},
      {"build", "Check the pending changes as ws-build does: a 'diagnostic' record per error or warning (code, path, line, "
                "column, message), then a 'summary'.",
       R"json({"type":"object","additionalProperties":false,"properties":{
         "all":{"type":"boolean","description":"check every definition, not only the changes"},
         "max":{"type":"integer","minimum":0}}})json",
       run_build,
       {"diagnostic", "Build-Truncated", "summary"}},
      {"commit", "Stage the pending changes as this session's proposal for a person to approve with ws-apply; refused "
                 "unless they build clean. Answers the 'proposal' record (id, session, files).",
       R"json({"type":"object","additionalProperties":false,"required":["message"],"properties":{
         "message":{"type":"string","minLength":1,"description":"what the change does"}}})json",
       run_commit,
       {"proposal"}},
      {"write", "Write one file: 'expected' is the blob id of the bytes last read (read's or ls's 'blob'), or 'absent' "
                "for a new file; refused if the file holds anything else. Atomic: the file is old or new, never a part.",
       R"json({"type":"object","additionalProperties":false,"required":["path","content","expected"],"properties":{
         "path":{"type":"string"},"content":{"type":"string"},
         "expected":{"type":"string","description":"a 40-hex blob id, or 'absent'"}}})json",
       run_write,
       {"written"}},
      {"delete", "Delete one file in two calls: the first (path alone) deletes nothing and answers a one-time 'token'; "
                 "the second (path and token) deletes the file if it still holds the bytes shown.",
       R"json({"type":"object","additionalProperties":false,"required":["path"],"properties":{
         "path":{"type":"string"},"token":{"type":"string"}}})json",
       run_delete,
       {"delete-pending", "deleted"}},
  };
  return specs;
}

}  // namespace

const std::vector<ToolSpec>& tool_specs() { return table(); }

const ToolSpec* find_tool(std::string_view name) {
  for (const ToolSpec& t : table())
    if (name == t.name) return &t;
  return nullptr;
}

nlohmann::json output_schema(const ToolSpec& tool) {
  nlohmann::json types = nlohmann::json::array();
  for (const char* t : tool.record_types) types.push_back(t);
  nlohmann::json record = {{"type", "object"},
                           {"required", {"type", "version"}},
                           {"properties", {{"type", {{"enum", std::move(types)}}}, {"version", {{"const", 1}}}}}};
  return {{"type", "object"},
          {"required", {"records"}},
          {"properties", {{"records", {{"type", "array"}, {"items", std::move(record)}}}}}};
}

}  // namespace ws::mcp::detail

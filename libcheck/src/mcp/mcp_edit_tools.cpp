// The tools that change files (ws-mcp(1), TOOLS): write and delete, each
// naming what it expects the file to hold (file_edit.h).
#include <map>

#include "libcheck/file_edit.h"
#include "libcheck/json_output.h"
#include "mcp_args.h"
#include "mcp_tools.h"
#include "printable_path.h"
#include "random_hex.h"

namespace ws::mcp::detail {

namespace {

ToolOutcome failed(Error e) { return ToolOutcome{{}, std::move(e)}; }

// `expected` as write takes it: "absent" (nullopt inside), or a blob id.
std::optional<Error> parse_expected(const std::string& text, std::optional<ObjectId>& out) {
  if (text == "absent") return std::nullopt;
  ObjectId id = text.size() == 40 ? ObjectId::from_hex(text) : ObjectId();
  if (id.empty())
    return make_error(Errc::usage, "invalid argument 'expected': give the file's blob id (40 hex digits, as read and "
                                   "ls answer it) or 'absent' for a new file");
  out = id;
  return std::nullopt;
}

Record file_record(const char* type, const std::string& path, const FileOnDisk& f) {
  Record r = json_record(type);
  r["path"] = path;
  r["blob"] = f.blob.hex();
  r["size"] = f.size;
  return r;
}

// The first call: what would be deleted, and the token that deletes it.
ToolOutcome delete_pending(ToolContext& context, const Workspace& ws, const std::string& path) {
  auto now = file_for_write(ws, path, "delete");
  if (!now) return failed(now.error());
  if (!now->exists)
    return failed(make_error(Errc::not_found, "no file '" + ws::detail::printable_path(path) + "' to delete", path,
                             Rule::not_found));
  // One token a path, the newest: the tokens held stay as few as the files.
  std::erase_if(context.tokens, [&](const auto& held) { return held.second.path == path; });
  // 128 bits from the kernel: a token no caller can guess.
  std::string token = ws::detail::random_hex(16);
  context.tokens[token] = PendingDelete{path, now->blob};
  Record r = file_record("delete-pending", path, *now);
  r["token"] = token;
  return ToolOutcome{{as_record(std::move(r))}, std::nullopt};
}

// The second call: the token, used up whatever comes of it.
ToolOutcome delete_confirmed(ToolContext& context, const Workspace& ws, const std::string& path,
                             const std::string& token) {
  auto it = context.tokens.find(token);
  if (it == context.tokens.end() || it->second.path != path)
    return failed(make_error(Errc::refused,
                             "refused to delete '" + ws::detail::printable_path(path) +
                                 "': token (not a token this session was given for this path, or used already); "
                                 "call delete with the path alone for a new one",
                             path, Rule::token));
  PendingDelete pending = it->second;
  context.tokens.erase(it);
  auto removed = remove_file(ws, path, pending.blob);
  if (!removed) return failed(removed.error());
  return ToolOutcome{{as_record(file_record("deleted", path, *removed))}, std::nullopt};
}

}  // namespace

ToolOutcome run_write(ToolContext& context, const nlohmann::json& arguments) {
  Args args(arguments, {"path", "content", "expected"});
  std::string path = args.required_text("path");
  std::string content = args.required_text("content");
  std::string expected_text = args.required_text("expected");
  if (args.error()) return failed(*args.error());
  std::optional<ObjectId> expected;
  if (auto bad = parse_expected(expected_text, expected)) return failed(*bad);
  auto ws = open_for_edit(context);
  if (!ws) return failed(ws.error());
  auto written = write_file(**ws, path, content, expected);
  if (!written) return failed(written.error());
  Record r = file_record("written", path, *written);
  r["created"] = !expected.has_value();
  return ToolOutcome{{as_record(std::move(r))}, std::nullopt};
}

ToolOutcome run_delete(ToolContext& context, const nlohmann::json& arguments) {
  Args args(arguments, {"path", "token"});
  std::string path = args.required_text("path");
  std::string token = args.text("token");
  if (args.error()) return failed(*args.error());
  auto ws = open_for_edit(context);
  if (!ws) return failed(ws.error());
  return token.empty() ? delete_pending(context, **ws, path) : delete_confirmed(context, **ws, path, token);
}

}  // namespace ws::mcp::detail

// The read tool and resources/read (ws-mcp(1)): one file of the view, read
// as every tool reads one, so nothing the others refuse comes out here.
#include <algorithm>

#include "libcheck/json_output.h"
#include "libcheck/listing.h"
#include "libcheck/path_policy.h"
#include "libcheck/repository.h"
#include "libcheck/secrets.h"
#include "mcp_args.h"
#include "mcp_tools.h"
#include "printable_path.h"

namespace ws::mcp::detail {

namespace {

// The lines [start, end] of `text` (1-based), as byte offsets; `lines`
// counts a last line without its '\n' too.
struct LineRange {
  std::size_t lines = 0;
  std::size_t from = 0, to = 0;
};

LineRange line_range(const std::string& text, std::size_t start, std::optional<std::size_t> end) {
  LineRange r;
  r.lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  if (!text.empty() && text.back() != '\n') ++r.lines;
  std::size_t last = std::min(end.value_or(r.lines), r.lines);
  std::size_t line = 1, at = 0;
  for (; line < start && at < text.size(); ++line) at = text.find('\n', at) + 1;
  r.from = std::min(at, text.size());
  for (; line <= last && at < text.size(); ++line) {
    std::size_t nl = text.find('\n', at);
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  r.to = std::max(r.from, std::min(at, text.size()));
  return r;
}

// Where a text cut at `max` bytes ends: after the last whole line that
// fits, else at the last UTF-8 character boundary.
std::size_t cut_at(std::string_view text, std::size_t max) {
  if (text.size() <= max) return text.size();
  std::size_t nl = text.rfind('\n', max - 1);
  if (nl != std::string_view::npos) return nl + 1;
  std::size_t at = max;
  while (at > 0 && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
  return at;
}

Error refused(std::string message, std::string_view path, Rule rule) {
  return make_error(Errc::refused, std::move(message), std::string(path), rule);
}

}  // namespace

Result<ViewFile> read_view_file(const Workspace& ws, std::string_view path) {
  if (auto bad = check_path(path, read_policy())) return refused(bad->message(), path, to_rule(bad->rule));
  const ViewEntry* e = ws.view.find(path);
  if (!e || e->status == ChangeStatus::deleted)
    return make_error(Errc::not_found,
                      "no file '" + ws::detail::printable_path(path) + "' in the view; list the files with ls",
                      std::string(path), Rule::not_found);
  if (is_link_mode(e->mode)) return link_refusal(*e);
  const Kind* kind = ws.kinds.route(path);
  if (ws.view.is_secret(*e) || never_read(ws.view, *e, kind)) return refused(secret_bytes_refusal(path), path, Rule::secret);
  auto bytes = ws.view.read(*e);
  if (!bytes) return bytes.error();
  if (ws.view.bytes_are_secret(*e, *bytes)) return refused(secret_bytes_refusal(path), path, Rule::secret);
  ViewFile out;
  out.blob = ObjectId::from_hex(Repository::hash_blob(*bytes));
  out.text = std::move(*bytes);
  out.kind = kind ? kind->name : "";
  return out;
}

ToolOutcome run_read(ToolContext& context, const nlohmann::json& arguments) {
  Args args(arguments, {"path", "start_line", "end_line", "max_bytes"});
  std::string path = args.required_text("path");
  std::size_t start = args.count("start_line", true).value_or(1);
  std::optional<std::size_t> end = args.count("end_line", true);
  std::optional<std::size_t> asked = args.count("max_bytes", true);
  if (args.error()) return ToolOutcome{{}, *args.error()};
  if (end && *end < start)
    return ToolOutcome{{}, make_error(Errc::usage, "invalid argument 'end_line': it is before 'start_line'")};
  std::size_t max_bytes = asked ? std::min(*asked, context.caps.bytes) : context.caps.bytes;
  auto ws = open_for_tool(context, false, false);
  if (!ws) return ToolOutcome{{}, ws.error()};
  auto file = read_view_file(*ws, path);
  if (!file) return ToolOutcome{{}, file.error()};
  LineRange r = line_range(file->text, start, end);
  if (start > std::max<std::size_t>(r.lines, 1))
    return ToolOutcome{{}, make_error(Errc::usage, "invalid argument 'start_line': '" + ws::detail::printable_path(path) +
                                                       "' has " + std::to_string(r.lines) + " lines")};
  std::string_view picked = std::string_view(file->text).substr(r.from, r.to - r.from);
  std::size_t kept = cut_at(picked, max_bytes);
  std::string_view shown = picked.substr(0, kept);
  std::size_t shown_lines = static_cast<std::size_t>(std::count(shown.begin(), shown.end(), '\n'));
  if (!shown.empty() && shown.back() != '\n') ++shown_lines;
  std::size_t picked_lines = static_cast<std::size_t>(std::count(picked.begin(), picked.end(), '\n'));
  if (!picked.empty() && picked.back() != '\n') ++picked_lines;
  Record f = json_record("file");
  f["path"] = path;
  f["kind"] = file->kind.empty() ? Record() : Record(file->kind);
  f["blob"] = file->blob.hex();
  f["size"] = file->text.size();
  f["lines"] = r.lines;
  f["start_line"] = start;
  f["end_line"] = start + shown_lines - (shown_lines > 0 ? 1 : 0);
  f["text"] = std::string(shown);
  ToolOutcome out{{as_record(std::move(f))}, std::nullopt};
  if (kept < picked.size()) {
    Record t = json_record("Read-Truncated");
    t["omitted_bytes"] = picked.size() - kept;
    // Lines not shown whole: a line cut inside (no '\n' fits) counts.
    t["omitted_lines"] = picked_lines - static_cast<std::size_t>(std::count(shown.begin(), shown.end(), '\n'));
    t["max_bytes"] = max_bytes;
    out.records.push_back(as_record(std::move(t)));
  }
  return out;
}

}  // namespace ws::mcp::detail

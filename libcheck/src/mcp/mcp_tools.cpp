// The tools that look (ws-mcp(1), TOOLS): ls, grep, read and build answer
// with the records of ws-ls, ws-grep and ws-build --json; commit stages the
// session's proposal as ws-commit does.
#include <algorithm>
#include <sstream>

#include "libcheck/compile.h"
#include "libcheck/grep.h"
#include "libcheck/json_output.h"
#include "libcheck/listing.h"
#include "libcheck/path_policy.h"
#include "libcheck/proposal.h"
#include "libcheck/proposal_json.h"
#include "libcheck/render.h"
#include "libcheck/repository.h"
#include "libcheck/secrets.h"
#include "mcp_args.h"
#include "mcp_tools.h"

namespace ws::mcp::detail {

namespace {

ToolOutcome failed(Error e) { return ToolOutcome{{}, std::move(e)}; }

// A call's cap: what it asks for, never past the server's.
std::size_t capped(std::optional<std::size_t> asked, std::size_t server) {
  return asked ? std::min(*asked, server) : server;
}

std::vector<Record> records_of_output(const std::string& lines) {
  std::vector<Record> out;
  for (std::size_t i = 0; i < lines.size();) {
    std::size_t nl = std::min(lines.find('\n', i), lines.size());
    if (nl > i) out.push_back(record_of_line(std::string_view(lines).substr(i, nl - i)));
    i = nl + 1;
  }
  return out;
}

std::optional<SyntaxClass> class_named(const std::string& name) {
  for (SyntaxClass c : {SyntaxClass::code, SyntaxClass::comment, SyntaxClass::string, SyntaxClass::key,
                        SyntaxClass::value})
    if (name == syntax_class_name(c)) return c;
  return std::nullopt;
}

// The search grep's arguments ask for; an error for a wrong one.
std::optional<Error> grep_options(Args& args, GrepOptions& g, const Caps& caps) {
  g.patterns = args.texts("patterns");
  g.fixed_strings = args.flag("fixed_strings");
  g.ignore_case = args.flag("ignore_case");
  g.word = args.flag("word");
  g.invert = args.flag("invert");
  g.kinds = args.texts("kinds");
  std::vector<std::string> in = args.texts("in");
  g.ref = args.texts("ref");
  g.defines = args.texts("defines");
  std::vector<std::string> paths = args.texts("paths");
  std::optional<std::size_t> context = args.count("context");
  std::optional<std::size_t> max = args.count("max");
  if (args.error()) return args.error();
  for (const std::string& name : in) {
    auto c = class_named(name);
    if (!c) return make_error(Errc::usage, "invalid argument 'in': unknown syntax class '" + name +
                                               "'; the classes are code, comment, string, key and value");
    g.in.push_back(*c);
  }
  auto specs = parse_pathspecs(paths);
  if (!specs) return specs.error();
  g.pathspecs = std::move(*specs);
  g.before = g.after = context.value_or(0);
  g.max = capped(max, caps.records);
  g.json = true;
  return std::nullopt;
}

// What ws-ls and ws-grep say on standard error, as a record: a file left
// out (a link, a hard-linked or secret file, one that could not be read),
// so an answer without it never reads as whole.
Record refused_record(const Error& e) {
  Record r = json_record("refused");
  r["path"] = e.subject;
  r["rule"] = rule_name(e.rule);
  r["message"] = e.message;
  return as_record(std::move(r));
}

}  // namespace

Record as_record(Record record) { return Record::parse(json_text(std::move(record))); }

Record record_of_line(std::string_view line) { return Record::parse(line); }

void cap_bytes(std::vector<Record>& records, std::size_t max_bytes, const char* truncated_type, bool keep_last) {
  std::size_t end = records.size() - (keep_last && !records.empty() ? 1 : 0);
  if (end > 0 && records[end - 1].value("type", "") == truncated_type) --end;  // the count cap's record
  // Each record's size as one line of JSON, measured once.
  std::vector<std::size_t> size(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) size[i] = records[i].dump().size() + 1;
  // Room kept for what always stays: the last record, the truncation's.
  std::size_t reserve = 200;
  for (std::size_t i = end; i < records.size(); ++i) reserve += size[i];
  std::size_t used = 0, kept = 0;
  while (kept < end && used + size[kept] + reserve <= max_bytes) used += size[kept++];
  if (kept == end) return;
  std::size_t dropped = end - kept;
  std::vector<Record> tail(records.begin() + static_cast<std::ptrdiff_t>(end), records.end());
  records.resize(kept);
  auto counted = std::find_if(tail.begin(), tail.end(), [&](const Record& r) { return r.value("type", "") == truncated_type; });
  if (counted == tail.end()) {
    Record t = json_record(truncated_type);
    t["omitted"] = 0;
    counted = tail.insert(tail.begin(), std::move(t));
  }
  (*counted)["omitted"] = (*counted)["omitted"].get<std::size_t>() + dropped;
  (*counted)["max_bytes"] = max_bytes;
  for (Record& r : tail) records.push_back(std::move(r));
}

Result<Workspace> open_for_tool(const ToolContext& context, bool changes_only, bool for_build) {
  OpenOptions oo = context.open;
  oo.view.changes_only = changes_only;
  oo.prefetch_cache = for_build;
  oo.view.watch = context.watch;
  return open_workspace(oo);
}

Result<const Workspace*> open_for_edit(ToolContext& context) {
  OpenOptions oo = context.open;
  oo.view.source = ViewSource::staged;
  oo.view.changes_only = true;
  if (context.edit) {
    auto now = staged_sources(*context.edit->workspace.repo, oo);
    if (now && *now == context.edit->sources) return &context.edit->workspace;
    context.edit.reset();
  }
  auto repo = Repository::open(oo.dir);
  if (!repo) return repo.error();
  auto shared = std::make_shared<Repository>(std::move(repo).value());
  // Taken before the open: a change during it makes the next call open again.
  auto sources = staged_sources(*shared, oo);
  if (!sources) return sources.error();
  auto ws = open_workspace(oo, shared);
  if (!ws) return ws.error();
  context.edit.emplace(EditWorkspace{std::move(sources).value(), std::move(ws).value()});
  return &context.edit->workspace;
}

ToolOutcome run_ls(ToolContext& context, const nlohmann::json& arguments) {
  Args args(arguments, {"kinds", "changed", "paths", "max"});
  ListOptions lo;
  lo.kinds = args.texts("kinds");
  lo.changed_only = args.flag("changed");
  std::vector<std::string> paths = args.texts("paths");
  std::optional<std::size_t> max = args.count("max");
  if (args.error()) return failed(*args.error());
  auto specs = parse_pathspecs(paths);
  if (!specs) return failed(specs.error());
  lo.pathspecs = std::move(*specs);
  lo.want_names = true;
  lo.max = capped(max, context.caps.records);
  auto ws = open_for_tool(context, false, false);
  if (!ws) return failed(ws.error());
  auto listing = list_view(*ws, lo);
  if (!listing) return failed(listing.error());
  if (!listing->unmatched_pathspecs.empty())
    return failed(unmatched_pathspec(lo.pathspecs[listing->unmatched_pathspecs.front()]));
  ToolOutcome out;
  for (const ListedEntry& e : listing->entries) out.records.push_back(as_record(listed_entry_json(e)));
  for (const Error& e : listing->refused) out.records.push_back(refused_record(e));
  if (listing->omitted) out.records.push_back(as_record(listing_truncated_json(listing->omitted, *lo.max)));
  cap_bytes(out.records, context.caps.bytes, "Listing-Truncated", false);
  return out;
}

ToolOutcome run_grep(ToolContext& context, const nlohmann::json& arguments) {
  Args args(arguments, {"patterns", "fixed_strings", "ignore_case", "word", "invert", "kinds", "in", "ref",
                        "defines", "paths", "context", "max"});
  GrepOptions g;
  if (auto bad = grep_options(args, g, context.caps)) return failed(*bad);
  OpenOptions oo = context.open;
  // --ref answers unchanged files from the base's index: statuses needed.
  oo.view.statuses = !g.ref.empty();
  auto ws = open_workspace(oo);
  if (!ws) return failed(ws.error());
  std::unique_ptr<KnownDefinitions> known;
  if (!g.ref.empty()) known = saved_base_definitions(*ws);
  g.known = known.get();
  g.config = &ws->config;
  g.names = &context.names;
  std::ostringstream text;
  auto summary = grep_view(ws->view, ws->kinds, g, text);
  if (!summary) return failed(summary.error());
  // A search that found nothing and could not read a file or match a
  // pathspec says why, as ws-grep does on its standard error.
  if (summary->results == 0 && !summary->errors.empty()) return failed(summary->errors.front());
  ToolOutcome out{records_of_output(text.str()), std::nullopt};
  // After the matches, before the truncation record and the summary.
  std::vector<Record> refused;
  for (const Error& e : summary->errors) refused.push_back(refused_record(e));
  auto tail = std::find_if(out.records.begin(), out.records.end(), [](const Record& r) {
    return r.value("type", "") == "Grep-Truncated" || r.value("type", "") == "summary";
  });
  out.records.insert(tail, refused.begin(), refused.end());
  cap_bytes(out.records, context.caps.bytes, "Grep-Truncated", true);
  return out;
}

ToolOutcome run_build(ToolContext& context, const nlohmann::json& arguments) {
  Args args(arguments, {"all", "max"});
  bool all = args.flag("all");
  std::size_t max = capped(args.count("max"), context.caps.records);
  if (args.error()) return failed(*args.error());
  auto ws = open_for_tool(context, !all, true);
  if (!ws) return failed(ws.error());
  BuildOptions bo;
  bo.all = all;
  auto result = build(*ws, bo);
  if (!result) return failed(result.error());
  RenderOptions ro;
  ro.tool_version = tool_version();
  std::ostringstream text;
  auto consumer = make_consumer(OutputFormat::json, text, ro);
  consumer->begin();
  for (std::size_t i = 0; i < result->diagnostics.size() && i < max; ++i) consumer->diagnostic(result->diagnostics[i]);
  consumer->end(result->summary);
  ToolOutcome out{records_of_output(text.str()), std::nullopt};
  if (result->diagnostics.size() > max) {
    Record t = json_record("Build-Truncated");
    t["omitted"] = result->diagnostics.size() - max;
    t["max"] = max;
    out.records.insert(out.records.end() - 1, std::move(t));
  }
  cap_bytes(out.records, context.caps.bytes, "Build-Truncated", true);
  return out;
}

ToolOutcome run_commit(ToolContext& context, const nlohmann::json& arguments) {
  Args args(arguments, {"message"});
  std::string message = args.required_text("message");
  if (args.error()) return failed(*args.error());
  if (message.empty()) return failed(make_error(Errc::usage, "a proposal needs a message: pass 'message'"));
  OpenOptions oo = context.open;
  oo.view.changes_only = true;
  oo.prefetch_cache = true;
  // Staged on top of an apply that did not finish, the index would carry its reverse.
  oo.interrupted_apply = InterruptedApply::refuse;
  auto ws = open_workspace(oo);
  if (!ws) return failed(ws.error());
  auto built = build(*ws, BuildOptions{});
  if (!built) return failed(built.error());
  if (built->summary.errors > 0)
    return failed(make_error(Errc::refused, "refused: the changeset does not build (" + summary_line(built->summary) +
                                                "); no proposal was written; run build to see the errors"));
  auto staged = stage_proposal(*ws, message);
  if (!staged) return failed(staged.error());
  return ToolOutcome{{as_record(staged_json(*staged))}, std::nullopt};
}

}  // namespace ws::mcp::detail

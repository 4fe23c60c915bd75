// The compile on memory: views without git, the default kind pack, and the
// exact diagnostics (path, line, column, code, message, notes).
#include <catch2/catch.hpp>

#include <filesystem>
#include <mutex>
#include <set>

#include "definition_cache.h"
#include "libcheck/compile.h"
#include "support/memory_content.h"
#include "support/temp_repo.h"

using namespace ws;
using wstest::MemoryFile;

namespace {

constexpr auto A = ChangeStatus::added;
constexpr auto M = ChangeStatus::modified;
constexpr auto D = ChangeStatus::deleted;
constexpr auto U = ChangeStatus::unchanged;

const KindPack& pack() { return wstest::default_kind_pack(); }

std::string agent(const std::string& name, const std::string& extra = "") {
  return "{\n  \"name\": \"" + name + "\"" + extra + "\n}\n";
}
std::string tool(const std::string& name, const std::string& body) {
  return "// name: " + name + "\n" + body + "\n";
}
std::string endpoint(const std::string& name, const std::string& body) {
  return "// name: " + name + "\n// route: /x\n// method: GET\n" + body + "\n";
}
const std::string kTicket =
    "{\n  \"name\": \"Ticket\",\n  \"fields\": [\n    { \"name\": \"Title\", \"type\": \"string\" },\n"
    "    { \"name\": \"Status\", \"type\": \"string\" }\n  ]\n}\n";
const std::string kTicketNoStatus =
    "{\n  \"name\": \"Ticket\",\n  \"fields\": [\n    { \"name\": \"Title\", \"type\": \"string\" }\n  ]\n}\n";

// Content that records what was read and refuses some paths with a rule, to
// stand for the working tree's refusals.
class ProbeContent final : public ContentSource {
 public:
  explicit ProbeContent(std::shared_ptr<const ContentSource> inner) : inner_(std::move(inner)) {}
  std::map<std::string, Rule> refuse;  // path -> rule
  Result<std::string> read(const ViewEntry& e) const override {
    {
      std::lock_guard lock(mu_);
      read_paths_.insert(e.path);
    }
    auto it = refuse.find(e.path);
    if (it != refuse.end())
      return make_error(Errc::refused, "refused to read '" + e.path + "': " + rule_name(it->second), e.path,
                        it->second);
    return inner_->read(e);
  }
  Result<std::string> read_blob(const std::string& id) const override { return inner_->read_blob(id); }
  std::optional<std::uint64_t> size_of(const ViewEntry& e) const override { return inner_->size_of(e); }
  std::set<std::string> read_paths() const {
    std::lock_guard lock(mu_);
    return read_paths_;
  }

 private:
  std::shared_ptr<const ContentSource> inner_;
  mutable std::mutex mu_;
  mutable std::set<std::string> read_paths_;
};

struct Run {
  BuildResult result;
  std::vector<std::string> lines;  // "path:line:col: WS0nn message" + "  note ..." lines
};

std::vector<std::string> brief(const std::vector<Diagnostic>& diags) {
  std::vector<std::string> out;
  for (const auto& d : diags) {
    std::string where = d.has_span ? d.path + ":" + std::to_string(d.span.start.line) + ":" +
                                         std::to_string(d.span.start.column)
                                   : d.path;
    out.push_back(where + ": " + diag_info(d.code).id + " " + severity_name(d.severity) + ": " + d.message);
    for (const auto& n : d.notes) {
      std::string nw = n.path.empty() ? "" : n.has_span ? n.path + ":" + std::to_string(n.span.start.line) + ":" +
                                                              std::to_string(n.span.start.column) + ": "
                                                        : n.path + ": ";
      out.push_back("  " + nw + "note: " + n.message);
    }
  }
  return out;
}

Run compile(const View& view, const BuildOptions& options = {}, DefinitionCache* cache = nullptr,
            const WorkspaceConfig& config = {}) {
  auto r = compile_view(view, pack(), config, options, cache);
  REQUIRE(r.ok());
  Run run{std::move(r).value(), {}};
  run.lines = brief(run.result.diagnostics);
  return run;
}

Run compile(const std::vector<MemoryFile>& files, const BuildOptions& options = {}) {
  return compile(wstest::memory_view(files), options);
}

// A view where `from` was renamed to `to` with the same bytes.
View with_rename(const std::vector<MemoryFile>& files, const std::string& from, const std::string& to,
                 const std::string& bytes) {
  std::shared_ptr<wstest::MemoryContent> content;
  View v = wstest::memory_view(files, &content);
  std::vector<ViewEntry> entries = v.entries();
  ViewEntry e;
  e.path = to;
  e.old_path = from;
  e.status = ChangeStatus::renamed;
  e.blob_id = e.base_blob_id = ws::ObjectId::from_hex(Repository::hash_blob(bytes));
  content->put(bytes);
  entries.push_back(e);
  return View(std::move(entries), v.content_ptr(), "");
}

}  // namespace

TEST_CASE("compile: an agent and a tool referencing it, added together, are clean", "[compile]") {
  auto run = compile({{"agents/a.json", A, agent("Helper")},
                      {"ai-tools/t.cs", A, tool("Ask", "return await Agents.Helper.Run(args);")}});
  CHECK(run.lines == std::vector<std::string>{});
  CHECK(run.result.summary.files_changed == 2);
  CHECK(run.result.summary.files_checked == 2);
  CHECK(run.result.summary.errors == 0);
}

TEST_CASE("compile: unresolved references name the symbol and suggest the closest name", "[compile]") {
  auto run = compile({{"agents/billing.json", U, agent("Billing")},
                      {"agents/triage.json", U, agent("Triage")},
                      {"agents/new.json", A, agent("Router", ",\n  \"handoffs\": [\"Billin\", \"Zzz\"]")},
                      {"ai-tools/t.cs", A, tool("Ask", "return await Agents.Triag.Run(args);")}});
  CHECK(run.lines == std::vector<std::string>{
                         "agents/new.json:3:17: WS010 error: unresolved reference to agent 'Billin'",
                         "  note: did you mean 'Billing'?",
                         "agents/new.json:3:27: WS010 error: unresolved reference to agent 'Zzz'",
                         "ai-tools/t.cs:2:14: WS010 error: unresolved reference 'Agents.Triag'",
                         "  note: did you mean 'Triage'?",
                     });
  CHECK(run.result.summary.errors == 3);
  CHECK(run.result.summary.files_with_errors == 2);
}

TEST_CASE("compile: an unknown node type field is WS011 with a suggestion, Type always exists", "[compile]") {
  auto run = compile({{"node-types/t.json", U, kTicket},
                      {"ai-tools/t.cs", A, tool("Ask", "var a = N.Ticket.Stauts; var b = N.Ticket.Type;")},
                      {"indexes/i.json", A, "{\n  \"name\": \"Open\",\n  \"node\": \"Ticket\",\n  \"fields\": [\"Titel\"]\n}\n"}});
  CHECK(run.lines == std::vector<std::string>{
                         "ai-tools/t.cs:2:9: WS011 error: node type 'Ticket' has no field 'Stauts'",
                         "  note: did you mean 'Status'?",
                         "indexes/i.json:4:15: WS011 error: node type 'Ticket' has no field 'Titel'",
                         "  note: did you mean 'Title'?",
                     });
}

TEST_CASE("compile: an index on a missing node type is reported once, at /node", "[compile]") {
  auto run = compile({{"indexes/i.json", A,
                       "{\n  \"name\": \"Open\",\n  \"node\": \"Nope\",\n  \"fields\": [\"A\", \"B\"]\n}\n"}});
  CHECK(run.lines == std::vector<std::string>{
                         "indexes/i.json:3:12: WS010 error: unresolved reference to node type 'Nope'"});
}

TEST_CASE("compile: a deleted agent breaks unchanged references, reported where they are", "[compile]") {
  auto run = compile({{"agents/triage.json", D, "", agent("Triage")},
                      {"endpoints/e.cs", U, endpoint("Go", "return Agents.Triage.Run();")},
                      {"access/grants/g.json", U, "{\n  \"name\": \"g\",\n  \"group\": \"Staff\",\n  \"agents\": [\"Triage\"]\n}\n"},
                      {"access/groups/s.json", U, agent("Staff")}});
  CHECK(run.lines == std::vector<std::string>{
                         "access/grants/g.json:4:15: WS013 error: unresolved reference to agent 'Triage'",
                         "  agents/triage.json: note: 'Triage' was deleted with agents/triage.json",
                         "endpoints/e.cs:4:8: WS013 error: unresolved reference 'Agents.Triage'",
                         "  agents/triage.json: note: 'Triage' was deleted with agents/triage.json",
                     });
  CHECK(run.result.summary.files_changed == 1);
  CHECK(run.result.summary.files_checked == 0);
}

TEST_CASE("compile: a rename by editing the name is reported with the new name's place", "[compile]") {
  std::vector<MemoryFile> files{{"agents/triage.json", M, agent("Intake"), agent("Triage")},
                                {"ai-tools/t.cs", U, tool("Ask", "return Agents.Triage.Run();")}};
  auto run = compile(files);
  CHECK(run.lines == std::vector<std::string>{
                         "ai-tools/t.cs:2:8: WS013 error: unresolved reference 'Agents.Triage'",
                         "  agents/triage.json:2:12: note: 'Triage' was renamed to 'Intake' in agents/triage.json",
                     });
  // A changed file still using the old name is an unresolved reference,
  // with the same note rather than a guess.
  files[1] = {"ai-tools/t.cs", M, tool("Ask", "return Agents.Triage.Go();"), tool("Ask", "return Agents.Triage.Run();")};
  CHECK(compile(files).lines == std::vector<std::string>{
                                    "ai-tools/t.cs:2:8: WS010 error: unresolved reference 'Agents.Triage'",
                                    "  agents/triage.json:2:12: note: 'Triage' was renamed to 'Intake' in agents/triage.json",
                                });
  // Fixing the reference in the same changeset makes it clean.
  files[1] = {"ai-tools/t.cs", M, tool("Ask", "return Agents.Intake.Run();"), tool("Ask", "return Agents.Triage.Run();")};
  CHECK(compile(files).lines == std::vector<std::string>{});
}

TEST_CASE("compile: a name deleted in one file and added in another is not broken", "[compile]") {
  auto run = compile({{"agents/a.json", D, "", agent("Triage")},
                      {"agents/b.json", A, agent("Triage")},
                      {"ai-tools/t.cs", U, tool("Ask", "return Agents.Triage.Run();")}});
  CHECK(run.lines == std::vector<std::string>{});
}

TEST_CASE("compile: a file moved to another name keeps its symbol", "[compile]") {
  std::string bytes = agent("Triage");
  View v = with_rename({{"ai-tools/t.cs", U, tool("Ask", "return Agents.Triage.Run();")}}, "agents/a.json",
                       "agents/b.json", bytes);
  auto run = compile(v);
  CHECK(run.lines == std::vector<std::string>{});
  CHECK(run.result.summary.files_changed == 1);
}

TEST_CASE("compile: a removed field breaks unchanged code and unchanged index fields", "[compile]") {
  auto run = compile({{"node-types/t.json", M, kTicketNoStatus, kTicket},
                      {"ai-tools/t.cs", U, tool("Ask", "x.Set(N.Ticket.Status, 1);\nreturn N.Ticket.Title;")},
                      {"indexes/i.json", U,
                       "{\n  \"name\": \"Open\",\n  \"node\": \"Ticket\",\n  \"fields\": [\"Title\", \"Status\"]\n}\n"}});
  CHECK(run.lines ==
        std::vector<std::string>{
            "ai-tools/t.cs:2:7: WS013 error: node type 'Ticket' has no field 'Status'",
            "  node-types/t.json:2:12: note: field 'Status' was removed from node type 'Ticket' in node-types/t.json",
            "indexes/i.json:4:24: WS013 error: node type 'Ticket' has no field 'Status'",
            "  node-types/t.json:2:12: note: field 'Status' was removed from node type 'Ticket' in node-types/t.json",
        });
}

TEST_CASE("compile: duplicate names are reported at both places", "[compile]") {
  auto run = compile({{"agents/a.json", U, agent("Triage")}, {"agents/b.json", A, agent("Triage")}});
  CHECK(run.lines == std::vector<std::string>{
                         "agents/a.json:2:12: WS009 error: duplicate agent name 'Triage'",
                         "  agents/b.json:2:12: note: 'Triage' is also defined here",
                         "agents/b.json:2:12: WS009 error: duplicate agent name 'Triage'",
                         "  agents/a.json:2:12: note: 'Triage' is also defined here",
                     });
  // Duplicates the changeset did not touch are the base's, reported by --all only.
  auto base_only = compile({{"agents/a.json", U, agent("Triage")}, {"agents/b.json", U, agent("Triage")},
                            {"agents/c.json", A, agent("Other")}});
  CHECK(base_only.lines.empty());
  BuildOptions all;
  all.all = true;
  CHECK(compile({{"agents/a.json", U, agent("Triage")}, {"agents/b.json", U, agent("Triage")}}, all).lines.size() == 4);
}

TEST_CASE("compile: per-file diagnostics of the readers come through", "[compile]") {
  auto run = compile({{"agents/a.json", A, "{\n  \"name\": \"A\",\n  \"toosl\": []\n}\n"},
                      {"agents/b.json", A, "{\n  \"name\": \"B\",\n"},
                      {"agents/c.json", A, agent("class")}});
  REQUIRE(run.result.diagnostics.size() >= 3);
  std::set<std::string> codes;
  for (const auto& d : run.result.diagnostics) codes.insert(std::string(diag_info(d.code).id) + " " + d.path);
  CHECK(codes.count("WS006 agents/a.json"));
  CHECK(codes.count("WS001 agents/b.json"));
  CHECK(codes.count("WS008 agents/c.json"));
}

TEST_CASE("compile: unrouted changed files follow the workspace's policy, config files are exempt", "[compile]") {
  auto view = wstest::memory_view({{"notes/todo.txt", A, "x"},
                                   {"agents/readme.md", A, "x"},
                                   {".ws/config.json", A, "{}"},
                                   {".gitignore", A, "x"},
                                   {"README.md", A, "x"},
                                   {".vscode/settings.json", A, "x"},
                                   {"docs/guide.md", A, "x"},
                                   {"agents/.gitignore", A, "x"},
                                   {"old/unrouted.txt", U, "x"}});
  // A misfit in a kind's folder is an error whatever the policy says; a
  // file in an unknown folder a warning by default; root-level files,
  // dot-folders and docs/ are no definitions and never reported.
  const std::string misfit = "agents/readme.md: WS005 error: file does not fit kind 'agent': its files are agents/*.json";
  auto run = compile(view);
  CHECK(run.lines == std::vector<std::string>{
                         misfit,
                         "notes/todo.txt: WS005 warning: file is in no kind's folder, so nothing reads it",
                     });
  WorkspaceConfig error;
  error.unrouted = UnroutedPolicy::error;
  CHECK(compile(view, {}, nullptr, error).lines ==
        std::vector<std::string>{misfit, "notes/todo.txt: WS005 error: file is in no kind's folder, so nothing reads it"});
  WorkspaceConfig ignore;
  ignore.unrouted = UnroutedPolicy::ignore;
  CHECK(compile(view, {}, nullptr, ignore).lines == std::vector<std::string>{misfit});
  WorkspaceConfig globs;
  globs.unrouted = UnroutedPolicy::error;
  for (const char* g : {"agents/*.md", "notes/"}) globs.ignore.push_back(*parse_ignore_glob(g));
  CHECK(compile(view, {}, nullptr, globs).lines.empty());
  BuildOptions all;
  all.all = true;
  CHECK(compile(view, all).lines.size() == 3);  // --all: the unchanged one too
}

TEST_CASE("compile: secrets resolve by file name and are never read", "[compile]") {
  View base = wstest::memory_view({{".secrets/ApiKey", A, "canary-7f3a9c"},
                                   {"endpoints/e.cs", A, endpoint("Go", "return Secrets.ApiKey.Length + Secrets.Nope.Length;")}});
  auto probe = std::make_shared<ProbeContent>(base.content_ptr());
  View view(base.entries(), probe, "");
  auto run = compile(view);
  CHECK(run.lines == std::vector<std::string>{"endpoints/e.cs:4:32: WS010 error: unresolved reference 'Secrets.Nope'"});
  CHECK(probe->read_paths() == std::set<std::string>{"endpoints/e.cs"});
  for (const auto& d : run.result.diagnostics) CHECK(d.message.find("canary") == std::string::npos);
}

TEST_CASE("compile: refused reads map to WS003, WS017 and WS004", "[compile]") {
  View base = wstest::memory_view({{"agents/big.json", A, agent("Big")},
                                   {"agents/link.json", A, agent("Link")},
                                   {"agents/fifo.json", A, agent("Fifo")},
                                   {"agents/ok.json", A, agent("Ok")}});
  auto probe = std::make_shared<ProbeContent>(base.content_ptr());
  probe->refuse = {{"agents/big.json", Rule::too_large},
                   {"agents/link.json", Rule::symlink},
                   {"agents/fifo.json", Rule::special_file}};
  auto run = compile(View(base.entries(), probe, ""));
  CHECK(run.lines == std::vector<std::string>{
                         "agents/big.json: WS003 error: refused to read 'agents/big.json': too-large",
                         "agents/fifo.json: WS017 error: refused to read 'agents/fifo.json': special-file",
                         "agents/link.json: WS017 error: refused to read 'agents/link.json': symlink",
                     });
  // Anything else (I/O trouble) fails the build rather than pass for a finding.
  probe->refuse = {{"agents/ok.json", Rule::io}};
  auto failed = compile_view(View(base.entries(), probe, ""), pack(), {}, {}, nullptr);
  REQUIRE_FALSE(failed.ok());
}

TEST_CASE("compile: changed paths pass the write policy, protected paths are refused", "[compile]") {
  WorkspaceConfig config;
  config.protected_paths = {"access/"};
  auto run = compile(wstest::memory_view({{"access/groups/g.json", A, agent("Staff")},
                                          {".secrets/Key", A, "x"}}),
                     {}, nullptr, config);
  REQUIRE(run.lines.size() == 1);
  CHECK(run.lines[0].rfind("access/groups/g.json: WS004 error: refused path 'access/groups/g.json': protected", 0) == 0);
  // A protected file the changeset does not touch is fine, even in an audit,
  // and a refused change is still read: its name stays in the overlay.
  BuildOptions all;
  all.all = true;
  config.protected_paths = {"access/groups/"};
  auto audit = compile(wstest::memory_view({{"access/groups/g.json", U, agent("Staff")},
                                            {"access/grants/t.json", A, "{\n  \"name\": \"t\",\n  \"group\": \"Staff\"\n}\n"}}),
                       all, nullptr, config);
  CHECK(audit.lines.empty());
  auto changed = compile(wstest::memory_view({{"access/groups/g.json", M, agent("Staff"), agent("Staff2")},
                                              {"tasks/x.json", U, "{}"}}),
                         {}, nullptr, config);
  REQUIRE(changed.lines.size() == 1);
  CHECK(changed.lines[0].find("WS004") != std::string::npos);
}

TEST_CASE("compile: pathspecs limit the changes compiled, not the overlay", "[compile]") {
  std::vector<MemoryFile> files{{"agents/a.json", A, agent("Helper", ",\n  \"handoffs\": [\"Nope\"]")},
                                {"ai-tools/t.cs", A, tool("Ask", "return Agents.Helper.Missing();")},
                                {"ai-tools/u.cs", A, tool("Other", "return Agents.Nope;")}};
  BuildOptions o;
  o.pathspecs = {*parse_pathspec("ai-tools/t.cs")};
  auto run = compile(files, o);
  CHECK(run.lines.empty());  // Agents.Helper resolves against the whole overlay
  CHECK(run.result.summary.files_changed == 1);
  o.pathspecs = {*parse_pathspec("ai-tools")};
  CHECK(compile(files, o).lines == std::vector<std::string>{"ai-tools/u.cs:2:8: WS010 error: unresolved reference 'Agents.Nope'"});
}

TEST_CASE("compile: with a cache, unchanged definitions are parsed once", "[compile]") {
  std::vector<MemoryFile> files{{"agents/a.json", U, agent("A", ",\n  \"toosl\": []")},
                                {"agents/b.json", U, agent("B")},
                                {"ai-tools/t.cs", M, tool("T", "return Agents.A;"), tool("T", "return 1;")}};
  View view = wstest::memory_view(files);
  DefinitionCache cache(tool_version(), pack().digest());
  auto cold = compile(view, {}, &cache);
  CHECK(cold.result.stats.parsed == 4);  // two unchanged, the changed file and its base
  CHECK(cold.result.stats.cache_misses == 4);  // the changed file is looked up too
  CHECK(cold.result.stats.cache_hits == 0);
  auto warm = compile(view, {}, &cache);
  CHECK(warm.result.stats.parsed == 0);  // the changed file too: its bytes were parsed once
  CHECK(warm.result.stats.cache_hits == 4);
  CHECK(warm.lines == cold.lines);
  // --all takes the unchanged files' own diagnostics from the cache, identical to a parse.
  BuildOptions all;
  all.all = true;
  auto cached_all = compile(view, all, &cache);
  CHECK(cached_all.result.stats.parsed == 0);
  CHECK(cached_all.lines == compile(view, all).lines);
  CHECK(cached_all.result.summary.errors == 1);
  CHECK(cached_all.result.summary.files_checked == 3);
}

TEST_CASE("compile: a workspace large enough to scan on all cores reports as one thread would", "[compile]") {
  // Over the size from which the unchanged definitions are scanned in parts:
  // referrers of the deleted agent sit at the start, the end and both sides
  // of every split, and are reported once each, in path order.
  std::vector<MemoryFile> files{{"agents/AGzz-gone.json", D, "", agent("Gone")}};
  const int n = 20500;
  std::vector<std::string> want;
  for (int i = 0; i < n; ++i) {
    char id[16];
    std::snprintf(id, sizeof id, "%06d", i);
    bool refers = i == 0 || i == n - 1 || i % 2562 == 0 || i % 2562 == 2561 || i % 5125 == 0 || i % 5125 == 5124;
    std::string body = refers ? "{\n  \"name\": \"A" + std::string(id) + "\",\n  \"handoffs\": [\"Gone\"]\n}\n"
                              : agent("A" + std::string(id));
    files.push_back({"agents/AG" + std::string(id) + ".json", U, body});
    if (refers) {
      want.push_back("agents/AG" + std::string(id) + ".json:3:17: WS013 error: unresolved reference to agent 'Gone'");
      want.push_back("  agents/AGzz-gone.json: note: 'Gone' was deleted with agents/AGzz-gone.json");
    }
  }
  auto run = compile(files);
  CHECK(run.lines == want);
  CHECK(run.result.summary.errors == want.size() / 2);
}

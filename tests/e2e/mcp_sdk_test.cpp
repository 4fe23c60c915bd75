// ws mcp with the official MCP client: @modelcontextprotocol/sdk, pinned in
// tests/mcp/package-lock.json and installed at configure time into
// WS_MCP_CLIENT_DIR with the scripts of tests/mcp, runs on Node against the
// example workspace (docs/mcp.md). The SDK checks every tool's
// structuredContent against the tool's outputSchema, so a record the schema
// refuses fails the script. What the agents leave must be what ws-apply
// lists and what is on disk.
#include <catch2/catch.hpp>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/temp_repo.h"

using wstest::TempRepo;

namespace {

// Runs the client script `script` against `ws mcp` started in `repo`.
wstest::RunResult run_client(const std::string& script, const TempRepo& repo) {
  wstest::RunOptions o = wstest::ws_options(repo.path());
  o.timeout_seconds = 60;
  return wstest::run({"node", std::string(WS_MCP_CLIENT_DIR) + "/" + script, wstest::tool("ws"), repo.path()}, o);
}

// The proposals `ws-apply --list --json` (with `extra`) lists in `repo`,
// one "session state subject" a line, sorted.
std::string listed(const TempRepo& repo, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"--list", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = wstest::ws("ws-apply", args, repo.path());
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::string out;
  for (const auto& line : wstest::lines(r.out)) {
    auto p = nlohmann::json::parse(line);
    out += p.at("session").get<std::string>() + " " + p.at("state").get<std::string>() + " " +
           p.at("subject").get<std::string>() + "\n";
  }
  return wstest::sorted_lines(out);
}

// The files `ws-apply --show ID --json` gives for the one proposal listed:
// "status path" a line.
std::string proposal_files(const TempRepo& repo) {
  auto list = wstest::ws("ws-apply", {"--list", "--json"}, repo.path());
  REQUIRE(list.status == 0);
  auto ls = wstest::lines(list.out);
  REQUIRE(ls.size() == 1);
  auto id = nlohmann::json::parse(ls[0]).at("id").get<std::string>();
  auto show = wstest::ws("ws-apply", {"--show", id, "--json"}, repo.path());
  INFO(show.err);
  REQUIRE(show.status == 0);
  std::string out;
  // Named: a range-for over a member of a temporary would outlive it.
  const auto shown = nlohmann::json::parse(wstest::lines(show.out).at(0));
  for (const auto& f : shown.at("files"))
    out += f.at("status").get<std::string>() + " " + f.at("path").get<std::string>() + "\n";
  return out;
}

}  // namespace

TEST_CASE("the official MCP client runs an agent's loop through ws mcp", "[mcp][sdk]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  auto expected = wstest::tree_bytes(repo);

  auto r = run_client("loop.mjs", repo);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK_FALSE(r.timed_out);
  CHECK(r.out ==
        "server ws\n"
        "serverInfo names the session agent-one\n"
        "instructions name the session agent-one\n"
        "tools build commit delete grep ls read write\n"
        "ls agents/AGbilling01.json agent Billing unchanged blob ok\n"
        "ls agents/AGtriage01.json agent Triage unchanged blob ok\n"
        "grep access/grants/GTsupport01.json:5:25 access-grant support-can-triage Billing\n"
        "grep agents/AGtriage01.json:8:17 agent Triage Billing\n"
        "grep ai-tools/TLroute01.cs:8:18 ai-tool RouteTicket Agents.Billing\n"
        "grep summary: 3 results in 3 files\n"
        "read ai-tools/TLroute01.cs: 10 lines, blob ok, first line // name: RouteTicket\n"
        "write ai-tools/TLroute01.cs over another file's blob: refused to write 'ai-tools/TLroute01.cs': it holds "
        "blob <blob as read>, not the expected blob <blob of agents/AGbilling01.json>; read it again and redo the "
        "change\n"
        "write ai-tools/TLroute01.cs over its blob: written, blob ok\n"
        "build error WS010 ai-tools/TLroute01.cs:8:18 unresolved reference 'Agents.Bxlling'\n"
        "  note did you mean 'Billing'?\n"
        "build summary: 1 error in 1 file (1 file changed) (errors 1, clean false)\n"
        "write ai-tools/TLroute01.cs over the first read's blob: refused to write 'ai-tools/TLroute01.cs': it holds "
        "blob <blob as broken>, not the expected blob <blob as read>; read it again and redo the change\n"
        "write ai-tools/TLroute01.cs over its blob: written, blob ok\n"
        "build summary: 1 file changed, compiled clean. (errors 0, clean true)\n"
        "write prompts/PRrefund01.md over absent: written, blob ok\n"
        "write prompts/PRrefund01.md over absent again: refused to write 'prompts/PRrefund01.md': it exists (blob "
        "<blob as written>); read it and pass its blob id as the expected content\n"
        "delete tasks/TKdigest01.json: delete-pending, blob ok, token given, the file still on disk\n"
        "delete prompts/PRtone01.md with that token: refused to delete 'prompts/PRtone01.md': token (not a token "
        "this session was given for this path, or used already); call delete with the path alone for a new one\n"
        "delete tasks/TKdigest01.json with a wrong token: refused to delete 'tasks/TKdigest01.json': token (not a "
        "token this session was given for this path, or used already); call delete with the path alone for a new "
        "one\n"
        "delete tasks/TKdigest01.json with its token: deleted, gone from disk\n"
        "delete tasks/TKdigest01.json with the used token: refused to delete 'tasks/TKdigest01.json': token (not a "
        "token this session was given for this path, or used already); call delete with the path alone for a new "
        "one\n"
        "ls changed ai-tools/TLroute01.cs ai-tool RouteTicket modified\n"
        "ls changed prompts/PRrefund01.md prompt RefundInstructions added\n"
        "ls changed tasks/TKdigest01.json task MorningDigest deleted\n"
        "commit: proposal, id ok, session agent-one, branch refs/heads/main, supersedes none\n"
        "commit file M ai-tools/TLroute01.cs +1 -1\n"
        "commit file A prompts/PRrefund01.md +6 -0\n"
        "commit file D tasks/TKdigest01.json +0 -6\n"
        "closed, server exit 0\n");

  // The proposal waits for a person, under the agent's session.
  CHECK(listed(repo) == "agent-one current Refunds: a prompt, the route's comment, no digest\n");
  CHECK(proposal_files(repo) ==
        "M ai-tools/TLroute01.cs\n"
        "A prompts/PRrefund01.md\n"
        "D tasks/TKdigest01.json\n");

  // On disk: the fix, the new file, the deleted one gone, and nothing else:
  // no temporary file of a write left anywhere, the index untouched.
  std::string& route = expected.at("ai-tools/TLroute01.cs");
  const std::string comment = "    // The billing agent takes over from here.\n";
  REQUIRE(route.find(comment) != std::string::npos);
  route.replace(route.find(comment), comment.size(),
                "    // The billing agent takes over from here, with the whole ticket.\n");
  expected["prompts/PRrefund01.md"] =
      "---\n"
      "name: RefundInstructions\n"
      "description: How to explain a refund that was declined\n"
      "includes: [Tone]\n"
      "---\n"
      "Say why the refund was declined and what the customer can do next.\n";
  REQUIRE(expected.erase("tasks/TKdigest01.json") == 1);
  auto on_disk = wstest::tree_bytes(repo);
  for (const auto& [path, bytes] : on_disk) {
    INFO(path);
    CHECK(path.find(".ws-new-") == std::string::npos);
  }
  CHECK(on_disk == expected);
  CHECK(repo.git({"status", "--porcelain", "--ignored"}) ==
        " M ai-tools/TLroute01.cs\n"
        " D tasks/TKdigest01.json\n"
        "?? prompts/PRrefund01.md\n");
}

TEST_CASE("two MCP clients at once keep their sessions' proposals apart", "[mcp][sdk]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");

  auto r = run_client("sessions.mjs", repo);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK_FALSE(r.timed_out);
  // Both sessions stage the view, which holds both agents' files; each
  // proposal is its own session's.
  CHECK(r.out ==
        "agent-one connected\n"
        "agent-two connected\n"
        "agent-one wrote prompts/PRtone01.md\n"
        "agent-two wrote skills/SKsummarize01.md\n"
        "agent-one commit: proposal, session agent-one, supersedes none\n"
        "agent-one commit file M prompts/PRtone01.md +1 -1\n"
        "agent-one commit file M skills/SKsummarize01.md +1 -1\n"
        "agent-two commit: proposal, session agent-two, supersedes none\n"
        "agent-two commit file M prompts/PRtone01.md +1 -1\n"
        "agent-two commit file M skills/SKsummarize01.md +1 -1\n"
        "agent-one wrote prompts/PRtone01.md\n"
        "agent-one commit: proposal, session agent-one, supersedes agent-one's first\n"
        "agent-one commit file M prompts/PRtone01.md +1 -1\n"
        "agent-one commit file M skills/SKsummarize01.md +1 -1\n"
        "agent-one closed, server exit 0\n"
        "agent-two closed, server exit 0\n");

  CHECK(listed(repo) ==
        "agent-one current Tone: calm too\n"
        "agent-two current Summaries: no names\n");
  CHECK(listed(repo, {"--all"}) ==
        "agent-one current Tone: calm too\n"
        "agent-one superseded Tone: exact\n"
        "agent-two current Summaries: no names\n");
  CHECK(repo.read("prompts/PRtone01.md").find("Be brief, kind, exact and calm.\n") != std::string::npos);
  CHECK(repo.read("skills/SKsummarize01.md").find("what is next. Leave names out.\n") != std::string::npos);
  CHECK(repo.git({"status", "--porcelain", "--ignored"}) ==
        " M prompts/PRtone01.md\n"
        " M skills/SKsummarize01.md\n");
}

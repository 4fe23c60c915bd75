// ws rename (ws-rename(1)): every kind and fields on the example workspace,
// each result compared byte for byte with the same rename made by hand;
// line ends, byte order marks and tabs kept; and the refusals, each with
// nothing written: a name spelled with escapes, a symlinked or hard-linked
// referrer, a taken or invalid new name, an unknown old one.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/billing_rename.h"
#include "support/process.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using wstest::RunResult;
using wstest::TempRepo;

namespace {

RunResult rename(const TempRepo& repo, std::vector<std::string> args) {
  args.insert(args.begin(), "rename");
  return wstest::ws("ws", args, repo.path());
}

// The example workspace, committed, with a build run so the base's index is saved.
void example(const TempRepo& repo) {
  wstest::commit_example_workspace(repo, "Support desk workspace");
  REQUIRE(wstest::ws("ws-build", {}, repo.path()).status == 0);
}

struct Edit {
  std::string path;
  std::string from;  // every occurrence is replaced
  std::string to;
};

// The working tree after `edits` made by hand: every occurrence of `from` in its file.
std::map<std::string, std::string> by_hand(std::map<std::string, std::string> tree, const std::vector<Edit>& edits) {
  for (const Edit& e : edits) {
    std::string& bytes = tree.at(e.path);
    std::size_t n = 0;
    for (std::size_t at = bytes.find(e.from); at != std::string::npos; at = bytes.find(e.from, at + e.to.size())) {
      bytes.replace(at, e.from.size(), e.to);
      ++n;
    }
    INFO(e.path << ": " << e.from);
    REQUIRE(n > 0);
  }
  return tree;
}

struct Case {
  std::vector<std::string> args;  // KIND OLD NEW
  std::string summary;            // the first line
  std::vector<Edit> edits;
};

}  // namespace

TEST_CASE("ws rename: the billing agent, as the gate tests rename it by hand", "[rename]") {
  TempRepo repo;
  example(repo);
  auto before = wstest::tree_bytes(repo);
  auto r = rename(repo, {"agent", "Billing", "Payments"});
  CHECK(r.err == "");
  CHECK(r.out ==
        "renamed agent 'Billing' to 'Payments': 4 files, 3 references\n"
        "  access/grants/GTsupport01.json\n"
        "  agents/AGbilling01.json\n"
        "  agents/AGtriage01.json\n"
        "  ai-tools/TLroute01.cs\n"
        "4 files changed, compiled clean.\n");
  CHECK(r.status == 0);
  std::vector<Edit> edits;
  for (const auto* list : {&wstest::kRenameBilling, &wstest::kFollowBillingRename})
    for (const auto& e : *list) edits.push_back({e.path, e.from, e.to});
  CHECK(wstest::tree_bytes(repo) == by_hand(before, edits));
  CHECK(repo.git({"status", "--porcelain"}) ==
        " M access/grants/GTsupport01.json\n M agents/AGbilling01.json\n M agents/AGtriage01.json\n"
        " M ai-tools/TLroute01.cs\n");
}

TEST_CASE("ws rename: every kind and fields, the same bytes as by hand, the build clean", "[rename]") {
  const std::vector<Case> cases = {
      {{"ai-tool", "LookupCustomer", "FindCustomer"},
       "renamed ai-tool 'LookupCustomer' to 'FindCustomer': 3 files, 2 references",
       {{"ai-tools/TLlookup01.cs", "// name: LookupCustomer", "// name: FindCustomer"},
        {"agents/AGbilling01.json", "\"LookupCustomer\"", "\"FindCustomer\""},
        {"agents/AGtriage01.json", "\"LookupCustomer\"", "\"FindCustomer\""}}},
      // N.Ticket.Customer is a field of Ticket, not the node type: left alone.
      {{"node-type", "Customer", "Client"},
       "renamed node-type 'Customer' to 'Client': 3 files, 3 references",
       {{"node-types/NTcustomer01.json", "\"name\": \"Customer\"", "\"name\": \"Client\""},
        {"edge-types/EDraised01.json", "\"from\": \"Customer\"", "\"from\": \"Client\""},
        {"ai-tools/TLlookup01.cs", "N.Customer.", "N.Client."}}},
      // t.Status is runtime data, not the field's chain: left alone.
      {{"field", "Ticket.Status", "State"},
       "renamed node-type 'Ticket.Status' to 'Ticket.State': 3 files, 2 references",
       {{"node-types/NTticket01.json", "\"name\": \"Status\"", "\"name\": \"State\""},
        {"indexes/IXopen01.json", "\"Status\"", "\"State\""},
        {"ai-tools/TLroute01.cs", "N.Ticket.Status", "N.Ticket.State"}}},
      {{"field", "Ticket.Customer", "Owner"},
       "renamed node-type 'Ticket.Customer' to 'Ticket.Owner': 2 files, 1 reference",
       {{"node-types/NTticket01.json", "\"name\": \"Customer\"", "\"name\": \"Owner\""},
        {"ai-tools/TLlookup01.cs", "N.Ticket.Customer", "N.Ticket.Owner"}}},
      {{"prompt", "Tone", "Voice"},
       "renamed prompt 'Tone' to 'Voice': 3 files, 2 references",
       {{"prompts/PRtone01.md", "name: Tone", "name: Voice"},
        {"prompts/PRbilling01.md", "[Tone]", "[Voice]"},
        {"prompts/PRtriage01.md", "  - Tone", "  - Voice"}}},
      {{"access-group", "SupportStaff", "Staff"},
       "renamed access-group 'SupportStaff' to 'Staff': 2 files, 1 reference",
       {{"access/groups/GRsupport01.json", "\"SupportStaff\"", "\"Staff\""},
        {"access/grants/GTsupport01.json", "\"SupportStaff\"", "\"Staff\""}}},
      {{"endpoint", "DailyDigest", "Digest"},
       "renamed endpoint 'DailyDigest' to 'Digest': 3 files, 2 references",
       {{"endpoints/EPdigest01.cs", "// name: DailyDigest", "// name: Digest"},
        {"tasks/TKdigest01.json", "\"DailyDigest\"", "\"Digest\""},
        {"access/grants/GTsupport01.json", "\"DailyDigest\"", "\"Digest\""}}},
      {{"index", "OpenTickets", "Open"},
       "renamed index 'OpenTickets' to 'Open': 2 files, 1 reference",
       {{"indexes/IXopen01.json", "\"OpenTickets\"", "\"Open\""},
        {"endpoints/EPdigest01.cs", "Indexes.OpenTickets", "Indexes.Open"}}},
      {{"skill", "Summarize", "Sum"},
       "renamed skill 'Summarize' to 'Sum': 2 files, 1 reference",
       {{"skills/SKsummarize01.md", "name: Summarize", "name: Sum"},
        {"agents/AGtriage01.json", "\"Summarize\"", "\"Sum\""}}},
      {{"task", "MorningDigest", "Weekdays"},
       "renamed task 'MorningDigest' to 'Weekdays': 1 file, 0 references",
       {{"tasks/TKdigest01.json", "\"MorningDigest\"", "\"Weekdays\""}}},
      // A kind no code can name: names need not be C# identifiers.
      {{"access-grant", "support-can-triage", "support.triage-1"},
       "renamed access-grant 'support-can-triage' to 'support.triage-1': 1 file, 0 references",
       {{"access/grants/GTsupport01.json", "\"support-can-triage\"", "\"support.triage-1\""}}},
      {{"edge-type", "Raised", "Opened"},
       "renamed edge-type 'Raised' to 'Opened': 1 file, 0 references",
       {{"edge-types/EDraised01.json", "\"name\": \"Raised\"", "\"name\": \"Opened\""}}},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.args[0] << " " << c.args[1]) {
      TempRepo repo;
      example(repo);
      auto expected = by_hand(wstest::tree_bytes(repo), c.edits);
      auto r = rename(repo, {c.args[0], c.args[1], c.args[2], "--no-build"});
      CHECK(r.err == "");
      CHECK(r.status == 0);
      REQUIRE(!r.out.empty());
      CHECK(r.out.substr(0, r.out.find('\n')) == c.summary);
      CHECK(wstest::tree_bytes(repo) == expected);
      auto build = wstest::ws("ws-build", {}, repo.path());
      CHECK(build.err == "");
      CHECK(build.status == 0);
    }
  }
}

TEST_CASE("ws rename: CRLF line ends, a byte order mark and tabs are kept", "[rename]") {
  TempRepo repo;
  example(repo);
  repo.write("agents/AGbilling01.json",
             "\xEF\xBB\xBF{\r\n\t\"name\":\t\"Billing\",\r\n\t\"prompt\": \"BillingInstructions\"\r\n}\r\n");
  repo.write("ai-tools/TLroute01.cs",
             "// name: RouteTicket\r\nvar t = await Graph.Get(N.Ticket.Type, args.TicketId);\r\n"
             "\treturn await Agents\t.\tBilling.Handoff(t);\r\n");
  repo.commit_all("CRLF and tabs");
  auto r = rename(repo, {"agent", "Billing", "Payments", "--no-build"});
  CHECK(r.err == "");
  CHECK(r.status == 0);
  CHECK(repo.read("agents/AGbilling01.json") ==
        "\xEF\xBB\xBF{\r\n\t\"name\":\t\"Payments\",\r\n\t\"prompt\": \"BillingInstructions\"\r\n}\r\n");
  CHECK(repo.read("ai-tools/TLroute01.cs") ==
        "// name: RouteTicket\r\nvar t = await Graph.Get(N.Ticket.Type, args.TicketId);\r\n"
        "\treturn await Agents\t.\tPayments.Handoff(t);\r\n");
  CHECK(wstest::ws("ws-build", {}, repo.path()).status == 0);
}

TEST_CASE("ws rename -n prints git's diff and writes nothing, with --json the edits", "[rename]") {
  TempRepo repo;
  example(repo);
  auto before = wstest::tree_bytes(repo);
  auto dry = rename(repo, {"-n", "agent", "Billing", "Payments"});
  CHECK(dry.err == "");
  CHECK(dry.status == 0);
  CHECK(wstest::tree_bytes(repo) == before);
  auto json = rename(repo, {"-n", "--json", "skill", "Summarize", "Sum"});
  CHECK(json.err == "");
  CHECK(json.status == 0);
  CHECK(json.out ==
        "{\"type\":\"edit\",\"version\":1,\"path\":\"agents/AGtriage01.json\",\"line\":7,\"column\":15,"
        "\"end_line\":7,\"end_column\":24,\"start\":208,\"end\":217,\"text\":\"Sum\"}\n"
        "{\"type\":\"edit\",\"version\":1,\"path\":\"skills/SKsummarize01.md\",\"line\":2,\"column\":7,"
        "\"end_line\":2,\"end_column\":16,\"start\":10,\"end\":19,\"text\":\"Sum\"}\n"
        "{\"type\":\"summary\",\"version\":1,\"kind\":\"skill\",\"old\":\"Summarize\",\"new\":\"Sum\",\"files\":2,"
        "\"references\":1,\"written\":false}\n");
  CHECK(wstest::tree_bytes(repo) == before);
  // The diff is what git shows once the rename is made.
  REQUIRE(rename(repo, {"agent", "Billing", "Payments", "--no-build"}).status == 0);
  CHECK(dry.out == repo.git({"-c", "core.abbrev=7", "diff", "--no-color", "--no-ext-diff", "--src-prefix=a/",
                              "--dst-prefix=b/"}));
}

TEST_CASE("ws rename: refusals write nothing, each with its line and status", "[rename]") {
  TempRepo repo;
  example(repo);
  auto before = wstest::tree_bytes(repo);
  struct Refusal {
    std::vector<std::string> args;
    int status;
    std::string err;
  };
  const std::vector<Refusal> refusals = {
      {{"agent", "Billing", "Triage"}, 1,
       "ws rename: refused to rename: agent 'Triage' exists already, in 'agents/AGtriage01.json'; choose another name\n"},
      {{"agent", "Nobody", "Somebody"}, 1,
       "ws rename: no agent named 'Nobody' in the working tree; see 'ws-ls --kind agent'\n"},
      {{"field", "Ticket.Nothing", "Something"}, 1,
       "ws rename: node-type 'Ticket' has no field 'Nothing' (in 'node-types/NTticket01.json')\n"},
      {{"field", "Ticket.Status", "Title"}, 1,
       "ws rename: refused to rename: field 'Ticket.Title' exists already, in 'node-types/NTticket01.json'; "
       "choose another name\n"},
      {{"agent", "Billing", "class"}, 2,
       "ws rename: invalid new name 'class': not a C# identifier (ASCII letters, digits and '_', not starting with "
       "a digit, not a keyword)\n"},
      {{"agent", "Billing", "9lives"}, 2,
       "ws rename: invalid new name '9lives': not a C# identifier (ASCII letters, digits and '_', not starting with "
       "a digit, not a keyword)\n"},
      {{"access-grant", "support-can-triage", "a\"b"}, 2,
       "ws rename: invalid new name 'a\"b': use ASCII letters, digits, '.', '_' and '-'\n"},
      {{"agent", "Billing", "Billing"}, 2, "ws rename: the new name is the old one: 'Billing'\n"},
      {{"agnet", "Billing", "Payments"}, 2, "ws rename: unknown kind 'agnet'; did you mean 'agent'?\n"},
      {{"secret", "SupportMailbox", "Mailbox"}, 2,
       "ws rename: a secret is named by its file, which ws never opens or moves; rename the file and its "
       "referrers by hand\n"},
      {{"field", "Ticket.Type", "Kind"}, 2,
       "ws rename: field 'Type' is implicit in every node-type: it has no declaration to rename\n"},
      {{"field", "Ticket", "Kind"}, 2, "ws rename: a field is named OWNER.FIELD ('Ticket.Status'), not 'Ticket'\n"},
  };
  for (const auto& f : refusals) {
    INFO(f.args[0] << " " << f.args[1] << " " << f.args[2]);
    auto r = rename(repo, f.args);
    CHECK(r.out == "");
    CHECK(r.err == f.err);
    CHECK(r.status == f.status);
    CHECK(wstest::tree_bytes(repo) == before);
  }
}

TEST_CASE("ws rename: a name spelled with escapes is refused, not guessed at", "[rename]") {
  TempRepo repo;
  example(repo);
  repo.replace("agents/AGtriage01.json", "\"handoffs\": [\"Billing\"]", "\"handoffs\": [\"B\\u0069lling\"]");
  auto before = wstest::tree_bytes(repo);
  auto r = rename(repo, {"agent", "Billing", "Payments"});
  CHECK(r.out == "");
  CHECK(r.err ==
        "ws rename: refused to rename in 'agents/AGtriage01.json' at line 8: 'B\\u0069lling' spells 'Billing' with "
        "escapes; write it plainly, then run ws rename again\n");
  CHECK(r.status == 1);
  CHECK(wstest::tree_bytes(repo) == before);
}

TEST_CASE("ws rename: a symlinked or hard-linked referrer refuses the whole rename", "[rename]") {
  TempRepo repo;
  example(repo);
  wstest::TempDir outside;
  SECTION("a symlink") {
    std::string target = outside.path() + "/TLroute01.cs";
    fs::copy_file(repo.abs("ai-tools/TLroute01.cs"), target);
    repo.remove("ai-tools/TLroute01.cs");
    fs::create_symlink(target, repo.abs("ai-tools/TLroute01.cs"));
    auto before = wstest::tree_bytes(repo);
    std::string outside_before = repo.read("../" + fs::relative(target, repo.path()).string());
    auto r = rename(repo, {"agent", "Billing", "Payments"});
    CHECK(r.out == "");
    CHECK(r.err ==
          "ws rename: refused to rename: refused path 'ai-tools/TLroute01.cs': symlink (the path is or goes "
          "through a symbolic link, and links are never followed); replace the link with the file itself\n");
    CHECK(r.status == 1);
    CHECK(wstest::tree_bytes(repo) == before);
    CHECK(repo.read("../" + fs::relative(target, repo.path()).string()) == outside_before);
  }
  SECTION("a hard link") {
    std::string other = outside.path() + "/other.cs";
    REQUIRE(::link(repo.abs("ai-tools/TLroute01.cs").c_str(), other.c_str()) == 0);
    auto before = wstest::tree_bytes(repo);
    auto r = rename(repo, {"agent", "Billing", "Payments"});
    CHECK(r.out == "");
    CHECK(r.err ==
          "ws rename: refused to rename: refused path 'ai-tools/TLroute01.cs': hard-link (the file has more than "
          "one link, so replacing it would change the other names too); copy the file to break the link\n");
    CHECK(r.status == 1);
    CHECK(wstest::tree_bytes(repo) == before);
  }
}

TEST_CASE("ws rename: uncommitted referrers and a workspace without a saved index", "[rename]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");  // no build: no saved index
  // A new, uncommitted tool that calls the agent, and a comment and a string
  // that only look like it.
  repo.write("ai-tools/TLnew01.cs",
             "// name: Escalate\n// Agents.Billing in a comment\nvar s = \"Agents.Billing\";\n"
             "return await Agents.Billing.Handoff(args);\n");
  auto r = rename(repo, {"agent", "Billing", "Payments"});
  CHECK(r.err == "");
  CHECK(r.status == 0);
  CHECK(r.out.rfind("renamed agent 'Billing' to 'Payments': 5 files, 4 references\n", 0) == 0);
  CHECK(repo.read("ai-tools/TLnew01.cs") ==
        "// name: Escalate\n// Agents.Billing in a comment\nvar s = \"Agents.Billing\";\n"
        "return await Agents.Payments.Handoff(args);\n");
  // No temporary file left anywhere.
  for (const auto& [path, bytes] : wstest::tree_bytes(repo)) CHECK(path.find(".ws-") == std::string::npos);
}

TEST_CASE("ws rename: a rename that breaks the build is written and exits 1", "[rename]") {
  TempRepo repo;
  example(repo);
  // A referrer the rename rewrites holds another broken reference.
  repo.replace("agents/AGtriage01.json", "\"skills\": [\"Summarize\"]", "\"skills\": [\"Nothing\"]");
  auto r = rename(repo, {"agent", "Billing", "Payments"});
  CHECK(r.err == "");
  CHECK(r.status == 1);
  CHECK(r.out.find("agents/AGtriage01.json:7:15: error[WS010]: unresolved reference to skill 'Nothing'") != std::string::npos);
  CHECK(repo.read("agents/AGbilling01.json").find("\"Payments\"") != std::string::npos);
}

TEST_CASE("ws rename: a referrer at a protected path refuses the rename, files it only reads do not", "[rename]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace", "{\"protected\": [\"ai-tools/\"]}\n");
  auto before = wstest::tree_bytes(repo);
  auto r = rename(repo, {"agent", "Billing", "Payments"});
  CHECK(r.out == "");
  CHECK(r.err ==
        "ws rename: refused to rename: refused path 'ai-tools/TLroute01.cs': protected-path (the workspace protects "
        "this path); leave it out of the change\n");
  CHECK(r.status == 1);
  CHECK(wstest::tree_bytes(repo) == before);
  // A rename that changes nothing at the protected path goes through.
  auto ok = rename(repo, {"skill", "Summarize", "Sum", "--no-build"});
  CHECK(ok.err == "");
  CHECK(ok.status == 0);
  CHECK(repo.git({"status", "--porcelain"}) == " M agents/AGtriage01.json\n M skills/SKsummarize01.md\n");
}

TEST_CASE("ws rename -n from the base index equals a full parse, over every kind and fields", "[rename]") {
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    INFO("seed " << seed);
    TempRepo repo;
    wstest::TempDir scratch;
    const std::vector<std::string> gen{wstest::tool("ws-bench-gen"), "--seed", std::to_string(seed), "--definitions",
                                       "400", "--changeset", "10"};
    auto made = wstest::run([&] { auto a = gen; a.push_back(scratch.path() + "/ws"); return a; }());
    REQUIRE(made.status == 0);
    fs::copy(scratch.path() + "/ws", repo.path(), fs::copy_options::recursive);
    repo.commit_all("generated workspace");
    auto applied = wstest::run([&] { auto a = gen; a.push_back("--apply-changeset"); a.push_back(repo.path()); return a; }());
    REQUIRE(applied.status == 0);
    REQUIRE(wstest::ws("ws-build", {}, repo.path()).status == 0);
    const fs::path bases = fs::path(repo.path()) / ".git/ws/cache/bases";
    REQUIRE(fs::exists(bases));

    // Definitions of every kind, a few each, and a field of node types.
    std::map<std::string, std::vector<std::string>> by_kind;
    for (const auto& line : wstest::lines(wstest::ws("ws-ls", {"--json"}, repo.path()).out)) {
      auto r = nlohmann::json::parse(line);
      if (r.value("type", "") == "entry" && r.contains("name") && r.value("kind", "") != "secret")
        by_kind[r["kind"]].push_back(r["name"]);
    }
    std::mt19937_64 rng(seed);
    std::vector<std::vector<std::string>> renames;
    for (const auto& [kind, names] : by_kind)
      for (int i = 0; i < 3 && !names.empty(); ++i) {
        const std::string& name = names[rng() % names.size()];
        renames.push_back({kind, name, kind == "access-grant" ? "renamed-" + name : "Renamed" + name});
        if (kind != "node-type") continue;
        auto fields = nlohmann::json::parse(
            repo.read(wstest::chomp(repo.git({"grep", "-l", "\"name\": \"" + name + "\"", "--", "node-types/"}))));
        if (fields.contains("fields") && !fields["fields"].empty())
          renames.push_back({"field", name + "." + fields["fields"][0]["name"].get<std::string>(), "RenamedField"});
      }
    REQUIRE(renames.size() >= 20);
    std::size_t written = 0;
    for (const auto& r : renames) {
      INFO(r[0] << " " << r[1] << " " << r[2]);
      auto with_index = rename(repo, {"-n", "--json", r[0], r[1], r[2]});
      fs::rename(bases, scratch.path() + "/bases");
      auto parsed = rename(repo, {"-n", "--json", r[0], r[1], r[2]});
      fs::rename(scratch.path() + "/bases", bases);
      CHECK(with_index.status == parsed.status);
      CHECK(with_index.err == parsed.err);
      CHECK(with_index.out == parsed.out);
      written += with_index.status == 0;
    }
    CHECK(written >= renames.size() / 2);
  }
}

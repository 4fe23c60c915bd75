// The approver's desk (ws-apply(1)): --reject -m REASON records who, when
// and why and moves nothing else; --list --all shows it; --prune deletes
// the refs of settled proposals and never a pending one's; --show starts
// with the build result and the definitions the change affects, and on a
// terminal colours the diff as git does. Each case checks the exact output,
// the exit status and the refs, branch and index after.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <regex>
#include <thread>

#include "support/hand_made.h"
#include "support/process.h"
#include "support/proposal_tools.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::lines;
using wstest::RunResult;
using wstest::TempRepo;

using wstest::rev;
using wstest::stage;
using wstest::ws;
namespace {

// Every ref, one "name id" a line.
std::string refs(const TempRepo& repo) { return repo.git({"for-each-ref", "--format=%(refname) %(objectname)"}); }

// What an approver's command must leave alone: every ref but refs/ws/, the
// index file's bytes and the working tree's status.
std::string untouched(const TempRepo& repo) {
  return repo.git({"for-each-ref", "--format=%(refname) %(objectname)", "refs/heads"}) +
         repo.git({"rev-parse", "HEAD"}) + repo.read(".git/index") + repo.git({"status", "--porcelain"});
}

void seed_example(const TempRepo& repo) { wstest::commit_example_workspace(repo, "Support desk workspace"); }

// Stages one more description of the billing agent.
std::string stage_billing(const TempRepo& repo, const std::string& description, const std::string& message,
                          std::map<std::string, std::string> env = {}) {
  std::string billing = repo.read("agents/AGbilling01.json");
  std::size_t at = billing.find("\"description\": \"") + 16;
  billing.replace(at, billing.find('"', at) - at, description);
  repo.write("agents/AGbilling01.json", billing);
  return stage(repo, message, env);
}

std::string short12(const std::string& id) { return id.substr(0, 12); }

// The lines of --list, without their age ("N seconds ago"), which depends
// on the clock.
std::string without_age(const std::string& out) {
  return std::regex_replace(out, std::regex("[0-9]+ (second|minute|hour|day)s? ago"), "AGE");
}

}  // namespace

TEST_CASE("desk: --reject -m records who, when and why and moves nothing else", "[desk][reject]") {
  TempRepo repo;
  seed_example(repo);
  std::string id = stage_billing(repo, "Refunds", "Reword billing");
  std::string before = untouched(repo);

  auto rej = ws(repo, "ws-apply", {"--reject", id.substr(0, 9), "-m", "duplicates AGtriage01 \xc3\xa9"},
                {{"GIT_COMMITTER_NAME", "Rex Reviewer"}, {"GIT_COMMITTER_EMAIL", "rex@example.com"},
                 {"GIT_COMMITTER_DATE", "@1700000000 +0000"}});
  INFO(rej.err);
  REQUIRE(rej.status == 0);
  CHECK(rej.out == "rejected " + id.substr(0, 9) + "\n");
  CHECK(untouched(repo) == before);
  // The record: a commit on the proposal, its tree, the reviewer, the reason.
  std::string record = rev(repo, "refs/ws/rejected/" + id);
  CHECK(rev(repo, record + "^") == id);
  CHECK(rev(repo, record + "^{tree}") == rev(repo, id + "^{tree}"));
  CHECK(repo.git({"log", "-1", "--format=%an <%ae>|%cn <%ce>|%ct|%B", record}) ==
        "Rex Reviewer <rex@example.com>|Rex Reviewer <rex@example.com>|1700000000|duplicates AGtriage01 \xc3\xa9\n\n");
  CHECK(repo.git({"for-each-ref", "refs/ws/proposals"}) == "");  // the slot is freed

  auto apply = ws(repo, "ws-apply", {id});
  CHECK(apply.status == 1);
  CHECK(apply.err == "ws-apply: proposal " + short12(id) +
                         " was rejected by Rex Reviewer <rex@example.com>: duplicates AGtriage01 \xc3\xa9\n");
  CHECK(untouched(repo) == before);

  // --list is the pending queue; --all shows the rejection with its reason.
  auto list = ws(repo, "ws-apply", {"--list"});
  CHECK(list.status == 0);
  CHECK(list.out == "");
  auto all = ws(repo, "ws-apply", {"--list", "--all"});
  CHECK(all.status == 0);
  CHECK(without_age(all.out) == short12(id) + "  rejected    default  main  AGE  Reword billing\n"
                                              "    rejected by Rex Reviewer <rex@example.com> AGE: duplicates AGtriage01 \xc3\xa9\n");
  auto json = ws(repo, "ws-apply", {"--list", "--all", "--json"});
  REQUIRE(json.status == 0);
  auto doc = nlohmann::json::parse(json.out);
  CHECK(doc["state"] == "rejected");
  CHECK(doc["rejected_by"] == "Rex Reviewer <rex@example.com>");
  CHECK(doc["rejected_at"] == 1700000000);
  CHECK(doc["reason"] == "duplicates AGtriage01 \xc3\xa9");

  auto again = ws(repo, "ws-apply", {"--reject", id, "-m", "twice"});
  CHECK(again.status == 1);
  CHECK(again.err == "ws-apply: proposal " + short12(id) + " is already rejected\n");
  CHECK(rev(repo, "refs/ws/rejected/" + id) == record);
}

TEST_CASE("desk: a reason with control characters, too long, empty or missing is refused and nothing recorded",
          "[desk][reject]") {
  TempRepo repo;
  seed_example(repo);
  std::string id = stage_billing(repo, "Refunds", "Reword billing");
  std::string before = refs(repo) + untouched(repo);
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  std::string long_reason(1001, 'x');
  // The refusal of a reason that is not one line of text, which it quotes escaped.
  auto not_text = [](const std::string& quoted) {
    return "ws-apply: invalid reason '" + quoted +
           "': a control character or bytes that are not UTF-8; write it as one line of text\n";
  };
  std::vector<Case> cases = {
      {{"--reject", id, "-m", "ok\x1b[2Jgone"}, not_text("ok\\x1b[2Jgone")},
      {{"--reject", id, "-m", "line one\nApproved-by: Eve <eve@example.com>"},
       not_text("line one\\nApproved-by: Eve <eve@example.com>")},
      {{"--reject", id, "-m", "tab\there"}, not_text("tab\there")},
      {{"--reject", id, "-m", "rlo \xe2\x80\xae txt"}, not_text("rlo \\u202e txt")},
      {{"--reject", id, "-m", "bad \xff byte"}, not_text("bad \\xff byte")},
      {{"--reject", id, "-m", long_reason}, "ws-apply: reason is 1001 bytes, over the limit of 1000: say it in fewer words\n"},
      {{"--reject", id, "-m", "   "}, "ws-apply: empty reason: say why with -m REASON\n"},
      {{"--reject", id}, "ws-apply: say why with -m REASON: --reject records it\n"},
      {{"--list", "-m", "why"}, "ws-apply: -m only goes with --reject ID\n"},
  };
  for (const auto& c : cases) {
    auto r = ws(repo, "ws-apply", c.args);
    INFO(c.args[c.args.size() - 1]);
    CHECK(r.status == 2);
    CHECK(r.out == "");
    CHECK(r.err == c.err);
  }
  CHECK(refs(repo) + untouched(repo) == before);
  // 1000 bytes is the limit, not past it.
  auto at_limit = ws(repo, "ws-apply", {"--reject", id, "-m", std::string(1000, 'y')});
  CHECK(at_limit.status == 0);
}

TEST_CASE("desk: a proposal id that is a path or a ref expression names no proposal", "[desk][reject][show]") {
  TempRepo repo;
  seed_example(repo);
  std::string id = stage_billing(repo, "Refunds", "Reword billing");
  std::string before = refs(repo) + untouched(repo);
  for (const std::string& bad : std::vector<std::string>{"../../../etc/passwd", "refs/ws/proposals/default", "HEAD~1", "main", "@{-1}",
                          id.substr(0, 12) + "^", ":/Reword", id + "0", "-", id.substr(0, 6)}) {
    INFO(bad);
    for (const char* mode : {"--reject", "--show"}) {
      std::vector<std::string> args{mode, bad};
      if (std::string(mode) == "--reject") args.insert(args.end(), {"-m", "no"});
      auto r = ws(repo, "ws-apply", args);
      CHECK(r.status == 2);
      CHECK(r.out == "");
      CHECK(r.err == "ws-apply: invalid proposal id '" + bad + "': give at least 7 hex digits\n");
    }
  }
  CHECK(refs(repo) + untouched(repo) == before);
}

TEST_CASE("desk: a rejection record written by hand is shown escaped and cut at the limit", "[desk][reject]") {
  TempRepo repo;
  seed_example(repo);
  std::string id = stage_billing(repo, "Refunds", "Reword billing");
  wstest::RunOptions o;
  o.cwd = repo.path();
  o.input = "fine\x1b[2K\r" + std::string(2000, 'z');
  o.env = {{"GIT_COMMITTER_NAME", "Mal\x1b[1A"}, {"GIT_COMMITTER_EMAIL", "mal@example.com"}};
  auto record = wstest::run({"git", "commit-tree", id + "^{tree}", "-p", id}, o);
  REQUIRE(record.status == 0);
  repo.git({"update-ref", "refs/ws/rejected/" + id, chomp(record.out)});

  auto all = ws(repo, "ws-apply", {"--list", "--all"});
  CHECK(all.status == 0);
  CHECK(all.out.find('\x1b') == std::string::npos);
  CHECK(without_age(all.out) == short12(id) + "  rejected    default  main  AGE  Reword billing\n" +
                                    "    rejected by Mal\\x1b[1A <mal@example.com> AGE: fine\\x1b[2K\\r" +
                                    std::string(991, 'z') + "...\n");
  auto apply = ws(repo, "ws-apply", {id});
  CHECK(apply.status == 1);
  CHECK(apply.err.find('\x1b') == std::string::npos);
  CHECK(apply.err.rfind("ws-apply: proposal " + short12(id) + " was rejected by Mal\\x1b[1A <mal@example.com>: "
                        "fine\\x1b[2K\\rzzz", 0) == 0);
}

TEST_CASE("desk: --prune removes the settled proposals' refs, says which, and keeps the pending ones",
          "[desk][prune]") {
  TempRepo repo;
  seed_example(repo);
  std::string base = rev(repo, "main");
  // default: an applied one; alpha: a superseded one and the current one;
  // beta: a rejected one; gamma: a stale one.
  std::string applied = stage_billing(repo, "One", "Apply me");
  REQUIRE(ws(repo, "ws-apply", {applied}).status == 0);
  repo.git({"checkout", "-q", "--", "."});
  std::string old_alpha = stage_billing(repo, "Two", "Alpha old", {{"WS_SESSION", "alpha"}});
  std::string new_alpha = stage_billing(repo, "Three", "Alpha new", {{"WS_SESSION", "alpha"}});
  std::string rejected = stage_billing(repo, "Four", "Beta", {{"WS_SESSION", "beta"}});
  REQUIRE(ws(repo, "ws-apply", {"--reject", rejected, "-m", "no"}).status == 0);
  repo.git({"checkout", "-q", "--", "."});
  std::string main_before = rev(repo, "main");
  std::string index_before = repo.read(".git/index");

  auto dry = ws(repo, "ws-apply", {"--prune", "-n"});
  std::string refs_before = refs(repo);
  CHECK(dry.status == 0);
  CHECK(dry.err == "");
  // Oldest settled first: within one second, in no order the test can rely on.
  CHECK(wstest::sorted_lines(without_age(dry.out)) ==
        wstest::sorted_lines("would prune " + short12(applied) + "  applied     default  main  AGE  Apply me\n" +
                             "would prune " + short12(old_alpha) + "  superseded  alpha  main  AGE  Alpha old\n" +
                             "would prune " + short12(rejected) + "  rejected    beta  main  AGE  Beta\n"));
  CHECK(refs(repo) == refs_before);

  auto json = ws(repo, "ws-apply", {"--prune", "--dry-run", "--json"});
  REQUIRE(json.status == 0);
  auto records = lines(json.out);
  REQUIRE(records.size() == 3);
  nlohmann::json first;
  for (const auto& record : records)
    if (nlohmann::json::parse(record)["id"] == applied) first = nlohmann::json::parse(record);
  CHECK(first["type"] == "pruned");
  CHECK(first["id"] == applied);
  CHECK(first["dry_run"] == true);
  CHECK(first["refs"] == nlohmann::json::array({"refs/ws/proposals/default", "refs/ws/applied/" + applied}));

  auto pruned = ws(repo, "ws-apply", {"--prune"});
  CHECK(pruned.status == 0);
  CHECK(pruned.err == "");
  CHECK(wstest::sorted_lines(without_age(pruned.out)) ==
        wstest::sorted_lines("pruned " + short12(applied) + "  applied     default  main  AGE  Apply me\n" +
                             "pruned " + short12(old_alpha) + "  superseded  alpha  main  AGE  Alpha old\n" +
                             "pruned " + short12(rejected) + "  rejected    beta  main  AGE  Beta\n"));
  // Only the pending proposal's slot is left; the branch and index are as they were.
  CHECK(refs(repo) == repo.git({"for-each-ref", "--format=%(refname) %(objectname)", "refs/heads"}) +
                          "refs/ws/proposals/alpha " + new_alpha + "\n");
  CHECK(rev(repo, "main") == main_before);
  CHECK(repo.read(".git/index") == index_before);
  CHECK(main_before != base);
  CHECK(rev(repo, "main^") == base);  // the applied commit stays on its branch
  auto list = ws(repo, "ws-apply", {"--list", "--all"});
  CHECK(without_age(list.out) == short12(new_alpha) + "  current     alpha  main  AGE  Alpha new\n");
  auto nothing = ws(repo, "ws-apply", {"--prune"});
  CHECK(nothing.status == 0);
  CHECK(nothing.out == "nothing to prune\n");
}

TEST_CASE("desk: --prune --older-than DAYS keeps what settled since, and DAYS is a count of days",
          "[desk][prune]") {
  TempRepo repo;
  seed_example(repo);
  std::int64_t now = std::time(nullptr);
  auto at = [&](std::int64_t days_ago) {
    std::string when = "@" + std::to_string(now - days_ago * 86400 - 60) + " +0000";
    return std::map<std::string, std::string>{{"GIT_AUTHOR_DATE", when}, {"GIT_COMMITTER_DATE", when}};
  };
  std::string old_one = stage_billing(repo, "Old", "Old", at(10));
  std::string recent = stage_billing(repo, "Recent", "Recent", at(3));
  std::string current = stage_billing(repo, "Now", "Now", at(1));
  std::string refs_before = refs(repo);

  auto eleven = ws(repo, "ws-apply", {"--prune", "--older-than", "11"});
  CHECK(eleven.status == 0);
  CHECK(eleven.out == "nothing to prune\n");
  CHECK(refs(repo) == refs_before);
  auto seven = ws(repo, "ws-apply", {"--prune", "--older-than", "7"});
  CHECK(seven.status == 0);
  CHECK(seven.out == "pruned " + short12(old_one) + "  superseded  default  main  10 days ago  Old\n");
  CHECK(rev(repo, "refs/ws/superseded/default/" + recent) == recent);
  CHECK(repo.git({"for-each-ref", "refs/ws/superseded/default/" + old_one}) == "");
  auto zero = ws(repo, "ws-apply", {"--prune", "--older-than", "0"});
  CHECK(zero.out == "pruned " + short12(recent) + "  superseded  default  main  3 days ago  Recent\n");
  CHECK(rev(repo, "refs/ws/proposals/default") == current);

  std::string after = refs(repo);
  for (std::string bad : {"-1", "1e3", "0x10", "7d", "", " 7", "99999999999999999999999"}) {
    auto r = ws(repo, "ws-apply", {"--prune", "--older-than", bad});
    INFO(bad);
    CHECK(r.status == 2);
    CHECK(r.out == "");
    CHECK(r.err.find("ws-apply: ") == 0);
  }
  auto big = ws(repo, "ws-apply", {"--prune", "--older-than", "36501"});
  CHECK(big.status == 2);
  CHECK(big.err == "ws-apply: invalid count '36501' for --older-than: at most 36500 days\n");
  auto alone = ws(repo, "ws-apply", {"--list", "--older-than", "3"});
  CHECK(alone.status == 2);
  CHECK(alone.err == "ws-apply: --older-than only goes with --prune\n");
  auto dry_alone = ws(repo, "ws-apply", {"--list", "-n"});
  CHECK(dry_alone.status == 2);
  CHECK(dry_alone.err == "ws-apply: --dry-run only goes with --prune\n");
  CHECK(refs(repo) == after);
}

TEST_CASE("desk: --prune leaves a hand-made ref under refs/ws/ that is no proposal's, and says so",
          "[desk][prune]") {
  TempRepo repo;
  seed_example(repo);
  std::string base = rev(repo, "main");
  std::string current = stage_billing(repo, "Now", "Now");
  std::string blob = wstest::write_blob(repo, "not a commit\n");
  std::string fake = std::string(40, 'a');
  repo.git({"update-ref", "refs/ws/junk", base});
  repo.git({"update-ref", "refs/ws/applied/" + blob, base});             // a blob's id: no proposal
  repo.git({"update-ref", "refs/ws/rejected/" + base, base});            // a commit, but no proposal
  repo.git({"update-ref", "refs/ws/superseded/default/not-an-id", base});
  repo.git({"update-ref", "refs/ws/applied/" + fake, base});              // an id of nothing
  repo.git({"symbolic-ref", "refs/ws/rejected/" + std::string(40, 'b'), "refs/heads/main"});
  std::string before = refs(repo);

  auto r = ws(repo, "ws-apply", {"--prune"});
  CHECK(r.status == 0);
  CHECK(r.out == "nothing to prune\n");
  CHECK(wstest::sorted_lines(r.err) ==
        wstest::sorted_lines("ws-apply: warning: left 'refs/ws/junk': it is no proposal's ref\n"
                             "ws-apply: warning: left 'refs/ws/applied/" + blob + "': it is no proposal's ref\n"
                             "ws-apply: warning: left 'refs/ws/rejected/" + base + "': it is no proposal's ref\n"
                             "ws-apply: warning: left 'refs/ws/superseded/default/not-an-id': it is no proposal's ref\n"
                             "ws-apply: warning: left 'refs/ws/applied/" + fake + "': it is no proposal's ref\n"
                             "ws-apply: warning: left 'refs/ws/rejected/" + std::string(40, 'b') +
                             "': it is no proposal's ref\n"));
  CHECK(refs(repo) == before);
  CHECK(rev(repo, "refs/ws/proposals/default") == current);
}

TEST_CASE("desk: --prune racing ws-commit never deletes the proposal a session stages meanwhile",
          "[desk][prune][race]") {
  TempRepo repo;
  seed_example(repo);
  std::string billing = repo.read("agents/AGbilling01.json");
  std::vector<RunResult> commits, prunes;
  // No assertion runs on these threads (Catch2's are not thread-safe):
  // each keeps its runs, checked once both are done.
  std::thread stager([&] {
    for (int i = 0; i < 12; ++i) {
      repo.write("agents/AGbilling01.json", billing + std::string(i + 1, '\n'));
      commits.push_back(ws(repo, "ws-commit", {"-m", "Round " + std::to_string(i)}));
    }
  });
  std::thread pruner([&] {
    for (int i = 0; i < 12; ++i) prunes.push_back(ws(repo, "ws-apply", {"--prune"}));
  });
  stager.join();
  pruner.join();
  for (const auto& c : commits) {
    INFO(c.err);
    REQUIRE(c.status == 0);
  }
  for (const auto& p : prunes) {
    CHECK(p.status == 0);
    CHECK(p.err == "");
  }
  std::string last = lines(commits.back().out)[0].substr(9);
  // The last proposal staged is the session's current one, whatever was pruned.
  CHECK(rev(repo, "refs/ws/proposals/default") == last);
  auto list = ws(repo, "ws-apply", {"--list"});
  CHECK(without_age(list.out) == short12(last) + "  current     default  main  AGE  Round 11\n");
  REQUIRE(ws(repo, "ws-apply", {"--prune"}).status == 0);
  CHECK(refs(repo) == repo.git({"for-each-ref", "--format=%(refname) %(objectname)", "refs/heads"}) +
                          "refs/ws/proposals/default " + last + "\n");
}

TEST_CASE("desk: --show starts with the build result and the definitions the change affects", "[desk][show]") {
  TempRepo repo;
  seed_example(repo);
  std::string base = rev(repo, "main");
  std::string billing = repo.read("agents/AGbilling01.json");
  billing.replace(billing.find("Answers invoice"), 15, "Answers all invoice");
  repo.write("agents/AGbilling01.json", billing);
  repo.write("agents/AGdelta01.json",
             "{\n  \"name\": \"Delta\",\n  \"description\": \"d\",\n  \"prompt\": \"BillingInstructions\"\n}\n");
  std::string id = stage(repo, "Reword billing");
  const std::string header = "proposal " + id + "\nSession: default\nBranch:  refs/heads/main\nBase:    " + base +
                             "\nAuthor:  Ada Author <ada@example.com>\nState:   current\n\n";
  const std::string review =
      "Build:\n"
      "  2 files changed, compiled clean.\n"
      "Definitions:\n"
      "  modified  agent 'Billing'  agents/AGbilling01.json\n"
      "  added     agent 'Delta'  agents/AGdelta01.json\n"
      "Referrers:\n"
      "  access-grant 'support-can-triage'  access/grants/GTsupport01.json: refers to agent 'Billing' (modified)\n"
      "  agent 'Triage'  agents/AGtriage01.json: refers to agent 'Billing' (modified)\n"
      "  ai-tool 'RouteTicket'  ai-tools/TLroute01.cs: refers to agent 'Billing' (modified)\n\n";
  const std::string stat =
      " agents/AGbilling01.json | 2 +-\n agents/AGdelta01.json   | 5 +++++\n"
      " 2 files changed, 6 insertions(+), 1 deletion(-)\n create mode 100644 agents/AGdelta01.json\n";
  auto shown = ws(repo, "ws-apply", {"--show", id, "--stat"});
  INFO(shown.err);
  CHECK(shown.status == 0);
  CHECK(shown.out == header + review + "    Reword billing\n\n" + stat);

  // On a terminal (--color=always stands in for one): the diff and the
  // diffstat byte for byte as git colours them.
  auto coloured = ws(repo, "ws-apply", {"--show", id, "--color=always"});
  CHECK(coloured.status == 0);
  std::string git_diff = repo.git({"diff", "--color=always", base, id});
  std::string git_stat = repo.git({"diff", "--stat", "--summary", "--color=always", base, id});
  CHECK(coloured.out == "\x1b[33mproposal " + id + "\x1b[m\n" + header.substr(header.find('\n') + 1) + review +
                            "    Reword billing\n\n" + git_stat + "\n" + git_diff);
  // NO_COLOR and --color=never: no escape sequence at all.
  auto plain = ws(repo, "ws-apply", {"--show", id}, {{"NO_COLOR", "1"}});
  CHECK(plain.out.find('\x1b') == std::string::npos);
  CHECK(plain.out == header + review + "    Reword billing\n\n" + stat + "\n" + repo.git({"diff", base, id}));

  auto json = ws(repo, "ws-apply", {"--show", id, "--json", "--stat"});
  REQUIRE(json.status == 0);
  auto records = lines(json.out);
  auto doc = nlohmann::json::parse(records.at(0));
  CHECK(doc["build"] == nlohmann::json::parse(R"({"built": true, "clean": true, "errors": 0, "warnings": 0,
      "summary": "2 files changed, compiled clean.", "diagnostics": []})"));
  CHECK(doc["definitions"] == nlohmann::json::parse(R"([
      {"change": "modified", "kind": "agent", "name": "Billing", "path": "agents/AGbilling01.json"},
      {"change": "added", "kind": "agent", "name": "Delta", "path": "agents/AGdelta01.json"}])"));
  CHECK(doc["referrers"].size() == 3);
  CHECK(doc["referrers"][1] == nlohmann::json::parse(R"({"kind": "agent", "name": "Triage",
      "path": "agents/AGtriage01.json", "reaches": [{"kind": "agent", "name": "Billing", "change": "modified"}]})"));
  // Then the plan, as ws-build --json writes it: what changed, down to the field.
  REQUIRE(records.size() > 3);
  CHECK(records[1] == R"({"type":"change","version":1,"change":"modified","kind":"agent","name":"Billing",)"
                      R"("path":"agents/AGbilling01.json","fields":["description"]})");
  CHECK(records[2] == R"({"type":"change","version":1,"change":"added","kind":"agent","name":"Delta",)"
                      R"("path":"agents/AGdelta01.json"})");
  CHECK(rev(repo, "main") == base);
}

TEST_CASE("desk: --show of a hand-made rename that breaks its referrers shows the diagnostics", "[desk][show]") {
  TempRepo repo;
  seed_example(repo);
  std::string base = rev(repo, "main");
  std::string billing = repo.read("agents/AGbilling01.json");
  billing.replace(billing.find("\"Billing\""), 9, "\"Payments\"");
  std::string blob = wstest::write_blob(repo, billing);
  std::string agents = wstest::tree_with(repo, rev(repo, "main^{tree}"), "agents",
                                         {"100644", "AGbilling01.json", blob});
  std::string id = wstest::plant_proposal(repo, {agents, base, "Rename billing"});
  auto shown = ws(repo, "ws-apply", {"--show", id, "--stat"});
  CHECK(shown.status == 0);
  std::string note =
      "  agents/AGbilling01.json:2:12: note: 'Billing' was renamed to 'Payments' in agents/AGbilling01.json\n"
      "    \"name\": \"Payments\",\n"
      "             ^~~~~~~~\n";
  std::string expected =
      "Build:\n"
      "  access/grants/GTsupport01.json:5:25: error[WS013]: unresolved reference to agent 'Billing'\n"
      "    \"agents\": [\"Triage\", \"Billing\"]\n"
      "                          ^~~~~~~\n" + note +
      "  agents/AGtriage01.json:8:17: error[WS013]: unresolved reference to agent 'Billing'\n"
      "    \"handoffs\": [\"Billing\"]\n"
      "                  ^~~~~~~\n" + note +
      "  ai-tools/TLroute01.cs:8:18: error[WS013]: unresolved reference 'Agents.Billing'\n"
      "      return await Agents.Billing.Handoff(ticket);\n"
      "                   ^~~~~~~~~~~~~~\n" + note +
      "  3 errors in 3 files (1 file changed)\n"
      "Definitions:\n"
      "  renamed   agent 'Billing' to 'Payments'  agents/AGbilling01.json\n"
      "Referrers:\n"
      "  access-grant 'support-can-triage'  access/grants/GTsupport01.json: refers to agent 'Billing' (renamed)\n"
      "  agent 'Triage'  agents/AGtriage01.json: refers to agent 'Billing' (renamed)\n"
      "  ai-tool 'RouteTicket'  ai-tools/TLroute01.cs: refers to agent 'Billing' (renamed)\n\n"
      "    Rename billing\n";
  CHECK(shown.out.substr(shown.out.find("Build:\n"), expected.size()) == expected);
  auto json = ws(repo, "ws-apply", {"--show", id, "--json", "--stat"});
  auto doc = nlohmann::json::parse(lines(json.out).at(0));
  CHECK(doc["build"]["clean"] == false);
  CHECK(doc["build"]["errors"] == 3);
  CHECK(doc["build"]["diagnostics"][0]["code"] == "WS013");
  CHECK(doc["definitions"][0]["old_name"] == "Billing");
}

TEST_CASE("desk: --show of a proposal whose tree is not canonical says it was not built", "[desk][show]") {
  TempRepo repo;
  seed_example(repo);
  std::string base = rev(repo, "main");
  std::string blob = wstest::write_blob(repo, "{\n  \"name\": \"Beta\"\n}\n");
  std::string tree = wstest::tree_with(repo, rev(repo, "main^{tree}"), "agents", {"100664", "AGbeta01.json", blob});
  std::string id = wstest::plant_proposal(repo, {tree, base, "Odd mode"});
  auto shown = ws(repo, "ws-apply", {"--show", id, "--stat"});
  CHECK(shown.status == 0);
  INFO(shown.out);
  CHECK(shown.out.find("\nBuild:\n  not built: refused path 'agents/AGbeta01.json': mode 100664 is a regular file with "
                       "permissions git does not write; a proposal holds regular files (100644, 100755) and folders "
                       "only\n\n    Odd mode\n") != std::string::npos);
}

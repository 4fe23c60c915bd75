// Approval integrity end to end: the branch ws-apply moves, what records an
// application, the approver it records and refuses, and sessions kept per
// worktree. Each case is what a hostile author (or a careless approver)
// would try; refs, branch and index are checked on disk after each.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "support/process.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::lines;
using wstest::RunResult;
using wstest::TempRepo;

namespace {

using Env = std::map<std::string, std::string>;

const std::string kTool =
    "// name: EscalateTicket\n"
    "// description: Hands a ticket to the triage agent\n"
    "return await Agents.Triage.Run(args.Ticket);\n";

std::string skill(const std::string& name, const std::string& body) {
  return "---\nname: " + name + "\n---\n" + body + "\n";
}

// Runs a tool as the author Ada (staging) and the approver Ada Approver
// (applying) unless `env` says otherwise.
RunResult ws(const std::string& dir, const std::string& tool, std::vector<std::string> args, Env env = {}) {
  Env defaults{{"GIT_AUTHOR_NAME", "Ada Author"},
               {"GIT_AUTHOR_EMAIL", "ada@example.com"},
               {"GIT_COMMITTER_NAME", tool == "ws-apply" ? "Ada Approver" : "Ada Author"},
               {"GIT_COMMITTER_EMAIL", tool == "ws-apply" ? "approver@example.com" : "ada@example.com"}};
  env.insert(defaults.begin(), defaults.end());  // keeps what `env` sets
  wstest::RunOptions o;
  o.env = std::move(env);
  return wstest::ws(tool, args, dir, o);
}
RunResult ws(const TempRepo& repo, const std::string& tool, std::vector<std::string> args, Env env = {}) {
  return ws(repo.path(), tool, std::move(args), std::move(env));
}

std::string stage_in(const std::string& dir, const std::string& message, Env env = {}) {
  return wstest::staged_id(ws(dir, "ws-commit", {"-m", message}, std::move(env)));
}
std::string stage(const TempRepo& repo, const std::string& message, Env env = {}) {
  return stage_in(repo.path(), message, std::move(env));
}

std::string rev(const TempRepo& repo, const std::string& what) { return chomp(repo.git({"rev-parse", what})); }
std::string id12(const std::string& id) { return id.substr(0, 12); }

void seed_example(const TempRepo& repo) { wstest::commit_example_workspace(repo, "Support desk workspace"); }

// Every ref, one "name id" a line: what a refusal must leave as it was.
std::string refs(const TempRepo& repo) {
  return repo.git({"for-each-ref", "--format=%(refname) %(objectname)"});
}

// The state --list --json gives the proposal `id`.
std::string state_of(const TempRepo& repo, const std::string& id) {
  auto r = ws(repo, "ws-apply", {"--list", "--all", "--json"});
  REQUIRE(r.status == 0);
  for (const auto& line : lines(r.out)) {
    if (line.find("\"id\":\"" + id + "\"") == std::string::npos) continue;
    auto at = line.find("\"state\":\"");
    REQUIRE(at != std::string::npos);
    at += 9;
    return line.substr(at, line.find('"', at) - at);
  }
  return "(not listed)";
}

// The tree of `commit` with `blob` added at `path`, written through a
// scratch index so nothing else of the repository changes.
std::string tree_with(const TempRepo& repo, const std::string& commit, const std::string& path,
                      const std::string& blob) {
  wstest::RunOptions o;
  o.cwd = repo.path();
  o.env = {{"GIT_INDEX_FILE", repo.abs(".git/scratch-index")}};
  REQUIRE(wstest::run({"git", "read-tree", commit}, o).status == 0);
  REQUIRE(wstest::run({"git", "update-index", "--add", "--cacheinfo", "100644," + blob + "," + path}, o).status == 0);
  auto tree = wstest::run({"git", "write-tree"}, o);
  REQUIRE(tree.status == 0);
  std::filesystem::remove(repo.abs(".git/scratch-index"));
  return chomp(tree.out);
}

// Applies with `args` as ws() runs it, which must succeed: the run, for the
// checks of its output a test adds.
RunResult apply_ok(const TempRepo& repo, std::vector<std::string> args, Env env = {}) {
  auto r = ws(repo, "ws-apply", std::move(args), std::move(env));
  INFO(r.err);
  REQUIRE(r.status == 0);
  return r;
}

bool fsck_clean(const TempRepo& repo) {
  auto r = repo.git_result({"fsck", "--strict", "--no-progress"});
  INFO(r.out + r.err);
  return r.status == 0;
}

}  // namespace

TEST_CASE("a --branch naming no branch is a usage error and creates nothing", "[approval]") {
  TempRepo repo;
  seed_example(repo);
  repo.git({"tag", "v1"});
  repo.git({"symbolic-ref", "refs/heads/alias", "refs/heads/main"});
  repo.write("skills/SKpolite01.md", skill("Polite", "Say please."));
  std::string id = stage(repo, "Add a politeness skill");
  const std::string before = refs(repo);
  const std::string status = repo.git({"status", "--porcelain"});
  const std::string index = repo.git({"ls-files", "-s"});
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  const std::string none = "ws-apply: no branch 'nosuch'; name an existing branch (see 'git branch')\n";
  const std::vector<Case> cases{
      {{"--branch", "nosuch", "--rebase", id}, none},
      {{"--branch", "nosuch", id}, none},
      {{"--branch", "refs/heads/nosuch", "--rebase", id}, none},
      {{"--branch", "refs/tags/v1", "--rebase", id},
       "ws-apply: 'refs/tags/v1' is not a branch; name one under refs/heads/ (see 'git branch')\n"},
      {{"--branch", "refs/ws/proposals/default", "--rebase", id},
       "ws-apply: 'refs/ws/proposals/default' is not a branch; name one under refs/heads/ (see 'git branch')\n"},
      {{"--branch", "alias", id},
       "ws-apply: branch 'alias' is a symbolic reference to 'refs/heads/main'; name the branch itself\n"},
      {{"--branch", "bad..name", "--rebase", id},
       "ws-apply: 'refs/heads/bad..name' is not a branch; name one under refs/heads/ (see 'git branch')\n"},
  };
  for (const auto& c : cases) {
    INFO(c.args[0] << " " << c.args[1]);
    auto r = ws(repo, "ws-apply", c.args);
    CHECK(r.status == 2);
    CHECK(r.out == "");
    CHECK(r.err == c.err);
    // Nothing created, nothing recorded: the proposal is as it was.
    CHECK(refs(repo) == before);
    CHECK(repo.git({"status", "--porcelain"}) == status);
    CHECK(repo.git({"ls-files", "-s"}) == index);
  }
  CHECK(state_of(repo, id) == "current");
  auto applied = apply_ok(repo, {id});
  CHECK(applied.out == "applied " + id + " to 'main' as " + rev(repo, "main") + "\n");
  CHECK(fsck_clean(repo));
}

TEST_CASE("a proposal whose recorded branch is gone or is no branch is refused", "[approval]") {
  TempRepo repo;
  seed_example(repo);
  const std::string base = rev(repo, "HEAD");
  repo.git({"checkout", "-q", "-b", "feature"});
  repo.write("skills/SKpolite01.md", skill("Polite", "Say please."));
  std::string id = stage(repo, "Add a politeness skill");
  repo.git({"stash", "-u", "-q"});
  repo.git({"checkout", "-q", "main"});
  repo.git({"branch", "-q", "-D", "feature"});
  const std::string before = refs(repo);
  for (const std::vector<std::string>& args : {std::vector<std::string>{id}, std::vector<std::string>{"--rebase", id}}) {
    auto r = ws(repo, "ws-apply", args);
    CHECK(r.status == 2);
    CHECK(r.err == "ws-apply: no branch 'feature', which proposal " + id12(id) +
                       " was staged on; pass --branch to name an existing one\n");
    CHECK(refs(repo) == before);
  }
  // Named elsewhere, it applies there.
  apply_ok(repo, {"--branch", "main", id});
  CHECK(rev(repo, "main^") == base);

  // A hand-made proposal recording a ref that is no branch.
  std::string blob = chomp(repo.git({"rev-parse", "main:skills/SKpolite01.md"}));
  for (const std::string& recorded : {"refs/ws/applied/" + id, std::string("refs/tags/v1")}) {
    INFO(recorded);
    std::string tip = rev(repo, "main");
    // Its tree adds one file, so that it is a changeset at all.
    std::string tree = tree_with(repo, tip, "skills/SKrude01.md", blob);
    std::string commit =
        chomp(repo.git({"commit-tree", "-p", tip, "-m", "Evil\n\nWs-Session: evil\nWs-Branch: " + recorded, tree}));
    repo.git({"update-ref", "refs/ws/proposals/evil", commit});
    const std::string held = refs(repo);
    auto r = ws(repo, "ws-apply", {"--rebase", commit});
    CHECK(r.status == 2);
    CHECK(r.err == "ws-apply: '" + recorded + "' is not a branch; name one under refs/heads/ (see 'git branch')\n");
    CHECK(refs(repo) == held);
  }
  // Recorded by its short name, a branch is the same branch: current, and it applies.
  std::string tip = rev(repo, "main");
  wstest::RunOptions o;
  o.cwd = repo.path();
  o.input = skill("Short", "Named by its branch's short name.");
  std::string short_blob = chomp(wstest::run({"git", "hash-object", "-w", "--stdin"}, o).out);
  std::string tree = tree_with(repo, tip, "skills/SKshort01.md", short_blob);
  std::string short_named =
      chomp(repo.git({"commit-tree", "-p", tip, "-m", "Short\n\nWs-Session: short\nWs-Branch: main", tree}));
  repo.git({"update-ref", "refs/ws/proposals/short", short_named});
  CHECK(state_of(repo, short_named) == "current");
  apply_ok(repo, {short_named});
  CHECK(rev(repo, "main^") == tip);
}

TEST_CASE("only the unborn branch a proposal was staged on may be created", "[approval]") {
  TempRepo repo;  // no commit yet: main is unborn
  repo.write("skills/SKpolite01.md", skill("Polite", "Say please."));
  std::string id = stage(repo, "First skill");
  auto elsewhere = ws(repo, "ws-apply", {"--branch", "other", id});
  CHECK(elsewhere.status == 2);
  CHECK(elsewhere.err == "ws-apply: no branch 'other'; name an existing branch (see 'git branch')\n");
  CHECK(repo.git({"for-each-ref", "refs/heads/", "refs/ws/applied/"}) == "");
  apply_ok(repo, {id});
  CHECK(repo.git({"rev-list", "main"}) == rev(repo, "main") + "\n");  // one root commit
  CHECK(rev(repo, "main^{tree}") == rev(repo, id + "^{tree}"));
  CHECK(rev(repo, "refs/ws/applied/" + id) == rev(repo, "main"));
  CHECK(repo.git({"for-each-ref", "--format=%(refname)", "refs/heads/"}) == "refs/heads/main\n");
  CHECK(fsck_clean(repo));
}

TEST_CASE("with --branch, staleness is judged against the branch it lands on", "[approval]") {
  TempRepo repo;
  seed_example(repo);
  const std::string base = rev(repo, "HEAD");
  repo.git({"checkout", "-q", "-b", "dev"});
  repo.write("skills/SKpolite01.md", skill("Polite", "The dev version."));
  const std::string dev = repo.commit_all("Dev's politeness skill");
  repo.git({"checkout", "-q", "main"});
  repo.write("skills/SKpolite01.md", skill("Polite", "The main version."));
  std::string id = stage(repo, "Main's politeness skill");
  const std::string before = refs(repo);

  auto stale = ws(repo, "ws-apply", {"--branch", "dev", id});
  CHECK(stale.status == 1);
  CHECK(stale.err == "ws-apply: proposal " + id12(id) + " is stale: branch 'dev' moved from " + id12(base) + " to " +
                         id12(dev) + " ('Dev's politeness skill'); changed on both sides: skills/SKpolite01.md\n");
  // The dev version is never overwritten by a rebase.
  auto rebase = ws(repo, "ws-apply", {"--branch", "dev", "--rebase", id});
  CHECK(rebase.status == 1);
  CHECK(rebase.err == "ws-apply: cannot rebase proposal " + id12(id) + ": branch 'dev' moved from " + id12(base) +
                          " to " + id12(dev) + " ('Dev's politeness skill') and changed skills/SKpolite01.md\n");
  CHECK(refs(repo) == before);
  CHECK(repo.git({"show", "dev:skills/SKpolite01.md"}) == skill("Polite", "The dev version."));
  // On its own branch it is current.
  apply_ok(repo, {id});
  CHECK(rev(repo, "dev") == dev);
}

TEST_CASE("a forged Proposal-Id trailer changes no proposal's state", "[approval]") {
  TempRepo repo;
  seed_example(repo);
  const std::string base = rev(repo, "HEAD");
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string id = stage(repo, "Add an escalation tool");

  // Someone commits with git, claiming to be that proposal.
  repo.git({"stash", "-u", "-q"});
  repo.write("skills/SKpolite01.md", skill("Polite", "Say please."));
  repo.git({"add", "skills/SKpolite01.md"});
  repo.git({"commit", "-q", "-m", "Sneaky\n\nProposal-Id: " + id});
  const std::string forged = rev(repo, "HEAD");
  repo.git({"stash", "pop", "-q"});

  CHECK(state_of(repo, id) == "stale");
  CHECK(repo.git({"for-each-ref", "refs/ws/applied/"}) == "");
  auto r = ws(repo, "ws-apply", {id});
  CHECK(r.status == 1);
  CHECK(r.err == "ws-apply: proposal " + id12(id) + " is stale: branch 'main' moved from " + id12(base) + " to " +
                     id12(forged) + " ('Sneaky'); none of its paths changed there, so --rebase can apply it\n");
  apply_ok(repo, {"--rebase", id});
  CHECK(rev(repo, "main^") == forged);
  CHECK(rev(repo, "refs/ws/applied/" + id) == rev(repo, "main"));
  CHECK(state_of(repo, id) == "applied");
  CHECK(fsck_clean(repo));
}

TEST_CASE("a proposal whose message names another proposal does not mark it applied", "[approval]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string victim = stage(repo, "Add an escalation tool", {{"WS_SESSION", "victim"}});
  repo.remove("ai-tools/TLescalate01.cs");
  repo.write("skills/SKpolite01.md", skill("Polite", "Say please."));
  std::string evil = stage(repo, "Tidy\n\nProposal-Id: " + victim, {{"WS_SESSION", "evil"}});
  apply_ok(repo, {evil});
  CHECK(repo.git({"log", "-1", "--format=%B", "main"}) ==
        "Tidy\n\nProposal-Id: " + victim + "\n\nProposal-Id: " + evil +
            "\nApproved-by: Ada Approver <approver@example.com>\n\n");
  CHECK(state_of(repo, victim) == "stale");
  apply_ok(repo, {"--rebase", victim});
  CHECK(rev(repo, "refs/ws/applied/" + victim) == rev(repo, "main"));
}

TEST_CASE("the commit ws-apply makes records the approver in an Approved-by trailer", "[approval]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string id = stage(repo, "Add an escalation tool");
  apply_ok(repo, {id}, {{"GIT_COMMITTER_NAME", "Bea Boss"}, {"GIT_COMMITTER_EMAIL", "bea@example.com"}});
  CHECK(repo.git({"log", "-1", "--format=%an <%ae>|%cn <%ce>", "main"}) ==
        "Ada Author <ada@example.com>|Bea Boss <bea@example.com>\n");
  // git itself reads the trailers back.
  CHECK(repo.git({"log", "-1", "--format=%(trailers:only,unfold)", "main"}) ==
        "Proposal-Id: " + id + "\nApproved-by: Bea Boss <bea@example.com>\n\n");
}

TEST_CASE("an identity with a control character is refused, nothing written", "[approval]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("ai-tools/TLescalate01.cs", kTool);
  // A newline would end the committer header and forge an Approved-by line.
  auto staged = ws(repo, "ws-commit", {"-m", "Add"}, {{"GIT_AUTHOR_NAME", "Eve\nApproved-by: Bea Boss <bea@example.com>"}});
  CHECK(staged.status == 2);
  CHECK(staged.err == "ws-commit: invalid author identity: a control character in its name or e-mail "
                      "(GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL, user.name, user.email)\n");
  CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");
  std::string id = stage(repo, "Add an escalation tool");
  const std::string before = refs(repo);
  for (const char* name : {"Eve\nApproved-by: Bea Boss <bea@example.com>", "Eve\x1b[2K", "Eve\r"}) {
    auto r = ws(repo, "ws-apply", {id}, {{"GIT_COMMITTER_NAME", name}});
    CHECK(r.status == 2);
    CHECK(r.err == "ws-apply: invalid committer identity: a control character in its name or e-mail "
                   "(GIT_COMMITTER_NAME, GIT_COMMITTER_EMAIL, user.name, user.email)\n");
    CHECK(refs(repo) == before);
  }
  CHECK(fsck_clean(repo));
}

TEST_CASE("commit dates are read in git's formats, and one git would not read is refused", "[approval]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("ai-tools/TLescalate01.cs", kTool);
  // git's internal format, as scripts set it; git reads it the same.
  std::string id = stage(repo, "Add", {{"GIT_AUTHOR_DATE", "1112904793 +0200"}, {"GIT_COMMITTER_DATE", "1112904793 +0200"}});
  CHECK(repo.git({"log", "-1", "--format=%ad|%cd", "--date=iso-strict", id}) ==
        "2005-04-07T22:13:13+02:00|2005-04-07T22:13:13+02:00\n");
  const std::string before = refs(repo);
  auto bad = ws(repo, "ws-commit", {"-m", "Again"}, {{"GIT_AUTHOR_DATE", "yesterday\x1b[2J"}});
  CHECK(bad.status == 2);
  CHECK(bad.err == "ws-commit: invalid date in GIT_AUTHOR_DATE: 'yesterday\\x1b[2J'; use '<seconds> +hhmm', "
                   "RFC 2822 or ISO 8601, as git does\n");
  CHECK(refs(repo) == before);
  auto applied = ws(repo, "ws-apply", {id}, {{"GIT_COMMITTER_DATE", "Thu, 07 Apr 2005 22:13:13"}});
  CHECK(applied.status == 2);
  CHECK(applied.err == "ws-apply: invalid date in GIT_COMMITTER_DATE: 'Thu, 07 Apr 2005 22:13:13'; use '<seconds> "
                       "+hhmm', RFC 2822 or ISO 8601, as git does\n");
  CHECK(refs(repo) == before);
  applied = ws(repo, "ws-apply", {id}, {{"GIT_COMMITTER_DATE", "Thu, 07 Apr 2005 23:13:13 +0200"}});
  REQUIRE(applied.status == 0);
  CHECK(repo.git({"log", "-1", "--format=%cd", "--date=raw", "main"}) == "1112908393 +0200\n");
  CHECK(fsck_clean(repo));
}

TEST_CASE("a workspace may refuse an approver who is the author", "[approval]") {
  TempRepo repo;
  seed_example(repo);
  repo.write(".ws/config.json", "{\"approval\": {\"distinct_approver\": true}}\n");
  repo.commit_all("Approvals need a second person");
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string id = stage(repo, "Add an escalation tool");
  const std::string before = refs(repo);

  // The same e-mail address, whatever its case and whatever the name.
  auto self = ws(repo, "ws-apply", {id}, {{"GIT_COMMITTER_NAME", "A. Author"}, {"GIT_COMMITTER_EMAIL", "ADA@Example.com"}});
  CHECK(self.status == 1);
  CHECK(self.err == "ws-apply: proposal " + id12(id) +
                        " refused: approver 'A. Author <ADA@Example.com>' is its author 'Ada Author <ada@example.com>'; "
                        "this workspace requires another approver (.ws/config.json: approval.distinct_approver)\n");
  CHECK(refs(repo) == before);
  CHECK(state_of(repo, id) == "current");

  apply_ok(repo, {id});
  CHECK(rev(repo, "refs/ws/applied/" + id) == rev(repo, "main"));
}

TEST_CASE("the identity that staged a proposal cannot approve it either", "[approval]") {
  TempRepo repo;
  seed_example(repo);
  repo.write(".ws/config.json", "{\"approval\": {\"distinct_approver\": true}}\n");
  repo.commit_all("Approvals need a second person");
  repo.write("ai-tools/TLescalate01.cs", kTool);
  // An agent stages in a human's name...
  std::string id = stage(repo, "Add an escalation tool",
                         {{"GIT_COMMITTER_NAME", "Agent Seven"}, {"GIT_COMMITTER_EMAIL", "agent-7@example.com"}});
  // ... and approves as itself.
  auto r = ws(repo, "ws-apply", {id}, {{"GIT_COMMITTER_NAME", "Agent Seven"}, {"GIT_COMMITTER_EMAIL", "agent-7@example.com"}});
  CHECK(r.status == 1);
  CHECK(r.err == "ws-apply: proposal " + id12(id) +
                     " refused: approver 'Agent Seven <agent-7@example.com>' staged it as 'Agent Seven "
                     "<agent-7@example.com>'; this workspace requires another approver (.ws/config.json: "
                     "approval.distinct_approver)\n");
  CHECK(repo.git({"for-each-ref", "refs/ws/applied/"}) == "");
}

TEST_CASE("a proposal cannot lift the distinct-approver rule for itself", "[approval]") {
  TempRepo repo;
  seed_example(repo);
  repo.write(".ws/config.json", "{\"approval\": {\"distinct_approver\": true}}\n");
  const std::string base = repo.commit_all("Approvals need a second person");
  repo.write(".ws/config.json", "{\"approval\": {\"distinct_approver\": false}}\n");
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string id = stage(repo, "Add an escalation tool and relax approvals");
  const std::string before = refs(repo);
  // A policy change, so it is let through that gate: the approver rule must still hold.
  auto r = ws(repo, "ws-apply", {"--allow-policy-change", id},
              {{"GIT_COMMITTER_NAME", "Ada Author"}, {"GIT_COMMITTER_EMAIL", "ada@example.com"}});
  CHECK(r.status == 1);
  CHECK(r.err == "ws-apply: proposal " + id12(id) +
                     " refused: approver 'Ada Author <ada@example.com>' is its author 'Ada Author <ada@example.com>'; "
                     "this workspace requires another approver (.ws/config.json: approval.distinct_approver)\n");
  CHECK(refs(repo) == before);
  CHECK(rev(repo, "main") == base);
}

TEST_CASE("a proposal staged before the rule was turned on is checked against where it lands", "[approval]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string id = stage(repo, "Add an escalation tool");
  // The workspace turns the rule on after the proposal was staged.
  repo.git({"stash", "-u", "-q"});
  repo.write(".ws/config.json", "{\"approval\": {\"distinct_approver\": true}}\n");
  const std::string tip = repo.commit_all("Approvals need a second person");
  repo.git({"stash", "pop", "-q"});
  const std::string before = refs(repo);
  Env self{{"GIT_COMMITTER_NAME", "Ada Author"}, {"GIT_COMMITTER_EMAIL", "ada@example.com"}};
  auto r = ws(repo, "ws-apply", {"--rebase", id}, self);
  CHECK(r.status == 1);
  CHECK(r.err.rfind("ws-apply: proposal " + id12(id) + " refused: approver 'Ada Author <ada@example.com>' is its author", 0) == 0);
  CHECK(refs(repo) == before);
  apply_ok(repo, {"--rebase", id});
  CHECK(rev(repo, "main^") == tip);
}

TEST_CASE("two worktrees' default sessions keep two proposals, both applied in turn", "[approval][session]") {
  TempRepo repo;
  seed_example(repo);
  const std::string base = rev(repo, "HEAD");
  wstest::TempDir parent;
  const std::string wt = parent.path() + "/feature";
  repo.git({"worktree", "add", "-q", "-b", "feature", wt});

  repo.write("skills/SKpolite01.md", skill("Polite", "Say please."));
  std::string main_id = stage(repo, "Add a politeness skill");
  {
    std::ofstream(wt + "/skills/SKkind01.md") << skill("Kind", "Be kind.");
  }
  auto in_wt = ws(wt, "ws-commit", {"-m", "Add a kindness skill"});
  INFO(in_wt.err);
  REQUIRE(in_wt.status == 0);
  std::string wt_id = lines(in_wt.out)[0].substr(9);
  CHECK(lines(in_wt.out)[1] == "session  default@feature");
  CHECK(in_wt.out.find("supersedes") == std::string::npos);
  CHECK(rev(repo, "refs/ws/proposals/default") == main_id);
  CHECK(rev(repo, "refs/ws/proposals/default@feature") == wt_id);
  CHECK(repo.git({"for-each-ref", "refs/ws/superseded/"}) == "");
  CHECK(repo.git({"log", "-1", "--format=%(trailers:key=Ws-Session,valueonly)", wt_id}) == "default@feature\n\n");

  // Both are current, each under its own session key, from either worktree.
  for (const std::string& dir : {repo.path(), wt}) {
    INFO(dir);
    auto list = ws(dir, "ws-apply", {"--list"});
    REQUIRE(list.status == 0);
    auto ls = lines(list.out);
    REQUIRE(ls.size() == 2);
    std::string main_line = ls[0].rfind(id12(main_id), 0) == 0 ? ls[0] : ls[1];
    std::string wt_line = ls[0].rfind(id12(wt_id), 0) == 0 ? ls[0] : ls[1];
    CHECK(main_line.rfind(id12(main_id) + "  current     default  main  ", 0) == 0);
    CHECK(wt_line.rfind(id12(wt_id) + "  current     default@feature  feature  ", 0) == 0);
    std::map<std::string, std::pair<std::string, nlohmann::json>> by_id;
    for (const auto& line : lines(ws(dir, "ws-apply", {"--list", "--all", "--json"}).out)) {
      auto j = nlohmann::json::parse(line);
      by_id[j.at("id")] = {j.at("session"), j.at("worktree")};
    }
    CHECK(by_id[main_id] == std::make_pair(std::string("default"), nlohmann::json()));
    CHECK(by_id[wt_id] == std::make_pair(std::string("default@feature"), nlohmann::json("feature")));
  }
  auto only_wt = ws(repo, "ws-apply", {"--list", "--session", "default@feature"});
  CHECK(only_wt.status == 0);
  CHECK(lines(only_wt.out).size() == 1);
  CHECK(only_wt.out.rfind(id12(wt_id), 0) == 0);
  CHECK(lines(ws(repo, "ws-apply", {"--list", "--session", "default"}).out).size() == 2);

  // The main worktree's proposal first; the other then lands on main by --rebase.
  apply_ok(repo, {main_id});
  const std::string after_first = rev(repo, "main");
  auto stale = ws(repo, "ws-apply", {"--branch", "main", wt_id});
  CHECK(stale.status == 1);
  CHECK(stale.err == "ws-apply: proposal " + id12(wt_id) + " is stale: branch 'main' moved from " + id12(base) +
                         " to " + id12(after_first) +
                         " ('Add a politeness skill'); none of its paths changed there, so --rebase can apply it\n");
  // From the linked worktree it is refused: main is checked out in the main
  // worktree, whose index would be left behind (ws-apply(1), THE INDEX).
  auto elsewhere = ws(wt, "ws-apply", {"--branch", "main", "--rebase", wt_id});
  CHECK(elsewhere.status == 1);
  CHECK(elsewhere.err == "ws-apply: branch 'main' is checked out in the worktree '" +
                             std::filesystem::canonical(repo.path()).string() +
                             "'; run ws-apply there, so that its index follows\n");
  CHECK(rev(repo, "main") == after_first);
  apply_ok(repo, {"--branch", "main", "--rebase", wt_id});
  CHECK(rev(repo, "main^") == after_first);
  CHECK(repo.git({"diff-tree", "-r", "--name-status", base, "main"}) ==
        "A\tskills/SKkind01.md\nA\tskills/SKpolite01.md\n");
  CHECK(rev(repo, "feature") == base);
  CHECK(state_of(repo, main_id) == "applied");
  CHECK(state_of(repo, wt_id) == "applied");
  CHECK(fsck_clean(repo));
}

TEST_CASE("every session's proposal is listed, and only --session filters", "[approval][session]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("skills/SKpolite01.md", skill("Polite", "Say please."));
  std::string agent = stage(repo, "From an agent", {{"WS_SESSION", "agent-7"}});
  repo.write("skills/SKkind01.md", skill("Kind", "Be kind."));
  std::string mine = stage(repo, "From the default session");

  // An approver's plain --list, even with WS_SESSION set in the shell.
  for (const Env& env : {Env{}, Env{{"WS_SESSION", "default"}}}) {
    auto list = ws(repo, "ws-apply", {"--list"}, env);
    REQUIRE(list.status == 0);
    CHECK(lines(list.out).size() == 2);
    CHECK(list.out.find(id12(agent) + "  current     agent-7  main  ") != std::string::npos);
    CHECK(list.out.find(id12(mine) + "  current     default  main  ") != std::string::npos);
  }
  auto filtered = ws(repo, "ws-apply", {"--list", "--session", "agent-7"});
  CHECK(filtered.status == 0);
  CHECK(lines(filtered.out).size() == 1);
  CHECK(filtered.out.rfind(id12(agent) + "  current     agent-7  main  ", 0) == 0);
  auto both = ws(repo, "ws-apply", {"--list", "--session", "agent-7", "--all-sessions"});
  CHECK(lines(both.out).size() == 2);
  CHECK(ws(repo, "ws-apply", {"--list", "--session", "nobody"}).out == "");
  for (const char* bad : {"../x", "a@", "@wt", "a@b/c", "a b"}) {
    INFO(bad);
    auto r = ws(repo, "ws-apply", {"--list", "--session", bad});
    CHECK(r.status == 2);
    CHECK(r.out == "");
    CHECK(r.err == std::string("ws-apply: invalid session '") + bad +
                       "': give a session name, or NAME@WORKTREE as ws-apply --list shows it\n");
  }
  // No tool stages under a worktree-qualified name by hand.
  auto forged = ws(repo, "ws-commit", {"--session", "default@feature", "-m", "x"});
  CHECK(forged.status == 2);
  CHECK(repo.git({"for-each-ref", "--format=%(refname)", "refs/ws/proposals/"}) ==
        "refs/ws/proposals/agent-7\nrefs/ws/proposals/default\n");
}

TEST_CASE("a linked worktree whose name is no ref name component cannot stage", "[approval][session]") {
  TempRepo repo;
  seed_example(repo);
  wstest::TempDir parent;
  const std::string wt = parent.path() + "/odd";
  repo.git({"worktree", "add", "-q", "--detach", wt});
  // git sanitises the names it makes; one renamed by hand is not.
  std::filesystem::rename(repo.abs(".git/worktrees/odd"), repo.abs(".git/worktrees/odd name"));
  std::ofstream(wt + "/.git") << "gitdir: " << repo.abs(".git/worktrees/odd name") << "\n";
  std::ofstream(wt + "/skills/SKodd01.md") << skill("Odd", "Odd.");
  auto r = ws(wt, "ws-commit", {"-m", "Odd"});
  CHECK(r.status == 2);
  CHECK(r.out == "");
  CHECK(r.err == "ws-commit: linked worktree name 'odd name' cannot qualify a session: it is not a valid ref name "
                 "component; add the worktree again under a plain name (git worktree add)\n");
  CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");
}

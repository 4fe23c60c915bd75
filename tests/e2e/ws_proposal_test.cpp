// ws-commit and ws-apply end to end: real repositories, real binaries, and
// git itself as the judge of what landed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <thread>

#include "support/process.h"
#include "support/proposal_tools.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::lines;
using wstest::RunResult;
using wstest::TempRepo;

using wstest::fsck_clean;
using wstest::rev;
using wstest::stage;
using wstest::ws;
namespace {

const std::string kTool =
    "// name: EscalateTicket\n"
    "// description: Hands a ticket to the triage agent\n"
    "return await Agents.Triage.Run(args.Ticket);\n";

// The id printed on ws-commit's first line ("proposal <id>").
std::string proposal_id(const RunResult& r) {
  auto ls = lines(r.out);
  REQUIRE(!ls.empty());
  REQUIRE(ls[0].rfind("proposal ", 0) == 0);
  return ls[0].substr(9);
}

void seed_example(const TempRepo& repo) {
  wstest::commit_example_workspace(repo, "Support desk workspace");
}

}  // namespace

TEST_CASE("stage, show and apply give exactly one commit holding the staged bytes", "[proposal]") {
  TempRepo repo;
  seed_example(repo);
  std::string base = rev(repo, "HEAD");
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string triage = repo.read("agents/AGtriage01.json");
  triage.replace(triage.find("routes it"), 9, "sends it");
  repo.write("agents/AGtriage01.json", triage);
  std::string status_before = repo.git({"status", "--porcelain"});

  auto staged = ws(repo, "ws-commit", {"-m", "Add an escalation tool"});
  INFO(staged.err);
  REQUIRE(staged.status == 0);
  std::string id = proposal_id(staged);
  CHECK(staged.out == "proposal " + id + "\nsession  default\nbase     " + base +
                          "\n agents/AGtriage01.json   | 2 +-\n ai-tools/TLescalate01.cs | 3 +++\n"
                          " 2 files changed, 4 insertions(+), 1 deletion(-)\n create mode 100644 ai-tools/TLescalate01.cs\n");
  // Nothing else moved: branch, index and working tree are as they were.
  CHECK(rev(repo, "HEAD") == base);
  CHECK(repo.git({"status", "--porcelain"}) == status_before);
  CHECK(rev(repo, "refs/ws/proposals/default") == id);
  CHECK(rev(repo, id + "^") == base);
  CHECK(repo.git({"diff-tree", "-r", "--name-status", base, id}) ==
        "M\tagents/AGtriage01.json\nA\tai-tools/TLescalate01.cs\n");

  auto shown = ws(repo, "ws-apply", {"--show", id});
  CHECK(shown.status == 0);
  CHECK(shown.out.find("diff --git a/ai-tools/TLescalate01.cs b/ai-tools/TLescalate01.cs\n") != std::string::npos);
  CHECK(shown.out.find("+return await Agents.Triage.Run(args.Ticket);\n") != std::string::npos);
  CHECK(shown.out.find("-  \"description\": \"Reads a new ticket and routes it to the right queue\",\n") !=
        std::string::npos);

  auto applied = ws(repo, "ws-apply", {id});
  INFO(applied.err);
  REQUIRE(applied.status == 0);
  CHECK(applied.out == "applied " + id + " to 'main' as " + rev(repo, "main") + "\n");
  CHECK(chomp(repo.git({"rev-list", "--count", base + "..main"})) == "1");
  CHECK(rev(repo, "main^{tree}") == rev(repo, id + "^{tree}"));
  CHECK(rev(repo, "main^") == base);
  CHECK(repo.git({"log", "-1", "--format=%an|%cn|%B", "main"}) ==
        "Ada Author|Ada Approver|Add an escalation tool\n\nProposal-Id: " + id +
            "\nApproved-by: Ada Approver <approver@example.com>\n\n");
  CHECK(repo.git({"reflog", "-1", "--format=%gs", "main"}) == "ws-apply: proposal " + id + "\n");
  CHECK(fsck_clean(repo));
  // The index followed; the working tree already had these bytes.
  CHECK(repo.git({"status", "--porcelain"}) == "");

  auto again = ws(repo, "ws-apply", {id});
  CHECK(again.status == 1);
  CHECK(again.err == "ws-apply: proposal " + id.substr(0, 12) + " was already applied as " +
                         rev(repo, "main").substr(0, 12) + "\n");
}

TEST_CASE("an edit made after staging is not applied and stays pending", "[proposal]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string id = stage(repo, "Add an escalation tool");
  std::string later = kTool + "// a later thought\n";
  repo.write("ai-tools/TLescalate01.cs", later);
  auto applied = ws(repo, "ws-apply", {id});
  INFO(applied.err);
  REQUIRE(applied.status == 0);
  CHECK(repo.git({"show", "main:ai-tools/TLescalate01.cs"}) == kTool);
  CHECK(repo.read("ai-tools/TLescalate01.cs") == later);
  CHECK(repo.git({"status", "--porcelain"}) == " M ai-tools/TLescalate01.cs\n");
  CHECK(fsck_clean(repo));
}

TEST_CASE("a second ws-commit supersedes the first, which is then refused", "[proposal]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string first = stage(repo, "First try");
  repo.write("ai-tools/TLescalate01.cs", kTool + "// second try\n");
  auto second_run = ws(repo, "ws-commit", {"-m", "Second try"});
  REQUIRE(second_run.status == 0);
  std::string second = proposal_id(second_run);
  CHECK(second_run.out.find("supersedes " + first + "\n") != std::string::npos);
  std::string head = rev(repo, "HEAD");
  auto old = ws(repo, "ws-apply", {first});
  CHECK(old.status == 1);
  CHECK(old.err == "ws-apply: proposal " + first.substr(0, 12) + " is superseded by " + second.substr(0, 12) +
                       "; review and apply that one instead\n");
  CHECK(rev(repo, "HEAD") == head);
  auto list = ws(repo, "ws-apply", {"--list", "--all", "--json"});
  CHECK(list.status == 0);
  CHECK(list.out.find("\"id\":\"" + first + "\"") != std::string::npos);
  CHECK(list.out.find("\"state\":\"superseded\"") != std::string::npos);
  CHECK(list.out.find("\"state\":\"current\"") != std::string::npos);
  CHECK(ws(repo, "ws-apply", {second}).status == 0);
}

TEST_CASE("a proposal whose branch moved is stale, named, and --rebase applies it", "[proposal]") {
  TempRepo repo;
  seed_example(repo);
  std::string base = rev(repo, "HEAD");
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string id = stage(repo, "Add an escalation tool");
  // Someone else lands an unrelated change meanwhile.
  repo.git({"stash", "-u", "-q"});
  repo.write("skills/SKpolite01.md", "---\nname: Polite\n---\nSay please.\n");
  std::string moved = repo.commit_all("Add a politeness skill");
  repo.git({"stash", "pop", "-q"});

  auto stale = ws(repo, "ws-apply", {id});
  CHECK(stale.status == 1);
  CHECK(stale.err == "ws-apply: proposal " + id.substr(0, 12) + " is stale: branch 'main' moved from " +
                         base.substr(0, 12) + " to " + moved.substr(0, 12) +
                         " ('Add a politeness skill'); none of its paths changed there, so --rebase can apply it\n");
  CHECK(rev(repo, "main") == moved);
  auto list = ws(repo, "ws-apply", {"--list"});
  CHECK(list.out.find("stale") != std::string::npos);
  CHECK(list.out.find("no path collides") != std::string::npos);

  auto rebased = ws(repo, "ws-apply", {"--rebase", id});
  INFO(rebased.err);
  REQUIRE(rebased.status == 0);
  CHECK(rebased.out.find("(rebased)") != std::string::npos);
  CHECK(rev(repo, "main^") == moved);
  CHECK(repo.git({"diff-tree", "-r", "--name-status", moved, "main"}) == "A\tai-tools/TLescalate01.cs\n");
  CHECK(fsck_clean(repo));
}

TEST_CASE("a rebase is refused when the branch changed one of the proposal's paths", "[proposal]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string id = stage(repo, "Add an escalation tool");
  repo.git({"add", "ai-tools/TLescalate01.cs"});
  repo.git({"commit", "-q", "-m", "Someone else's escalation tool"});
  std::string tip = rev(repo, "HEAD");
  auto r = ws(repo, "ws-apply", {"--rebase", id});
  CHECK(r.status == 1);
  CHECK(r.err.find("ws-apply: cannot rebase proposal " + id.substr(0, 12)) == 0);
  CHECK(r.err.find("ai-tools/TLescalate01.cs") != std::string::npos);
  CHECK(rev(repo, "main") == tip);
  auto stale = ws(repo, "ws-apply", {id});
  CHECK(stale.err.find("; changed on both sides: ai-tools/TLescalate01.cs\n") != std::string::npos);
}

TEST_CASE("a broken changeset writes no proposal", "[proposal]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("ai-tools/TLbroken01.cs", "// name: Broken\nreturn await Agents.Nobody.Run();\n");
  auto r = ws(repo, "ws-commit", {"-m", "Broken"});
  CHECK(r.status == 1);
  CHECK(r.out == "");
  CHECK(r.err.find("ai-tools/TLbroken01.cs:2:14: error[WS010]") != std::string::npos);
  CHECK(r.err.find("ws-commit: refused: the changeset does not build; no proposal was written\n") !=
        std::string::npos);
  CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");
}

TEST_CASE("ws-commit refuses an empty changeset, a secret, and a missing message", "[proposal]") {
  TempRepo repo;
  seed_example(repo);
  auto empty = ws(repo, "ws-commit", {"-m", "Nothing"});
  CHECK(empty.status == 1);
  CHECK(empty.err == "ws-commit: nothing to propose: the view has no pending changes\n");
  auto no_msg = ws(repo, "ws-commit", {});
  CHECK(no_msg.status == 2);
  CHECK(no_msg.err == "ws-commit: a proposal needs a message: pass -m MSG\n");
  repo.write(".secrets/NewKey", "canary-secret-1234\n");
  auto secret = ws(repo, "ws-commit", {"-m", "Add a key"});
  CHECK(secret.status == 1);
  CHECK(secret.err.find("refused path '.secrets/NewKey': secret") != std::string::npos);
  CHECK(secret.out.find("canary") == std::string::npos);
  CHECK(secret.err.find("canary") == std::string::npos);
  CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");
}

TEST_CASE("ws-commit refuses a symlinked definition", "[proposal]") {
  TempRepo repo;
  seed_example(repo);
  std::filesystem::create_symlink("AGtriage01.json", repo.abs("agents/AGlink01.json"));
  auto r = ws(repo, "ws-commit", {"-m", "Link"});
  CHECK(r.status == 1);
  CHECK(r.err.find("agents/AGlink01.json") != std::string::npos);
  CHECK(r.err.find("symlink") != std::string::npos);
  CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");
}

TEST_CASE("sessions never see or replace each other's proposals", "[proposal]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string a = stage(repo, "From session a", {{"WS_SESSION", "alpha"}});
  auto b_run = ws(repo, "ws-commit", {"--session", "beta", "-m", "From session b"});
  REQUIRE(b_run.status == 0);
  std::string b = proposal_id(b_run);
  CHECK(b_run.out.find("supersedes") == std::string::npos);
  CHECK(rev(repo, "refs/ws/proposals/alpha") == a);
  CHECK(rev(repo, "refs/ws/proposals/beta") == b);
  auto list_a = ws(repo, "ws-apply", {"--list", "--session", "alpha"});
  CHECK(list_a.out.find(a.substr(0, 12)) != std::string::npos);
  CHECK(list_a.out.find(b.substr(0, 12)) == std::string::npos);
  auto all = ws(repo, "ws-apply", {"--list", "--all-sessions"});
  CHECK(all.out.find(a.substr(0, 12)) != std::string::npos);
  CHECK(all.out.find(b.substr(0, 12)) != std::string::npos);
  auto bad = ws(repo, "ws-commit", {"--session", "../x", "-m", "x"});
  CHECK(bad.status == 2);
}

TEST_CASE("a rejected proposal can never be applied", "[proposal]") {
  TempRepo repo;
  seed_example(repo);
  repo.write("ai-tools/TLescalate01.cs", kTool);
  std::string id = stage(repo, "Add an escalation tool");
  auto rej = ws(repo, "ws-apply", {"--reject", id.substr(0, 10), "-m", "not this one"});
  CHECK(rej.status == 0);
  auto r = ws(repo, "ws-apply", {id});
  CHECK(r.status == 1);
  CHECK(r.err == "ws-apply: proposal " + id.substr(0, 12) +
                 " was rejected by Ada Approver <approver@example.com>: not this one\n");
  CHECK(ws(repo, "ws-apply", {"deadbeefdeadbeef"}).status == 2);
}

TEST_CASE("two ws-apply of one proposal at the same moment make exactly one commit", "[proposal][race]") {
  TempRepo repo;
  seed_example(repo);
  for (int i = 0; i < 12; ++i) {
    repo.write("ai-tools/TLescalate01.cs", kTool + "// round " + std::to_string(i) + "\n");
    std::string id = stage(repo, "Round " + std::to_string(i));
    std::string before = rev(repo, "main");
    RunResult r1, r2;
    std::thread t1([&] { r1 = ws(repo, "ws-apply", {id}); });
    std::thread t2([&] { r2 = ws(repo, "ws-apply", {id}); });
    t1.join();
    t2.join();
    INFO("round " << i << ": " << r1.err << " | " << r2.err);
    CHECK(((r1.status == 0 && r2.status == 1) || (r1.status == 1 && r2.status == 0)));
    CHECK(chomp(repo.git({"rev-list", "--count", before + "..main"})) == "1");
  }
  CHECK(fsck_clean(repo));
}

TEST_CASE("hand-made proposal trees with hostile entries are refused, nothing written", "[proposal][hostile]") {
  TempRepo repo;
  repo.write("agents/a.json", "{\n  \"name\": \"Alpha\"\n}\n");
  std::string base = repo.commit_all("seed");
  std::string blob = chomp(repo.git_result({"hash-object", "-w", "agents/a.json"}).out);
  std::string base_tree = rev(repo, "HEAD^{tree}");
  auto mktree = [&](const std::string& entries) {
    wstest::RunOptions o;
    o.cwd = repo.path();
    o.input = entries;
    auto r = wstest::run({"git", "mktree"}, o);
    REQUIRE(r.status == 0);
    return chomp(r.out);
  };
  std::string leaf = mktree("100644 blob " + blob + "\tx\n");
  std::string agents = chomp(repo.git({"rev-parse", "HEAD:agents"}));
  std::string hooks = mktree("040000 tree " + leaf + "\thooks\n");
  struct Case { std::string name, tree, expect; };
  std::vector<Case> cases{
      {"dotdot", mktree("040000 tree " + leaf + "\t..\n040000 tree " + agents + "\tagents\n"), "dot-component"},
      {"git-dir", mktree("040000 tree " + hooks + "\t.git\n040000 tree " + agents + "\tagents\n"), "git-dir"},
      {"secret", mktree("040000 tree " + leaf + "\t.secrets\n040000 tree " + agents + "\tagents\n"), "secret"},
      {"symlink", mktree("040000 tree " + mktree("100644 blob " + blob + "\ta.json\n120000 blob " + blob +
                                                   "\tl.json\n") + "\tagents\n"),
       "symlink"},
      {"submodule", mktree("040000 tree " + agents + "\tagents\n160000 commit " + base + "\tsub\n"), "submodule"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    std::string commit = chomp(repo.git({"commit-tree", c.tree, "-p", base, "-m",
                                         "Evil\n\nWs-Session: evil\nWs-Branch: refs/heads/main"}));
    repo.git({"update-ref", "refs/ws/proposals/evil", commit});
    auto r = ws(repo, "ws-apply", {commit});
    CHECK(r.status == 1);
    CHECK(r.err.find("ws-apply: proposal " + commit.substr(0, 12) + " refused: ") == 0);
    CHECK(r.err.find(c.expect) != std::string::npos);
    CHECK(rev(repo, "main") == base);
    CHECK(repo.git({"for-each-ref", "refs/ws/applied/"}) == "");
    CHECK(repo.git({"status", "--porcelain"}) == "");
  }
}

TEST_CASE("ws-commit's diffstat, made from the changed files, is the one --show prints and git counts",
          "[proposal]") {
  TempRepo repo;
  seed_example(repo);
  repo.write(".ws/config.json", "{\"unrouted\": \"ignore\"}\n");
  repo.write("docs/old.txt", "one\ntwo\nthree\n");
  repo.write("docs/keep/moved.txt", "the same bytes\nunder another name\n");
  repo.write("docs/run.sh", "#!/bin/sh\necho hi\n");
  repo.write("docs/a/b/c/deep.txt", "1\n2\n3\n4\n");
  repo.write("docs/logo.bin", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  repo.commit_all("notes beside the definitions");
  const std::string base = rev(repo, "HEAD");

  repo.remove("docs/old.txt");                                              // deleted
  repo.remove("docs/keep/moved.txt");
  repo.write("docs/keep/renamed/moved.txt", "the same bytes\nunder another name\n");  // renamed
  repo.write("docs/a/b/c/deep.txt", "1\ntwo\n3\n4\n5\n");                  // modified, nested
  repo.write("docs/a/b/new.txt", std::string(200, 'x') + "\n");            // added, nested
  repo.write("docs/logo.bin", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\1", 18));  // binary
  std::filesystem::permissions(std::filesystem::path(repo.path()) / "docs/run.sh",
                               std::filesystem::perms::owner_exec, std::filesystem::perm_options::add);

  auto staged = ws(repo, "ws-commit", {"-m", "Reorganise the notes"});
  INFO(staged.err);
  REQUIRE(staged.status == 0);
  std::string id = proposal_id(staged);
  std::string marker = "\nbase     " + base + "\n";
  auto at = staged.out.find(marker);
  REQUIRE(at != std::string::npos);
  std::string stat = staged.out.substr(at + marker.size());
  // The same text libgit2 renders from a diff of the two trees.
  auto shown = ws(repo, "ws-apply", {"--show", id, "--stat"});
  REQUIRE(shown.status == 0);
  CHECK(shown.out.size() >= stat.size());
  CHECK(shown.out.substr(shown.out.size() - std::min(shown.out.size(), stat.size())) == stat);
  CHECK(stat.find(" docs/keep/{moved.txt => renamed/moved.txt} | 0\n") != std::string::npos);
  CHECK(stat.find(" 6 files changed, ") != std::string::npos);
  CHECK(stat.find(" delete mode 100644 docs/old.txt\n") != std::string::npos);
  CHECK(stat.find(" create mode 100644 docs/a/b/new.txt\n") != std::string::npos);
  CHECK(stat.find(" mode change 100644 => 100755 docs/run.sh\n") != std::string::npos);
  CHECK(stat.find(" docs/logo.bin ") != std::string::npos);
  CHECK(stat.find("| Bin 16 -> 18 bytes\n") != std::string::npos);

  // And git's own counts, path by path (exact renames only, as ws pairs them).
  std::string numstat = repo.git({"diff", "--numstat", "-M100%", base, id});
  INFO(numstat);
  CHECK(numstat.find("2\t1\tdocs/a/b/c/deep.txt\n") != std::string::npos);
  CHECK(numstat.find("0\t3\tdocs/old.txt\n") != std::string::npos);
  CHECK(numstat.find("1\t0\tdocs/a/b/new.txt\n") != std::string::npos);
  CHECK(numstat.find("-\t-\tdocs/logo.bin\n") != std::string::npos);
  CHECK(numstat.find("0\t0\tdocs/keep/{ => renamed}/moved.txt\n") != std::string::npos);
  CHECK(numstat.find("0\t0\tdocs/run.sh\n") != std::string::npos);
  CHECK(stat.find(" docs/a/b/c/deep.txt                                | 3 ++-\n") != std::string::npos);
  CHECK(stat.find(" docs/old.txt                                       | 3 ---\n") != std::string::npos);
  CHECK(stat.find(" docs/a/b/new.txt                                   | 1 +\n") != std::string::npos);
  CHECK(stat.find(" 6 files changed, 3 insertions(+), 4 deletions(-)\n") != std::string::npos);
}

TEST_CASE("ws-commit's diffstat follows .gitattributes as --show does", "[proposal]") {
  // At the root or in a folder, and unchanged: a view of the changes still
  // holds it.
  for (const char* attributes : {".gitattributes", "docs/.gitattributes"}) {
    INFO(attributes);
    TempRepo repo;
    seed_example(repo);
    repo.write(".ws/config.json", "{\"unrouted\": \"ignore\"}\n");
    repo.write(attributes, "*.dat -diff\n");
    repo.write("docs/table.dat", "a\nb\n");
    repo.commit_all("a table git must not diff");
    repo.write("docs/table.dat", "a\nb\nc\n");
    repo.write("docs/plain.txt", "text\n");
    auto staged = ws(repo, "ws-commit", {"-m", "Grow the table"});
    INFO(staged.err);
    REQUIRE(staged.status == 0);
    CHECK(staged.out.find(" docs/table.dat | Bin 4 -> 6 bytes\n") != std::string::npos);
    auto shown = ws(repo, "ws-apply", {"--show", proposal_id(staged), "--stat"});
    REQUIRE(shown.status == 0);
    std::string stat = staged.out.substr(staged.out.find("\n docs/") + 1);
    CHECK(shown.out.substr(shown.out.size() - std::min(shown.out.size(), stat.size())) == stat);
  }
}

TEST_CASE("the index follows an applied proposal whatever its version and extensions", "[proposal]") {
  for (const char* version : {"2", "3", "4"}) {
    INFO("index version " << version);
    TempRepo repo;
    seed_example(repo);
    repo.write(".ws/config.json", "{\"unrouted\": \"ignore\"}\n");
    repo.write("docs/a/b/keep.txt", "keep\n");
    repo.write("docs/a/b/change.txt", "old\n");
    repo.write("docs/gone.txt", "gone\n");
    repo.write("docs/other/x.txt", "x\n");
    repo.commit_all("notes");
    repo.git({"update-index", "--index-version", version});
    repo.git({"update-index", "--untracked-cache"});
    repo.git({"write-tree"});  // a whole, valid cache tree
    repo.write("docs/a/b/change.txt", "new\n");
    repo.remove("docs/gone.txt");
    repo.write("docs/a/new/added.txt", "added\n");
    auto staged = ws(repo, "ws-commit", {"-m", "Notes"});
    INFO(staged.err);
    REQUIRE(staged.status == 0);
    std::string id = proposal_id(staged);
    // Staged by hand after the proposal: it must stay staged, untouched.
    repo.write("docs/other/x.txt", "x staged\n");
    repo.git({"add", "docs/other/x.txt"});
    repo.write("docs/other/x.txt", "x staged\nthen edited\n");
    std::string staged_x = repo.git({"ls-files", "-s", "docs/other/x.txt"});
    auto applied = ws(repo, "ws-apply", {id});
    INFO(applied.err);
    REQUIRE(applied.status == 0);
    CHECK(applied.err.empty());
    // git reads the index back (checking its trailer), sees the applied
    // paths at the new commit and the hand-staged one as it was.
    CHECK(repo.git({"ls-files", "-s", "docs/other/x.txt"}) == staged_x);
    CHECK(repo.git({"diff", "--cached", "--name-only", "main", "--", "docs/a", "docs/gone.txt"}) == "");
    CHECK(repo.git({"ls-files", "docs/gone.txt"}) == "");
    CHECK(repo.git({"ls-files", "-s", "docs/a/new/added.txt"}).find(rev(repo, "main:docs/a/new/added.txt")) !=
          std::string::npos);
    CHECK(repo.git({"status", "--porcelain"}) == "MM docs/other/x.txt\n");
    // The cache tree claims nothing stale: written again, the index makes
    // the new commit's tree plus the hand-staged file.
    repo.git({"reset", "-q", "--", "docs/other/x.txt"});
    CHECK(chomp(repo.git({"write-tree"})) == rev(repo, "main^{tree}"));
    CHECK(fsck_clean(repo));
  }
}

// The server-side gate: examples/hooks/pre-receive installed in a bare
// repository, and the real `git push` from a real clone. git itself is the
// judge of what landed (branch positions, objects kept or dropped).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "support/billing_rename.h"
#include "support/process.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;

using wstest::chomp;
using wstest::lines;
using wstest::RunResult;
using wstest::TempDir;

namespace {

const std::string kEscalate =
    "// name: EscalateTicket\n"
    "// description: Hands a ticket to the triage agent\n"
    "return await Agents.Triage.Run(args.Ticket);\n";

// The environment of the pusher, which a local push hands on to the hook:
// the built tools on PATH, the source kind pack, and no user configuration.
wstest::RunOptions pusher_env(const std::string& cwd) {
  wstest::RunOptions o;
  o.cwd = cwd;
  o.env = wstest::hook_env();
  o.unset_env = {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                 "GIT_ALTERNATE_OBJECT_DIRECTORIES", "NO_COLOR", "WS_BUILD"};
  return o;
}

RunResult git_in(const std::string& dir, std::vector<std::string> args) {
  std::vector<std::string> argv{"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  return wstest::run(argv, pusher_env(dir));
}

std::string git_ok(const std::string& dir, std::vector<std::string> args) {
  auto r = git_in(dir, args);
  INFO("git " << args[0] << ": " << r.err);
  REQUIRE(r.status == 0);
  return r.out;
}

// What the hook said: the `remote: ` lines of git push's stderr, without the
// prefix and without the padding git adds to clear the terminal line.
std::vector<std::string> remote_lines(const std::string& err) {
  std::vector<std::string> out;
  for (auto line : lines(err)) {
    if (line.rfind("remote: ", 0) != 0) continue;
    line = line.substr(8);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    out.push_back(line);
  }
  return out;
}

// A bare "server" repository with the example hook installed, and a working
// directory for clients beside it.
struct Server {
  TempDir dir;
  std::string bare = dir.path() + "/workspace.git";

  Server() {
    git_ok(dir.path(), {"init", "-q", "--bare", "-b", "main", bare});
    fs::path hook = fs::path(bare) / "hooks" / "pre-receive";
    fs::copy_file(fs::path(WS_SOURCE_DIR) / "examples" / "hooks" / "pre-receive", hook,
                  fs::copy_options::overwrite_existing);
    fs::permissions(hook, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
  }

  // The commit a branch of the server points to; "" when it has none.
  std::string branch(const std::string& name) const {
    auto r = git_in(bare, {"rev-parse", "-q", "--verify", "refs/heads/" + name});
    return chomp(r.out);
  }
  bool has_object(const std::string& id) const { return git_in(bare, {"cat-file", "-e", id}).status == 0; }
};

// A clone of the server (the real `git clone`).
struct Client {
  std::string path;
  Client(const Server& s, const std::string& name) : path(s.dir.path() + "/" + name) {
    git_ok(s.dir.path(), {"clone", "-q", s.bare, path});
  }
  void write(const std::string& rel, const std::string& bytes) const {
    fs::create_directories((fs::path(path) / rel).parent_path());
    std::ofstream(fs::path(path) / rel, std::ios::binary | std::ios::trunc) << bytes;
  }
  void replace(const std::string& rel, const std::string& from, const std::string& to) const {
    std::ifstream in(fs::path(path) / rel, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    write(rel, text);
  }
  std::string commit(const std::string& message) const {
    git_ok(path, {"add", "-A"});
    git_ok(path, {"commit", "-q", "-m", message});
    return chomp(git_ok(path, {"rev-parse", "HEAD"}));
  }
  RunResult push(std::vector<std::string> args) const {
    std::vector<std::string> a{"push", "origin"};
    a.insert(a.end(), args.begin(), args.end());
    return git_in(path, a);
  }
};

// A new repository under `work` whose main is the example workspace in one
// commit; its path.
std::string example_repo(const TempDir& work) {
  std::string w = work.path() + "/seed";
  fs::create_directories(w);
  fs::copy(fs::path(WS_SOURCE_DIR) / "examples" / "workspace", w, fs::copy_options::recursive);
  git_ok(w, {"init", "-q", "-b", "main"});
  git_ok(w, {"add", "-A"});
  git_ok(w, {"commit", "-q", "-m", "Support desk workspace"});
  return w;
}

// Seeds the server with the example workspace through a first push.
std::string seed(const Server& s) {
  TempDir work;
  std::string w = example_repo(work);
  auto r = git_in(w, {"push", s.bare, "main"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  // The first branch of an empty repository is checked whole.
  CHECK(remote_lines(r.err) ==
        std::vector<std::string>{"ws-build: refs/heads/main: 18 files checked, compiled clean."});
  return chomp(git_ok(w, {"rev-parse", "HEAD"}));
}

// What the hook says refusing the half-done rename pushed to `ref`.
std::vector<std::string> refusal(const std::string& ref, const std::string& summary) {
  std::vector<std::string> out{"ws-build: refusing " + ref + ": the changeset does not compile"};
  for (const auto& line : lines(wstest::kHalfRenameDiagnostics)) out.push_back(line);
  out.push_back(summary);
  return out;
}

void half_rename(const Client& c) {
  for (const auto& r : wstest::kRenameBilling) c.replace(r.path, r.from, r.to);
}

void finish_rename(const Client& c) {
  for (const auto& r : wstest::kFollowBillingRename) c.replace(r.path, r.from, r.to);
}

// Pushes `args` from `c`: the hook must accept the push, saying `said` and
// nothing else.
void check_accepted(const Client& c, const std::vector<std::string>& args, const std::string& said) {
  auto r = c.push(args);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(remote_lines(r.err) == std::vector<std::string>{said});
}

// Pushes `branch` from `c`, which holds the half rename: the hook must refuse
// it with the rename's diagnostics and `summary`, and git must say so.
RunResult check_refused(const Client& c, const std::string& branch, const std::string& summary) {
  auto r = c.push({branch});
  CHECK(r.status == 1);
  CHECK(remote_lines(r.err) == refusal("refs/heads/" + branch, summary));
  CHECK(r.err.find(" ! [remote rejected] " + branch + " -> " + branch + " (pre-receive hook declined)\n") !=
        std::string::npos);
  return r;
}

}  // namespace

TEST_CASE("pre-receive: a clean push is accepted, a broken one refused with the diagnostics", "[pre-receive]") {
  Server server;
  std::string seeded = seed(server);  // before the clones: they start from it
  REQUIRE(server.branch("main") == seeded);
  Client client(server, "client");

  client.write("ai-tools/TLescalate01.cs", kEscalate);
  std::string clean = client.commit("Add an escalation tool");
  check_accepted(client, {"main"}, "ws-build: refs/heads/main: 1 file changed, compiled clean.");
  CHECK(server.branch("main") == clean);

  half_rename(client);
  std::string broken = client.commit("Rename the billing agent");
  auto refused = check_refused(client, "main", "3 errors in 3 files (1 file changed)");
  CHECK(refused.out == "");
  // The branch did not move, and the quarantined objects of the push are gone.
  CHECK(server.branch("main") == clean);
  CHECK_FALSE(server.has_object(broken));

  // Finishing the rename on top makes the pushed range (break + fix) clean as a whole.
  finish_rename(client);
  std::string fixed = client.commit("Follow the rename of the billing agent");
  check_accepted(client, {"main"}, "ws-build: refs/heads/main: 4 files changed, compiled clean.");
  CHECK(server.branch("main") == fixed);
  CHECK(chomp(git_ok(server.bare, {"rev-list", "--count", clean + ".." + fixed})) == "2");
  CHECK(git_in(server.bare, {"fsck", "--no-progress"}).status == 0);
}

TEST_CASE("pre-receive: a new branch answers for its own commits, deletions and tags pass", "[pre-receive]") {
  Server server;
  std::string seeded = seed(server);  // before the clones: they start from it
  Client client(server, "client");

  // A new branch whose only commit is the half-done rename: checked from its
  // merge-base with main, so the summary counts its one changed file.
  git_ok(client.path, {"checkout", "-q", "-b", "rename"});
  half_rename(client);
  std::string broken = client.commit("Rename the billing agent");
  check_refused(client, "rename", "3 errors in 3 files (1 file changed)");
  CHECK(server.branch("rename") == "");

  // One refused ref refuses the whole push, the clean ref included.
  git_ok(client.path, {"branch", "-q", "other", seeded});
  auto both = client.push({"rename", "other"});
  CHECK(both.status == 1);
  CHECK(server.branch("other") == "");
  CHECK(server.branch("rename") == "");

  finish_rename(client);
  std::string fixed = client.commit("Follow the rename of the billing agent");
  check_accepted(client, {"rename"}, "ws-build: refs/heads/rename: 4 files changed, compiled clean.");
  CHECK(server.branch("rename") == fixed);
  CHECK(server.branch("main") == seeded);

  // Tags are not checked (here: a tag on the broken commit), deletions never are.
  git_ok(client.path, {"tag", "half-done", broken});
  auto tag = client.push({"refs/tags/half-done"});
  INFO(tag.err);
  CHECK(tag.status == 0);
  CHECK(remote_lines(tag.err).empty());
  auto deleted = client.push({"--delete", "rename"});
  INFO(deleted.err);
  CHECK(deleted.status == 0);
  CHECK(remote_lines(deleted.err).empty());
  CHECK(server.branch("rename") == "");
}

TEST_CASE("pre-receive: the first push into an empty repository is checked whole", "[pre-receive]") {
  Server server;
  TempDir work;
  std::string w = example_repo(work);
  // The same half rename, but in the first and only commit: every definition
  // is checked, so the references are plain unresolved ones (WS010).
  std::string billing = w + "/agents/AGbilling01.json";
  std::ifstream in(billing);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.replace(text.find("\"Billing\""), 9, "\"Payments\"");
  std::ofstream(billing, std::ios::trunc) << text;
  git_ok(w, {"commit", "-q", "-a", "--amend", "--no-edit"});

  auto r = git_in(w, {"push", server.bare, "main"});
  CHECK(r.status == 1);
  CHECK(remote_lines(r.err) ==
        std::vector<std::string>{
            "ws-build: refusing refs/heads/main: the changeset does not compile",
            "access/grants/GTsupport01.json:5:25: error[WS010]: unresolved reference to agent 'Billing'",
            "  \"agents\": [\"Triage\", \"Billing\"]",
            "                        ^~~~~~~",
            "agents/AGtriage01.json:8:17: error[WS010]: unresolved reference to agent 'Billing'",
            "  \"handoffs\": [\"Billing\"]",
            "                ^~~~~~~",
            "ai-tools/TLroute01.cs:8:18: error[WS010]: unresolved reference 'Agents.Billing'",
            "    return await Agents.Billing.Handoff(ticket);",
            "                 ^~~~~~~~~~~~~~",
            "3 errors in 3 files (18 files checked)",
        });
  CHECK(server.branch("main") == "");
}

TEST_CASE("pre-receive: a gate that cannot run refuses the push", "[pre-receive]") {
  Server server;
  std::string seeded = seed(server);  // before the clones: they start from it
  Client client(server, "client");
  client.write("ai-tools/TLescalate01.cs", kEscalate);
  client.commit("Add an escalation tool");
  auto o = pusher_env(client.path);
  o.env["WS_KINDS_DIR"] = server.dir.path() + "/no-such-kind-pack";
  auto r = wstest::run({"git", "push", "origin", "main"}, o);
  CHECK(r.status == 1);
  auto said = remote_lines(r.err);
  REQUIRE(said.size() == 2);
  CHECK(said[0] == "ws-build: refusing refs/heads/main: could not check it (ws-build exit status 2)");
  CHECK(said[1].rfind("ws-build: kind pack not found at '" + server.dir.path() + "/no-such-kind-pack'", 0) == 0);
  CHECK(server.branch("main") == seeded);
}

namespace {

// A server whose main gained a tool calling Agents.Billing after `early`
// was cloned, and `early` with the billing agent renamed to Payments and
// every referrer it knows of followed, committed but not pushed.
struct DivergedRename {
  Server server;
  std::string seeded = seed(server);  // before the clones: they start from it
  Client early{server, "early"};
  Client client{server, "client"};
  std::string tool;  // main's commit adding the tool

  DivergedRename() {
    client.write("ai-tools/TLescalate01.cs",
                 "// name: EscalateBilling\n"
                 "return await Agents.Billing.Run(args.Ticket);\n");
    tool = client.commit("Add a billing escalation tool");
    REQUIRE(client.push({"main"}).status == 0);
    half_rename(early);
    finish_rename(early);
    early.commit("Rename the billing agent");
  }
};

}  // namespace

TEST_CASE("pre-receive: a force push is checked as the new tip replacing the old, nothing merged", "[pre-receive][merge]") {
  DivergedRename d;
  Server& server = d.server;
  Client& early = d.early;
  // The early clone replaces main: the tool calling Agents.Billing is gone
  // from what lands, so nothing is left broken.
  std::string new_tip = chomp(git_ok(early.path, {"rev-parse", "HEAD"}));
  check_accepted(early, {"--force", "main"}, "ws-build: refs/heads/main: 5 files changed, compiled clean.");
  CHECK(server.branch("main") == new_tip);
  CHECK(git_in(server.bare, {"fsck", "--no-progress"}).status == 0);
}

TEST_CASE("pre-receive: a merge git makes cleanly is refused when it breaks a referrer main gained", "[pre-receive][merge]") {
  DivergedRename d;
  Server& server = d.server;
  Client& early = d.early;
  const std::string& tool = d.tool;
  // git merges main's new tool into the rename without a textual conflict.
  git_ok(early.path, {"pull", "-q", "--no-rebase", "--no-edit", "origin", "main"});
  std::string merged = chomp(git_ok(early.path, {"rev-parse", "HEAD"}));
  auto refused = early.push({"main"});
  CHECK(refused.status == 1);
  CHECK(remote_lines(refused.err) ==
        std::vector<std::string>{
            "ws-build: refusing refs/heads/main: the changeset does not compile",
            "ai-tools/TLescalate01.cs:2:14: error[WS013]: unresolved reference 'Agents.Billing'",
            "return await Agents.Billing.Run(args.Ticket);",
            "             ^~~~~~~~~~~~~~",
            "agents/AGbilling01.json:2:12: note: 'Billing' was renamed to 'Payments' in agents/AGbilling01.json",
            "  \"name\": \"Payments\",",
            "           ^~~~~~~~",
            "1 error in 1 file (4 files changed)"});
  CHECK(server.branch("main") == tool);
  CHECK_FALSE(server.has_object(merged));
}

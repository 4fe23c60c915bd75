// The hostile-manifest suite (issue 14, findings 1 and 2; ws(7), the secret
// kind): a canary committed in .secrets/API_KEY, and every way a workspace's
// .ws/kinds or .ws/config.json, or a change that puts the secret's blob at
// another path, could make a tool read it. Each attack is tried uncommitted
// (working tree or index) and committed (on the branch, on a side branch or
// in a hand-made proposal), and every tool runs over it in every format. No
// stdout or stderr may hold the canary, the secret's blob id or its size,
// and each run must end with the exit status its case calls for.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/output_schema.h"
#include "support/process.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::lines;
using wstest::RunResult;
using wstest::TempRepo;
namespace fs = std::filesystem;

namespace {

const std::string kCanary = "C4N4RY-k3y-9d2f61";
// An odd size, so that it cannot pass for another number of the output.
constexpr std::size_t kSecretSize = 13577;

// The secret: front matter a Markdown reader would take a name from, a line
// a JSON or C# reader would quote in a syntax error, the canary on each.
std::string secret_bytes() {
  std::string s = "---\nname: " + kCanary + "\n---\n{\"name\": \"" + kCanary + "\", \"pad\": \"";
  const std::string tail = "\"}\n// name: " + kCanary + "\n";
  s.append(kSecretSize - s.size() - tail.size(), 'x');
  s += tail;
  return s;
}

bool contains_ci(const std::string& hay, const std::string& needle) {
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  return lower(hay).find(lower(needle)) != std::string::npos;
}

// The example workspace with the canary committed as .secrets/API_KEY.
struct Box {
  TempRepo repo;
  std::string base;  // the commit holding the secret
  std::string blob;  // the secret's blob id

  Box() {
    wstest::copy_example_workspace(repo);
    repo.write(".secrets/API_KEY", secret_bytes());
    base = repo.commit_all("Support desk workspace with its key");
    blob = chomp(repo.git({"rev-parse", "HEAD:.secrets/API_KEY"}));
    REQUIRE(chomp(repo.git({"cat-file", "-s", blob})) == std::to_string(kSecretSize));
  }

  RunResult tool(const std::string& name, const std::vector<std::string>& args) const {
    wstest::RunOptions o;
    o.env = {{"GIT_COMMITTER_NAME", "Ada Approver"}, {"GIT_COMMITTER_EMAIL", "approver@example.com"}};
    return wstest::ws(name, args, repo.path(), o);
  }

  // git with a scratch index, so that trees can be made without touching
  // the user's index: the way a hostile agent writes objects by hand.
  std::string git_scratch(const std::vector<std::string>& args, const std::string& input = {}) const {
    wstest::RunOptions o;
    o.cwd = repo.path();
    o.env = {{"GIT_INDEX_FILE", repo.path() + "/.git/scratch-index"},
             {"GIT_AUTHOR_NAME", "Eve Agent"},       {"GIT_AUTHOR_EMAIL", "eve@example.com"},
             {"GIT_COMMITTER_NAME", "Eve Agent"},    {"GIT_COMMITTER_EMAIL", "eve@example.com"},
             {"GIT_AUTHOR_DATE", "2026-01-02T00:00:00Z"}, {"GIT_COMMITTER_DATE", "2026-01-02T00:00:00Z"}};
    o.input = input;
    std::vector<std::string> argv{"git"};
    argv.insert(argv.end(), args.begin(), args.end());
    RunResult r = wstest::run(argv, o);
    INFO("git " << args.at(0) << ": " << r.err);
    REQUIRE(r.status == 0);
    return chomp(r.out);
  }

  std::string blob_of(const std::string& bytes) const { return git_scratch({"hash-object", "-w", "--stdin"}, bytes); }

  // A commit on `parent` whose tree is the parent's with `put` (path -> blob
  // id; "" removes the path) applied.
  std::string commit_on(const std::string& parent, const std::vector<std::pair<std::string, std::string>>& put,
                        const std::string& message) const {
    git_scratch({"read-tree", parent});
    for (const auto& [path, id] : put) {
      if (id.empty()) git_scratch({"update-index", "--force-remove", path});
      else git_scratch({"update-index", "--add", "--cacheinfo", "100644," + id + "," + path});
    }
    std::string tree = git_scratch({"write-tree"});
    return git_scratch({"commit-tree", tree, "-p", parent, "-m", message});
  }

  // A proposal of session 'evil' made by hand (git commit-tree and
  // update-ref), never through ws-commit's checks.
  std::string proposal_on(const std::string& parent, const std::vector<std::pair<std::string, std::string>>& put) const {
    std::string id = commit_on(parent, put, "Tidy the workspace\n\nWs-Session: evil\nWs-Branch: refs/heads/main");
    repo.git({"update-ref", "refs/ws/proposals/evil", id});
    return id;
  }

  // What must never be printed: the canary, the blob id (whole or
  // abbreviated) and the size as a number of its own.
  std::string leak_in(const std::string& text) const {
    if (contains_ci(text, kCanary)) return "the canary";
    if (contains_ci(text, blob.substr(0, 7))) return "the secret's blob id";
    static const std::regex size("(^|[^0-9A-Za-z])" + std::to_string(kSecretSize) + "([^0-9A-Za-z]|$)");
    if (std::regex_search(text, size)) return "the secret's size";
    return "";
  }
};

// Exit statuses a case calls for, per tool, for one view of it.
struct Expect {
  int ls = 0;         // ws-ls, any format, without --kind secret
  int ls_secret = 0;  // ws-ls --kind secret
  int grep = 1;       // ws-grep for the canary: never a match
  int build = 0;      // ws-build --all, every format
  int commit = 1;     // ws-commit (staging is refused, or there is nothing to stage)
  int changed = -1;   // ws-ls --changed; -1: as ws-ls (an unchanged file is not listed)
};
const Expect kAllRefused{2, 2, 2, 2, 2};  // a manifest or config that no tool accepts

struct ViewCase {
  std::vector<std::string> view;  // view options: {}, {"--staged"}, {"--rev", X}, {"--proposal", X}
  Expect expect;
};

struct Case {
  std::string name;
  std::vector<ViewCase> views;
  std::string proposal;  // shown with ws-apply, then applied; empty: none
  int apply = 1;         // ws-apply PROPOSAL
};

struct Command {
  std::string tool;
  std::vector<std::string> args;
  int expect;
};

std::vector<Command> commands_for(const Case& c) {
  std::vector<Command> out;
  for (const ViewCase& v : c.views) {
    auto with_view = [&](std::vector<std::string> args) {
      args.insert(args.end(), v.view.begin(), v.view.end());
      return args;
    };
    for (const std::vector<std::string>& f : {std::vector<std::string>{}, {"-l"}, {"--json"}, {"-z"}, {"-l", "--changed"}}) {
      bool changed = f.size() == 2;
      int ls = changed && v.expect.changed >= 0 ? v.expect.changed : v.expect.ls;
      int ls_secret = changed && v.expect.changed >= 0 ? v.expect.changed : v.expect.ls_secret;
      out.push_back({"ws-ls", with_view(f), ls});
      std::vector<std::string> secret = f;
      secret.insert(secret.end(), {"--kind", "secret"});
      out.push_back({"ws-ls", with_view(secret), ls_secret});
    }
    for (const std::vector<std::string>& f :
         {std::vector<std::string>{kCanary}, {"--json", kCanary}, {"-c", kCanary}, {"-l", kCanary},
          {"--stats", kCanary}, {"-i", "-o", "c4n4ry"}, {"--json", "-c", "--stats", "-i", "c4n4ry"}})
      out.push_back({"ws-grep", with_view(f), v.expect.grep});
    for (const char* format : {"human", "json", "sarif", "github", "gitlab", "junit"})
      out.push_back({"ws-build", with_view({"--all", "--format", format}), v.expect.build});
    out.push_back({"ws-build", with_view({"--all", "--stats", "--color", "always", "--no-cache"}), v.expect.build});
    bool proposal_view = !v.view.empty() && v.view[0] == "--proposal";
    if (!proposal_view) {
      // Staging writes a proposal when it is allowed: only then the next
      // run would have something to compare, so --json comes first.
      out.push_back({"ws-commit", with_view({"-m", "Stage what is there", "--json"}), v.expect.commit});
      out.push_back({"ws-commit", with_view({"-m", "Stage what is there"}), v.expect.commit});
    }
  }
  out.push_back({"ws-apply", {"--list", "--all-sessions"}, 0});
  out.push_back({"ws-apply", {"--list", "--all-sessions", "--json"}, 0});
  if (!c.proposal.empty()) {
    for (const std::vector<std::string>& f :
         {std::vector<std::string>{}, {"--stat"}, {"--json"}, {"--stat", "--json"}}) {
      std::vector<std::string> args{"--show", c.proposal};
      args.insert(args.end(), f.begin(), f.end());
      out.push_back({"ws-apply", args, 0});
    }
    // As far as an approver can take it: past the gate of a policy change.
    out.push_back({"ws-apply", {"--json", "--allow-policy-change", c.proposal}, c.apply});
  }
  return out;
}

// Runs every command of the case; returns how many did.
std::size_t sweep(const Box& box, const Case& c) {
  std::size_t ran = 0;
  for (const Command& cmd : commands_for(c)) {
    RunResult r = box.tool(cmd.tool, cmd.args);
    std::string line = cmd.tool;
    for (const auto& a : cmd.args) line += " " + a;
    INFO(c.name << ": " << line << "\n--- stdout\n" << r.out << "--- stderr\n" << r.err);
    CHECK(r.status == cmd.expect);
    CHECK(box.leak_in(r.out + r.err) == "");
    ++ran;
  }
  // Not even the caches of parsed definitions ever held it.
  std::error_code ec;
  for (const auto& f : fs::recursive_directory_iterator(box.repo.abs(".git/ws"), ec)) {
    if (!f.is_regular_file()) continue;
    std::ifstream in(f.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    INFO(c.name << ": " << f.path());
    CHECK_FALSE(contains_ci(bytes.str(), kCanary));
  }
  return ran;
}

std::string manifest(const std::string& kind, const std::string& files, const std::string& format,
                     const std::string& symbol) {
  return R"({"kind": ")" + kind + R"(", "files": ")" + files + R"(", "format": ")" + format + R"(", "symbol": ")" +
         symbol + "\"}\n";
}

// Every manifest that reaches for .secrets/, by name, folder, spelling, root.
std::vector<std::pair<std::string, std::string>> hostile_manifests() {
  return {
      {"secret kind as JSON", manifest("secret", ".secrets/*", "json", "Secrets")},
      {"secret kind as C#", manifest("secret", ".secrets/*", "csharp", "Secrets")},
      {"secret kind as Markdown", manifest("secret", ".secrets/*", "markdown", "Secrets")},
      {"secret kind lifted", R"({"kind": "secret", "files": ".secrets/*", "format": "opaque", "symbol": "Secrets", )"
                             R"("name": "filename", "never_read": false})" "\n"},
      {"a new kind on .secrets/", manifest("vault", ".secrets/*", "json", "Vaults")},
      {"a new kind on .SECRETS/", manifest("vault", ".SECRETS/*", "markdown", "Vaults")},
      {"a new kind on .secrets./", manifest("vault", ".secrets./*", "json", "Vaults")},
      {"a new kind on the root", manifest("vault", "*", "json", "Vaults")},
      {"a new kind with the root Secrets", manifest("vault", "vault/*.json", "json", "Secrets")},
  };
}

// An edit of skills/SKsummarize01.md that builds, and a skill of its own
// for a path that held the secret's bytes.
const std::string kHarmlessSkill = "---\nname: Summarize\ndescription: Shorter now\n---\nSummarise the ticket.\n";
const std::string kOtherSkill = "---\nname: Condense\n---\nCondense the thread.\n";

}  // namespace

TEST_CASE("secret canary: no kind manifest reaches .secrets/, uncommitted or committed", "[secrets][canary]") {
  std::size_t ran = 0;
  for (const auto& [name, text] : hostile_manifests()) {
    {
      Box box;
      box.repo.write(".ws/kinds/x.json", text);
      std::string p = box.proposal_on(box.base, {{".ws/kinds/x.json", box.blob_of(text)}});
      ran += sweep(box, {name + ", uncommitted", {{{}, kAllRefused}, {{"--proposal", p}, kAllRefused}}, p, 2});
    }
    {
      Box box;
      box.repo.write(".ws/kinds/x.json", text);
      std::string head = box.repo.commit_all("a kind of our own");
      std::string p = box.proposal_on(head, {{"skills/SKsummarize01.md", box.blob_of(kHarmlessSkill)}});
      ran += sweep(box, {name + ", committed", {{{}, kAllRefused}, {{"--rev", "HEAD"}, kAllRefused},
                                                 {{"--proposal", p}, kAllRefused}}, p, 2});
    }
  }
  {
    // A kind of the workspace's own that is never read (allowed: it only
    // reads less) keeps its files unread in every tool too.
    Box box;
    box.repo.write(".ws/kinds/credential.json", R"({"kind": "credential", "files": "credentials/*", "format": "opaque", )"
                                                R"("symbol": "Credentials", "name": "filename"})" "\n");
    box.repo.write("credentials/db", "{\"name\": \"" + kCanary + "\"}\n");
    std::string head = box.repo.commit_all("credentials, never read");
    std::string p = box.proposal_on(head, {{"skills/SKsummarize01.md", box.blob_of(kHarmlessSkill)}});
    const Expect clean{0, 0, 1, 0, 1};
    ran += sweep(box, {"a never-read kind of the workspace", {{{}, clean}, {{"--proposal", p}, clean}}, p, 0});
  }
  CHECK(ran > 500);
}

TEST_CASE("secret canary: no workspace configuration reaches .secrets/ in any spelling", "[secrets][canary]") {
  const std::string ignore = "{\"ignore\": [\".secrets/\"], \"unrouted\": \"ignore\"}\n";
  const std::string tiny_cap = "{\"size_cap\": 1}\n";
  const std::string unrouted = "{\"unrouted\": \"error\", \"protected\": []}\n";
  // Each with a copy of the secret under another spelling of its folder:
  // the same folder on a checkout that folds case or drops trailing dots.
  // The configuration is the base commit's: committed, its globs silence
  // reports and nothing else, and the secret is still a secret (listed by
  // name on request, never opened); uncommitted, it is a proposed
  // configuration, and the proposal that brings it a policy change.
  for (bool committed : {false, true}) {
    Box box;
    box.repo.write(".ws/config.json", ignore);
    box.repo.write(".SECRETS/API_KEY", secret_bytes());
    std::string head = committed ? box.repo.commit_all("config") : box.base;
    std::string p = committed ? box.proposal_on(head, {{"skills/SKsummarize01.md", box.blob_of(kHarmlessSkill)}})
                              : box.proposal_on(head, {{".ws/config.json", box.blob_of(ignore)}});
    // The copy fails every build that reads it: committed, as a second
    // secret of its name; in the working tree, as a change to '.secrets/'.
    // The uncommitted proposal brings the config alone, a valid one, which
    // applies as a policy change.
    const Expect copy_read{0, 0, 1, 1, 1};
    const Expect proposal = committed ? copy_read : Expect{0, 0, 1, 0, 1};
    sweep(box, {std::string("ignore globs, ") + (committed ? "committed" : "uncommitted"),
                {{{}, copy_read}, {{"--proposal", p}, proposal}}, p, 0});
  }
  // A size cap below every file: committed, each file is too large (ws-grep
  // cannot read one: exit 2), and the secret is still neither opened nor
  // measured; uncommitted, the base's cap holds.
  for (bool committed : {false, true}) {
    Box box;
    box.repo.write(".ws/config.json", tiny_cap);
    box.repo.write(".Secrets/API_KEY", secret_bytes());
    std::string head = committed ? box.repo.commit_all("config") : box.base;
    std::string p = committed ? box.proposal_on(head, {{"skills/SKsummarize01.md", box.blob_of(kHarmlessSkill)}})
                              : box.proposal_on(head, {{".ws/config.json", box.blob_of(tiny_cap)},
                                                       {".Secrets/API_KEY", box.blob},
                                                       {"skills/SKsummarize01.md", box.blob_of(kHarmlessSkill)}});
    const Expect e{0, 0, committed ? 2 : 1, 1, 1};
    sweep(box, {std::string("a one-byte size cap, ") + (committed ? "committed" : "uncommitted"),
                {{{}, e}, {{"--proposal", p}, e}}, p, 1});
  }
  // Unrouted files as errors, with the secret nested where no kind routes
  // it: reported by path, never read.
  for (bool committed : {false, true}) {
    Box box;
    box.repo.write(".ws/config.json", unrouted);
    box.repo.write(".SECRETS/vault/API_KEY", secret_bytes());
    box.repo.write(".secrets./API_KEY", secret_bytes());
    std::string head = committed ? box.repo.commit_all("config and the key, spelled otherwise") : box.base;
    std::string p = committed
                        ? box.proposal_on(head, {{"skills/SKsummarize01.md", box.blob_of(kHarmlessSkill)}})
                        : box.proposal_on(head, {{".ws/config.json", box.blob_of(unrouted)},
                                                 {".SECRETS/vault/API_KEY", box.blob}});
    Expect e{0, 0, 1, 1, 1};
    sweep(box, {std::string("unrouted errors, ") + (committed ? "committed" : "uncommitted"),
                {{{}, e}, {{"--proposal", p}, e}}, p, committed ? 0 : 1});
  }
}

TEST_CASE("secret canary: the secret's blob under a routed path is refused everywhere", "[secrets][canary]") {
  const Expect alias{1, 1, 1, 1, 1};
  {
    // The working tree: the bytes copied (as `git show HEAD:.secrets/API_KEY`
    // would) into a skill, untracked; and the same as a hand-made proposal.
    Box box;
    box.repo.write("skills/x.md", secret_bytes());
    std::string p = box.proposal_on(box.base, {{"skills/x.md", box.blob}});
    sweep(box, {"alias in the working tree", {{{}, alias}, {{"--proposal", p}, alias}}, p, 1});
  }
  {
    // Committed on the branch (through git, past ws); a proposal that gives
    // the path other bytes applies, and shows the old ones by path only.
    Box box;
    box.repo.write("skills/x.md", secret_bytes());
    std::string head = box.repo.commit_all("a copy of the key");
    std::string p = box.proposal_on(head, {{"skills/x.md", box.blob_of(kOtherSkill)}});
    const Expect unchanged{1, 1, 1, 1, 1, /*changed=*/0};
    sweep(box, {"alias committed", {{{}, unchanged}, {{"--rev", "HEAD"}, unchanged}, {{"--proposal", p}, {0, 0, 1, 0, 1}}},
                p, 0});
  }
  {
    // The index: `git update-index --cacheinfo` with the secret's blob id.
    Box box;
    box.repo.git({"update-index", "--add", "--cacheinfo", "100644," + box.blob + ",skills/x.md"});
    box.repo.git({"update-index", "--add", "--cacheinfo", "100644," + box.blob + ",agents/AGx.json"});
    sweep(box, {"alias staged", {{{"--staged"}, alias}}, "", 1});
  }
  {
    // Staged and committed: the branch holds it, the working tree does not;
    // deleting it is allowed (and staged by path only).
    Box box;
    box.repo.git({"update-index", "--add", "--cacheinfo", "100644," + box.blob + ",skills/x.md"});
    box.repo.git({"commit", "-q", "-m", "a copy of the key, by id"});
    sweep(box, {"alias staged and committed", {{{"--staged"}, {1, 1, 1, 1, 1, 0}}, {{}, {0, 0, 1, 0, 0}}}, "", 1});
  }
  {
    // A side branch for CI (--rev), and the same commit merged.
    Box box;
    std::string side = box.commit_on(box.base, {{"skills/x.md", box.blob}, {"prompts/PRx.md", box.blob}}, "copies");
    box.repo.git({"branch", "side", side});
    sweep(box, {"alias on a side branch", {{{"--rev", "side"}, alias}}, "", 1});
  }
  {
    // At a manifest's or the configuration's path: the workspace cannot even
    // be opened, and says why by path.
    Box box;
    box.repo.write(".ws/kinds/x.json", secret_bytes());
    std::string p = box.proposal_on(box.base, {{".ws/config.json", box.blob}});
    const Expect refused{1, 1, 1, 1, 1};
    sweep(box, {"alias at .ws/", {{{}, refused}, {{"--proposal", p}, refused}}, p, 1});
  }
}

TEST_CASE("secret canary: a rename out of .secrets/ is never paired or shown", "[secrets][canary]") {
  const Expect alias{1, 1, 1, 1, 1};
  {
    Box box;
    box.repo.git({"mv", ".secrets/API_KEY", "skills/x.md"});
    sweep(box, {"rename in the working tree", {{{}, alias}, {{"--staged"}, alias}}, "", 1});
  }
  {
    Box box;
    std::string side = box.commit_on(box.base, {{".secrets/API_KEY", ""}, {"skills/x.md", box.blob}}, "move the key");
    box.repo.git({"branch", "side", side});
    std::string p = box.proposal_on(box.base, {{".secrets/API_KEY", ""}, {"skills/x.md", box.blob}});
    sweep(box, {"rename committed", {{{"--rev", "side"}, alias}, {{"--proposal", p}, alias}}, p, 1});
  }
}

namespace {

const std::string kAliasRefusal =
    "refused path 'skills/x.md': secret (it holds the bytes of a secret, and a secret's content is never opened or "
    "shown under any path); remove the file or give it other content";

// Refs under refs/ws/, the branch and the index: what a refused run must
// leave as it found it.
std::string state_of(const TempRepo& repo) {
  return repo.git({"for-each-ref", "refs/ws/", "refs/heads/"}) + repo.git({"ls-files", "-s"});
}

}  // namespace

TEST_CASE("secret canary: a redefined secret kind stops every tool with one line naming the manifest",
          "[secrets]") {
  Box box;
  const std::string text = manifest("secret", ".secrets/*", "json", "Secrets");
  box.repo.write(".ws/kinds/secret.json", text);
  std::string p = box.proposal_on(box.base, {{".ws/kinds/secret.json", box.blob_of(text)}});
  std::string before = state_of(box.repo);
  const std::string why =
      "kind manifest '.ws/kinds/secret.json': redefines the built-in secret kind, which a workspace can neither "
      "replace nor relax (content under '.secrets/' is never read); remove the manifest\n";
  for (const auto& [tool, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"ws-ls", {"--kind", "secret", "--json"}},
           {"ws-grep", {kCanary}},
           {"ws-build", {"--all", "--format", "sarif"}},
           {"ws-commit", {"-m", "Read the key"}},
           {"ws-ls", {"--proposal", p, "-l"}},
           {"ws-apply", {"--allow-policy-change", p}}}) {
    RunResult r = box.tool(tool, args);
    INFO(tool << "\n" << r.out << r.err);
    CHECK(r.status == 2);
    CHECK(r.out == "");
    CHECK(r.err == tool + ": " + why);
  }
  CHECK(state_of(box.repo) == before);
}

TEST_CASE("secret canary: the secret's blob staged under a routed path is refused by path", "[secrets]") {
  Box box;
  box.repo.git({"update-index", "--add", "--cacheinfo", "100644," + box.blob + ",skills/x.md"});
  std::string before = state_of(box.repo);

  RunResult ls = box.tool("ws-ls", {"--staged"});
  std::string listed;
  for (const auto& l : lines(box.repo.git({"ls-files"})))
    if (l.rfind(".secrets/", 0) != 0 && l != "skills/x.md") listed += l + "\n";
  CHECK(ls.status == 1);
  CHECK(ls.out == listed);
  CHECK(ls.err == "ws-ls: " + kAliasRefusal + "\n");

  RunResult grep = box.tool("ws-grep", {"--staged", "--stats", kCanary});
  CHECK(grep.status == 1);
  CHECK(grep.out == "");
  auto err = lines(grep.err);
  REQUIRE(err.size() == 3);
  CHECK(err[0].rfind("ws-grep: 0 results in 0 files; ", 0) == 0);
  CHECK(err[1] == "ws-grep: skipped 2 files under .secrets/: secret content is never opened");
  CHECK(err[2] == "ws-grep: skipped 'skills/x.md': it holds a secret's bytes, which are never searched or shown");

  const std::string report = "skills/x.md: error[WS004]: " + kAliasRefusal + "\n1 error in 1 file (1 file changed)\n";
  RunResult build = box.tool("ws-build", {"--staged"});
  CHECK(build.status == 1);
  CHECK(build.out == report);
  CHECK(build.err == "");
  RunResult json = box.tool("ws-build", {"--staged", "--format", "json"});
  CHECK(json.status == 1);
  auto doc = wstest::build_report(json.out);
  CHECK(doc["diagnostics"].size() == 1);
  CHECK(doc["diagnostics"][0]["path"] == "skills/x.md");
  CHECK(doc["diagnostics"][0]["message"] == kAliasRefusal);

  RunResult commit = box.tool("ws-commit", {"--staged", "-m", "Add a skill"});
  CHECK(commit.status == 1);
  CHECK(commit.out == "");
  CHECK(commit.err == report + "ws-commit: refused: the changeset does not build; no proposal was written\n");
  CHECK(state_of(box.repo) == before);
}

TEST_CASE("secret canary: a hand-made proposal holding the secret's blob is shown by path only and refused",
          "[secrets]") {
  Box box;
  std::string p = box.proposal_on(box.base, {{"skills/x.md", box.blob}});
  std::string before = state_of(box.repo);

  RunResult stat = box.tool("ws-apply", {"--show", p, "--stat"});
  CHECK(stat.status == 0);
  const std::string stat_text = " skills/x.md | secret\n 1 file changed, 0 insertions(+), 0 deletions(-)\n"
                                " create mode 100644 skills/x.md\n";
  CHECK(stat.out.substr(stat.out.find("\n\n skills/") + 2) == stat_text);
  RunResult show = box.tool("ws-apply", {"--show", p});
  CHECK(show.status == 0);
  CHECK(show.out.substr(show.out.find("\n\n skills/") + 2) ==
        stat_text + "\ndiff --git a/skills/x.md b/skills/x.md\nnew file mode 100644\n"
                    "# 'skills/x.md': a secret's bytes are never shown, under any path\n");
  RunResult json = box.tool("ws-apply", {"--show", p, "--json"});
  CHECK(json.status == 0);
  // The proposal record, then its plan (none: the file was never read).
  auto doc = nlohmann::json::parse(json.out);
  CHECK(doc["files"] == nlohmann::json::parse(
                            R"([{"path": "skills/x.md", "status": "A", "additions": null, "deletions": null, "secret": true}])"));

  RunResult apply = box.tool("ws-apply", {p});
  CHECK(apply.status == 1);
  CHECK(apply.out == "");
  CHECK(apply.err == "ws-apply: proposal " + p.substr(0, 12) + " refused: " + kAliasRefusal + "\n");
  CHECK(state_of(box.repo) == before);
  CHECK(box.repo.git_result({"fsck", "--strict", "--no-progress"}).status == 0);
}

TEST_CASE("secret canary: a rename out of .secrets/ is a delete and an add, each by path only", "[secrets]") {
  Box box;
  box.repo.git({"mv", ".secrets/API_KEY", "skills/x.md"});
  RunResult ls = box.tool("ws-ls", {"-l", "--changed", "--kind", "secret"});
  CHECK(ls.status == 1);
  CHECK(ls.out == "D secret API_KEY .secrets/API_KEY\n");
  CHECK(ls.err == "ws-ls: " + kAliasRefusal + "\n");

  std::string side = box.commit_on(box.base, {{".secrets/API_KEY", ""}, {"skills/x.md", box.blob}}, "move the key");
  RunResult rev = box.tool("ws-ls", {"-l", "--changed", "--kind", "secret", "--rev", side});
  CHECK(rev.status == 1);
  CHECK(rev.out == "D secret API_KEY .secrets/API_KEY\n");

  std::string p = box.proposal_on(box.base, {{".secrets/API_KEY", ""}, {"skills/x.md", box.blob}});
  RunResult show = box.tool("ws-apply", {"--show", p});
  CHECK(show.status == 0);
  CHECK(show.out.substr(show.out.find("\n\n .secrets/") + 2) ==
        " .secrets/API_KEY | secret\n skills/x.md      | secret\n 2 files changed, 0 insertions(+), 0 deletions(-)\n"
        " delete mode 100644 .secrets/API_KEY\n create mode 100644 skills/x.md\n\n"
        "diff --git a/.secrets/API_KEY b/.secrets/API_KEY\ndeleted file mode 100644\n"
        "# '.secrets/API_KEY': secret content is never shown\n"
        "diff --git a/skills/x.md b/skills/x.md\nnew file mode 100644\n"
        "# 'skills/x.md': a secret's bytes are never shown, under any path\n");
}

TEST_CASE("secret canary: removing a copy of the secret is staged and shown by path only", "[secrets]") {
  Box box;
  box.repo.write("skills/x.md", secret_bytes());
  std::string head = box.repo.commit_all("a copy of the key");
  box.repo.git({"rm", "-q", "skills/x.md"});

  RunResult staged = box.tool("ws-commit", {"-m", "Drop the copy"});
  INFO(staged.err);
  REQUIRE(staged.status == 0);
  std::string id = lines(staged.out).at(0).substr(9);
  const std::string stat_text = " skills/x.md | secret\n 1 file changed, 0 insertions(+), 0 deletions(-)\n"
                                " delete mode 100644 skills/x.md\n";
  CHECK(staged.out == "proposal " + id + "\nsession  default\nbase     " + head + "\n" + stat_text);
  RunResult json = box.tool("ws-commit", {"-m", "Drop the copy", "--json"});
  REQUIRE(json.status == 0);
  CHECK(nlohmann::json::parse(json.out)["files"] ==
        nlohmann::json::parse(
            R"([{"path": "skills/x.md", "status": "D", "additions": null, "deletions": null, "secret": true}])"));
  id = nlohmann::json::parse(json.out)["id"];

  RunResult show = box.tool("ws-apply", {"--show", id});
  CHECK(show.status == 0);
  CHECK(show.out.substr(show.out.find("\n\n skills/") + 2) ==
        stat_text + "\ndiff --git a/skills/x.md b/skills/x.md\ndeleted file mode 100644\n"
                    "# 'skills/x.md': a secret's bytes are never shown, under any path\n");
  RunResult apply = box.tool("ws-apply", {id});
  INFO(apply.err);
  CHECK(apply.status == 0);
  CHECK(box.repo.git_result({"cat-file", "-e", "main:skills/x.md"}).status != 0);
  CHECK(chomp(box.repo.git({"rev-parse", "main:.secrets/API_KEY"})) == box.blob);
}

// A working-tree file whose bytes are a secret's is a secret under any path
// (ws(7), the secret kind): judged by the bytes read, not by the id the
// index last recorded for the path, so editing a tracked file to a copy of
// the secret hides nothing.
TEST_CASE("secret canary: a working-tree file holding a secret's bytes is refused under any path",
          "[secrets][canary][worktree-alias]") {
  const Expect alias{1, 1, 1, 1, 1};
  {
    // A tracked skill edited on disk to the secret's bytes: ws-grep's view
    // takes a tracked file's id from the index, which still names the skill.
    Box box;
    box.repo.write("skills/SKsummarize01.md", secret_bytes());
    sweep(box, {"a tracked file edited to the secret", {{{}, alias}}, "", 1});
    CHECK(box.repo.git({"for-each-ref", "refs/ws/"}) == "");
  }
  {
    // The same with an untracked twin at another routed path.
    Box box;
    box.repo.write("skills/SKsummarize01.md", secret_bytes());
    box.repo.write("prompts/PRcopy01.md", secret_bytes());
    sweep(box, {"a tracked and an untracked copy", {{{}, alias}}, "", 1});
  }
}

namespace {

// Runs `args` and checks the exact outcome.
void expect_run(const Box& box, const std::string& tool, const std::vector<std::string>& args, int status,
                const std::string& out, const std::string& err) {
  RunResult r = box.tool(tool, args);
  std::string line = tool;
  for (const auto& a : args) line += " " + a;
  INFO(line << "\n--- stdout\n" << r.out << "--- stderr\n" << r.err);
  CHECK(r.status == status);
  CHECK(r.out == out);
  CHECK(r.err == err);
}

const std::string kSkillRefusal =
    "refused path 'skills/SKsummarize01.md': secret (it holds the bytes of a secret, and a secret's content is never "
    "opened or shown under any path); remove the file or give it other content";

}  // namespace

TEST_CASE("secret canary: a tracked file edited to the secret is skipped by ws-grep and refused by the others",
          "[secrets][worktree-alias]") {
  Box box;
  box.repo.write("skills/SKsummarize01.md", secret_bytes());
  std::string before = state_of(box.repo);
  expect_run(box, "ws-grep", {kCanary}, 1, "", "");
  expect_run(box, "ws-grep", {"-l", "-i", "c4n4ry"}, 1, "", "");
  RunResult stats = box.tool("ws-grep", {"--stats", kCanary});
  CHECK(stats.status == 1);
  CHECK(stats.out == "");
  auto err = lines(stats.err);
  REQUIRE(err.size() == 3);
  CHECK(err[1] == "ws-grep: skipped 2 files under .secrets/: secret content is never opened");
  CHECK(err[2] ==
        "ws-grep: skipped 'skills/SKsummarize01.md': it holds a secret's bytes, which are never searched or shown");
  RunResult json = box.tool("ws-grep", {"--json", kCanary});
  CHECK(json.status == 1);
  CHECK(nlohmann::json::parse(json.out)["files_matched"] == 0);
  CHECK(box.leak_in(json.out + json.err) == "");

  RunResult ls = box.tool("ws-ls", {"-l", "--changed"});
  CHECK(ls.status == 1);
  CHECK(ls.out == "");
  CHECK(ls.err == "ws-ls: " + kSkillRefusal + "\n");
  RunResult build = box.tool("ws-build", {"--format", "json"});
  CHECK(build.status == 1);
  auto diags = wstest::build_report(build.out)["diagnostics"];
  CHECK(std::any_of(diags.begin(), diags.end(), [](const nlohmann::json& d) {
    return d["path"] == "skills/SKsummarize01.md" && d["message"] == kSkillRefusal;
  }));
  RunResult commit = box.tool("ws-commit", {"-m", "Summarize differently"});
  CHECK(commit.status == 1);
  CHECK(box.leak_in(commit.out + commit.err) == "");
  CHECK(commit.err.find(kSkillRefusal) != std::string::npos);
  CHECK(state_of(box.repo) == before);
}

TEST_CASE("secret canary: a file the index vouches for unread is judged by the bytes read",
          "[secrets][worktree-alias]") {
  // git's assume-unchanged bit: git, and a view built from the index, take
  // the path as unchanged without looking at it, while the disk holds the
  // secret. The listing reads it for its name; it is refused there.
  Box box;
  box.repo.git({"update-index", "--assume-unchanged", "skills/SKsummarize01.md"});
  box.repo.write("skills/SKsummarize01.md", secret_bytes());
  std::string before = state_of(box.repo);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-l", "--kind", "skill"}, {"--json", "--kind", "skill"}})
    expect_run(box, "ws-ls", args, 1, "", "ws-ls: " + kSkillRefusal + "\n");
  expect_run(box, "ws-grep", {"-c", kCanary}, 1, "", "");
  for (const char* format : {"human", "json", "sarif"}) {
    RunResult r = box.tool("ws-build", {"--all", "--no-cache", "--format", format});
    INFO(format << "\n" << r.out << r.err);
    CHECK(box.leak_in(r.out + r.err) == "");
  }
  RunResult commit = box.tool("ws-commit", {"-m", "Nothing"});
  CHECK(box.leak_in(commit.out + commit.err) == "");
  CHECK(state_of(box.repo) == before);
}

TEST_CASE("secret canary: the secret's bytes plus or minus one byte are an ordinary file",
          "[secrets][worktree-alias]") {
  const std::string secret = secret_bytes();
  for (const std::string& bytes : {secret + "x", secret.substr(0, secret.size() - 1)}) {
    Box box;
    box.repo.write("skills/SKsummarize01.md", bytes);
    INFO("size " << bytes.size());
    expect_run(box, "ws-grep", {"-c", kCanary}, 0, "skills/SKsummarize01.md:3\n", "");
    RunResult ls = box.tool("ws-ls", {"-l", "--changed"});
    CHECK(ls.status == 0);
    CHECK(ls.out == "M skill - skills/SKsummarize01.md\n");  // its front matter names no valid skill
    RunResult commit = box.tool("ws-commit", {"-m", "Rename the skill", "--json"});
    // It builds or not on its own merits (the agents' reference to
    // 'Summarize' breaks): never refused as a secret.
    CHECK(commit.err.find("secret") == std::string::npos);
  }
}

namespace {

// Other spellings of '.secrets' (ws(7), PATH POLICY): each names the
// secrets folder on a file system that folds names, so each holds secrets,
// with a canary of its own (not the blob of .secrets/API_KEY: only the
// spelling protects it).
std::vector<std::pair<std::string, std::string>> spelled_secrets() {
  std::vector<std::pair<std::string, std::string>> out;
  int n = 0;
  // Each file has a name of its own: on a folding file system they are one
  // folder, and the secret kind would report two files of one name.
  for (const char* path : {"SECRET~1/KEY1", "secret~2/KEY2", "SE1F2E~1/KEY3", ".secrets::$INDEX_ALLOCATION/KEY4",
                           ".secrets:stream", ".sec\xe2\x80\x8crets/KEY6", "\xef\xbb\xbf.Secrets/KEY7"})
    out.emplace_back(path, "{\"name\": \"" + kCanary + "-" + std::to_string(++n) + "\"}\n");
  return out;
}

}  // namespace

TEST_CASE("secret canary: every spelling of .secrets keeps its files unread", "[secrets][canary][spellings]") {
  // ws-build --all reports '.secrets:stream' by path as routed to no kind
  // (a stream of the folder is no file in it), never reading it.
  const Expect unread{0, 0, 1, 1, 1};
  {
    Box box;
    for (const auto& [path, bytes] : spelled_secrets()) box.repo.write(path, bytes);
    std::string head = box.repo.commit_all("secrets under other spellings");
    std::string p = box.proposal_on(head, {{"skills/SKsummarize01.md", box.blob_of(kHarmlessSkill)}});
    sweep(box, {"spellings committed", {{{}, unread}, {{"--rev", "HEAD"}, unread}, {{"--proposal", p}, unread}}, p, 0});
  }
  {
    // Untracked, and in a hand-made proposal: never read, never staged,
    // never applied.
    Box box;
    std::vector<std::pair<std::string, std::string>> put;
    for (const auto& [path, bytes] : spelled_secrets()) {
      box.repo.write(path, bytes);
      put.emplace_back(path, box.blob_of(bytes));
    }
    std::string p = box.proposal_on(box.base, put);
    sweep(box, {"spellings uncommitted", {{{}, unread}, {{"--proposal", p}, unread}}, p, 1});
  }
}

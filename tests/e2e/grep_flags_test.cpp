// ws-grep's rg and grep habits (ws-grep(1)): -L, --files, -g, -H/-I, -s and
// -q stopping at the first result, each next to the real rg where rg has the
// flag, and each tried against secrets, links and bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "support/process.h"
#include "support/rg_parity.h"
#include "support/temp_repo.h"

using wstest::lines;
using wstest::rg;
using wstest::same_as_rg;
using wstest::without_dot_slash;
using wstest::ws_grep;
using wstest::TempRepo;
using namespace std::string_literals;

namespace {

// Five files whose names sort alike for rg and git, two folders deep.
void seed_tree(const TempRepo& repo) {
  repo.write("a/x.json", "foo\n");
  repo.write("a/b/y.md", "bar\nFOO\n");
  repo.write("drafts/z.md", "foo\nbar\n");
  repo.write("d/w.txt", "foo\n");
  repo.write("top.txt", "nothing\n");
  repo.commit_all("tree");
}

// A secret, its bytes committed under another path, and its bytes again in
// an untracked file: none of them is ever listed or searched.
void seed_secrets(const TempRepo& repo) {
  repo.write(".secrets/Token", "canary-77\n");
  repo.write("notes/copy.txt", "canary-77\n");
  repo.commit_all("secrets");
  repo.write("notes/untracked.txt", "canary-77\n");
}

}  // namespace

TEST_CASE("ws-grep -L lists the files without a match, as rg --files-without-match", "[grep-flags]") {
  TempRepo repo;
  seed_tree(repo);
  same_as_rg(repo, {{"--files-without-match", "foo"}, {"--files-without-match", "zzz"}, {"--files-without-match", "."},
                    {"--files-without-match", "-i", "FOO"}, {"--files-without-match", "-v", "foo"},
                    {"-l", "--files-without-match", "foo"}, {"--files-without-match", "-l", "foo"},
                    {"--files-without-match", "-c", "foo"}});
  auto l = ws_grep(repo, {"-L", "foo"});
  CHECK(l.status == 0);
  CHECK(l.err == "");
  CHECK(l.out == "a/b/y.md\ntop.txt\n");
  auto none = ws_grep(repo, {"-L", "."});
  CHECK(none.status == 1);
  CHECK(none.out == "");
  CHECK(ws_grep(repo, {"-L", "-z", "foo"}).out == "a/b/y.md\0top.txt\0"s);
  CHECK(ws_grep(repo, {"-L", "--max", "1", "foo"}).out == "a/b/y.md\nGrep-Truncated: 1 more result (raise --max)\n");
  // JSON: a "file" record of count 0 per path, then the summary.
  auto j = lines(ws_grep(repo, {"-L", "--json", "foo"}).out);
  REQUIRE(j.size() == 3);
  CHECK(nlohmann::json::parse(j[0]) ==
        nlohmann::json{{"type", "file"}, {"version", 1}, {"path", "a/b/y.md"}, {"kind", "unrouted"}, {"name", nullptr},
                       {"count", 0}});
  CHECK(nlohmann::json::parse(j[2])["results"] == 2);
}

TEST_CASE("ws-grep -L never lists a secret or a file holding a secret's bytes", "[grep-flags]") {
  TempRepo repo;
  seed_tree(repo);
  seed_secrets(repo);
  // None of the three holds "foo": each would be a file without a match.
  auto r = ws_grep(repo, {"-L", "foo"});
  CHECK(r.status == 0);
  CHECK(r.err == "");
  CHECK(r.out == "a/b/y.md\ntop.txt\n");
  auto stats = ws_grep(repo, {"-L", "--stats", "foo"});
  CHECK(stats.out == r.out);
  CHECK(stats.err ==
        "ws-grep: 2 results in 2 files; 5 files searched\n"
        "ws-grep: skipped 1 file under .secrets/: secret content is never opened\n"
        "ws-grep: skipped 'notes/copy.txt': it holds a secret's bytes, which are never searched or shown\n"
        "ws-grep: skipped 'notes/untracked.txt': it holds a secret's bytes, which are never searched or shown\n");
  CHECK(ws_grep(repo, {"-L", "foo", "--base"}).out == "a/b/y.md\ntop.txt\n");
}

TEST_CASE("ws-grep --files lists what a search would read, as rg --files", "[grep-flags]") {
  TempRepo repo;
  seed_tree(repo);
  std::vector<std::vector<std::string>> cases = {{"--files"},
                                                 {"--files", "-g", "*.md"},
                                                 {"--files", "-g", "!*.md"},
                                                 {"--files", "-g", "a/**"},
                                                 {"--files", "-g", "nothing"}};
  for (const auto& args : cases) {
    INFO(args.back());
    auto mine = ws_grep(repo, args);
    auto theirs = rg(repo, args);
    CHECK(mine.err == "");
    CHECK(mine.status == theirs.status);
    CHECK(mine.out == without_dot_slash(theirs.out));
  }
  CHECK(ws_grep(repo, {"--files"}).out == "a/b/y.md\na/x.json\nd/w.txt\ndrafts/z.md\ntop.txt\n");
  // Positional arguments are pathspecs, from the current folder.
  CHECK(ws_grep(repo, {"--files", "a", "top.txt"}).out == "a/b/y.md\na/x.json\ntop.txt\n");
  CHECK(wstest::ws("ws-grep", {"--files"}, repo.abs("a")).out == "b/y.md\nx.json\n");
  CHECK(ws_grep(repo, {"--files", "-z", "d"}).out == "d/w.txt\0"s);
  CHECK(ws_grep(repo, {"--files", "-q"}).status == 0);
  auto missing = ws_grep(repo, {"--files", "nowhere"});
  CHECK(missing.status == 2);
  CHECK(missing.err == "ws-grep: pathspec 'nowhere' did not match any file\n");
  auto json = ws_grep(repo, {"--files", "--json"});
  CHECK(json.status == 2);
  CHECK(json.out == "");
  CHECK(json.err == "ws-grep: --files lists paths as text only: drop --json, or use 'ws-ls --json'\n");
  auto pattern = ws_grep(repo, {"--files", "-e", "foo"});
  CHECK(pattern.status == 2);
  CHECK(pattern.err ==
        "ws-grep: --files lists what would be searched and takes no pattern: drop -e, --ref or --defines\n");
}

TEST_CASE("ws-grep --files never lists a secret, a copy of its bytes or a link", "[grep-flags]") {
  TempRepo repo;
  seed_tree(repo);
  seed_secrets(repo);
  std::filesystem::create_symlink("../top.txt", repo.abs("a/link.txt"));
  repo.write("a/hard.txt", "hard\n");
  std::filesystem::create_hard_link(repo.abs("a/hard.txt"), repo.abs("hard-twin.txt"));
  for (std::vector<std::string> args : {std::vector<std::string>{"--files"}, {"--files", "-g", "**"},
                                        {"--files", "-g", ".secrets/**"}, {"--files", ".secrets"},
                                        {"--files", "-g", "notes/*"}}) {
    INFO(args.back());
    auto r = ws_grep(repo, args);
    CHECK(r.out.find("secrets") == std::string::npos);
    CHECK(r.out.find("notes/") == std::string::npos);
    CHECK(r.out.find("link") == std::string::npos);
    CHECK(r.out.find("hard") == std::string::npos);
  }
  auto all = ws_grep(repo, {"--files", "--stats"});
  CHECK(all.status == 0);
  CHECK(all.out == "a/b/y.md\na/x.json\nd/w.txt\ndrafts/z.md\ntop.txt\n");
  CHECK(all.err ==
        "ws-grep: 5 results in 5 files; 0 files searched\n"
        "ws-grep: skipped 'a/link.txt': links and submodules are never followed\n"
        "ws-grep: skipped 'a/hard.txt': hard-link (a file with more than one link may be a link out of the workspace)\n"
        "ws-grep: skipped 'hard-twin.txt': hard-link (a file with more than one link may be a link out of the "
        "workspace)\n"
        "ws-grep: skipped 1 file under .secrets/: secret content is never opened\n"
        "ws-grep: skipped 'notes/copy.txt': it holds a secret's bytes, which are never searched or shown\n"
        "ws-grep: skipped 'notes/untracked.txt': it holds a secret's bytes, which are never searched or shown\n");
  // The listing keeps to what ws-ls lists.
  auto ls = wstest::ws("ws-ls", {}, repo.path());
  for (const auto& path : lines(all.out)) CHECK(ls.out.find(path + "\n") != std::string::npos);
}

TEST_CASE("ws-grep -g selects and excludes paths as rg -g does", "[grep-flags]") {
  TempRepo repo;
  seed_tree(repo);
  std::vector<std::vector<std::string>> cases;
  for (const char* g : {"drafts", "drafts/**", "!drafts", "*.md", "a/*.json", "/a/*.json", "*.{json,md}", "a/**",
                        "!*.md", "b/", "a/b/*", "x{,.json}", "a/{x,b/y}.*", "**/b/*.md", "*", "**", "A/*.JSON",
                        "[!x]*.json", "[^x]*.md", "a/**/y.md", "!a/", "a", "*/x.json", "?.json", "a/?/y.md",
                        "!**/b/**", "**.md", "*/**", "\\*.md", "[*].md"})
    cases.push_back({"-g", g, "foo"});
  cases.push_back({"-g", "!drafts", "-g", "*.md", "-c", "."});
  cases.push_back({"-g", "*.md", "-g", "!drafts", "-c", "."});
  cases.push_back({"-g", "*.md", "-g", "!z.md", "-g", "drafts/*", "-l", "."});
  cases.push_back({"-g", "!*.md", "-g", "y.md", "-l", "."});
  cases.push_back({"--glob", "*.json", "--glob=*.txt", "-l", "."});
  same_as_rg(repo, cases);
  // From a subfolder the globs still start at the root (pathspecs start here).
  auto sub = wstest::ws("ws-grep", {"-g", "a/*.json", "-l", "foo", ":/"}, repo.abs("drafts"));
  CHECK(sub.status == 0);
  CHECK(sub.out == "../a/x.json\n");
}

TEST_CASE("ws-grep refuses a glob it cannot read in one line and exit 2", "[grep-flags]") {
  TempRepo repo;
  seed_tree(repo);
  struct Bad {
    std::string glob;
    std::string err;
  };
  for (const Bad& b : std::vector<Bad>{
           {"a/{b", "ws-grep: invalid glob 'a/{b' for --glob: '{' is not closed; write '\\{' or '[{]' for a literal '{'\n"},
           {"{a,{b,c}}", "ws-grep: invalid glob '{a,{b,c}}' for --glob: alternatives '{...}' do not nest\n"},
           {"", "ws-grep: invalid glob '' for --glob: names nothing; write a file or folder name, or a glob\n"},
           {"!", "ws-grep: invalid glob '!' for --glob: names nothing; write a file or folder name, or a glob\n"},
           {"../x", "ws-grep: invalid glob '../x' for --glob: has an empty, '.' or '..' segment; write a path relative "
                    "to the workspace root\n"},
           {"a//b", "ws-grep: invalid glob 'a//b' for --glob: has an empty, '.' or '..' segment; write a path "
                    "relative to the workspace root\n"},
           {"a\x1b[2Jb", "ws-grep: invalid glob 'a\\x1b[2Jb' for --glob: holds a control character\n"},
           {"{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}",
            "ws-grep: invalid glob '{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}' for --glob: stands for more than "
            "256 globs; split it into several -g\n"},
       }) {
    INFO(b.glob);
    auto r = ws_grep(repo, {"-g", b.glob, "foo"});
    CHECK(r.status == 2);
    CHECK(r.out == "");
    CHECK(r.err == b.err);
  }
  // Eight groups are 256 globs: still taken.
  CHECK(ws_grep(repo, {"-g", "{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", "foo"}).status == 1);
  // A glob reaches nothing outside the view, and nothing secret inside it.
  seed_secrets(repo);
  for (const char* g : {"/etc/passwd", ".secrets/*", "**/Token", "notes/**"}) {
    INFO(g);
    auto r = ws_grep(repo, {"-g", g, "canary"});
    CHECK(r.status == 1);
    CHECK(r.out == "");
    CHECK(r.err == "");
  }
}

TEST_CASE("ws-grep -I drops the path from lines and counts, -H brings it back, as rg", "[grep-flags]") {
  TempRepo repo;
  seed_tree(repo);
  same_as_rg(repo, {{"-I", "foo"}, {"-I", "-c", "foo"}, {"-I", "-l", "foo"}, {"-I", "-o", "fo"}, {"-I", "-C", "1", "bar"},
                    {"-I", "-N", "foo"}, {"-I", "--column", "oo"}, {"-I", "-H", "foo"}, {"-H", "-I", "foo"},
                    {"--no-filename", "--with-filename", "-c", "foo"}, {"-I", "--files-without-match", "foo"},
                    {"-I", "-v", "foo"}});
  CHECK(ws_grep(repo, {"-I", "foo"}).out == "1:foo\n1:foo\n1:foo\n");
  CHECK(ws_grep(repo, {"-I", "-z", "-c", "foo"}).out == "1\n1\n1\n");
  CHECK(ws_grep(repo, {"-I", "-z", "-l", "foo"}).out == "a/x.json\0d/w.txt\0drafts/z.md\0"s);
  CHECK(ws_grep(repo, {"-I", "--files"}).out == ws_grep(repo, {"--files"}).out);
  CHECK(ws_grep(repo, {"-I", "--color", "always", "bar"}).out ==
        "\x1b[0m\x1b[32m1\x1b[0m:\x1b[0m\x1b[1m\x1b[31mbar\x1b[0m\n"
        "\x1b[0m\x1b[32m2\x1b[0m:\x1b[0m\x1b[1m\x1b[31mbar\x1b[0m\n");
  // JSON records always name their path.
  CHECK(ws_grep(repo, {"-I", "--json", "foo"}).out == ws_grep(repo, {"--json", "foo"}).out);
}

TEST_CASE("ws-grep -s undoes an earlier -i and -i a later -s: the last wins, as rg", "[grep-flags]") {
  TempRepo repo;
  seed_tree(repo);
  same_as_rg(repo, {{"-s", "FOO"}, {"-i", "-s", "FOO"}, {"-s", "-i", "FOO"}, {"-is", "FOO"}, {"-si", "FOO"},
                    {"--ignore-case", "--case-sensitive", "-c", "foo"}, {"--case-sensitive", "-i", "-c", "foo"}});
  CHECK(ws_grep(repo, {"-i", "-s", "FOO"}).out == "a/b/y.md:2:FOO\n");
  CHECK(ws_grep(repo, {"-s", "-i", "FOO"}).out == "a/b/y.md:2:FOO\na/x.json:1:foo\nd/w.txt:1:foo\ndrafts/z.md:1:foo\n");
}

TEST_CASE("ws-grep -q stops at the first match: no file is read after it", "[grep-flags]") {
  // Every file matches but the last, whose object is gone: reading it is an
  // error. A search that reads on past the first match meets it; -q must not.
  TempRepo repo;
  repo.write("f/0000.txt", "nothing\n");  // the first file: no match, for -L
  for (int i = 0; i < 400; ++i) repo.write("f/" + std::to_string(1000 + i) + ".txt", "needle\n");
  repo.write("zz/last.txt", "needle too\n");
  repo.commit_all("many");
  std::string id = wstest::chomp(repo.git({"rev-parse", "HEAD:zz/last.txt"}));
  std::filesystem::remove(repo.abs(".git/objects/" + id.substr(0, 2) + "/" + id.substr(2)));
  const std::string gone = "ws-grep: cannot read blob " + id + ": object not found - no match for id (" + id + ")\n";
  auto full = ws_grep(repo, {"--base", "-c", "needle"});
  REQUIRE(full.status == 2);
  REQUIRE(full.err == gone);
  auto quiet = ws_grep(repo, {"--base", "-q", "needle"});
  CHECK(quiet.status == 0);
  CHECK(quiet.out == "");
  CHECK(quiet.err == "");
  // -L stops at the first file without a match the same way.
  auto without = ws_grep(repo, {"--base", "-q", "-L", "needle"});
  CHECK(without.status == 0);
  CHECK(without.err == "");
  // --stats asks for the whole search, as in rg: the missing object is met.
  auto stats = ws_grep(repo, {"--base", "-q", "--stats", "needle"});
  CHECK(stats.status == 2);
  CHECK(stats.out == "");
  CHECK(stats.err == gone + "ws-grep: 400 results in 400 files; 401 files searched\n");
  // Nothing to find: every file is read, and the status says none.
  auto no = ws_grep(repo, {"--base", "-q", "absent", "f"});
  CHECK(no.status == 1);
  CHECK(no.err == "");
}

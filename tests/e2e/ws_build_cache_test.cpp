// ws-build's definition cache end to end: warm builds parse only changes,
// damaged or foreign cache files are rebuilt, --no-cache, concurrent builds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "support/process.h"
#include "support/temp_repo.h"

using wstest::lines;
using wstest::TempRepo;
using wstest::ws;
namespace fs = std::filesystem;

namespace {

// The example workspace, committed.
void seed(const TempRepo& repo) { wstest::commit_example_workspace(repo, "example workspace"); }

const std::string kCache = ".git/ws/cache/definitions";

// "parsed N, cache hits M, cache misses K" from --stats.
std::string stats(const wstest::RunResult& r) {
  for (const auto& l : lines(r.err))
    if (l.rfind("parsed ", 0) == 0) return l;
  return "(no stats in: " + r.err + ")";
}

// The cache's checksum (definition_cache.h): XXH3's 64-bit hash of
// everything before it; restated here to forge a well-formed file.
std::uint64_t cache_checksum(std::string_view bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

// What the cache folder holds, with the files of its bases/ folder after
// "bases/": a temporary file left behind would show here.
std::vector<std::string> cache_files(const TempRepo& repo) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(repo.abs(".git/ws/cache"), ec)) names.push_back(e.path().filename());
  for (const auto& e : fs::directory_iterator(repo.abs(".git/ws/cache/bases"), ec))
    names.push_back("bases/" + e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The files a build on HEAD leaves: the definitions and HEAD's base index.
std::vector<std::string> head_cache_files(const TempRepo& repo) {
  return {"bases", "bases/" + wstest::chomp(repo.git({"rev-parse", "HEAD"})), "definitions"};
}

}  // namespace

TEST_CASE("ws-build cache: a warm build parses only the changed files", "[ws-build][cache]") {
  TempRepo repo;
  seed(repo);
  auto cold = ws("ws-build", {"--stats"}, repo.path());
  CHECK(cold.status == 0);
  CHECK(stats(cold) == "parsed 17, cache hits 0, cache misses 17");  // 18 files, one a secret
  CHECK(repo.exists(kCache));
  auto warm = ws("ws-build", {"--stats"}, repo.path());
  CHECK(stats(warm) == "parsed 0, cache hits 17, cache misses 0");
  repo.replace("agents/AGtriage01.json", "\"model\": \"small\"", "\"model\": \"large\"");
  auto change = ws("ws-build", {"--stats"}, repo.path());
  CHECK(change.out == "1 file changed, compiled clean.\n");
  // 16 unchanged + the base of the change are hits; the edit is new.
  CHECK(stats(change) == "parsed 1, cache hits 17, cache misses 1");
  // The same changeset again (a hook after a manual build, ws-commit after
  // ws-build): the edited bytes were parsed once, and that is enough.
  auto again = ws("ws-build", {"--stats"}, repo.path());
  CHECK(again.out == "1 file changed, compiled clean.\n");
  CHECK(stats(again) == "parsed 0, cache hits 18, cache misses 0");
  auto all = ws("ws-build", {"--stats", "--all"}, repo.path());
  CHECK(all.out == "18 files checked, compiled clean.\n");
  CHECK(stats(all) == "parsed 0, cache hits 18, cache misses 0");
  // Staged, the edit is found by its blob id without reading the file.
  REQUIRE(wstest::run({"git", "-C", repo.path(), "add", "agents/AGtriage01.json"}).status == 0);
  CHECK(stats(ws("ws-build", {"--stats", "--staged"}, repo.path())) == "parsed 0, cache hits 18, cache misses 0");
}

TEST_CASE("ws-build cache: a damaged cache file is rebuilt, never trusted", "[ws-build][cache]") {
  TempRepo repo;
  seed(repo);
  REQUIRE(ws("ws-build", {}, repo.path()).status == 0);
  std::string good = repo.read(kCache);
  REQUIRE(good.size() > 100);
  repo.remove("agents/AGtriage01.json");
  const std::string expected = ws("ws-build", {}, repo.path()).out;
  for (std::string bad : {good.substr(0, good.size() / 2), std::string("garbage"), std::string()}) {
    repo.write(kCache, bad);
    auto r = ws("ws-build", {"--stats"}, repo.path());
    CHECK(r.status == 1);
    CHECK(r.out == expected);
    CHECK(stats(r) == "parsed 17, cache hits 0, cache misses 17");
    auto again = ws("ws-build", {"--stats"}, repo.path());
    CHECK(stats(again) == "parsed 0, cache hits 17, cache misses 0");
  }
  std::string flipped = good;
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x20);
  repo.write(kCache, flipped);
  auto r = ws("ws-build", {"--stats"}, repo.path());
  CHECK(r.out == expected);
  CHECK(stats(r) == "parsed 17, cache hits 0, cache misses 17");
}

TEST_CASE("ws-build cache: a cache written by another tool version is not used", "[ws-build][cache]") {
  TempRepo repo;
  seed(repo);
  REQUIRE(ws("ws-build", {}, repo.path()).status == 0);
  std::string file = repo.read(kCache);
  // The checksum restated here is the tool's: else the forged file below
  // would be refused for its checksum, not for its version.
  std::uint64_t stored = 0;
  for (int i = 0; i < 8; ++i) stored |= std::uint64_t(static_cast<unsigned char>(file[file.size() - 8 + i])) << (8 * i);
  REQUIRE(cache_checksum(std::string_view(file).substr(0, file.size() - 8)) == stored);
  // "WSDEFCAC", u32 format, u32 length, then the version: forge a well-formed
  // file (right checksum) from version 0.0.9.
  REQUIRE(file.substr(16, 5) == "0.1.0");
  file.replace(16, 5, "0.0.9");
  std::uint64_t sum = cache_checksum(std::string_view(file).substr(0, file.size() - 8));
  for (int i = 0; i < 8; ++i) file[file.size() - 8 + i] = static_cast<char>((sum >> (8 * i)) & 0xff);
  repo.write(kCache, file);
  auto r = ws("ws-build", {"--stats"}, repo.path());
  CHECK(r.status == 0);
  CHECK(stats(r) == "parsed 17, cache hits 0, cache misses 17");
  CHECK(repo.read(kCache).substr(16, 5) == "0.1.0");  // rebuilt for this version
  CHECK(stats(ws("ws-build", {"--stats"}, repo.path())) == "parsed 0, cache hits 17, cache misses 0");
}

TEST_CASE("ws-build --no-cache neither reads nor writes the cache", "[ws-build][cache]") {
  TempRepo repo;
  seed(repo);
  auto r = ws("ws-build", {"--no-cache", "--stats"}, repo.path());
  CHECK(r.status == 0);
  CHECK(stats(r) == "parsed 17, cache hits 0, cache misses 0");
  CHECK_FALSE(repo.exists(kCache));
  REQUIRE(ws("ws-build", {}, repo.path()).status == 0);
  std::string before = repo.read(kCache);
  std::string base_before = repo.read(".git/ws/cache/" + head_cache_files(repo)[1]);
  repo.write("agents/AGintake01.json", "{\n  \"name\": \"Intake\"\n}\n");
  auto again = ws("ws-build", {"--no-cache", "--stats"}, repo.path());
  CHECK(stats(again) == "parsed 18, cache hits 0, cache misses 0");
  CHECK(repo.read(kCache) == before);
  CHECK(repo.read(".git/ws/cache/" + head_cache_files(repo)[1]) == base_before);
  // No temporary files are left beside the cache.
  CHECK(cache_files(repo) == head_cache_files(repo));
}

TEST_CASE("ws-build cache: builds running at once leave a whole cache", "[ws-build][cache]") {
  TempRepo repo;
  seed(repo);
  repo.replace("agents/AGtriage01.json", "\"name\": \"Triage\"", "\"name\": \"Intake\"");
  const std::string expected = ws("ws-build", {"--no-cache"}, repo.path()).out;
  for (int round = 0; round < 3; ++round) {
    std::error_code ec;
    fs::remove_all(repo.abs(".git/ws"), ec);
    std::vector<wstest::RunResult> results(4);
    std::vector<std::thread> threads;
    for (auto& r : results)
      threads.emplace_back([&r, &repo] { r = ws("ws-build", {"--stats"}, repo.path()); });
    for (auto& t : threads) t.join();
    for (const auto& r : results) {
      CHECK(r.status == 1);
      CHECK(r.out == expected);
      // Cold if it started before any other finished, else warm.
      std::string st = stats(r);
      CHECK((st == "parsed 18, cache hits 0, cache misses 18" || st == "parsed 0, cache hits 18, cache misses 0"));
    }
    auto after = ws("ws-build", {"--stats"}, repo.path());
    CHECK(after.out == expected);
    CHECK(stats(after) == "parsed 0, cache hits 18, cache misses 0");
    CHECK(cache_files(repo) == head_cache_files(repo));
  }
}

TEST_CASE("ws-build cache: a kind with an invalid schema is refused after a warm build", "[ws-build][cache]") {
  TempRepo repo;
  seed(repo);
  REQUIRE(ws("ws-build", {}, repo.path()).status == 0);
  REQUIRE(repo.exists(kCache));
  // The cache vouches for the pack it was built with, not for this one.
  repo.write(".ws/kinds/widget.json",
             R"({"kind": "widget", "files": "widgets/*.json", "format": "json", "schema": {"properties": {"a": {"pattern": "("}}}})");
  auto r = ws("ws-build", {}, repo.path());
  CHECK(r.status == 2);
  CHECK(r.out == "");
  CHECK_THAT(r.err, Catch::StartsWith("ws-build: kind manifest '.ws/kinds/widget.json': invalid schema"));
  CHECK(lines(r.err).size() == 1);
}

TEST_CASE("ws-build cache: a cache of another kind pack is not used, and is rebuilt for this one", "[ws-build][cache]") {
  TempRepo repo;
  seed(repo);
  REQUIRE(stats(ws("ws-build", {"--stats"}, repo.path())) == "parsed 17, cache hits 0, cache misses 17");
  REQUIRE(stats(ws("ws-build", {"--stats"}, repo.path())) == "parsed 0, cache hits 17, cache misses 0");
  // A kind of the workspace's own: another pack, so every definition is read again.
  repo.write(".ws/kinds/widget.json", R"({"kind": "widget", "files": "widgets/*.json", "format": "json"})");
  auto r = ws("ws-build", {"--stats"}, repo.path());
  CHECK(r.status == 0);
  CHECK(stats(r) == "parsed 17, cache hits 0, cache misses 17");
  CHECK(stats(ws("ws-build", {"--stats"}, repo.path())) == "parsed 0, cache hits 17, cache misses 0");
}

TEST_CASE("ws-build --stats counts the checked files whose references may be incomplete", "[ws-build][cache][partly-read]") {
  TempRepo repo;
  seed(repo);
  REQUIRE(ws("ws-build", {}, repo.path()).status == 0);
  // Valid C# the grammar reads with an error (an #if inside a switch
  // expression arm): its references are read around the error.
  repo.write("ai-tools/TLgap01.cs",
             "// name: Gap\nvar r = args.X switch {\n#if DEBUG\n  1 => Agents.Triage,\n#endif\n  _ => 2 };\n"
             "return Agents.Billing;\n");
  // A JSON syntax error is reported, but is no partly read C#.
  repo.write("agents/AGbroken01.json", "{\n  \"name\": \"Broken\",\n  \"model\": \"x\" ]\n}\n");
  // A clean C# file is not counted.
  repo.write("ai-tools/TLclean01.cs", "// name: Clean\nreturn Agents.Triage;\n");
  const std::string partly = "partly read 1 (checked files whose references may be incomplete)\n";
  auto r = ws("ws-build", {"--stats"}, repo.path());
  CHECK(r.status == 1);
  CHECK(r.out ==
        "agents/AGbroken01.json:3:16: error[WS001]: syntax error: unexpected ']'\n"
        "  \"model\": \"x\" ]\n"
        "               ^\n"
        "ai-tools/TLgap01.cs:3:1: error[WS001]: syntax error: unexpected '#if DEBUG...'\n"
        "#if DEBUG\n"
        "^~~~~~~~~\n"
        "note: references in this file are read outside the parts that do not parse; some may be missing\n"
        "2 errors in 2 files (3 files changed)\n");
  CHECK(r.err == "parsed 3, cache hits 17, cache misses 3\n" + partly);
  // The second build takes the records from the cache: they still say so.
  auto again = ws("ws-build", {"--stats"}, repo.path());
  CHECK(again.out == r.out);
  CHECK(again.err == "parsed 0, cache hits 20, cache misses 0\n" + partly);
  // Only checked files count: committed and unchanged, nothing is checked;
  // with --all every file is.
  repo.commit_all("a file the grammar cannot parse whole");
  auto unchanged = ws("ws-build", {"--stats"}, repo.path());
  CHECK(unchanged.out == "0 files changed, compiled clean.\n");
  CHECK(unchanged.err.find("partly read") == std::string::npos);
  auto all = ws("ws-build", {"--stats", "--all"}, repo.path());
  CHECK(all.status == 1);
  CHECK(all.err == "parsed 0, cache hits 20, cache misses 0\n" + partly);
  // No partly read file: no such line.
  repo.remove("ai-tools/TLgap01.cs");
  repo.remove("agents/AGbroken01.json");
  auto clean = ws("ws-build", {"--stats", "--all"}, repo.path());
  CHECK(clean.status == 0);
  CHECK(clean.err == "parsed 0, cache hits 20, cache misses 0\n");  // the two deleted, at their base
}

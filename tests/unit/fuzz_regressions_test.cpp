// Replays every input under tests/fuzz/regressions/<target>/ through the same
// entry code the libFuzzer target runs (tests/fuzz/fuzz_entries.h), so a
// crash or broken invariant the fuzzers found stays fixed in every build,
// fuzzing or not.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "fuzz/fuzz_entries.h"
#include "support/source_scan.h"

namespace fs = std::filesystem;

namespace {

const fs::path kRegressions = fs::path(WS_SOURCE_DIR) / "tests" / "fuzz" / "regressions";

// Replays the inputs of every target folder: the fixed ones (`open` false)
// or those whose bug is reported but not fixed yet (named *.open).
std::size_t replay(bool open) {
  REQUIRE(fs::is_directory(kRegressions));
  const auto& names = wsfuzz::target_names();
  std::size_t files = 0;
  for (const auto& dir : fs::directory_iterator(kRegressions)) {
    std::string target = dir.path().filename().string();
    if (target == "README.md") continue;
    INFO("tests/fuzz/regressions/" << target);
    // A misspelt folder would silently replay nothing.
    REQUIRE(dir.is_directory());
    REQUIRE(std::find(names.begin(), names.end(), target) != names.end());
    std::vector<fs::path> inputs;
    for (const auto& f : fs::directory_iterator(dir.path()))
      if (f.is_regular_file() && (f.path().extension() == ".open") == open) inputs.push_back(f.path());
    std::sort(inputs.begin(), inputs.end());
    for (const auto& input : inputs) {
      INFO(input.filename().string());
      // An exception the code under test lets escape would end the fuzzer
      // (std::terminate); here it fails the check instead of the whole run.
      std::string outcome;
      try {
        outcome = wsfuzz::run_target(target, wstest::read_file(input));
      } catch (const std::exception& e) {
        outcome = std::string("uncaught exception: ") + e.what();
      }
      CHECK(outcome == "");
      ++files;
    }
  }
  return files;
}

}  // namespace

TEST_CASE("every fuzz regression input passes its target's checks", "[fuzz]") {
  CHECK(replay(false) > 0);
}

// A bug the fuzzers found in code its owner has yet to fix: the input is
// named *.open, replayed here without failing the build, and renamed (drop
// ".open") with the fix, which moves it to the test above.
TEST_CASE("fuzz regression inputs of open bugs", "[fuzz][!mayfail]") {
  replay(true);
}

TEST_CASE("the fuzz entries hold on the project's own files and catch broken invariants", "[fuzz]") {
  // The seeds the fuzzers start from pass, so a failure under fuzzing is news.
  const fs::path ex = fs::path(WS_SOURCE_DIR) / "examples" / "workspace";
  for (const auto& f : fs::recursive_directory_iterator(ex)) {
    if (!f.is_regular_file()) continue;
    std::string ext = f.path().extension().string();
    std::string target = ext == ".cs" ? "fuzz_reader_csharp" : ext == ".json" ? "fuzz_reader_json"
                       : ext == ".md" ? "fuzz_reader_markdown" : "";
    std::string rel = fs::relative(f.path(), ex).generic_string();
    INFO(rel);
    CHECK(wsfuzz::run_target("fuzz_path_policy", rel) == "");
    CHECK(wsfuzz::run_target("fuzz_pathspec", "agents\n" + rel) == "");
    CHECK(wsfuzz::run_target("fuzz_proposal_tree", std::string(1, '\0') + rel) == "");
    if (!target.empty())
      for (int k : {0, 1, 2, 3, 4, 5, 6, 7, 64, 65, 66, 67, 68, 69, 70, 71})  // 64+: every renderer too
        CHECK(wsfuzz::run_target(target, std::string(1, static_cast<char>(k)) + wstest::read_file(f.path())) == "");
  }
  for (const auto& f : fs::directory_iterator(fs::path(WS_SOURCE_DIR) / "schemas" / "kinds")) {
    INFO(f.path().string());
    CHECK(wsfuzz::run_target("fuzz_kind_manifest", wstest::read_file(f.path())) == "");
  }
  // The invariant checkers themselves: each must object to what it exists to catch.
  CHECK(wsfuzz::accepted_path_problem("../x") == "accepted an empty, '.' or '..' component");
  CHECK(wsfuzz::accepted_path_problem("a/.GIT./b") == "accepted a .git component");
  CHECK(wsfuzz::accepted_path_problem("/etc") == "accepted an absolute path");
  CHECK(wsfuzz::accepted_path_problem("a\\b") == "accepted a backslash");
  CHECK(wsfuzz::accepted_path_problem(std::string("a\nb")) == "accepted a control byte");
  CHECK(wsfuzz::accepted_path_problem("agents/a.json") == "");
  CHECK(wsfuzz::under_secrets(".Secrets. /k"));
  CHECK_FALSE(wsfuzz::under_secrets(".secrets"));
  CHECK(wsfuzz::under_secrets("Secret~2 /k"));
  CHECK(wsfuzz::under_secrets("SE09af~1/k"));
  CHECK(wsfuzz::under_secrets(".secrets::$INDEX_ALLOCATION/k"));
  CHECK(wsfuzz::under_secrets(".secrets:k"));
  CHECK(wsfuzz::under_secrets(".sec\xe2\x80\x8c" "rets/k"));
  CHECK_FALSE(wsfuzz::under_secrets("secret~1"));
  CHECK_FALSE(wsfuzz::under_secrets("secrets~1/k"));
  CHECK(wsfuzz::run_target("fuzz_nothing", "x") == "no fuzz target is called 'fuzz_nothing'");
  // A raw tree entry called "..", a symlink, a submodule, .secrets content
  // and .git: all refused by the same checks ws-apply runs.
  auto record = [](char mode, const std::string& name) { return std::string(1, mode) + name; };
  for (const std::string& rec : {record(0, ".."), record(2, "agents"), record(3, "sub"), record(0, ".secrets"),
                                 record(0, ".git"), record(0, "a/../../etc/passwd"), record(4, ".secrets")}) {
    INFO(wsfuzz::printable(rec));
    CHECK(wsfuzz::run_target("fuzz_proposal_tree", rec) == "");
  }
  CHECK(wsfuzz::change_problem("agents/a.json", 0120000, {}) == "");  // refused: a symlink
  CHECK(wsfuzz::change_problem(".secrets/k", 0100644, {}) == "");     // refused: secret
}

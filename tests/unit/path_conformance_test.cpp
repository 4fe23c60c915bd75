// Conformance against public path-traversal payload lists (../shared/data):
// every line, used as a path, is refused by the policy or names a place
// inside the workspace root. Percent-encoded lines are legal literal names,
// so "accepted" is fine as long as the name stays inside.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "confined_open.h"
#include "libcheck/path_policy.h"
#include "libcheck/workspace_root.h"
#include "support/temp_repo.h"

namespace {

// Lexically joins `rel` to a root and reports whether the result stays at or
// below it. Independent of the policy's own rules on purpose: this is the
// property the policy exists for, checked the obvious way.
bool lexically_inside(const std::string& rel) {
  if (!rel.empty() && (rel[0] == '/' || rel[0] == '\\')) return false;
  std::vector<std::string> stack;
  std::string piece;
  auto push = [&] {
    if (piece == "..") {
      if (stack.empty()) return false;
      stack.pop_back();
    } else if (!piece.empty() && piece != ".") {
      stack.push_back(piece);
    }
    piece.clear();
    return true;
  };
  for (char c : rel) {
    // A backslash separates on Windows; treat it as one here to be strict.
    if (c == '/' || c == '\\') {
      if (!push()) return false;
    } else {
      piece += c;
    }
  }
  return push();
}

struct Tally {
  size_t lines = 0, escaping = 0, refused = 0, accepted = 0;
};

void check_file(const std::string& file, const ws::WorkspaceRoot& root, Tally& tally) {
  std::ifstream in(file, std::ios::binary);
  REQUIRE(in.good());
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ++tally.lines;
    if (!lexically_inside(line)) ++tally.escaping;
    for (const ws::PathPolicy& policy : {ws::read_policy(), ws::proposal_policy()}) {
      auto rej = check_path(line, policy);
      if (rej) {
        ++tally.refused;
        continue;
      }
      ++tally.accepted;
      INFO(file << ": accepted '" << ws::detail::printable_path(line) << "'");
      CHECK(lexically_inside(line));
      // And the confined read agrees: the name is simply absent beneath the
      // (empty) root, never something found elsewhere or an I/O failure.
      auto r = root.read(line);
      CHECK_FALSE(r.ok);
      CHECK(r.error.rule == ws::FileRule::not_found);
    }
  }
}

}  // namespace

TEST_CASE("lexically_inside helper agrees with obvious cases", "[path_policy][conformance]") {
  CHECK(lexically_inside("a/b"));
  CHECK(lexically_inside("a/../b"));
  CHECK_FALSE(lexically_inside("a/../../b"));
  CHECK_FALSE(lexically_inside("/etc/passwd"));
  CHECK_FALSE(lexically_inside("..\\x"));
  CHECK(lexically_inside("%2e%2e%2fetc"));
}

TEST_CASE("traversal payload lists are refused or stay inside the root", "[path_policy][conformance]") {
  const std::string dir = WS_SHARED_DATA_DIR;
  const std::vector<std::string> files = {dir + "/path-traversal-payloads.txt",
                                          dir + "/path-traversal-dotdotpwn.txt"};
  for (const auto& f : files) {
    if (!std::ifstream(f).good()) {
      WARN("conformance data '" << f << "' not found; test skipped (see ../shared/data/README.md)");
      return;
    }
  }

  wstest::TempDir tmp;
  auto root = ws::WorkspaceRoot::open(tmp.path(), "");
  REQUIRE(root.ok());

  Tally tally;
  for (const auto& f : files) check_file(f, *root, tally);

  // An empty run, or one with nothing that would escape, means the data or
  // the test is broken, not that the policy is good. Most dotdotpwn lines
  // are percent- or otherwise encoded and so legal literal names.
  CHECK(tally.lines > 21000);
  CHECK(tally.escaping > 900);  // 958 lines escape lexically in the published lists
  CHECK(tally.refused >= 2 * tally.escaping);  // each escaping line, under both policies
  CHECK(tally.accepted > 0);
  CHECK(tally.refused + tally.accepted == 2 * tally.lines);
}

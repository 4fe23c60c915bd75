// Tree walks and the names they find: a proposal nested past the depth cap
// is refused by the same line in every tool while one at the cap lands
// (ws(7), PATH POLICY, too-long); a file of a kind's folder whose name is
// not UTF-8 is an error whatever "unrouted" says (ws(7), DEFINITIONS).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/hand_made.h"
#include "support/process.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::TempRepo;

namespace {

const std::string kTooLong =
    "': too-long (over 4096 bytes, a component over 255, or over 256 components); use shorter names and fewer folders";

// The example workspace, unrouted files ignored, as the base; a proposal
// adding 'deep' and `folders` nested folders 'd' around the file 'f'.
struct Nested {
  TempRepo repo;
  std::string base, id, deepest;
  explicit Nested(int folders) {
    wstest::copy_example_workspace(repo);
    repo.write(".ws/config.json", "{\"unrouted\": \"ignore\"}\n");
    base = repo.commit_all("example workspace");
    std::string blob = wstest::write_blob(repo, "nested\n");
    std::string nested = wstest::write_nested_folders(repo, "d", folders, {"100644", "f", blob});
    std::string top =
        wstest::tree_with(repo, chomp(repo.git({"rev-parse", "HEAD^{tree}"})), "", {"40000", "deep", nested});
    id = wstest::plant_proposal(repo, {top, base, "Nested change"});
    // The path of the deepest file, or of the first path past the cap.
    deepest = "deep/";
    for (int i = 1; i < std::min(folders, 256); ++i) deepest += "d/";
    deepest += folders < 256 ? "f" : "d";
  }
};

}  // namespace

TEST_CASE("tree walk: a proposal 300 folders deep is refused with the depth-cap line by apply, --show and ws-build",
          "[tree-walk][depth-cap]") {
  Nested p(300);
  const std::string id12 = p.id.substr(0, 12);
  const std::string refusal = "refused path '" + p.deepest + kTooLong;

  auto show = wstest::ws("ws-apply", {"--show", p.id}, p.repo.path());
  CHECK(show.status == 1);
  CHECK(show.out == "");
  CHECK(show.err == "ws-apply: cannot show proposal " + id12 + ": " + refusal + "\n");

  auto apply = wstest::ws("ws-apply", {p.id}, p.repo.path());
  CHECK(apply.status == 1);
  CHECK(apply.out == "");
  CHECK(apply.err == "ws-apply: proposal " + id12 + " refused: " + refusal + "\n");
  CHECK(chomp(p.repo.git({"rev-parse", "refs/heads/main"})) == p.base);
  CHECK(p.repo.git({"status", "--porcelain"}) == "");
  CHECK(chomp(p.repo.git({"rev-parse", "refs/ws/proposals/default"})) == p.id);

  auto build = wstest::ws("ws-build", {"--rev", p.id}, p.repo.path());
  CHECK(build.status == 2);
  CHECK(build.out == "");
  CHECK(build.err == "ws-build: " + refusal + "\n");
}

TEST_CASE("tree walk: a proposal whose file sits at the cap (256 components) is shown, built and applied",
          "[tree-walk][depth-cap]") {
  Nested p(255);
  REQUIRE(std::count(p.deepest.begin(), p.deepest.end(), '/') == 255);

  auto show = wstest::ws("ws-apply", {"--show", p.id, "--stat"}, p.repo.path());
  CHECK(show.status == 0);
  CHECK(show.out.find(" 1 file changed, 1 insertion(+)\n") != std::string::npos);

  auto ls = wstest::ws("ws-ls", {"--rev", p.id, "--changed"}, p.repo.path());
  CHECK(ls.status == 0);
  CHECK(ls.out == p.deepest + "\n");

  auto build = wstest::ws("ws-build", {"--rev", p.id}, p.repo.path());
  CHECK(build.status == 0);
  CHECK(build.err == "");

  auto apply = wstest::ws("ws-apply", {p.id}, p.repo.path());
  CHECK(apply.status == 0);
  CHECK(apply.err == "");
  // The landed tree is the proposal's, written afresh, and the index follows.
  CHECK(chomp(p.repo.git({"rev-parse", "main^{tree}"})) == chomp(p.repo.git({"rev-parse", p.id + "^{tree}"})));
  CHECK(chomp(p.repo.git({"rev-parse", "main^"})) == p.base);
  CHECK(chomp(p.repo.git({"ls-files", "--", "deep"})) == p.deepest);
  CHECK(p.repo.git({"diff", "--cached", "--name-only", "main"}) == "");
}

TEST_CASE("tree walk: a file of a kind's folder whose name is not UTF-8 is an error whatever 'unrouted' says",
          "[tree-walk][bad-input]") {
  const std::string name = "agents/AG\xff\xfe.json";
  const std::string line = "agents/AG\\xff\\xfe.json: error[WS004]: refused path 'agents/AG\\xff\\xfe.json': its name is "
                           "not valid UTF-8, so no kind can read it; rename it in UTF-8";
  for (const std::string policy : {"ignore", "warning", "error"}) {
    INFO(policy);
    TempRepo repo;
    wstest::copy_example_workspace(repo);
    repo.write(".ws/config.json", "{\"unrouted\": \"" + policy + "\"}\n");
    repo.write("prompts/caf\xc3\xa9.md", "a valid UTF-8 name that fits no kind\n");
    std::string base = repo.commit_all("example workspace");
    repo.write(name, "{\"name\": \"Bytes\"}\n");

    auto build = wstest::ws("ws-build", {}, repo.path());
    CHECK(build.status == 1);
    CHECK(build.err == "");
    CHECK(build.out.rfind(line + "\n", 0) == 0);
    CHECK(build.out.find("WS005") == std::string::npos);

    auto commit = wstest::ws("ws-commit", {"-m", "bytes"}, repo.path());
    CHECK(commit.status == 1);
    CHECK(repo.git({"for-each-ref", "refs/ws/"}) == "");

    // Committed by git, which takes any bytes: the same line for the revision.
    repo.git({"add", "-A"});
    repo.git({"commit", "-q", "-m", "bytes"});
    std::string head = chomp(repo.git({"rev-parse", "HEAD"}));
    auto rev = wstest::ws("ws-build", {"--base", base, "--rev", head}, repo.path());
    CHECK(rev.status == 1);
    CHECK(rev.out.rfind(line + "\n", 0) == 0);
    CHECK(chomp(repo.git({"rev-parse", "HEAD"})) == head);
  }
}

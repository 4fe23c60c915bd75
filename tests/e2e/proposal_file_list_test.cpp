// The "files" of a proposal's --json records: ws-commit and `ws-apply --show`
// describe the same files alike, a rename with its old path in both
// (ws-commit(1), ws-apply(1), JSON OUTPUT; one builder, proposal_json.h).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "support/process.h"
#include "support/temp_repo.h"

using wstest::RunResult;
using wstest::TempRepo;

namespace {

RunResult ws(const TempRepo& repo, const std::string& tool, std::vector<std::string> args) {
  return wstest::ws(tool, args, repo.path(), {});
}

// The first JSON record a --json run printed: ws-commit's only one,
// ws-apply --show's proposal record (its plan follows).
nlohmann::json record(const RunResult& r) {
  INFO(r.err);
  REQUIRE(r.status == 0);
  REQUIRE(!r.out.empty());
  REQUIRE(r.out.back() == '\n');
  return nlohmann::json::parse(r.out.substr(0, r.out.find('\n')));
}

}  // namespace

TEST_CASE("ws-commit and ws-apply --show list a renamed file alike, old_path in both", "[proposal][file-list]") {
  TempRepo repo;
  wstest::copy_example_workspace(repo);
  repo.write(".ws/config.json", "{\"unrouted\": \"ignore\"}\n");
  repo.write("docs/keep/moved.txt", "the same bytes\nunder another name\n");
  // A name that is not UTF-8: its exact bytes ride beside it, old and new.
  repo.write("docs/caf\xe9.txt", "bytes of a Latin-1 name\n");
  repo.write("docs/notes.txt", "one\n");
  repo.commit_all("notes beside the definitions");

  repo.remove("docs/keep/moved.txt");
  repo.write("docs/renamed/moved.txt", "the same bytes\nunder another name\n");
  repo.remove("docs/caf\xe9.txt");
  repo.write("docs/old/caf\xe9.txt", "bytes of a Latin-1 name\n");
  repo.write("docs/notes.txt", "one\ntwo\n");
  const std::string before_index = repo.git({"ls-files", "-s"});

  nlohmann::json staged = record(ws(repo, "ws-commit", {"-m", "Move the notes", "--json"}));
  // The base64 of "docs/old/caf\xe9.txt" and "docs/caf\xe9.txt" (RFC 4648).
  const nlohmann::json expected = nlohmann::json::parse(
      R"([{"path":"docs/notes.txt","status":"M","additions":1,"deletions":0},)"
      R"({"path":"docs/old/caf\ufffd.txt","path_bytes":"ZG9jcy9vbGQvY2Fm6S50eHQ=",)"
      R"("old_path":"docs/caf\ufffd.txt","old_path_bytes":"ZG9jcy9jYWbpLnR4dA==",)"
      R"("status":"R","additions":0,"deletions":0},)"
      R"({"path":"docs/renamed/moved.txt","old_path":"docs/keep/moved.txt","status":"R","additions":0,"deletions":0}])");
  CHECK(staged["files"] == expected);

  const std::string id = staged["id"];
  nlohmann::json shown = record(ws(repo, "ws-apply", {"--show", id, "--json", "--stat"}));
  CHECK(shown["files"] == expected);
  // Staging wrote a proposal and nothing else.
  CHECK(repo.git({"ls-files", "-s"}) == before_index);
  CHECK(repo.git({"rev-parse", "refs/ws/proposals/default"}) == id + "\n");
}

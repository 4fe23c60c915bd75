// Every JSON output stays valid JSON and valid UTF-8 for any bytes (ws(7),
// JSON OUTPUT): a proposal's message, its author's name and email, a path
// and a file's lines that are not UTF-8 (a stray byte, a truncated
// sequence, an overlong form, a lone surrogate) come out with U+FFFD in the
// text and the exact bytes in base64 beside it; control characters come out
// escaped as RFC 8259 says. The parser here is nlohmann's, which refuses
// invalid UTF-8 and raw control characters.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "support/output_schema.h"
#include "support/process.h"
#include "support/temp_repo.h"

using wstest::chomp;
using wstest::lines;
using wstest::RunResult;
using wstest::TempRepo;

namespace {

// Each kind of byte sequence that is not UTF-8, and what each becomes.
const std::string kBad = "\xff|\xc3\x28|\xc0\xaf|\xed\xa0\x80";
const std::string kBadShown = "\xef\xbf\xbd|\xef\xbf\xbd(|\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd";

const std::string kPath = "notes/n " + kBad + ".txt";
const std::string kPathShown = "notes/n " + kBadShown + ".txt";
const std::string kLine = "zqline " + kBad + " \x1b[2J\x01 end";
const std::string kSubject = "Subject " + kBad + " \x1b[1A";
const std::string kMessage = kSubject + "\n\nBody " + kBad + "\x07\n";
const std::string kName = "Name " + kBad;
const std::string kEmail = "mail" + kBad + "@example.com";

// RFC 4648 base64, decoded independently of the tools.
std::string unbase64(const std::string& text) {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::uint32_t bits = 0;
  int have = 0;
  for (char c : text) {
    if (c == '=') break;
    auto v = alphabet.find(c);
    REQUIRE(v != std::string::npos);
    bits = bits << 6 | static_cast<std::uint32_t>(v);
    have += 6;
    if (have >= 8) {
      have -= 8;
      out.push_back(static_cast<char>((bits >> have) & 0xff));
    }
  }
  return out;
}

// One JSON value per line; fails the test on anything that does not parse.
std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> records;
  for (const auto& line : lines(out)) {
    INFO(line);
    REQUIRE_NOTHROW(records.push_back(nlohmann::json::parse(line)));
  }
  return records;
}

// The exact bytes of text member `key`: its "<key>_bytes" decoded.
std::string exact(const nlohmann::json& record, const std::string& key) {
  REQUIRE(record.contains(key + "_bytes"));
  return unbase64(record[key + "_bytes"].get<std::string>());
}

RunResult ws(const TempRepo& repo, const std::string& tool, const std::vector<std::string>& args) {
  wstest::RunOptions o;
  o.env = {{"GIT_AUTHOR_NAME", kName}, {"GIT_AUTHOR_EMAIL", kEmail}};
  return wstest::ws(tool, args, repo.path(), o);
}

// The example workspace, with unrouted files allowed (`unrouted`) so that a
// file outside the kind folders can be proposed.
void seed(const TempRepo& repo, bool unrouted = true) {
  wstest::commit_example_workspace(repo, "example workspace", unrouted ? "{\"unrouted\": \"ignore\"}\n" : "");
}

}  // namespace

TEST_CASE("json bytes: a proposal's message, author, path and lines that are not UTF-8 keep every output valid",
          "[json-bytes][proposal]") {
  TempRepo repo;
  seed(repo);
  repo.write(kPath, kLine + "\n");

  auto ls = ws(repo, "ws-ls", {"--changed", "--json"});
  CHECK(ls.status == 0);
  auto entries = json_lines(ls.out);
  REQUIRE(entries.size() == 1);
  CHECK(entries[0]["path"] == kPathShown);
  CHECK(exact(entries[0], "path") == kPath);

  auto grep = ws(repo, "ws-grep", {"--json", "zqline"});
  CHECK(grep.status == 0);
  auto found = json_lines(grep.out);
  REQUIRE(found.size() == 2);  // the match and the summary
  CHECK(found[0]["type"] == "match");
  CHECK(exact(found[0], "path") == kPath);
  CHECK(exact(found[0], "text").substr(0, kLine.size()) == kLine);
  CHECK(found[0]["match"] == "zqline");
  CHECK_FALSE(found[0].contains("match_bytes"));  // the match itself is UTF-8
  CHECK(found[0]["text"].get<std::string>().substr(0, 7) == "zqline ");

  auto staged = ws(repo, "ws-commit", {"-m", kMessage, "--json"});
  CHECK(staged.status == 0);
  auto proposal = json_lines(staged.out);
  REQUIRE(proposal.size() == 1);
  const std::string id = proposal[0]["id"];
  CHECK(proposal[0]["files"][0]["path"] == kPathShown);
  CHECK(exact(proposal[0]["files"][0], "path") == kPath);

  auto list = ws(repo, "ws-apply", {"--list", "--json"});
  CHECK(list.status == 0);
  CHECK(list.err == "");
  auto listed = json_lines(list.out);
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["id"] == id);
  CHECK(exact(listed[0], "subject") == kSubject);
  CHECK(exact(listed[0], "author") == kName + " <" + kEmail + ">");

  auto show = ws(repo, "ws-apply", {"--show", id, "--json"});
  CHECK(show.status == 0);
  auto shown = json_lines(show.out);
  REQUIRE(!shown.empty());  // the proposal, then its plan
  CHECK(shown[0]["type"] == "proposal");
  CHECK(exact(shown[0], "message").substr(0, kMessage.size()) == kMessage);
  CHECK(exact(shown[0]["files"][0], "path") == kPath);
  CHECK(exact(shown[0], "patch").find("\n+" + kLine + "\n") != std::string::npos);
  // The escapes RFC 8259 asks for, as they stand in the JSON text.
  CHECK(show.out.find("\\u001b[2J\\u0001 end") != std::string::npos);

  // Applied with the branch checked out: the apply record, JSON too, keeps
  // the exact path, and the index and the branch get that path.
  auto applied = ws(repo, "ws-apply", {id, "--json"});
  CHECK(applied.status == 0);
  auto done = json_lines(applied.out);
  REQUIRE(done.size() == 1);
  CHECK(done[0]["type"] == "applied");
  CHECK(repo.git({"ls-tree", "-z", "--name-only", "HEAD", "notes/"}) == kPath + std::string(1, '\0'));
  CHECK(repo.git({"ls-files", "-z", "--stage", "notes/"}).find(kPath) != std::string::npos);
  CHECK(repo.git({"status", "--porcelain"}) == "");
}

TEST_CASE("json bytes: ws-build's json, sarif and gitlab reports stay valid for a path that is not UTF-8",
          "[json-bytes][ws-build]") {
  TempRepo repo;
  seed(repo, /*unrouted=*/false);
  // Not a name the agent kind takes: an unrouted file (WS005), named in the report.
  const std::string path = "agents/AG " + kBad + ".json";
  repo.write(path, "{\"name\": \"Odd\"}\n");

  auto json = ws(repo, "ws-build", {"--format", "json"});
  CHECK(json.status == 1);
  nlohmann::json doc;
  REQUIRE_NOTHROW(doc = wstest::build_report(json.out));
  REQUIRE(doc["diagnostics"].size() >= 1);
  const auto& d = doc["diagnostics"][0];
  CHECK(d["path"] == "agents/AG " + kBadShown + ".json");
  CHECK(exact(d, "path") == path);

  // Formats whose schema is fixed elsewhere: the U+FFFD form only.
  for (const std::string format : {"sarif", "gitlab"}) {
    INFO(format);
    auto r = ws(repo, "ws-build", {"--format", format});
    CHECK(r.status == 1);
    nlohmann::json report;
    REQUIRE_NOTHROW(report = nlohmann::json::parse(r.out));
    CHECK(r.out.find("_bytes") == std::string::npos);
    // SARIF names a file by a URI, which percent-encodes the exact bytes.
    CHECK(r.out.find(format == "sarif" ? "\"uri\": \"agents/AG%20%FF%7C%C3(%7C%C0%AF%7C%ED%A0%80.json\""
                                       : "\"path\": \"agents/AG " + kBadShown + ".json\"") != std::string::npos);
  }
}

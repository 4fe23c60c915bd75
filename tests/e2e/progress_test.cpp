// Progress of a long build end to end, on a real pseudo-terminal: shown on a
// terminal's stderr, never in a pipe or with a machine format unless forced,
// and never on stdout. WS_PROGRESS_DELAY_MS=0 makes a small build show it
// (the default waits 200 ms, which a test workspace never takes).
#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <vector>

#include "support/output_schema.h"
#include "support/process.h"
#include "support/pty.h"
#include "support/temp_repo.h"

using wstest::TempRepo;
using wstest::ws;
using wstest::ws_on_pty;

namespace {

// 60 agents committed, one renamed in the working tree (nothing references
// it). A cold build reads 61 definitions: the 59 unchanged, and both sides
// of the changed one.
constexpr std::size_t kRead = 61;

void seed(const TempRepo& repo) {
  for (int i = 0; i < 60; ++i)
    repo.write("agents/a" + std::to_string(i) + ".json", "{\n  \"name\": \"A" + std::to_string(i) + "\"\n}\n");
  repo.commit_all("sixty agents");
  repo.write("agents/a0.json", "{\n  \"name\": \"Zero\"\n}\n");
}

wstest::RunOptions delay(const std::string& ms) {
  wstest::RunOptions o;
  o.env["WS_PROGRESS_DELAY_MS"] = ms;
  return o;
}
const wstest::RunOptions kNow = delay("0");

// Checks that `text` is exactly one progress line of `tool` over `total`
// units: "\r<title>:   0% (0/total)", rewrites with growing counts, and
// "\r<title>: 100% (total/total), done\n" last.
void check_progress(const std::string& text, const std::string& tool, std::size_t total) {
  INFO("progress: " << text);
  std::string title = tool + ": reading definitions: ";
  std::string t = std::to_string(total);
  REQUIRE(text.size() > 1);
  CHECK(text.front() == '\r');
  std::vector<std::string> records;
  for (std::size_t at = 1, next; at <= text.size(); at = next + 1) {
    next = text.find('\r', at);
    if (next == std::string::npos) next = text.size();
    records.push_back(text.substr(at, next - at));
  }
  REQUIRE(records.size() >= 2);
  CHECK(records.front() == title + "  0% (0/" + t + ")");
  CHECK(records.back() == title + "100% (" + t + "/" + t + "), done\n");
  std::regex middle(title + R"( *(\d+)% \((\d+)/)" + t + R"(\))");
  std::size_t last = 0;
  for (std::size_t i = 1; i + 1 < records.size(); ++i) {
    std::smatch m;
    INFO("record " << records[i]);
    REQUIRE(std::regex_match(records[i], m, middle));
    std::size_t done = std::stoul(m[2]);
    CHECK(done > last);
    CHECK(done < total);
    CHECK(std::stoul(m[1]) == done * 100 / total);
    last = done;
  }
}

// Splits terminal text at the end of the progress line: (progress, rest).
std::pair<std::string, std::string> split_at_done(const std::string& tty) {
  auto at = tty.find(", done\n");
  if (at == std::string::npos) return {"", tty};
  at += 7;
  return {tty.substr(0, at), tty.substr(at)};
}

}  // namespace

TEST_CASE("ws-build on a terminal: a cold build draws its progress on stderr, stdout as in a pipe",
          "[ws-build][progress]") {
  TempRepo repo;
  seed(repo);
  auto tty = ws_on_pty("ws-build", {}, repo.path(), kNow);
  CHECK(tty.status == 0);
  CHECK(tty.out == "1 file changed, compiled clean.\n");
  check_progress(tty.tty, "ws-build", kRead);

  // In a pipe: the same report, and nothing at all on stderr, however much
  // is read and whatever the delay.
  auto piped = ws("ws-build", {}, repo.path(), kNow);
  CHECK(piped.status == 0);
  CHECK(piped.out == tty.out);
  CHECK(piped.err == "");
  auto cold = ws("ws-build", {"--all", "--no-cache", "--stats"}, repo.path(), kNow);
  CHECK(cold.status == 0);
  CHECK(cold.out == "60 files checked, compiled clean.\n");
  CHECK(cold.err == "parsed 61, cache hits 0, cache misses 0\n");
}

TEST_CASE("ws-build --all on a terminal: progress while it reads, ended before the report", "[ws-build][progress]") {
  TempRepo repo;
  seed(repo);
  // stdout on the terminal too, as in an interactive shell: the progress
  // line is finished ("done" and a newline) before the report starts.
  auto both = ws_on_pty("ws-build", {"--all", "--no-cache", "--color", "never"}, repo.path(), kNow,
                        /*stdout_on_tty=*/true);
  CHECK(both.status == 0);
  CHECK(both.out == "");
  auto [progress, rest] = split_at_done(both.tty);
  check_progress(progress, "ws-build", kRead);
  CHECK(rest == "60 files checked, compiled clean.\n");

  // Warm, the one working-tree file is found in the cache by the id its
  // bytes got when the view hashed them: nothing is left to read, so there
  // is no progress to show.
  auto fill = ws("ws-build", {}, repo.path());
  REQUIRE(fill.status == 0);
  auto warm = ws_on_pty("ws-build", {"--all", "--stats"}, repo.path(), kNow);
  CHECK(warm.status == 0);
  CHECK(warm.out == "60 files checked, compiled clean.\n");
  CHECK(warm.tty == "parsed 0, cache hits 61, cache misses 0\n");
  // Committed, everything is in the cache by blob id: nothing to read,
  // nothing to show.
  repo.commit_all("rename A0");
  auto warmest = ws_on_pty("ws-build", {"--all", "--stats"}, repo.path(), kNow);
  CHECK(warmest.status == 0);
  CHECK(warmest.out == "60 files checked, compiled clean.\n");
  CHECK(warmest.tty == "parsed 0, cache hits 60, cache misses 0\n");
}

TEST_CASE("ws-build with a machine format shows no progress on a terminal unless --progress forces it",
          "[ws-build][progress]") {
  TempRepo repo;
  seed(repo);
  for (const std::vector<std::string> format : {std::vector<std::string>{"--json"},
                                                {"--format", "json"},
                                                {"--format", "sarif"},
                                                {"--format", "github"},
                                                {"--format", "gitlab"}}) {
    INFO(format.back());
    std::vector<std::string> args = format;
    args.push_back("--no-cache");
    auto piped = ws("ws-build", args, repo.path(), kNow);
    CHECK(piped.status == 0);
    CHECK(piped.err == "");
    CHECK(!piped.out.empty());
    auto tty = ws_on_pty("ws-build", args, repo.path(), kNow);
    CHECK(tty.status == 0);
    CHECK(tty.tty == "");
    CHECK(tty.out == piped.out);

    // Forced, it goes to stderr alone: the report is the same bytes.
    args.push_back("--progress");
    auto forced = ws_on_pty("ws-build", args, repo.path(), kNow);
    CHECK(forced.status == 0);
    check_progress(forced.tty, "ws-build", kRead);
    CHECK(forced.out == piped.out);
  }
}

TEST_CASE("ws-build --no-progress on a terminal shows none, and the last of the two flags wins", "[ws-build][progress]") {
  TempRepo repo;
  seed(repo);
  for (const std::vector<std::string> off : {std::vector<std::string>{"--no-progress"},
                                             {"--progress", "--no-progress"},
                                             {"--no-progress", "--progress", "--no-progress"}}) {
    std::vector<std::string> args{"--no-cache"};
    args.insert(args.end(), off.begin(), off.end());
    auto r = ws_on_pty("ws-build", args, repo.path(), kNow);
    CHECK(r.status == 0);
    CHECK(r.out == "1 file changed, compiled clean.\n");
    CHECK(r.tty == "");
  }
  auto on = ws_on_pty("ws-build", {"--no-cache", "--no-progress", "--progress"}, repo.path(), kNow);
  CHECK(on.status == 0);
  CHECK(on.out == "1 file changed, compiled clean.\n");
  check_progress(on.tty, "ws-build", kRead);
}

TEST_CASE("ws-build --progress in a pipe writes progress to stderr only, after the delay", "[ws-build][progress]") {
  TempRepo repo;
  seed(repo);
  repo.write("agents/bad.json", "{\n  \"name\": \"Bad\",\n  \"toosl\": []\n}\n");
  auto plain = ws("ws-build", {"--no-cache"}, repo.path(), kNow);
  CHECK(plain.status == 1);
  CHECK(plain.err == "");
  CHECK(plain.out.find("agents/bad.json:3:3: error[WS006]: unknown field 'toosl'") == 0);

  auto forced = ws("ws-build", {"--no-cache", "--progress", "--stats"}, repo.path(), kNow);
  CHECK(forced.status == 1);
  CHECK(forced.out == plain.out);
  auto [progress, rest] = split_at_done(forced.err);
  check_progress(progress, "ws-build", kRead + 1);
  CHECK(rest == "parsed 62, cache hits 0, cache misses 0\n");

  // A build over before the delay leaves no trace, forced or not.
  auto quick = ws("ws-build", {"--no-cache", "--progress"}, repo.path(), delay("600000"));
  CHECK(quick.status == 1);
  CHECK(quick.out == plain.out);
  CHECK(quick.err == "");
  auto quick_tty = ws_on_pty("ws-build", {"--no-cache"}, repo.path(), delay("600000"));
  CHECK(quick_tty.status == 1);
  CHECK(quick_tty.out == plain.out);
  CHECK(quick_tty.tty == "");
}

TEST_CASE("ws-commit on a terminal draws the same progress, and --json keeps the terminal clean", "[ws-commit][progress]") {
  TempRepo repo;
  seed(repo);
  // One date for both commits: the second stages the same proposal (same
  // id, nothing superseded) however long the first took.
  wstest::RunOptions now = kNow;
  now.env["GIT_AUTHOR_DATE"] = now.env["GIT_COMMITTER_DATE"] = "1767225600 +0000";
  auto staged = ws_on_pty("ws-commit", {"-m", "rename A0"}, repo.path(), now);
  CHECK(staged.status == 0);
  CHECK(staged.out.rfind("proposal ", 0) == 0);
  check_progress(staged.tty, "ws-commit", kRead);

  auto json = ws_on_pty("ws-commit", {"-m", "rename A0", "--json", "--no-cache"}, repo.path(), now);
  CHECK(json.status == 0);
  CHECK(json.out.rfind("{\"type\":\"proposal\",\"version\":1,\"id\":\"", 0) == 0);
  CHECK(json.out.find("\"supersedes\":null}\n") != std::string::npos);
  CHECK(json.tty == "");

  // Refused: the diagnostics follow the finished progress line on stderr.
  repo.write("agents/bad.json", "{\n  \"name\": \"Bad\",\n  \"toosl\": []\n}\n");
  auto refused = ws_on_pty("ws-commit", {"-m", "bad", "--no-cache", "--color", "never"}, repo.path(), kNow);
  CHECK(refused.status == 1);
  CHECK(refused.out == "");
  auto [progress, rest] = split_at_done(refused.tty);
  check_progress(progress, "ws-commit", kRead + 1);
  CHECK(rest.rfind("agents/bad.json:3:3: error[WS006]: unknown field 'toosl'", 0) == 0);
  CHECK(rest.ends_with("\nws-commit: refused: the changeset does not build; no proposal was written\n"));
  auto piped = ws("ws-commit", {"-m", "bad", "--no-cache"}, repo.path(), kNow);
  CHECK(piped.status == 1);
  CHECK(piped.err == rest);
}

// ws-grep --ref answered from the base index that ws-build saves
// (ws-grep(1), --ref): the same output as a search that parses every file,
// for every kind of view and change, and no answer from an index that
// cannot be trusted.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "support/process.h"
#include "support/rg_parity.h"
#include "support/temp_repo.h"

using wstest::TempRepo;
using wstest::ws_grep;

namespace {

namespace fs = std::filesystem;

// Three more referrers of Agents.Triage beside the example's two: C# with
// CRLF line ends, a JSON file behind a byte order mark, and one whose name
// only starts like the symbol's.
void seed(const TempRepo& repo) {
  wstest::copy_example_workspace(repo);
  repo.write("ai-tools/TLcrlf01.cs",
             "// name: CrlfProbe\r\n// description: calls the triage agent\r\n"
             "var r = await Agents.Triage.Run(request);\r\nreturn r;\r\n");
  repo.write("tasks/TKbom01.json",
             "\xEF\xBB\xBF{\n  \"name\": \"BomTask\",\n  \"endpoint\": \"TriageTicket\",\n  \"cron\": \"0 8 * * *\"\n}\n");
  repo.write("ai-tools/TLnear01.cs",
             "// name: NearProbe\n// description: a name that only starts like the symbol\n"
             "var r = await Agents.TriageBackup.Run(request);\nreturn r;\n");
  repo.commit_all("support desk");
}

std::string index_of(const TempRepo& repo) {
  return repo.abs(".git/ws/cache/bases/" + wstest::chomp(repo.git({"rev-parse", "HEAD"})));
}

// What ws-grep prints with `args` when no index exists: every file parsed.
wstest::RunResult without_index(const TempRepo& repo, const std::vector<std::string>& args) {
  fs::path saved = fs::path(repo.path()) / "saved-bases";
  fs::path bases = fs::path(repo.path()) / ".git/ws/cache/bases";
  fs::rename(bases, saved);
  auto r = ws_grep(repo, args);
  fs::rename(saved, bases);
  return r;
}

std::string stats_line(const std::string& err) {
  auto at = err.find(" answered from the index");
  if (at == std::string::npos) return "";
  auto start = err.rfind('\n', at);
  start = start == std::string::npos ? 0 : start + 1;
  return err.substr(start, err.find('\n', at) - start);
}

}  // namespace

TEST_CASE("ws-grep --ref answers unchanged files from the base index, as a full parse would", "[ws-grep][grep-ref]") {
  TempRepo repo;
  seed(repo);
  auto built = wstest::ws("ws-build", {}, repo.path());
  REQUIRE(built.status == 0);
  REQUIRE(fs::exists(index_of(repo)));

  // Pending changes: an unchanged referrer loses its reference, another
  // file gains one, an untracked file has one, and one is staged away.
  repo.replace("endpoints/EPtriage01.cs", "Agents.Triage.Run", "Agents.Billing.Run");
  repo.replace("ai-tools/TLlookup01.cs", "\n", "\n// Agents.Triage in a comment is no reference\nvar t = Agents.Triage;\n");
  repo.write("endpoints/EPnew01.cs",
             "// name: NewProbe\n// route: /new\n// method: GET\n// description: new\nreturn await Agents.Triage.Run(request);\n");
  const std::string expected =
      "access/grants/GTsupport01.json:5:15:  \"agents\": [\"Triage\", \"Billing\"]\n"
      "ai-tools/TLcrlf01.cs:3:15:var r = await Agents.Triage.Run(request);\r\n"
      "ai-tools/TLlookup01.cs:3:9:var t = Agents.Triage;\n"
      "endpoints/EPnew01.cs:5:14:return await Agents.Triage.Run(request);\n";

  auto with = ws_grep(repo, {"--ref", "Agents.Triage", "--stats"});
  CHECK(with.status == 0);
  CHECK(with.out == expected);
  // Of the 10 files of a kind that may refer to an agent, the 7 unchanged
  // came from the index; the two changed files and the new one were parsed.
  CHECK(with.err.substr(0, with.err.find('\n')) == "ws-grep: 4 results in 4 files; 10 files searched");
  CHECK(stats_line(with.err) == "ws-grep: 7 of them answered from the index of the base commit, without parsing");

  auto full = without_index(repo, {"--ref", "Agents.Triage", "--stats"});
  CHECK(full.out == expected);
  CHECK(stats_line(full.err) == "");
  CHECK(full.err.substr(0, full.err.find('\n')) == with.err.substr(0, with.err.find('\n')));

  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--ref", "Agents.Triage", "--json"}, {"--ref", "Agents.Triage", "-c"},
        {"--ref", "Agents.Triage", "-l"}, {"--ref", "Agents.Triage", "-L"}, {"--ref", "Agents.Triage", "-o"},
        {"--ref", "Agents.Triage", "-e", "request"}, {"--ref", "Agents.Triage", "--ref", "N.Ticket.Type"},
        {"--ref", "N.Ticket.Status"}, {"--ref", "Prompts.Tone", "-C", "1"}, {"--ref", "Agents.TriageBackup"},
        {"--ref", "Agents.Triage", "--base"}, {"--ref", "Agents.Triage", "--rev", "HEAD"}}) {
    INFO(wstest::chomp(repo.git({"status", "--short"})));
    auto a = ws_grep(repo, args);
    auto b = without_index(repo, args);
    CHECK(a.status == b.status);
    CHECK(a.out == b.out);
  }

  // The staged view: the index of git names what is unchanged there.
  repo.git({"add", "endpoints/EPtriage01.cs"});
  repo.replace("endpoints/EPtriage01.cs", "Agents.Billing.Run", "Agents.Triage.Run");
  auto staged = ws_grep(repo, {"--ref", "Agents.Triage", "--staged"});
  CHECK(staged.out == without_index(repo, {"--ref", "Agents.Triage", "--staged"}).out);
  CHECK(staged.out.find("endpoints/EPtriage01.cs") == std::string::npos);
  CHECK(ws_grep(repo, {"--ref", "Agents.Triage"}).out.find("endpoints/EPtriage01.cs:6:20:") != std::string::npos);
}

TEST_CASE("ws-grep --ref takes nothing from an index it cannot trust", "[ws-grep][grep-ref]") {
  TempRepo repo;
  seed(repo);
  REQUIRE(wstest::ws("ws-build", {}, repo.path()).status == 0);
  const std::string first = index_of(repo);
  const std::string expected_first = ws_grep(repo, {"--ref", "Agents.Triage"}).out;
  REQUIRE(expected_first.find("endpoints/EPtriage01.cs:6:20:") != std::string::npos);

  SECTION("an index copied under another commit's name") {
    // The next commit drops a reference; the old commit's index, planted
    // under the new commit's name, still lists it.
    repo.replace("endpoints/EPtriage01.cs", "Agents.Triage.Run", "Agents.Billing.Run");
    repo.commit_all("billing runs the tickets");
    fs::copy_file(first, index_of(repo));
    auto r = ws_grep(repo, {"--ref", "Agents.Triage", "--stats"});
    CHECK(r.out.find("EPtriage01") == std::string::npos);
    CHECK(r.out == without_index(repo, {"--ref", "Agents.Triage"}).out);
    CHECK(stats_line(r.err) == "");
  }

  SECTION("an index whose bytes were changed") {
    // Every byte of the saved index flipped in turn would be slow; flip
    // one in the tables and one in the records, each on its own.
    auto size = fs::file_size(first);
    for (std::uintmax_t at : {std::uintmax_t{60}, size / 2, size - 12}) {
      std::string bytes;
      {
        std::ifstream in(first, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
      }
      std::string damaged = bytes;
      damaged[at] = static_cast<char>(damaged[at] ^ 0x20);
      {
        std::ofstream out(first, std::ios::binary | std::ios::trunc);
        out << damaged;
      }
      INFO("flipped byte " << at);
      auto r = ws_grep(repo, {"--ref", "Agents.Triage", "--stats"});
      CHECK(r.status == 0);
      CHECK(r.out == expected_first);
      std::ofstream out(first, std::ios::binary | std::ios::trunc);
      out << bytes;
    }
  }
}

// ws-grep --ref answered from the base index that ws-build saves
// (ws-grep(1), --ref): the same output as a search that parses every file,
// for every kind of view and change, and no answer from an index that
// cannot be trusted.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

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

TEST_CASE("ws-grep --ref skips a hard-linked file the index knows as a read would, and says so", "[ws-grep][grep-ref]") {
  TempRepo repo;
  seed(repo);
  REQUIRE(wstest::ws("ws-build", {}, repo.path()).status == 0);
  // A second name for an unchanged definition that refers to nothing asked
  // for, outside the repository.
  wstest::TempDir outside;
  fs::create_hard_link(repo.abs("endpoints/EPdigest01.cs"), outside.path() + "/link");
  auto with = ws_grep(repo, {"--ref", "Agents.Triage", "--stats"});
  auto full = without_index(repo, {"--ref", "Agents.Triage", "--stats"});
  CHECK(with.out == full.out);
  const std::string skipped =
      "ws-grep: skipped 'endpoints/EPdigest01.cs': hard-link (a file with more than one link may be a link out of the "
      "workspace)\n";
  CHECK(full.err.find(skipped) != std::string::npos);
  CHECK(with.err.find(skipped) != std::string::npos);
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

namespace {

// The names of one kind's definitions in `repo`, read as the generator
// writes them ("name": "X" in JSON, name: X in front matter).
std::vector<std::string> names_in(const TempRepo& repo, const std::string& folder) {
  static const std::regex json_name("\"name\": \"([A-Za-z0-9_]+)\""), md_name("\nname: ([A-Za-z0-9_]+)");
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(repo.abs(folder))) {
    std::string text = repo.read(folder + "/" + e.path().filename().string());
    std::smatch m;
    if (std::regex_search(text, m, json_name) || std::regex_search(text, m, md_name)) out.push_back(m[1]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> files_in(const TempRepo& repo, const std::string& folder) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(repo.abs(folder))) out.push_back(folder + "/" + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("ws-grep --ref from the index equals a full parse on random changesets", "[ws-grep][grep-ref]") {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    INFO("seed " << seed);
    TempRepo repo;
    const std::vector<std::string> gen{wstest::tool("ws-bench-gen"), "--seed", std::to_string(seed), "--definitions",
                                       "300", "--changeset", "10"};
    wstest::TempDir scratch;
    auto made = wstest::run([&] { auto a = gen; a.push_back(scratch.path() + "/ws"); return a; }());
    REQUIRE(made.status == 0);
    fs::copy(scratch.path() + "/ws", repo.path(), fs::copy_options::recursive);
    repo.commit_all("generated workspace");
    REQUIRE(wstest::ws("ws-build", {}, repo.path()).status == 0);
    REQUIRE(fs::exists(index_of(repo)));

    // The generator's changeset, then random edits on top: deletions,
    // references added to code, names swapped, copies under new paths,
    // and some of it staged.
    auto applied = wstest::run([&] { auto a = gen; a.push_back("--apply-changeset"); a.push_back(repo.path()); return a; }());
    REQUIRE(applied.status == 0);
    std::mt19937_64 rng(seed);
    const auto agents = names_in(repo, "agents");
    const auto prompts = names_in(repo, "prompts");
    auto pick = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
    for (int op = 0; op < 24; ++op) {
      const std::string folder = pick({"agents", "ai-tools", "endpoints", "prompts", "access/grants", "tasks"});
      const auto files = files_in(repo, folder);
      if (files.empty()) continue;
      const std::string file = pick(files);
      switch (rng() % 5) {
        case 0: repo.remove(file); break;
        case 1:
          if (folder == "ai-tools" || folder == "endpoints")
            repo.write(file, repo.read(file) + "var probe" + std::to_string(op) + " = Agents." + pick(agents) + ";\n");
          break;
        case 2: {
          std::string text = repo.read(file);
          const std::string& from = pick(folder == "prompts" ? prompts : agents);
          if (auto at = text.find(from); at != std::string::npos) {
            text.replace(at, from.size(), pick(folder == "prompts" ? prompts : agents));
            repo.write(file, text);
          }
          break;
        }
        case 3: repo.write(file.substr(0, file.rfind('.')) + "copy" + std::to_string(op) + file.substr(file.rfind('.')),
                           repo.read(file));
          break;
        default: repo.git({"add", "-A", "--", file}, false);
      }
    }

    std::vector<std::string> symbols;
    for (int i = 0; i < 6; ++i) symbols.push_back("Agents." + pick(agents));
    for (int i = 0; i < 3; ++i) symbols.push_back("Prompts." + pick(prompts));
    bool index_answered = false;
    for (const auto& symbol : symbols)
      for (const std::vector<std::string>& view : {std::vector<std::string>{}, {"--staged"}}) {
        std::vector<std::string> args{"--ref", symbol, "--stats"};
        args.insert(args.end(), view.begin(), view.end());
        INFO(symbol << (view.empty() ? "" : " --staged"));
        auto a = ws_grep(repo, args);
        auto b = without_index(repo, args);
        CHECK(a.status == b.status);
        CHECK(a.out == b.out);
        index_answered = index_answered || !stats_line(a.err).empty();
      }
    CHECK(index_answered);
  }
}

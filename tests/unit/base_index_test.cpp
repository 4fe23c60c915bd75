// The base index (base_index.h) on real repositories: a build that uses it
// gives exactly the answer of a build that reads the whole view, whatever
// the changeset; a file made for another key, or damaged, is not trusted.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base_index.h"
#include "libcheck/compile.h"
#include "libcheck/render.h"
#include "libcheck/workspace.h"
#include "support/temp_repo.h"

using ws::BuildStats;
using ws::compile_detail::BaseIndex;
using wstest::TempRepo;
namespace fs = std::filesystem;

namespace {

ws::Workspace open(const TempRepo& repo) {
  ws::OpenOptions o;
  o.dir = repo.path();
  auto w = ws::open_workspace(o);
  REQUIRE(w.ok());
  return std::move(w).value();
}

ws::BuildResult build(const ws::Workspace& w, bool cache, bool all = false) {
  ws::BuildOptions b;
  b.use_cache = cache;
  b.all = all;
  auto r = ws::build(w, b);
  REQUIRE(r.ok());
  return std::move(r).value();
}

// Every diagnostic and the summary, as the JSON report has them.
std::string report(const ws::BuildResult& r) {
  std::ostringstream out;
  auto consumer = ws::make_consumer(ws::OutputFormat::json, out, ws::RenderOptions{});
  ws::render_all(*consumer, r.diagnostics, r.summary);
  return out.str();
}

std::string index_file(const TempRepo& repo) {
  return repo.abs(".git/ws/cache/bases/" + wstest::chomp(repo.git({"rev-parse", "HEAD"})));
}

// The example workspace and, beside it, agents that hand off to each
// other, tools calling them and indexes over the ticket's fields: enough
// references in both directions for random changes to break.
void seed(const TempRepo& repo) {
  wstest::copy_example_workspace(repo);
  for (int i = 0; i < 12; ++i) {
    std::string n = std::to_string(i);
    std::string next = std::to_string((i + 1) % 12);
    repo.write("agents/AGgen" + n + ".json", "{\n  \"name\": \"Gen" + n + "\",\n  \"model\": \"small\",\n"
               "  \"handoffs\": [\"Gen" + next + "\"]\n}\n");
    repo.write("ai-tools/TLgen" + n + ".cs", "// name: CallGen" + n + "\n// description: calls agent " + n +
               "\nvar t = await Graph.Get(N.Ticket.Type, args.Id);\nt.Set(N.Ticket.Status, \"x\");\n"
               "return await Agents.Gen" + n + ".Run(t);\n");
  }
  repo.write("indexes/IXgen01.json", "{\n  \"name\": \"ByCustomer\",\n  \"node\": \"Ticket\",\n"
             "  \"fields\": [\"Customer\", \"Title\"]\n}\n");
  repo.commit_all("workspace");
}

void replace_in(const TempRepo& repo, const std::string& path, const std::string& from, const std::string& to) {
  if (!repo.exists(path)) return;
  std::string s = repo.read(path);
  auto at = s.find(from);
  if (at == std::string::npos) return;
  repo.write(path, s.replace(at, from.size(), to));
}

// One random change to the working tree.
void mutate(const TempRepo& repo, std::mt19937& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::string n = std::to_string(pick(12));
  std::string m = std::to_string(pick(12));
  switch (pick(11)) {
    case 0: repo.remove("agents/AGgen" + n + ".json"); break;                      // deleted, still handed off to
    case 1: replace_in(repo, "agents/AGgen" + n + ".json", "\"Gen" + n + "\"", "\"Renamed" + n + "\""); break;
    case 2:  // moved to another file, same name
      if (repo.exists("agents/AGgen" + n + ".json")) {
        repo.write("agents/AGmoved" + n + ".json", repo.read("agents/AGgen" + n + ".json"));
        repo.remove("agents/AGgen" + n + ".json");
      }
      break;
    case 3: replace_in(repo, "node-types/NTticket01.json", "    { \"name\": \"Status\", \"type\": \"string\" },\n", ""); break;
    case 4: replace_in(repo, "node-types/NTticket01.json", "\"Customer\"", "\"Client\""); break;
    case 5:  // a new agent and a tool using it, in one change
      repo.write("agents/AGnew" + n + ".json", "{\n  \"name\": \"New" + n + "\"\n}\n");
      repo.write("ai-tools/TLnew" + n + ".cs", "// name: UseNew" + n + "\nreturn await Agents.New" + n + ".Run(args);\n");
      break;
    case 6: repo.write("agents/AGdup" + n + ".json", "{\n  \"name\": \"Gen" + m + "\"\n}\n"); break;  // a duplicate
    case 7: replace_in(repo, "ai-tools/TLgen" + n + ".cs", "Agents.Gen" + n, "Agents.Gen" + m + "x"); break;  // a typo
    case 8: repo.remove("ai-tools/TLgen" + n + ".cs"); break;
    case 9: replace_in(repo, "agents/AGgen" + n + ".json", "\"model\"", "\"model\" \"broken\""); break;  // syntax
    case 10: replace_in(repo, "agents/AGgen" + n + ".json", "\"Gen" + n + "\"", "\"Gen" + m + "\""); break;
  }
}

}  // namespace

TEST_CASE("base index: a build on a saved index answers as a build of the whole view", "[base-index]") {
  TempRepo repo;
  seed(repo);
  {
    ws::Workspace w = open(repo);
    ws::BuildResult first = build(w, true);
    CHECK(first.stats.base == BuildStats::Base::whole);
    CHECK(first.diagnostics.empty());
  }
  REQUIRE(fs::exists(index_file(repo)));
  std::mt19937 rng(20261201);
  int indexed = 0, with_errors = 0;
  for (int round = 0; round < 60; ++round) {
    repo.git({"checkout", "-q", "--", "."});
    repo.git({"clean", "-q", "-fd"});
    int changes = 1 + static_cast<int>(rng() % 4);
    for (int c = 0; c < changes; ++c) mutate(repo, rng);
    bool staged = round % 5 == 4;
    if (staged) repo.git({"add", "-A"});
    ws::Workspace w = open(repo);
    ws::BuildResult whole = build(w, false);
    ws::BuildResult fast = build(w, true);
    INFO("round " << round << ": " << repo.git({"status", "--porcelain"}));
    CHECK(fast.stats.base == BuildStats::Base::indexed);
    CHECK(report(fast) == report(whole));
    CHECK(fast.stats.parsed + fast.stats.cache_hits >= whole.stats.parsed);
    indexed += fast.stats.base == BuildStats::Base::indexed;
    with_errors += !whole.diagnostics.empty();
    if (staged) repo.git({"reset", "-q"});
  }
  CHECK(indexed == 60);
  CHECK(with_errors > 20);  // the rounds broke things, and the answers were compared on them
}

TEST_CASE("base index: the saved file names who defines and who refers to what", "[base-index]") {
  TempRepo repo;
  seed(repo);
  ws::Workspace w = open(repo);
  (void)build(w, true);
  BaseIndex index;
  BaseIndex::Key key{ws::cache_version(), w.kinds.digest(), wstest::chomp(repo.git({"rev-parse", "HEAD"})),
                     w.config.size_cap};
  REQUIRE(index.load(index_file(repo), key, w.kinds).state == BaseIndex::LoadState::loaded);
  const ws::Kind* agent = w.kinds.by_name("agent");
  REQUIRE(agent);
  std::size_t agent_kind = static_cast<std::size_t>(agent - w.kinds.kinds().data());

  std::vector<std::string> owners, referrers, names;
  index.owners(agent_kind, "Gen3", [&](std::size_t d) { owners.push_back(std::string(index.def(d)->path)); });
  CHECK(owners == std::vector<std::string>{"agents/AGgen3.json"});
  index.referrers(agent_kind, "Gen3", [&](std::size_t d) { referrers.push_back(std::string(index.def(d)->path)); });
  CHECK(referrers == std::vector<std::string>{"agents/AGgen2.json", "ai-tools/TLgen3.cs"});
  index.names(agent_kind, [&](std::string_view n) { names.emplace_back(n); });
  std::sort(names.begin(), names.end());
  CHECK(names.size() == 14);  // Billing, Triage and Gen0-Gen11
  CHECK(names.front() == "Billing");
  auto at = index.find_path("ai-tools/TLgen3.cs");
  REQUIRE(at);
  CHECK(index.def(*at)->rec.name() == "CallGen3");
  CHECK_FALSE(index.find_path("ai-tools/TLgen3.c"));
  CHECK_FALSE(index.find_path(".ws/config.json"));
  CHECK_FALSE(index.damaged());
  // The secret is held by name only, and not counted as read.
  std::size_t name_only = 0;
  for (std::size_t d = 0; d < index.size(); ++d) name_only += index.def(d)->name_only;
  CHECK(name_only == 1);
  CHECK(index.read_count() == index.size() - 1);
}

TEST_CASE("base index: a file made for another key is not used", "[base-index]") {
  TempRepo repo;
  seed(repo);
  ws::Workspace w = open(repo);
  (void)build(w, true);
  const BaseIndex::Key key{ws::cache_version(), w.kinds.digest(), wstest::chomp(repo.git({"rev-parse", "HEAD"})),
                           w.config.size_cap};
  struct Case {
    const char* why;
    BaseIndex::Key key;
  };
  std::vector<Case> cases = {
      {"other tool version", key},
      {"other kind pack", key},
      {"other base commit", key},
      {"other size cap", key},
  };
  cases[0].key.tool_version += "x";
  cases[1].key.kind_digest += "x";
  cases[2].key.base_commit.back() = cases[2].key.base_commit.back() == '0' ? '1' : '0';
  cases[3].key.size_cap += 1;
  for (const auto& c : cases) {
    BaseIndex index;
    auto loaded = index.load(index_file(repo), c.key, w.kinds);
    CHECK(loaded.state == BaseIndex::LoadState::rejected);
    CHECK(loaded.reason == c.why);
  }
  BaseIndex missing;
  CHECK(missing.load(index_file(repo) + "0", key, w.kinds).state == BaseIndex::LoadState::missing);
}

namespace {

// The seeded workspace built once, so that its base's index is on disk:
// the file, its bytes and the key it was made for.
struct Indexed {
  TempRepo repo;
  ws::Workspace w;
  std::string file, good;
  BaseIndex::Key key;
  Indexed() {
    seed(repo);
    w = open(repo);
    (void)build(w, true);
    file = index_file(repo);
    good = repo.read(".git/ws/cache/bases/" + fs::path(file).filename().string());
    key = BaseIndex::Key{ws::cache_version(), w.kinds.digest(), wstest::chomp(repo.git({"rev-parse", "HEAD"})),
                         w.config.size_cap};
  }
};

// Where the record of the definition at `path` starts in the file: the
// blob, which holds the records alone, is the file's last part.
std::size_t record_at(const Indexed& indexed, const std::string& path) {
  BaseIndex index;
  REQUIRE(index.load(indexed.file, indexed.key, indexed.w.kinds).state == BaseIndex::LoadState::loaded);
  auto d = index.find_path(path);
  REQUIRE(d);
  const std::string record(index.def(*d)->rec.bytes());
  const std::size_t at = indexed.good.rfind(record);
  REQUIRE(at != std::string::npos);
  REQUIRE(indexed.good.find(record) == at);  // one copy, or the byte damaged below could be another's
  return at;
}

}  // namespace

TEST_CASE("base index: damage is found, the build made without it, and the file made again", "[base-index]") {
  Indexed indexed;
  TempRepo& repo = indexed.repo;
  ws::Workspace& w = indexed.w;
  const std::string& file = indexed.file;
  const std::string& good = indexed.good;
  const BaseIndex::Key& key = indexed.key;
  BaseIndex parsed;
  REQUIRE(parsed.load(file, key, w.kinds).state == BaseIndex::LoadState::loaded);
  // A byte of the tables (the first definition's, just after the header,
  // which ends 60 bytes after the base commit's id), then one of the
  // record of AGgen4, which the build below must read: its handoff to Gen5
  // breaks.
  const std::size_t in_tables = good.find(key.base_commit) + key.base_commit.size() + 60 + 5;
  const std::size_t in_record = record_at(indexed, "agents/AGgen4.json") + 2;
  repo.remove("agents/AGgen5.json");
  const std::string expected = report(build(open(repo), false));
  for (std::size_t at : {in_tables, in_record}) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x20);
    {
      std::ofstream(file, std::ios::binary | std::ios::trunc) << bad;
    }
    BaseIndex index;
    auto loaded = index.load(file, key, w.kinds);
    if (at == in_tables) {
      CHECK(loaded.state == BaseIndex::LoadState::rejected);
      CHECK(loaded.reason == "bad checksum");
    } else {
      REQUIRE(loaded.state == BaseIndex::LoadState::loaded);
      CHECK_FALSE(index.damaged());
      std::size_t undecodable = 0;
      for (std::size_t d = 0; d < index.size(); ++d) undecodable += !index.def(d);
      CHECK(undecodable == 1);
      CHECK(index.damaged());
    }
    ws::Workspace changed = open(repo);
    ws::BuildResult r = build(changed, true);
    CHECK(r.stats.base == BuildStats::Base::whole);
    CHECK(report(r) == expected);
    CHECK(repo.read(".git/ws/cache/bases/" + fs::path(file).filename().string()) == good);
    CHECK(build(open(repo), true).stats.base == BuildStats::Base::indexed);
  }
}

TEST_CASE("base index: named() vouches for a definition's path, kind and name as def() does", "[base-index]") {
  Indexed indexed;
  ws::Workspace& w = indexed.w;
  const std::string& file = indexed.file;
  const std::string& good = indexed.good;
  const BaseIndex::Key& key = indexed.key;
  const std::string path = "agents/AGgen4.json";
  const std::size_t in_record = record_at(indexed, path) + 2;
  std::optional<std::size_t> gen4;
  {
    BaseIndex index;
    REQUIRE(index.load(file, key, w.kinds).state == BaseIndex::LoadState::loaded);
    gen4 = index.find_path(path);
    REQUIRE(gen4);
    std::set<std::uint32_t> numbers;
    for (std::size_t d = 0; d < index.size(); ++d) {
      auto named = index.named(d);
      auto full = index.def(d);
      REQUIRE(named);
      REQUIRE(full);
      CHECK(named->path == full->path);
      CHECK(named->kind == full->kind);
      CHECK(named->has_name == full->rec.has_name());
      CHECK(named->name == (full->rec.has_name() ? full->rec.name() : std::string_view()));
      // A name's number is the one number_of gives it, below name_numbers().
      const std::size_t kind = static_cast<std::size_t>(named->kind - w.kinds.kinds().data());
      if (!named->has_name) {
        CHECK(named->number == BaseIndex::kNoNumber);
        continue;
      }
      CHECK(named->number == index.number_of(kind, named->name));
      CHECK(named->number < index.name_numbers());
      numbers.insert(named->number);
      // Its referrers found by number are those found by name.
      std::vector<std::size_t> by_name, by_number, ends;
      index.referrers(kind, named->name, [&](std::size_t r) { by_name.push_back(r); });
      index.append_referrers_of({{kind, named->name, named->number}}, by_number, ends);
      CHECK(by_number == by_name);
      CHECK(ends == std::vector<std::size_t>{by_name.size()});
    }
    CHECK(numbers.size() == index.name_numbers());
    const ws::Kind* agent = w.kinds.by_name("agent");
    CHECK(index.number_of(static_cast<std::size_t>(agent - w.kinds.kinds().data()), "Nobody") == BaseIndex::kNoNumber);
    CHECK_FALSE(index.damaged());
  }
  // A byte of AGgen4's record: named() reads none, def() refuses it.
  {
    std::string bad = good;
    bad[in_record] = static_cast<char>(bad[in_record] ^ 0x20);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bad << std::flush;
    BaseIndex index;
    REQUIRE(index.load(file, key, w.kinds).state == BaseIndex::LoadState::loaded);
    std::vector<std::size_t> refused;
    for (std::size_t d = 0; d < index.size(); ++d) {
      CHECK(index.named(d));
      if (!index.def(d)) refused.push_back(d);
    }
    CHECK(refused == std::vector<std::size_t>{*gen4});
    CHECK(index.damaged());
  }
  // A byte of its path or of a name: what named() reads is checked whole at
  // load, and the file is refused.
  for (std::size_t at : {good.find(path) + 3, good.find("Gen4")}) {
    REQUIRE(at < in_record);
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x20);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bad << std::flush;
    BaseIndex index;
    auto loaded = index.load(file, key, w.kinds);
    CHECK(loaded.state == BaseIndex::LoadState::rejected);
    CHECK(loaded.reason == "bad checksum");
  }
}

TEST_CASE("base index: --all, --no-cache and an unborn branch read the whole view", "[base-index]") {
  TempRepo repo;
  wstest::copy_example_workspace(repo);
  ws::Workspace unborn = open(repo);
  CHECK(build(unborn, true).stats.base == BuildStats::Base::whole);
  CHECK_FALSE(fs::exists(repo.abs(".git/ws/cache/bases")));
  repo.commit_all("workspace");
  ws::Workspace w = open(repo);
  CHECK(build(w, false).stats.base == BuildStats::Base::whole);
  CHECK_FALSE(fs::exists(index_file(repo)));
  CHECK(build(w, true).stats.base == BuildStats::Base::whole);
  CHECK(fs::exists(index_file(repo)));
  CHECK(build(open(repo), true, /*all=*/true).stats.base == BuildStats::Base::whole);
  CHECK(build(open(repo), true).stats.base == BuildStats::Base::indexed);
}

TEST_CASE("base index: a few base commits' indexes are kept, the oldest removed", "[base-index]") {
  TempRepo repo;
  seed(repo);
  std::vector<std::string> bases;
  for (int i = 0; i < 6; ++i) {
    repo.write("prompts/PRextra" + std::to_string(i) + ".md", "---\nname: Extra" + std::to_string(i) + "\n---\nx\n");
    repo.commit_all("extra " + std::to_string(i));
    bases.push_back(index_file(repo));
    (void)build(open(repo), true);
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < bases.size(); ++i) {
    bool present = fs::exists(bases[i]);
    kept += present;
    CHECK(present == (i >= 2));
  }
  CHECK(kept == 4);
}

TEST_CASE("base index: a build with changes makes the index a build without them makes", "[base-index]") {
  TempRepo repo;
  seed(repo);
  // A symlink in a kind's folder is no definition, in the base or not.
  fs::create_symlink("AGgen1.json", repo.abs("agents/AGlink.json"));
  repo.commit_all("a link");
  (void)build(open(repo), true);
  const std::string clean = repo.read(".git/ws/cache/bases/" + fs::path(index_file(repo)).filename().string());
  std::mt19937 rng(7);
  for (int round = 0; round < 12; ++round) {
    repo.git({"checkout", "-q", "--", "."});
    repo.git({"clean", "-q", "-fd"});
    for (int c = 0; c < 3; ++c) mutate(repo, rng);
    // A rename by git mv, and the link made a file: its base side is a link.
    if (repo.exists("ai-tools/TLgen" + std::to_string(round) + ".cs"))
      repo.git({"mv", "ai-tools/TLgen" + std::to_string(round) + ".cs", "ai-tools/TLmoved.cs"});
    fs::remove(repo.abs("agents/AGlink.json"));
    repo.write("agents/AGlink.json", "{\n  \"name\": \"WasALink\"\n}\n");
    fs::remove_all(repo.abs(".git/ws/cache/bases"));
    ws::BuildResult made = build(open(repo), true);
    INFO("round " << round << ": " << repo.git({"status", "--porcelain"}));
    CHECK(made.stats.base == BuildStats::Base::whole);
    CHECK(repo.read(".git/ws/cache/bases/" + fs::path(index_file(repo)).filename().string()) == clean);
    repo.git({"reset", "-q"});
  }
}

TEST_CASE("base index: an impact read from the index outlives the build, the index and the workspace",
          "[base-index]") {
  // The ring Gen0 -> Gen1 -> ... -> Gen11 -> Gen0 and the tools calling
  // each: a change to Gen3 reaches them all. Its paths and names are viewed
  // in the index's file, which the result keeps mapped.
  TempRepo repo;
  seed(repo);
  (void)build(open(repo), true);
  REQUIRE(fs::exists(index_file(repo)));
  replace_in(repo, "agents/AGgen3.json", "\"small\"", "\"large\"");
  auto impact_of = [&](bool cache) {
    ws::ChangeImpact impact;
    std::vector<std::string> listed;
    {
      ws::Workspace w = open(repo);
      ws::BuildOptions b;
      b.use_cache = cache;
      b.impact = &impact;
      auto r = ws::build(w, b);
      REQUIRE(r.ok());
      CHECK(r->stats.base == (cache ? BuildStats::Base::indexed : BuildStats::Base::whole));
    }
    // The workspace, the build and the index it read are gone.
    for (const auto& d : impact.impacted)
      listed.push_back(std::string(d.kind) + " " + std::string(d.name) + " " + std::string(d.path) + " " +
                       std::to_string(d.depth));
    return listed;
  };
  const std::vector<std::string> indexed = impact_of(true);
  // The other eleven agents, the twelve tools, and Gen3 itself, whose own
  // handoff goes round the ring back to it.
  REQUIRE(indexed.size() == 24);
  CHECK(indexed.front() == "agent Gen2 agents/AGgen2.json 1");
  CHECK(indexed[22] == "agent Gen3 agents/AGgen3.json 12");
  CHECK(indexed == impact_of(false));
}

// open_view on real repositories: a changes-only view (ws-ls --changed) must
// hold exactly the changed entries of the full view, whatever the change.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "libcheck/repository.h"
#include "libcheck/view.h"
#include "libcheck/workspace_root.h"
#include "support/temp_repo.h"
#include "view_internal.h"

using ws::ChangeStatus;
using ws::ViewEntry;
using ws::ViewSource;

namespace {

std::string describe(const ViewEntry& e) {
  std::ostringstream s;
  s << static_cast<char>(e.status) << ' ' << e.path << " <- '" << e.old_path << "' " << e.blob_id.hex() << ' '
    << e.base_blob_id.hex() << ' ' << std::oct << e.mode;
  return s.str();
}

// The entries of a view over `repo` as lines; `changed` keeps only changed ones.
std::vector<std::string> view_lines(const wstest::TempRepo& repo, ws::ViewSpec spec, bool changed) {
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  auto root = ws::WorkspaceRoot::open(repo.path(), "");
  REQUIRE(root.ok());
  auto v = ws::open_view(*r, std::make_shared<const ws::WorkspaceRoot>(std::move(root).value()), spec);
  REQUIRE(v.ok());
  std::vector<std::string> out;
  for (const auto& e : v->entries())
    if (!changed || e.status != ChangeStatus::unchanged) out.push_back(describe(e));
  return out;
}

// Writes each (path, bytes) of `files` into `repo` and commits them all: the
// new commit's id.
std::string commit_files(const wstest::TempRepo& repo, const std::vector<std::pair<std::string, std::string>>& files) {
  for (const auto& [path, bytes] : files) repo.write(path, bytes);
  return repo.commit_all("base");
}

}  // namespace

TEST_CASE("a changes-only view holds the full view's changes and the base's .ws/", "[view]") {
  wstest::TempRepo repo;
  const std::string first = commit_files(repo, {{".ws/config.json", "{\"unrouted\": \"warning\"}\n"},
                                                {".ws/kinds/extra.json", "{}\n"},
                                                {"agents/AGa.json", "{\"name\": \"A\"}\n"},
                                                {"agents/AGb.json", "{\"name\": \"B\"}\n"},
                                                {"agents/AGmove.json", "{\"name\": \"Move\"}\n"},
                                                {"tasks/TKt.json", "{\"name\": \"T\"}\n"},
                                                {"prompts/PRp.md", "---\nname: P\n---\n"}});
  repo.write("agents/AGa.json", "{\"name\": \"A2\"}\n");   // modified
  repo.remove("agents/AGb.json");                         // deleted
  repo.git({"mv", "agents/AGmove.json", "agents/AGmoved.json"});  // renamed
  repo.write("ai-tools/TLnew.cs", "// name: New\n");      // added, untracked
  repo.write("tasks/TKt.json", "{\"name\": \"T2\"}\n");
  repo.git({"add", "tasks/TKt.json"});                     // staged
  repo.write("tasks/TKt.json", "{\"name\": \"T3\"}\n");   // and edited again

  for (ViewSource source : {ViewSource::worktree, ViewSource::staged}) {
    INFO(static_cast<int>(source));
    ws::ViewSpec full;
    full.source = source;
    ws::ViewSpec only = full;
    only.changes_only = true;
    auto expected = view_lines(repo, full, true);
    CHECK(expected.size() >= 2);  // staged: the rename and the task
    auto got = view_lines(repo, only, false);
    // The unchanged .ws/ entries come along; nothing else unchanged does.
    std::vector<std::string> unchanged_ws, changed;
    for (const auto& l : got) (l[0] == ' ' ? unchanged_ws : changed).push_back(l);
    CHECK(changed == expected);
    REQUIRE(unchanged_ws.size() == 2);
    CHECK(unchanged_ws[0].rfind("  .ws/config.json ", 0) == 0);
    CHECK(unchanged_ws[1].rfind("  .ws/kinds/extra.json ", 0) == 0);
  }

  // A range (--rev), and a base with no .ws/ folder at all.
  repo.git({"add", "-A"});
  repo.git({"rm", "-r", "-q", ".ws"});
  const std::string second = repo.commit_all("second");
  ws::ViewSpec range;
  range.source = ViewSource::rev;
  range.base = first;
  range.rev = second;
  ws::ViewSpec range_only = range;
  range_only.changes_only = true;
  auto expected = view_lines(repo, range, true);
  CHECK(expected.size() >= 5);
  auto got = view_lines(repo, range_only, false);
  std::erase_if(got, [](const std::string& l) { return l.rfind("  .ws/", 0) == 0; });
  CHECK(got == expected);
  range.base = second;
  range.rev = first;
  range_only.base = second;
  range_only.rev = first;
  CHECK(view_lines(repo, range_only, false) == view_lines(repo, range, true));  // no .ws/ in that base
}

namespace {

// Every field of every entry of a committed view, the way open_view computes
// it (`fast`: walking the two trees together) or the way libgit2 does.
std::vector<std::string> committed_lines(const wstest::TempRepo& repo, ws::ViewSpec spec, bool fast) {
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  auto v = ws::detail::open_view_with(*r, nullptr, spec, 1u << 20, fast);
  REQUIRE(v.ok());
  std::vector<std::string> out;
  for (const auto& e : v->entries())
    out.push_back(describe(e) + " size=" + std::to_string(e.size) + (e.from_worktree ? " wt" : ""));
  return out;
}

}  // namespace

TEST_CASE("a rev or proposal view from the two trees walked together equals libgit2's diff", "[view]") {
  wstest::TempRepo repo;
  const std::string first = commit_files(repo, {{".ws/config.json", "{\"unrouted\": \"warning\"}\n"},
                                                {"agents/AGa.json", "{\"name\": \"A\"}\n"},
                                                {"agents/AGb.json", "{\"name\": \"B\"}\n"},
                                                {"agents/deep/er/AGc.json", "{\"name\": \"C\"}\n"},
                                                {"agents/deep/er/AGmove.json", "{\"name\": \"Move\"}\n"},
                                                {"agents/same/AGs.json", "{\"name\": \"S\"}\n"},
                                                {"agents-x.json", "{}\n"},
                                                {"swap", "a file that becomes a folder\n"},
                                                {"tools/run.sh", "#!/bin/sh\n"},
                                                {"tasks/gone/TKg.json", "{\"name\": \"G\"}\n"}});
  repo.write("agents/AGa.json", "{\"name\": \"A2\"}\n");                 // modified
  repo.remove("agents/AGb.json");                                       // deleted
  repo.write("agents/deep/er/AGnew.json", "{\"name\": \"New\"}\n");     // added, nested
  repo.git({"mv", "agents/deep/er/AGmove.json", "agents/deep/AGmoved.json"});  // renamed across folders
  repo.git({"update-index", "--chmod=+x", "tools/run.sh"});             // mode change only
  repo.remove("swap");
  repo.write("swap/inside.json", "{}\n");                               // file -> folder
  repo.git({"rm", "-r", "-q", "tasks/gone"});                          // a whole folder deleted
  repo.write("agents/deep/er/AGc.json", "{\"name\": \"C\"}\n\n");       // modified, deepest
  repo.git({"add", "-A"});
  repo.git({"update-index", "--chmod=+x", "tools/run.sh"});
  const std::string second = repo.commit_all("second");

  for (bool changes_only : {false, true}) {
    INFO("changes_only " << changes_only);
    ws::ViewSpec rev;
    rev.source = ViewSource::rev;
    rev.base = first;
    rev.rev = second;
    rev.changes_only = changes_only;
    auto fast = committed_lines(repo, rev, true);
    CHECK(fast == committed_lines(repo, rev, false));
    CHECK(fast.size() >= 9);
    // And backwards: adds become deletes, the folder becomes a file again.
    rev.base = second;
    rev.rev = first;
    CHECK(committed_lines(repo, rev, true) == committed_lines(repo, rev, false));
    // A proposal view: the commit over its parent; and a root commit over nothing.
    ws::ViewSpec prop;
    prop.source = ViewSource::proposal;
    prop.proposal = second;
    prop.changes_only = changes_only;
    CHECK(committed_lines(repo, prop, true) == committed_lines(repo, prop, false));
    prop.proposal = first;
    auto root = committed_lines(repo, prop, true);
    CHECK(root == committed_lines(repo, prop, false));
    CHECK(root.size() == 10);
  }
}

TEST_CASE("a commit's entries are those of git ls-tree -r in path order whichever folder is walked first", "[view]") {
  wstest::TempRepo repo;
  repo.write("README.md", "top\n");
  repo.write("a.json", "{}\n");
  repo.write("z/last.json", "{}\n");
  for (int d = 0; d < 12; ++d)
    for (int f = 0; f < 30; ++f) {
      std::string dir = "kind" + std::to_string(d);
      repo.write(dir + "/F" + std::to_string(f) + ".json", "{\"n\": " + std::to_string(d * 100 + f) + "}\n");
      if (f % 10 == 0) repo.write(dir + "/deeper/" + std::to_string(f) + "/x.md", "x\n");
    }
  repo.write("kind3.json", "{}\n");  // sorts between 'kind3' and 'kind3/' in git's tree order
  repo.write("kind3-extra/y.json", "{}\n");
  const std::string head = repo.commit_all("tree");
  std::vector<std::string> want;
  for (const auto& line : wstest::lines(repo.git({"ls-tree", "-r", head}))) {
    // "<mode> blob <id>\t<path>"
    auto tab = line.find('\t');
    want.push_back(line.substr(tab + 1) + " " + line.substr(0, 6) + " " + line.substr(12, 40));
  }
  std::sort(want.begin(), want.end());
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  for (int run = 0; run < 3; ++run) {
    auto entries = r->commit_entries(head);
    REQUIRE(entries.ok());
    std::vector<std::string> got;
    for (const auto& e : *entries) {
      std::ostringstream mode;
      mode << std::oct << e.mode;
      got.push_back(e.path + " " + mode.str() + " " + e.blob_id.hex());
      CHECK(e.base_blob_id == e.blob_id);
      CHECK(e.status == ChangeStatus::unchanged);
    }
    CHECK(got == want);
  }
  auto under = r->commit_entries(head, "kind3/");
  REQUIRE(under.ok());
  CHECK(under->size() == 33);
  for (const auto& e : *under) CHECK(e.path.rfind("kind3/", 0) == 0);
}

// Every working-tree view knows the size of each secret it knows the id of
// (ws(7), SECRETS): otherwise every file it reads would be hashed to be
// compared with the secrets, and ws-grep would pay a hash per file.
TEST_CASE("a working-tree view knows every secret's size from the object headers", "[view][secrets]") {
  wstest::TempRepo repo;
  const std::string committed = "committed key\n", staged = "a staged key, longer\n";
  repo.write(".secrets/A", committed);
  repo.write("SECRET~1/B", "short-named\n");
  repo.write("agents/AGa.json", "{\"name\": \"A\"}\n");
  repo.commit_all("base");
  repo.write(".secrets/C", staged);
  repo.git({"add", ".secrets/C"});
  repo.write(".secrets/A", "edited on disk, not staged\n");
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());
  auto root = ws::WorkspaceRoot::open(repo.path(), "");
  REQUIRE(root.ok());
  auto shared_root = std::make_shared<const ws::WorkspaceRoot>(std::move(root).value());
  for (bool statuses : {true, false})
    for (bool fast : {true, false}) {
      ws::ViewSpec spec;
      spec.statuses = statuses;
      auto v = ws::detail::open_view_with(*r, shared_root, spec, 1 << 20, fast);
      REQUIRE(v.ok());
      INFO("statuses " << statuses << ", fast status " << fast);
      const ws::SecretBlobs& secrets = v->secret_blobs();
      CHECK(secrets.size() == 3);  // A and B as committed, C as staged; never A as edited
      CHECK(secrets.all_sized());
      CHECK(secrets.holds_bytes(committed));
      CHECK(secrets.holds_bytes(staged));
      CHECK(secrets.holds_bytes("short-named\n"));
      CHECK_FALSE(secrets.holds_bytes("edited on disk, not staged\n"));
      CHECK_FALSE(secrets.holds_bytes("committed kez\n"));  // a secret's size, other bytes
    }
}

TEST_CASE("SecretBlobs hashes only bytes of a secret's size once every size is known", "[view][secrets]") {
  ws::SecretBlobs s;
  CHECK_FALSE(s.holds_bytes(""));
  const std::string key = "k3y\n";
  s.insert(ws::Repository::hash_blob(key));
  CHECK_FALSE(s.all_sized());
  CHECK(s.holds_bytes(key));  // size unknown: every candidate is hashed
  s.measure([](std::string_view) { return std::optional<std::uint64_t>(); });
  CHECK_FALSE(s.all_sized());
  s.measure([&](std::string_view) { return std::optional<std::uint64_t>(key.size()); });
  CHECK(s.all_sized());
  CHECK(s.holds_bytes(key));
  CHECK_FALSE(s.holds_bytes("k3y\n\n"));
  // A size learnt for an id already known, and sizes merged from another set.
  ws::SecretBlobs other;
  other.insert(ws::Repository::hash_blob("other\n"), 6);
  other.insert(ws::Repository::hash_blob(key));
  s.insert_all(other);
  CHECK(s.size() == 2);
  CHECK(s.all_sized());
  CHECK(s.holds_bytes("other\n"));
  s.insert("not an id", 3);
  CHECK(s.size() == 2);
}

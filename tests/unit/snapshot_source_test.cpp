// SnapshotContentSource: the bytes a working-tree view hashed are the bytes
// it reads back, and only while the entry still names them.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "libcheck/workspace_root.h"
#include "snapshot_source.h"
#include "support/memory_content.h"
#include "support/temp_repo.h"
#include "worktree_status.h"

using ws::ChangeStatus;
using ws::ViewEntry;
using ws::detail::KeptBytes;
using ws::detail::SnapshotContentSource;

namespace {

ViewEntry worktree_entry(const std::string& path, ChangeStatus status, const std::string& id) {
  ViewEntry e;
  e.path = path;
  e.status = status;
  e.blob_id = ws::ObjectId::from_hex(id);
  e.from_worktree = true;
  return e;
}

}  // namespace

TEST_CASE("snapshot source: kept bytes are served for the entry whose id they hash to", "[view][snapshot]") {
  auto inner = std::make_shared<wstest::MemoryContent>();
  const std::string kept_id = ws::Repository::hash_blob("kept\n");
  const std::string other_id = inner->put("in the object database\n");
  SnapshotContentSource source(inner, {KeptBytes{"agents/a.json", ws::ObjectId::from_hex(kept_id), "kept\n"}});

  struct Row {
    const char* what;
    ViewEntry entry;
    bool from_snapshot;
  };
  ViewEntry committed = worktree_entry("agents/a.json", ChangeStatus::modified, kept_id);
  committed.from_worktree = false;
  ViewEntry deleted = worktree_entry("agents/a.json", ChangeStatus::deleted, kept_id);
  deleted.base_blob_id = ws::ObjectId::from_hex(other_id);
  const Row rows[] = {
      {"modified, same id", worktree_entry("agents/a.json", ChangeStatus::modified, kept_id), true},
      {"added, same id", worktree_entry("agents/a.json", ChangeStatus::added, kept_id), true},
      {"renamed, same id", worktree_entry("agents/a.json", ChangeStatus::renamed, kept_id), true},
      {"another id at that path", worktree_entry("agents/a.json", ChangeStatus::modified, other_id), false},
      {"another path", worktree_entry("agents/b.json", ChangeStatus::modified, kept_id), false},
      {"no id", worktree_entry("agents/a.json", ChangeStatus::modified, ""), false},
      {"not from the working tree", committed, false},
      {"deleted", deleted, false},
  };
  for (const Row& row : rows) {
    INFO(row.what);
    CHECK(source.reads_blob_id(row.entry) == row.from_snapshot);
    auto bytes = source.read(row.entry);
    if (row.from_snapshot) {
      REQUIRE(bytes.ok());
      CHECK(*bytes == "kept\n");
    } else if (bytes.ok()) {
      CHECK(*bytes != "kept\n");  // whatever the inner source has, never the kept bytes
    }
  }
  CHECK(*source.read_blob(other_id) == "in the object database\n");
  CHECK_FALSE(wstest::MemoryContent().reads_blob_id(rows[0].entry));
}

TEST_CASE("working-tree status keeps the bytes it hashed, within its budget", "[view][snapshot][worktree-status]") {
  wstest::TempRepo repo;
  repo.write("agents/AGa.json", "{\n  \"name\": \"A\"\n}\n");
  repo.write("agents/AGb.json", "{\n  \"name\": \"B\"\n}\n");
  repo.commit_all("base");
  repo.write("agents/AGa.json", "{\n  \"name\": \"Alpha\"\n}\n");  // modified, another size
  repo.write("agents/AGc.json", "{\n  \"name\": \"C\"\n}\n");      // untracked
  auto opened = ws::Repository::open(repo.path());
  REQUIRE(opened.ok());
  auto root = ws::WorkspaceRoot::open(repo.path(), "");
  REQUIRE(root.ok());
  auto view = ws::open_view(*opened, std::make_shared<const ws::WorkspaceRoot>(std::move(root).value()), {});
  REQUIRE(view.ok());
  // What the view reads of a changed file is what it hashed, and it says so.
  for (const char* path : {"agents/AGa.json", "agents/AGc.json"}) {
    INFO(path);
    const ViewEntry* e = view->find(path);
    REQUIRE(e);
    CHECK(view->content().reads_blob_id(*e));
    auto bytes = view->read(*e);
    REQUIRE(bytes.ok());
    CHECK(ws::Repository::hash_blob(*bytes) == e->blob_id.hex());
    CHECK(*bytes == repo.read(path));
  }
  // An unchanged file is read from disk as before.
  const ViewEntry* b = view->find("agents/AGb.json");
  REQUIRE(b);
  CHECK_FALSE(view->content().reads_blob_id(*b));
  CHECK(*view->read(*b) == repo.read("agents/AGb.json"));
}

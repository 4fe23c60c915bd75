#include <catch2/catch.hpp>

#include "libcheck/view.h"
#include "support/memory_content.h"

using ws::ChangeStatus;
using ws::ViewEntry;

namespace {

ViewEntry entry(std::string path, ChangeStatus st, std::string blob, std::string base = {}) {
  ViewEntry e;
  e.path = std::move(path);
  e.status = st;
  e.blob_id = std::move(blob);
  e.base_blob_id = st == ChangeStatus::added ? std::string() : (base.empty() ? e.blob_id : base);
  return e;
}

}  // namespace

TEST_CASE("detect_renames pairs a delete and an add of the same bytes", "[view]") {
  std::vector<ViewEntry> es{entry("agents/a.json", ChangeStatus::deleted, "b1"),
                            entry("agents/b.json", ChangeStatus::added, "b1"),
                            entry("agents/c.json", ChangeStatus::added, "b2")};
  ws::detect_renames(es);
  REQUIRE(es.size() == 2);
  CHECK(es[0].path == "agents/b.json");
  CHECK(es[0].status == ChangeStatus::renamed);
  CHECK(es[0].old_path == "agents/a.json");
  CHECK(es[0].base_blob_id == "b1");
  CHECK(es[1].path == "agents/c.json");
  CHECK(es[1].status == ChangeStatus::added);
}

TEST_CASE("detect_renames leaves different bytes as delete and add", "[view]") {
  std::vector<ViewEntry> es{entry("a", ChangeStatus::deleted, "b1"), entry("b", ChangeStatus::added, "b2")};
  ws::detect_renames(es);
  REQUIRE(es.size() == 2);
  CHECK(es[0].status == ChangeStatus::deleted);
  CHECK(es[1].status == ChangeStatus::added);
}

TEST_CASE("detect_renames pairs each delete once, first by path", "[view]") {
  std::vector<ViewEntry> es{entry("a", ChangeStatus::deleted, "x"), entry("b", ChangeStatus::added, "x"),
                            entry("c", ChangeStatus::added, "x")};
  ws::detect_renames(es);
  REQUIRE(es.size() == 2);
  CHECK(es[0].path == "b");
  CHECK(es[0].status == ChangeStatus::renamed);
  CHECK(es[1].path == "c");
  CHECK(es[1].status == ChangeStatus::added);
}

TEST_CASE("a view is sorted and synthesises directories from its paths", "[view]") {
  ws::View v = wstest::memory_view({
      {"tasks/t.json", ChangeStatus::unchanged, "{}"},
      {"access/grants/g.json", ChangeStatus::added, "{}"},
      {"access/groups/x.json", ChangeStatus::unchanged, "{}"},
      {"agents/gone.json", ChangeStatus::deleted, "", "{\"name\":\"Gone\"}"},
      {"README.md", ChangeStatus::unchanged, "hi"},
  });
  REQUIRE(v.entries().size() == 5);
  CHECK(v.entries()[0].path == "README.md");
  CHECK(v.entries()[1].path == "access/grants/g.json");
  CHECK(v.list_dir("") == std::vector<std::string>{"README.md", "access/", "tasks/"});
  CHECK(v.list_dir("access/") == std::vector<std::string>{"grants/", "groups/"});
  CHECK(v.list_dir("access/grants/") == std::vector<std::string>{"g.json"});
  CHECK(v.list_dir("agents/").empty());  // only a deleted file was there
  REQUIRE(v.find("agents/gone.json") != nullptr);
  CHECK(v.find("agents/nope.json") == nullptr);
  auto bytes = v.read(*v.find("agents/gone.json"));
  REQUIRE(bytes);
  CHECK(*bytes == "{\"name\":\"Gone\"}");
  CHECK(v.changes().size() == 2);
}

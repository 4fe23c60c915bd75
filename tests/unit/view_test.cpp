#include <catch2/catch.hpp>

#include <algorithm>

#include "libcheck/repository.h"
#include "libcheck/view.h"
#include "support/memory_content.h"

using ws::ChangeStatus;
using ws::ViewEntry;

namespace {

// An id for a label ("b1"): the label itself when it is 40 hex digits,
// else the id of the label's bytes.
ws::ObjectId id_of(const std::string& label) {
  ws::ObjectId id = ws::ObjectId::from_hex(label);
  return id.empty() ? ws::ObjectId::from_hex(ws::Repository::hash_blob(label)) : id;
}

ViewEntry entry(std::string path, ChangeStatus st, std::string blob, std::string base = {}) {
  ViewEntry e;
  e.path = std::move(path);
  e.status = st;
  e.blob_id = id_of(blob);
  e.base_blob_id = st == ChangeStatus::added ? ws::ObjectId() : (base.empty() ? e.blob_id : id_of(base));
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
  CHECK(es[0].base_blob_id == id_of("b1"));
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

TEST_CASE("detect_renames never pairs a secret path or a secret's blob", "[view][secrets]") {
  std::vector<ViewEntry> es{entry(".SECRETS/Key", ChangeStatus::deleted, "s1"), entry("skills/x.md", ChangeStatus::added, "s1"),
                            entry("agents/a.json", ChangeStatus::deleted, "s2"), entry("agents/b.json", ChangeStatus::added, "s2"),
                            entry("docs/a.md", ChangeStatus::deleted, "d1"), entry(".secrets/New", ChangeStatus::added, "d1")};
  ws::SecretBlobs secrets;
  secrets.insert(std::string(40, '2'));  // not in the entries: pairs nothing
  ws::detect_renames(es, &secrets);
  CHECK(std::count_if(es.begin(), es.end(), [](const ViewEntry& e) { return e.status == ChangeStatus::renamed; }) == 1);
  // s2 is a secret's blob only once the set says so.
  std::vector<ViewEntry> again{entry("agents/a.json", ChangeStatus::deleted, std::string(40, 'a')),
                               entry("agents/b.json", ChangeStatus::added, std::string(40, 'a'))};
  secrets.insert(std::string(40, 'a'));
  ws::detect_renames(again, &secrets);
  REQUIRE(again.size() == 2);
  CHECK(again[0].status == ChangeStatus::deleted);
  CHECK(again[1].status == ChangeStatus::added);
}

TEST_CASE("a view never reads a secret's bytes, under .secrets/ or another path", "[view][secrets]") {
  const std::string key = "hunter2-canary\n";
  ws::View v = wstest::memory_view({
      {".secrets/Key", ChangeStatus::unchanged, key},
      {"skills/copy.md", ChangeStatus::added, key},
      {"skills/real.md", ChangeStatus::added, "---\nname: Real\n---\n"},
  });
  const ViewEntry& secret = *v.find(".secrets/Key");
  const ViewEntry& copy = *v.find("skills/copy.md");
  const ViewEntry& real = *v.find("skills/real.md");
  CHECK(v.is_secret(secret));
  CHECK_FALSE(v.holds_secret_bytes(secret));
  CHECK(v.is_secret(copy));
  CHECK(v.holds_secret_bytes(copy));
  CHECK_FALSE(v.is_secret(real));
  CHECK(v.secret_blobs().contains(secret.blob_id));
  for (const ViewEntry* e : {&secret, &copy}) {
    auto r = v.read(*e);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().rule == ws::Rule::secret);
    CHECK(r.error().message.find("hunter2") == std::string::npos);
    CHECK_FALSE(v.content().size_of(*e).has_value());
  }
  CHECK(v.read(copy).error().message == ws::secret_bytes_refusal("skills/copy.md"));
  auto blob = v.content().read_blob(secret.blob_id.hex());
  REQUIRE_FALSE(blob.ok());
  CHECK(blob.error().message.find(secret.blob_id.hex().substr(0, 7)) == std::string::npos);
  CHECK(v.read(real).ok());
  // Bytes read elsewhere are judged by their id.
  CHECK(v.bytes_are_secret(real, "x") == false);
}

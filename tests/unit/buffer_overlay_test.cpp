// with_buffers (buffer_overlay.h): an editor's buffers over the working
// tree's view, each entry's status against the base, read from memory; and
// the paths a buffer never stands for.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

#include "libcheck/buffer_overlay.h"
#include "libcheck/workspace.h"
#include "support/temp_repo.h"

namespace fs = std::filesystem;
using wstest::TempRepo;

namespace {

ws::Workspace open(const TempRepo& repo, bool changes_only) {
  ws::OpenOptions o;
  o.dir = repo.path();
  o.kinds_dir = std::string(WS_SOURCE_DIR) + "/schemas/kinds";
  o.view.changes_only = changes_only;
  auto w = ws::open_workspace(o);
  REQUIRE(w.ok());
  return std::move(w).value();
}

// Path -> status letter and bytes of every entry that is not unchanged.
std::map<std::string, std::string> changes(const ws::View& view) {
  std::map<std::string, std::string> out;
  for (const ws::ViewEntry* e : view.changes()) {
    auto bytes = view.read(*e);
    std::string old = e->old_path.empty() ? "" : " from " + e->old_path;
    out[e->path] = std::string(1, static_cast<char>(e->status)) + old + " " + (bytes ? *bytes : "<" + bytes.error().message + ">");
  }
  return out;
}

}  // namespace

TEST_CASE("with_buffers: modified, added, back to the base, and a rename split", "[overlay]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  // On disk: the tone prompt renamed (same bytes), the billing agent changed.
  fs::rename(repo.abs("prompts/PRtone01.md"), repo.abs("prompts/PRtone02.md"));
  std::string billing = repo.read("agents/AGbilling01.json");
  repo.replace("agents/AGbilling01.json", "Billing", "Payments");
  for (bool changes_only : {true, false}) {
    INFO("changes only: " << changes_only);
    ws::Workspace w = open(repo, changes_only);
    REQUIRE(changes(w.view).size() == 2);
    ws::Buffers buffers{
        {"agents/AGbilling01.json", billing},                 // the base's bytes again
        {"agents/AGtriage01.json", "{\"name\": \"T\"}\n"},  // unchanged on disk, edited
        {"agents/AGnew01.json", "{\"name\": \"New\"}\n"},   // not on disk
        {"prompts/PRtone02.md", "---\nname: Tone\n---\nx\n"},  // the rename's new side
    };
    auto view = ws::with_buffers(w, buffers);
    REQUIRE(view.ok());
    CHECK(changes(*view) == std::map<std::string, std::string>{
                                {"agents/AGnew01.json", "A {\"name\": \"New\"}\n"},
                                {"agents/AGtriage01.json", "M {\"name\": \"T\"}\n"},
                                {"prompts/PRtone01.md", "D " + repo.git({"show", "HEAD:prompts/PRtone01.md"})},
                                {"prompts/PRtone02.md", "A ---\nname: Tone\n---\nx\n"},
                            });
    const ws::ViewEntry* back = view->find("agents/AGbilling01.json");
    if (changes_only) CHECK(back == nullptr);
    else CHECK((back && back->status == ws::ChangeStatus::unchanged));
  }
}

TEST_CASE("with_buffers: no buffer for a secret, configuration, .git, a link or a bad path", "[overlay]") {
  TempRepo repo;
  wstest::commit_example_workspace(repo, "Support desk workspace");
  fs::create_symlink("AGbilling01.json", repo.abs("agents/AGlink01.json"));
  ws::Workspace w = open(repo, true);
  auto before = changes(w.view);
  ws::Buffers buffers{
      {".secrets/SupportMailbox", "x"}, {".SECRETS/SupportMailbox", "x"}, {".ws/config.json", "{}"},
      {".git/config", "x"},             {"agents/AGlink01.json", "{}"},   {"agents/../x.json", "{}"},
      {"/etc/passwd", "x"},
  };
  auto view = ws::with_buffers(w, buffers);
  REQUIRE(view.ok());
  CHECK(changes(*view) == before);
  for (const auto& [path, bytes] : buffers) {
    INFO(path);
    CHECK((!ws::is_overlay_path(path) || path == "agents/AGlink01.json"));
  }
}

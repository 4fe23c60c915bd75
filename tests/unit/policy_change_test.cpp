// Policy paths of a change, and why a build checks every definition
// (libcheck/policy_change.h).
#include <catch2/catch.hpp>

#include "libcheck/policy_change.h"
#include "support/memory_content.h"

using ws::ChangeStatus;

TEST_CASE("policy change: every spelling of .ws/ is a policy path, nothing else is", "[policy]") {
  for (const char* p : {".ws/config.json", ".ws/kinds/agent.json", ".ws", ".WS/kinds/x.json", ".Ws/new", ".ws/a/b/c"})
    CHECK(ws::is_policy_path(p));
  for (const char* p : {"agents/.ws/x.json", ".wsx/config.json", "ws/config.json", ".ws.json", "docs/.ws"})
    CHECK_FALSE(ws::is_policy_path(p));
}

TEST_CASE("policy change: the policy paths of a changeset, renames' old paths included", "[policy]") {
  std::vector<ws::FileStat> files(4);
  files[0].path = "agents/a.json";
  files[1].path = ".ws/kinds/b.json";
  files[2].path = "kinds/c.json";
  files[2].old_path = ".ws/kinds/c.json";  // moved out of .ws/: still a policy change
  files[3].path = ".ws/kinds/b.json";      // named twice, listed once
  CHECK(ws::policy_paths(files) == std::vector<std::string>{".ws/kinds/b.json", ".ws/kinds/c.json"});
  CHECK(ws::policy_paths({}).empty());
  CHECK(ws::policy_change_banner({".ws/config.json", ".ws/kinds/b.json"}) ==
        "=== policy change: ws-apply applies this proposal only with --allow-policy-change ===\n"
        "    .ws/config.json\n"
        "    .ws/kinds/b.json\n");
}

TEST_CASE("policy change: a changed kind manifest or config is why every definition is checked", "[policy]") {
  using wstest::memory_view;
  const std::string manifest = "{}";
  CHECK(ws::every_definition_reason(memory_view({{"agents/a.json", ChangeStatus::modified, "{}", "{ }"},
                                                 {".ws/kinds/agent.json", ChangeStatus::unchanged, manifest, ""},
                                                 {".ws/config.json", ChangeStatus::unchanged, "{}", ""}})) == "");
  CHECK(ws::every_definition_reason(memory_view({{".ws/kinds/agent.json", ChangeStatus::modified, manifest, "[]"},
                                                 {".ws/config.json", ChangeStatus::added, "{}", ""}})) ==
        "'.ws/config.json', '.ws/kinds/agent.json' changed: checking every definition");
  CHECK(ws::every_definition_reason(memory_view({{".ws/kinds/gone.json", ChangeStatus::deleted, "", manifest}})) ==
        "'.ws/kinds/gone.json' changed: checking every definition");
  // Not a manifest the pack loads: a deeper file, another extension, another folder.
  CHECK(ws::every_definition_reason(memory_view({{".ws/kinds/sub/x.json", ChangeStatus::added, manifest, ""},
                                                 {".ws/kinds/notes.txt", ChangeStatus::added, "x", ""},
                                                 {".ws/other.json", ChangeStatus::added, "{}", ""}})) == "");
}

TEST_CASE("policy change: a proposed config is checked as the base will read it", "[policy]") {
  auto view = wstest::memory_view({{".ws/config.json", ChangeStatus::added, "{\"size_cap\": 0}", ""}});
  auto d = ws::proposed_config_diagnostic(view, view.entries()[0]);
  REQUIRE(d);
  CHECK(d->code == ws::DiagCode::workspace_config);
  CHECK(d->path == ".ws/config.json");
  CHECK(d->message == "invalid .ws/config.json: 'size_cap' must be a positive number of bytes");
  auto fine = wstest::memory_view({{".ws/config.json", ChangeStatus::added, "{\"unprotected\": [\".github/\"]}", ""}});
  CHECK_FALSE(ws::proposed_config_diagnostic(fine, fine.entries()[0]));
}

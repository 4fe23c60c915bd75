// Session keys (sessions kept per worktree) and the configuration read from
// a commit, which ws-apply's approval checks rest on.
#include <catch2/catch.hpp>

#include <filesystem>

#include "commit_config.h"
#include "libcheck/repository.h"
#include "proposal_approval.h"
#include "support/temp_repo.h"

using ws::proposal::parse_session_key;
using ws::proposal::session_selected;

TEST_CASE("session keys: a session name, or NAME@WORKTREE", "[approval]") {
  struct Case {
    const char* key;
    const char* session;  // null: not a key
    const char* worktree;
  };
  const Case cases[] = {
      {"default", "default", ""},
      {"agent-7", "agent-7", ""},
      {"default@feature", "default", "feature"},
      {"default@fe@ture", "default", "fe@ture"},  // the first '@' ends the session name
      {"default@feature.2", "default", "feature.2"},
      {"", nullptr, nullptr},
      {"@feature", nullptr, nullptr},
      {"default@", nullptr, nullptr},
      {"default@a/b", nullptr, nullptr},
      {"default@a..b", nullptr, nullptr},
      {"default@a.lock", nullptr, nullptr},
      {"default@a{b", "default", "a{b"},
      {"default@a@{b", nullptr, nullptr},
      {"default@a b", nullptr, nullptr},
      {"default@a\x1b[2K", nullptr, nullptr},
      {"../x", nullptr, nullptr},
      {".hidden@wt", nullptr, nullptr},
  };
  for (const auto& c : cases) {
    INFO(c.key);
    auto k = parse_session_key(c.key);
    if (!c.session) {
      CHECK_FALSE(k.has_value());
      continue;
    }
    REQUIRE(k.has_value());
    CHECK(k->session == c.session);
    CHECK(k->worktree == c.worktree);
  }
}

TEST_CASE("session filters: every worktree's NAME, or one key", "[approval]") {
  struct Case {
    const char* key;
    const char* filter;
    bool selected;
  };
  const Case cases[] = {
      {"default", "", true},           {"default@wt", "", true},
      {"default", "default", true},    {"default@wt", "default", true},
      {"default@wt", "default@wt", true}, {"default", "default@wt", false},
      {"default@wt2", "default@wt", false}, {"agent-7", "default", false},
      {"", "default", false},          {"../x", "../x", false},
  };
  for (const auto& c : cases) {
    INFO(c.key << " / " << c.filter);
    auto r = session_selected(c.key, c.filter);
    if (std::string(c.filter) == "../x") {
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().code == ws::Errc::usage);
      CHECK(r.error().message ==
            "invalid session '../x': give a session name, or NAME@WORKTREE as ws-apply --list shows it");
      continue;
    }
    REQUIRE(r.ok());
    CHECK(*r == c.selected);
  }
}

TEST_CASE("config_at_commit reads .ws/config.json of the commit, not of the working tree", "[approval]") {
  wstest::TempRepo repo;
  repo.write("agents/a.json", "{}\n");
  const std::string plain = repo.commit_all("no config");
  repo.write(".ws/config.json", "{\"approval\": {\"distinct_approver\": true}, \"size_cap\": 4096}\n");
  const std::string strict = repo.commit_all("strict");
  // The working tree and the index say otherwise; neither counts.
  repo.write(".ws/config.json", "{\"approval\": {\"distinct_approver\": false}}\n");
  repo.git({"add", ".ws/config.json"});
  auto r = ws::Repository::open(repo.path());
  REQUIRE(r.ok());

  auto none = ws::config_at_commit(*r, plain);
  REQUIRE(none.ok());
  CHECK_FALSE(none->approval.distinct_approver);
  CHECK(none->size_cap == ws::kDefaultSizeCap);
  auto unborn = ws::config_at_commit(*r, "");
  REQUIRE(unborn.ok());
  CHECK_FALSE(unborn->approval.distinct_approver);
  auto on = ws::config_at_commit(*r, strict);
  REQUIRE(on.ok());
  CHECK(on->approval.distinct_approver);
  CHECK(on->size_cap == 4096);
}

TEST_CASE("config_at_commit refuses what no tool would have read as configuration", "[approval]") {
  wstest::TempRepo repo;
  repo.write("agents/a.json", "{}\n");
  repo.commit_all("seed");
  auto at = [&](const std::string& what) {
    const std::string commit = repo.commit_all(what);
    auto r = ws::Repository::open(repo.path());
    REQUIRE(r.ok());
    auto c = ws::config_at_commit(*r, commit);
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().code == ws::Errc::invalid);
    CHECK(c.error().subject == ".ws/config.json");
    return std::make_pair(commit.substr(0, 12), c.error().message);
  };
  repo.write(".ws/config.json", "{\"approval\": {\"distinct_approver\": \"yes\"}}\n");
  auto [bad, bad_msg] = at("bad value");
  CHECK(bad_msg == "invalid .ws/config.json in commit " + bad + ": 'approval.distinct_approver' must be true or false");

  repo.write(".ws/config.json", std::string(ws::kDefaultSizeCap + 1, ' '));
  auto [big, big_msg] = at("too big");
  CHECK(big_msg == "invalid .ws/config.json in commit " + big + ": larger than 1048576 bytes");

  repo.remove(".ws/config.json");
  std::filesystem::create_symlink("../agents/a.json", repo.abs(".ws/config.json"));
  auto [link, link_msg] = at("a link");
  CHECK(link_msg == "invalid .ws/config.json in commit " + link + ": not a regular file");
}

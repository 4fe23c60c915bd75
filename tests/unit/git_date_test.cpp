// GIT_AUTHOR_DATE and GIT_COMMITTER_DATE read as git reads them
// (ws-commit(1), ENVIRONMENT): its three documented formats, nothing guessed.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <ctime>
#include <string>

#include "git_identity.h"

namespace {

using ws::git::parse_git_date;

// 2005-04-07 22:13:13 +0200, the date of git-commit(1)'s examples.
constexpr git_time_t kExample = 1112904793;

void check_date(const std::string& text, git_time_t when, int offset) {
  INFO("date: " << text);
  auto date = parse_git_date(text);
  REQUIRE(date.has_value());
  CHECK(date->when == when);
  CHECK(date->offset == offset);
}

// Runs `body` with TZ set to `zone`, then puts the old TZ back.
template <typename Body>
void with_time_zone(const char* zone, Body body) {
  const char* old = std::getenv("TZ");
  std::string saved = old ? old : "";
  setenv("TZ", zone, 1);
  tzset();
  body();
  if (old)
    setenv("TZ", saved.c_str(), 1);
  else
    unsetenv("TZ");
  tzset();
}

}  // namespace

TEST_CASE("dates in git's internal format: seconds and a zone", "[git-date]") {
  check_date("1112904793 +0200", kExample, 120);
  check_date("1112904793 -0730", kExample, -450);
  check_date("1112904793", kExample, 0);
  check_date("@1112904793", kExample, 0);
  check_date("@1112904793 +0000", kExample, 0);
  check_date("0 +0000", 0, 0);
}

TEST_CASE("dates in RFC 2822, the zone required", "[git-date]") {
  check_date("Thu, 07 Apr 2005 22:13:13 +0200", kExample, 120);
  check_date("07 Apr 2005 22:13:13 +0200", kExample, 120);
  check_date("Thu, 07 Apr 2005 20:13:13 +0000", kExample, 0);
  check_date("Thu, 07 Apr 2005 22:13 +0200", kExample - 13, 120);
  CHECK_FALSE(parse_git_date("Thu, 07 Apr 2005 22:13:13"));
  CHECK_FALSE(parse_git_date("Thu, 07 Apr 2005 22:13:13 +0200 and more"));
}

TEST_CASE("dates in ISO 8601, with or without a zone", "[git-date]") {
  check_date("2005-04-07T22:13:13+02:00", kExample, 120);
  check_date("2005-04-07T22:13:13+0200", kExample, 120);
  check_date("2005-04-07 22:13:13 +0200", kExample, 120);
  check_date("2005-04-07T20:13:13Z", kExample, 0);
  check_date("2005-04-07T20:13:13.250Z", kExample, 0);
  check_date("2026-01-01T00:00:00Z", 1767225600, 0);
  // No zone: local time, as git reads it.
  with_time_zone("UTC0", [] { check_date("2005-04-07T20:13:13", kExample, 0); });
  with_time_zone("IST-5:30", [] { check_date("2005-04-08 01:43:13", kExample, 330); });
}

TEST_CASE("a date git would not read is refused, never guessed", "[git-date]") {
  for (const char* bad : {"", "yesterday", "now", "2005-04-07", "2005-04-07T22:13", "2005-04-07T22:13:13+25:00",
                          "2005-04-07T22:13:13 +02", "1112904793 +02:00x", "1112904793 Z", "@", "@x", "-5 +0000",
                          "99999999999999999999 +0000", "Thu, 07 Foo 2005 22:13:13 +0200", "2005-13-07T22:13:13Z",
                          "2005-04-07T22:13:13.Z", "2005-04-07T22:13:13Z\n", "1112904793 +0200\x1b[2J"}) {
    INFO("date: " << bad);
    CHECK_FALSE(parse_git_date(bad));
  }
}

#include <catch2/catch.hpp>

#include "suggest.h"

using ws::edit_distance;
using ws::Suggester;

TEST_CASE("edit distance counts insertions, deletions, substitutions and swaps", "[compile][suggest]") {
  CHECK(edit_distance("Triage", "Triage", 5) == 0);
  CHECK(edit_distance("Triag", "Triage", 5) == 1);
  CHECK(edit_distance("Trxage", "Triage", 5) == 1);
  CHECK(edit_distance("Stauts", "Status", 5) == 1);  // one transposition
  CHECK(edit_distance("", "abc", 5) == 3);
  CHECK(edit_distance("kitten", "sitting", 5) == 3);
  CHECK(edit_distance("abcdef", "uvwxyz", 2) == 3);  // over the limit: limit + 1
  CHECK(edit_distance("a", "abcdefgh", 2) == 3);
}

TEST_CASE("suggestions: the closest name within max(2, len/3), ties by name", "[compile][suggest]") {
  CHECK(ws::suggestion_limit(3) == 2);
  CHECK(ws::suggestion_limit(12) == 4);
  Suggester s("Billin");
  for (const char* c : {"Triage", "Billing", "Bill", "Billing2"}) s.consider(c);
  CHECK(s.best() == std::optional<std::string>("Billing"));
  Suggester tie("Cat");
  for (const char* c : {"Cut", "Bat"}) tie.consider(c);
  CHECK(tie.best() == std::optional<std::string>("Bat"));
  Suggester none("Zzz");
  for (const char* c : {"Triage", "Billing"}) none.consider(c);
  CHECK_FALSE(none.best());
  Suggester tiny("Ab");  // a two-letter name is not a typo of another two-letter name
  tiny.consider("Xy");
  CHECK_FALSE(tiny.best());
  Suggester same("Triage");
  same.consider("Triage");
  CHECK_FALSE(same.best());
}

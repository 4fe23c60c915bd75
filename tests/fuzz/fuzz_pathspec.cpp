// libFuzzer target: ws::parse_pathspec on the first line, ws::pathspec_matches on every other line.
// The entry code lives in fuzz_entries.h, shared with tests/unit/fuzz_regressions_test.cpp.
#include "fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return wsfuzz::fuzz_one("fuzz_pathspec", data, size);
}

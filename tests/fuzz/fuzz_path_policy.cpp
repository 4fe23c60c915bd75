// libFuzzer target: ws::check_path under every policy; an accepted path is plain, relative, inside, and no .git or secret.
// The entry code lives in fuzz_entries.h, shared with tests/unit/fuzz_regressions_test.cpp.
#include "fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return wsfuzz::fuzz_one("fuzz_path_policy", data, size);
}

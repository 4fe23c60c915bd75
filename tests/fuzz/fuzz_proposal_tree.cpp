// libFuzzer target: refuse_entry on (mode, path) records, and on the changes of a raw hostile git tree diffed as ws-apply does.
// The entry code lives in fuzz_entries.h, shared with tests/unit/fuzz_regressions_test.cpp.
#include "fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return wsfuzz::fuzz_one("fuzz_proposal_tree", data, size);
}

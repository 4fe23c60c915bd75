// libFuzzer target: ws::KindPack::from_texts with the input as a workspace's .ws/kinds manifest, then a read through it.
// The entry code lives in fuzz_entries.h, shared with tests/unit/fuzz_regressions_test.cpp.
#include "fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return wsfuzz::fuzz_one("fuzz_kind_manifest", data, size);
}

// libFuzzer target: ws::detail::IndexFile::parse on the bytes of an index file.
// The entry code lives in fuzz_entries.h, shared with tests/unit/fuzz_regressions_test.cpp.
#include "fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return wsfuzz::fuzz_one("fuzz_index_file", data, size);
}

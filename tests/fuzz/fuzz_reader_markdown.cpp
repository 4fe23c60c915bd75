// libFuzzer target: ws::read_definition on Markdown with YAML front matter (prompt, skill), then syntax classes and every renderer.
// The entry code lives in fuzz_entries.h, shared with tests/unit/fuzz_regressions_test.cpp.
#include "fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return wsfuzz::fuzz_one("fuzz_reader_markdown", data, size);
}

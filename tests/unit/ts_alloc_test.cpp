// The per-thread block cache tree-sitter allocates through (ts_alloc.h):
// what it hands out must honour malloc's contract for every size, a
// recycled block must be the same block (else it caches nothing), calloc
// must zero what it recycles, the cache must stay bounded, and blocks may
// cross threads. Under the sanitizer build a block smaller than asked for
// is a heap overflow here, and a cache not given back when its thread
// ends is a leak.
#include <catch2/catch.hpp>

#include <malloc.h>

#include <cstring>
#include <thread>
#include <vector>

#include "ts_alloc.h"

using namespace ws::detail;

namespace {

// The largest request a freed `block` serves: its class holds blocks of
// usable size 16c - 8 (ts_alloc.cpp). glibc rounds a block up, a
// sanitizer's malloc does not, so the tests ask for what the block serves
// rather than assume one malloc.
std::size_t largest_served(void* block) { return (malloc_usable_size(block) + 8) / 16 * 16 - 8; }

}  // namespace

TEST_CASE("ts_alloc: every size gets a block at least that large, recycled or new", "[ts_alloc]") {
  ts_block_cache_clear();
  for (std::size_t size = 0; size <= 600; ++size) {
    // First a new block, then (freed and asked for again) a recycled one.
    for (int round = 0; round < 2; ++round) {
      auto* b = static_cast<unsigned char*>(ts_block_malloc(size));
      REQUIRE(b != nullptr);
      REQUIRE(malloc_usable_size(b) >= size);
      std::memset(b, 0xA5, size);
      ts_block_free(b);
    }
  }
  // A freed block serves the largest request of the class its usable size
  // puts it in.
  void* big = ts_block_malloc(100);
  std::size_t largest = largest_served(big);
  ts_block_free(big);
  void* again = ts_block_malloc(largest);
  CHECK(again == big);
  CHECK(malloc_usable_size(again) >= largest);
  ts_block_free(again);
}

TEST_CASE("ts_alloc: a freed small block is handed back, a large one is not kept", "[ts_alloc]") {
  ts_block_cache_clear();  // earlier tests on this thread may have filled it
  void* a = ts_block_malloc(40);
  std::size_t held = ts_block_cache_bytes();
  ts_block_free(a);
  CHECK(ts_block_cache_bytes() > held);
  void* b = ts_block_malloc(40);
  CHECK(b == a);
  CHECK(ts_block_cache_bytes() == held);
  ts_block_free(b);

  std::size_t cached = ts_block_cache_bytes();
  ts_block_free(ts_block_malloc(4096));  // past the largest class: straight to free()
  CHECK(ts_block_cache_bytes() == cached);
}

TEST_CASE("ts_alloc: calloc zeroes a recycled block", "[ts_alloc]") {
  ts_block_cache_clear();
  auto* a = static_cast<unsigned char*>(ts_block_malloc(48));
  std::size_t size = largest_served(a);  // what the block serves, whichever malloc made it
  std::memset(a, 0xFF, size);
  ts_block_free(a);
  auto* b = static_cast<unsigned char*>(ts_block_calloc(size / 8, 8));
  REQUIRE(b == a);
  for (std::size_t i = 0; i < size; ++i) REQUIRE(b[i] == 0);
  ts_block_free(b);
}

TEST_CASE("ts_alloc: realloc keeps the contents of a recycled block", "[ts_alloc]") {
  ts_block_cache_clear();
  auto* a = static_cast<char*>(ts_block_malloc(24));
  ts_block_free(a);
  auto* b = static_cast<char*>(ts_block_malloc(24));
  std::memcpy(b, "twenty-three characters", 24);
  auto* c = static_cast<char*>(ts_block_realloc(b, 4000));
  REQUIRE(c != nullptr);
  CHECK(std::memcmp(c, "twenty-three characters", 24) == 0);
  ts_block_free(c);
}

TEST_CASE("ts_alloc: a thread's cache stays bounded however much it frees", "[ts_alloc]") {
  ts_block_cache_clear();
  void* probe = ts_block_malloc(32);
  std::size_t size = largest_served(probe);  // blocks of one class, whichever malloc made them
  ts_block_free(probe);
  std::vector<void*> blocks;
  for (std::size_t i = 0; i < 3 * kTsBlockCacheMaxBytes / 32; ++i) blocks.push_back(ts_block_malloc(size));
  for (void* b : blocks) ts_block_free(b);  // past the bound
  CHECK(ts_block_cache_bytes() <= kTsBlockCacheMaxBytes);
  CHECK(ts_block_cache_bytes() >= kTsBlockCacheMaxBytes - 512);
  for (std::size_t i = 0; i < blocks.size(); ++i) blocks[i] = ts_block_malloc(size);
  // Handed out again, but for a block malloc made larger than asked, which
  // sits in the next class.
  CHECK(ts_block_cache_bytes() < kTsBlockCacheMaxBytes / 4);
  for (void* b : blocks) ts_block_free(b);
}

TEST_CASE("ts_alloc: blocks freed on other threads, and caches of ended threads, go back to malloc",
          "[ts_alloc]") {
  std::vector<void*> blocks;
  for (int i = 0; i < 10'000; ++i) blocks.push_back(ts_block_malloc(16 + i % 200));
  std::size_t cached_there = 0;
  std::thread other([&] {
    for (void* b : blocks) ts_block_free(b);  // allocated here, freed there
    cached_there = ts_block_cache_bytes();
    for (int i = 0; i < 1000; ++i) ts_block_free(ts_block_malloc(64));
  });
  other.join();
  CHECK(cached_there > 0);
  // The blocks the ended thread cached were given back (a leak under the
  // sanitizer build otherwise); this thread's cache did not take them.
  std::size_t here = ts_block_cache_bytes();
  void* b = ts_block_malloc(16);
  ts_block_free(b);
  CHECK(ts_block_cache_bytes() >= here);
}

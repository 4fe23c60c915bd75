// Tree-sitter allocates every node of a tree as a small block, and a build
// frees a tree of thousands of them after each file. glibc keeps such
// blocks in its fast bins (its per-thread cache takes only 7 of a size),
// and the next request of 1 KiB or more — libgit2's buffer for the next
// blob — makes it merge them all back (malloc_consolidate), after which the
// next parse carves its nodes out of the merged chunks on malloc's slow
// path. In a cold build (bench/DIAGNOSES.md, diag-build-cold-10000) that
// cost a tenth of the parse. Here a thread keeps the small blocks
// tree-sitter frees, by size class, and hands them back to tree-sitter's
// next requests: glibc's per-thread cache without its limit of 7.
//
// Every block stays one of malloc's: a cached block counts as allocated to
// malloc, realloc goes straight to realloc, a block may be freed on another
// thread than the one that allocated it (it joins that thread's cache), and
// a thread's cache is given back to free() when the thread ends.
#include "ts_alloc.h"

#include <tree_sitter/api.h>

#include <malloc.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace ws::detail {

namespace {

// Size classes of 16 bytes, as malloc's chunks: class c holds blocks whose
// usable size is at least 16c - 8, which serves any request n with
// n + 8 <= 16c. Tree-sitter's nodes and stack entries are all below 512.
constexpr std::size_t kGranule = 16;
constexpr std::size_t kHeader = 8;
constexpr std::size_t kMinClass = 2;
constexpr std::size_t kClasses = 512 / kGranule + 1;

struct FreeBlock {
  FreeBlock* next;
};

// Plain thread_local data (no constructor, so no guard on each access);
// `Release` below empties it when the thread ends.
struct Cache {
  FreeBlock* heads[kClasses];
  std::size_t bytes;
  bool release_registered;
  bool closed;  // the thread is ending: frees go straight to malloc
};
thread_local Cache cache{};

void give_back() {
  for (FreeBlock*& head : cache.heads)
    while (FreeBlock* b = head) {
      head = b->next;
      std::free(b);
    }
  cache.bytes = 0;
}

struct Release {
  ~Release() {
    cache.closed = true;
    give_back();
  }
};

std::size_t request_class(std::size_t size) { return (size + kHeader + kGranule - 1) / kGranule; }
std::size_t block_class(std::size_t usable) { return (usable + kHeader) / kGranule; }

void* take(std::size_t size) {
  if (size > (kClasses - 1) * kGranule - kHeader) return nullptr;
  std::size_t c = std::max(kMinClass, request_class(size));
  FreeBlock* b = cache.heads[c];
  if (!b) return nullptr;
  cache.heads[c] = b->next;
  cache.bytes -= c * kGranule;
  return b;
}

bool keep(void* block) {
  std::size_t c = block_class(malloc_usable_size(block));
  if (c < kMinClass || c >= kClasses || cache.closed) return false;
  if (cache.bytes + c * kGranule > kTsBlockCacheMaxBytes) return false;
  if (!cache.release_registered) {
    // Destroyed when the thread ends, perhaps before objects that free
    // into the cache later (a thread's parsers): `closed` covers those.
    thread_local Release release;
    cache.release_registered = true;
  }
  auto* b = static_cast<FreeBlock*>(block);
  b->next = cache.heads[c];
  cache.heads[c] = b;
  cache.bytes += c * kGranule;
  return true;
}

// Tree-sitter cannot go on without a block it asked for: its own default
// allocator aborts with this message, and so does this one.
[[noreturn]] void out_of_memory(std::size_t size) {
  std::fprintf(stderr, "tree-sitter failed to allocate %zu bytes", size);
  std::abort();
}

}  // namespace

void* ts_block_malloc(std::size_t size) {
  if (void* b = take(size)) return b;
  void* b = std::malloc(size);
  if (!b && size > 0) out_of_memory(size);
  return b;
}

void* ts_block_calloc(std::size_t count, std::size_t size) {
  if (size == 0 || count <= SIZE_MAX / size) {
    if (void* b = take(count * size)) return std::memset(b, 0, count * size);
  }
  void* b = std::calloc(count, size);
  if (!b && count > 0 && size > 0) out_of_memory(count * size);
  return b;
}

void* ts_block_realloc(void* block, std::size_t size) {
  void* b = std::realloc(block, size);
  if (!b && size > 0) out_of_memory(size);
  return b;
}

void ts_block_free(void* block) {
  if (block && !keep(block)) std::free(block);
}

std::size_t ts_block_cache_bytes() { return cache.bytes; }

void ts_block_cache_clear() { give_back(); }

void use_tree_sitter_block_cache() {
  static std::once_flag once;
  std::call_once(once, [] { ts_set_allocator(ts_block_malloc, ts_block_calloc, ts_block_realloc, ts_block_free); });
}

}  // namespace ws::detail

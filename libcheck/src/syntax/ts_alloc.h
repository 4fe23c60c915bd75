// Tree-sitter's small allocations, recycled per thread (see ts_alloc.cpp).
#pragma once

#include <cstddef>

namespace ws::detail {

// Makes tree-sitter allocate through a per-thread cache of freed small
// blocks. Idempotent and thread-safe; call it before a thread's first
// parser is made (parse() does). Every block is still one of malloc's, so
// blocks tree-sitter allocated before the call are freed correctly.
void use_tree_sitter_block_cache();

// The cache's functions, as ts_set_allocator takes them; exposed for the
// unit tests, which check them against malloc's contract.
void* ts_block_malloc(std::size_t size);
void* ts_block_calloc(std::size_t count, std::size_t size);
void* ts_block_realloc(void* block, std::size_t size);
void ts_block_free(void* block);

// A thread's cache holds at most this much; blocks freed past it go back
// to malloc. Enough for the trees and parse stacks of a definition of some
// kilobytes, whose blocks are the ones reused over and over; small, because
// blocks in the cache serve no other allocation and count in the peak
// memory of every thread that parses (bench/DIAGNOSES.md,
// diag-build-cold-10000).
inline constexpr std::size_t kTsBlockCacheMaxBytes = 256u << 10;

// Bytes the calling thread's cache holds now.
std::size_t ts_block_cache_bytes();

// Gives the calling thread's cached blocks back to malloc; the cache stays
// in use. The unit tests start from an empty cache with it, whatever parsed
// on their thread before.
void ts_block_cache_clear();

}  // namespace ws::detail

// pacxx::agent::run_split: the contiguous run of [0, n) that a thread of a grid takes in
// the CPU-shaped algorithms (agent/scan_runs.hpp, agent/radix_runs.hpp): block b the b-th
// of `blocks` runs, thread l of B the l-th run of its block's (device code, and host
// code: the dispatch sizes grids with it).
#pragma once
#include <cstddef>

namespace pacxx {
namespace agent {

// The run of [0, n) of thread l of block b (blocks blocks of B threads): its first
// element and length. Every block has n / blocks or one more elements (at least one
// where blocks <= n), every thread count / B or one more of its block's, so the threads
// with elements are a prefix of the block.
struct run_split {
  std::size_t first; // the thread's first element
  std::size_t count; // the thread's elements
  std::size_t block; // the block's elements
  __attribute__((always_inline))
  run_split(std::size_t n, std::size_t blocks, std::size_t b, std::size_t B, std::size_t l) {
    const std::size_t per_block = n / blocks, extra_blocks = n % blocks;
    block = per_block + (b < extra_blocks ? 1 : 0);
    const std::size_t per_thread = block / B, extra = block % B;
    count = per_thread + (l < extra ? 1 : 0);
    first = b * per_block + (b < extra_blocks ? b : extra_blocks) + l * per_thread +
            (l < extra ? l : extra);
  }
};

} // namespace agent
} // namespace pacxx

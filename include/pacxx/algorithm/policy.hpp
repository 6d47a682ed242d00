// Launch policies of the GPU algorithms (CUB's split: policy here, the kernels in the
// algorithm headers). Tuned by the benchmarks, not by the algorithms.
#pragma once
#include <cstddef>

#include "pacxx/runtime.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {
namespace policy {

// Element-wise algorithms (for_each, transform, fill, copy): grid-stride loops.
struct elementwise {
  static constexpr std::size_t block = 256;
  static constexpr std::size_t max_blocks = std::size_t(1) << 20;
};

// gpu::reduce: one pass over the (fused) input into one partial per block, then the
// partials are folded on the host. `block` must be a power of two.
struct reduce {
  static constexpr std::size_t block = 256;
  static constexpr std::size_t max_blocks = 1024;
};

} // namespace policy

namespace detail {

inline launch_config grid_for(std::size_t n, std::size_t block, std::size_t max_blocks) {
  std::size_t blocks = (n + block - 1) / block;
  if (blocks > max_blocks)
    blocks = max_blocks;
  return {{blocks}, {block}};
}

// The first index of this thread and the stride of a grid-stride loop.
struct grid_stride {
  std::size_t first, stride;
  static grid_stride get() {
    return {Thread::get().global.x, Block::get().size.x * Grid::get().size.x};
  }
};

// Per-thread scratch memory on the current device, reused between calls (reduce
// partials); grows when needed.
void *scratch(std::size_t bytes);

} // namespace detail
} // namespace pacxx

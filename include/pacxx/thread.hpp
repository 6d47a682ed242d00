// Where a thread is: pacxx::Thread, Block and Grid, and pacxx::barrier().
#pragma once
#include <cstddef>

#include "pacxx/builtins.hpp"

namespace pacxx {

// Coordinates in a 2D or 3D index space (x fastest): a thread's place in its grid,
// the elements of gpu::views::indices.
struct index2 {
  std::size_t x; // the fastest-moving coordinate
  std::size_t y; // the second coordinate
};
// Coordinates in a 3D index space (x fastest).
struct index3 {
  std::size_t x; // the fastest-moving coordinate
  std::size_t y; // the second coordinate
  std::size_t z; // the third coordinate
};

// The calling thread's place, in kernel code. Reading an id costs nothing on the device:
// unused components are removed by the JIT.
struct Thread {
  index3 global; // global thread index (block index * block size + local)
  index3 local;  // index within the block
  // The calling thread's indices (in kernel code only).
  static Thread get() {
    return {{__pacxx_global_id(0), __pacxx_global_id(1), __pacxx_global_id(2)},
            {__pacxx_local_id(0), __pacxx_local_id(1), __pacxx_local_id(2)}};
  }
};

// The calling thread's block, in kernel code.
struct Block {
  index3 index; // block index in the grid
  index3 size;  // threads per block
  // The calling thread's block (in kernel code only).
  static Block get() {
    return {{__pacxx_group_id(0), __pacxx_group_id(1), __pacxx_group_id(2)},
            {__pacxx_local_size(0), __pacxx_local_size(1), __pacxx_local_size(2)}};
  }
};

// The launch's grid, in kernel code.
struct Grid {
  index3 size; // blocks in the grid
  // The grid of the running kernel (in kernel code only).
  static Grid get() {
    return {{__pacxx_num_groups(0), __pacxx_num_groups(1), __pacxx_num_groups(2)}};
  }
};

// Waits for every thread of the block; orders shared and global memory within it.
inline void barrier() { __pacxx_barrier(); }
// Called in a kernel with constants (a policy's): its blocks have at most max_threads
// threads and min_blocks of them should fit on a multiprocessor at once (CUDA's
// __launch_bounds__). Launching it with larger blocks is an error.
[[gnu::always_inline]] inline void launch_bounds(unsigned max_threads, unsigned min_blocks) {
  __pacxx_launch_bounds(max_threads, min_blocks);
}

} // namespace pacxx

// Where a thread is: pacxx::Thread, Block and Grid, and pacxx::barrier().
#pragma once
#include <cstddef>

#include "pacxx/builtins.hpp"

namespace pacxx {

struct index3 {
  std::size_t x, y, z;
};

// Reading an id costs nothing on the device: unused components are removed by the JIT.
struct Thread {
  index3 global; // global thread index (block index * block size + local)
  index3 local;  // index within the block
  static Thread get() {
    return {{__pacxx_global_id(0), __pacxx_global_id(1), __pacxx_global_id(2)},
            {__pacxx_local_id(0), __pacxx_local_id(1), __pacxx_local_id(2)}};
  }
};

struct Block {
  index3 index; // block index in the grid
  index3 size;  // threads per block
  static Block get() {
    return {{__pacxx_group_id(0), __pacxx_group_id(1), __pacxx_group_id(2)},
            {__pacxx_local_size(0), __pacxx_local_size(1), __pacxx_local_size(2)}};
  }
};

struct Grid {
  index3 size; // blocks in the grid
  static Grid get() {
    return {{__pacxx_num_groups(0), __pacxx_num_groups(1), __pacxx_num_groups(2)}};
  }
};

// Waits for every thread of the block; orders shared and global memory within it.
inline void barrier() { __pacxx_barrier(); }

} // namespace pacxx

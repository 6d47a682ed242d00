// pacxx::block_load_tile<T, N, B>: a tile of N elements in shared memory that a block of B
// threads fills cooperatively from any random-access device range (device code):
//
//   pacxx::block_load_tile<float4, 256, 256> tile;  // its shared memory: one per site
//   for (std::size_t j0 = 0; j0 < m; j0 += 256) {
//     const std::size_t count = tile.load(ranges::begin(inner), j0, m);  // <= 256
//     for (std::size_t k = 0; k < count; ++k)
//       acc = op(acc, f(x, tile[k]));
//     tile.release();  // before the next load overwrites it
//   }
//
// load() copies elements [first, min(first + N, end)) of the range into tile[0, count),
// thread l loading elements l, l + B, ... (consecutive threads, consecutive addresses:
// coalesced), converting each to T (views are evaluated once per element here, not once
// per reader), and ends with a barrier so that every thread sees the whole tile. release()
// is the barrier after the tile's last read. Every thread of the block must call both the
// same number of times, also threads with no element of their own (the CUDA SDK N-body's
// pattern: load tile, barrier, fold, barrier): a thread that returned early would leave
// the others waiting (and PoCL 3.1 mishandles a return before a later barrier).
#pragma once
#include <cstddef>
#include <type_traits>

#include <range/v3/iterator/traits.hpp>

#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {

// A tile of N elements of type T in shared memory that a block of B threads fills together
// from a random-access device range (device code; see the header's loop). Every thread
// calls load() and release() the same number of times.
template <class T, std::size_t N, std::size_t B = N> class block_load_tile {
  static_assert(B > 0 && N > 0, "block_load_tile: at least one thread and one element");
  shared_memory<T, N> data_;

public:
  __attribute__((always_inline)) block_load_tile() = default;

  // The most elements a tile holds (N).
  static constexpr std::size_t capacity() { return N; }

  // Loads elements [first, min(first + N, end)) of the range at `begin`; returns how many.
  template <class It> std::size_t load(It begin, std::size_t first, std::size_t end) {
    using D = ranges::iter_difference_t<It>;
    const std::size_t count = end - first < N ? end - first : N;
    for (std::size_t i = Thread::get().local.x; i < count; i += B)
      data_[i] = T(*(begin + static_cast<D>(first + i)));
    barrier();
    return count;
  }
  // The barrier after the tile's last read, before the next load() overwrites it.
  void release() { barrier(); }

  // Element i of the tile (i below the count the last load() returned).
  const T &operator[](std::size_t i) const { return data_[i]; }
  // The tile's shared memory.
  const T *data() const { return data_.data(); }
};

} // namespace pacxx

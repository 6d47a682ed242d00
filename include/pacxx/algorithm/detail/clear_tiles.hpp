// The tiny kernel before every single-pass algorithm (scans, compaction, by key, the
// radix sort): zeroes 32-bit words, such as the tile counter and the status words of a
// pacxx::tile_state. It depends on no value type, so one kernel (one JIT) serves every
// algorithm and type.
#pragma once
#include <cstddef>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/block/lookback.hpp"
#include "pacxx/kernel.hpp"

namespace gpu {
namespace detail {

// Zeroes count words from w (one launch; nothing where count is 0).
inline void clear_words(unsigned *w, std::size_t count) {
  if (count == 0)
    return;
  pacxx::kernel(
      [](unsigned *w, std::size_t count) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < count)
          w[i] = 0;
      },
      pacxx::detail::grid_for(count, 256, std::size_t(1) << 31))(w, count);
}

template <class T> void clear_tiles(const pacxx::tile_state<T> &state, std::size_t tiles) {
  clear_words(state.counter, pacxx::tile_state<T>::clear_words(tiles));
}

} // namespace detail
} // namespace gpu

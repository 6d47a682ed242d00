// The tile loop of the first-match searches (device code): find, find_if, any_of,
// all_of, none_of and equal run it. The result is the smallest i in [0, n) where
// test(i) holds, left in *found: device memory that holds n or any larger value before
// the launch (kept where nothing matches) and that the searches lower with an atomic
// min.
//
// Block b takes the tiles (P::block * P::items elements) b, b + blocks, ... in
// increasing order and stops before the first tile that starts at or past a match some
// block has published, so a match near the front ends the pass early. Each warp
// publishes its tile's first match (warp::ballot, then warp::reduce only where one was
// found, one atomic per warp), and reads *found every P::poll_every tiles, while a
// tile's loads are in flight, for the next tile's decision. The loop has no barriers:
// the decision to go on is the same in every lane of a warp (lane 0's view of *found,
// shuffled), which is what the warp's shuffles need, and blocks never wait for each
// other. A warp that has not polled since a match was published goes on for at most
// poll_every - 1 tiles of its own (and stops at once at a match of its own).
//
// Correct whatever the order of blocks: every tile that could hold a smaller match than
// the final result is searched whole, and a stale read of *found only searches more.
#pragma once
#include <cstddef>
#include <utility>

#include "pacxx/atomic.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {
namespace agent {

namespace detail {
// The smallest K in [0, sizeof...(K)) where test(first + K * stride) holds, or
// sizeof...(K): every test is an argument, so all of a thread's loads of a tile are in
// flight together. The position within the tile, not the index: with 16 items the
// 64-bit indices were computed ahead of the loads and kept live (46 registers against
// 26, and any_of over 2^28 floats took 426 us against 369 under ncu on the H100,
// 2026-11-25); the index is formed once, for a hit.
template <class Test, std::size_t... K>
inline unsigned first_of(Test &test, std::size_t first, std::size_t stride,
                         std::index_sequence<K...>) {
  const bool hit[] = {bool(test(first + K * stride))...};
  unsigned r = sizeof...(K);
  for (unsigned k = sizeof...(K); k-- > 0;)
    if (hit[k])
      r = k;
  return r;
}

struct min_index {
  std::size_t operator()(std::size_t a, std::size_t b) const { return b < a ? b : a; }
};

inline std::size_t read_found(const std::size_t *found) {
  return *static_cast<const volatile std::size_t *>(found);
}
} // namespace detail

template <class P, class Test>
__attribute__((always_inline)) inline void find_tiles(Test &&test, std::size_t n,
                                                      std::size_t *found) {
  constexpr std::size_t B = P::block, I = P::items, tile = B * I;
  const std::size_t l = Thread::get().local.x, b = Block::get().index.x;
  const std::size_t step = Grid::get().size.x * tile;
  const bool leader = warp::lane() == 0;
  // A match the grid has published (n: none yet), the same in every lane of the warp.
  // The first read is made during the first tile's loads, not before them: a read
  // before the loop put one more round trip to L2 ahead of every block's first loads
  // (any_of with no match under ncu on the H100, 2026-11-26, 2^20 / 2^22 / 2^23: 4.42 /
  // 6.30 / 8.98 us read before, 4.06 / 6.08 / 8.90 read during; 2^28 364.8 / 363.8).
  // A block that starts past a published match then searches one tile for nothing.
  std::size_t stop = n;
  unsigned polls = P::poll_every - 1;
  for (std::size_t base = b * tile; base < n && base < stop; base += step) {
    // For the next tile's decision, read while this tile's loads are in flight.
    std::size_t seen = stop;
    if (++polls == P::poll_every) {
      polls = 0;
      seen = leader ? detail::read_found(found) : n;
    }
    std::size_t mine = n;
    if (base + tile <= n) {
      const unsigned k = detail::first_of(test, base + l, B, std::make_index_sequence<I>{});
      if (k < I)
        mine = base + l + k * B;
    } else { // the partial tile at the end, bounds checked
      for (std::size_t k = 0; k < I; ++k) {
        const std::size_t i = base + k * B + l;
        if (mine == n && i < n && test(i))
          mine = i;
      }
    }
    if (warp::ballot(mine < n) != 0) { // the same in every lane
      mine = warp::reduce(mine, detail::min_index{});
      if (leader) {
        atomic_min(found, mine);
        seen = mine < seen ? mine : seen;
      }
    }
    stop = warp::shuffle(seen, 0);
  }
}

} // namespace agent
} // namespace pacxx

// The tile loop of the single-pass scan (device code; CUB's AgentScan). One block per
// tile of P::block * P::items elements, taken in the order blocks start: load the tile
// blocked (each thread its P::items consecutive elements), scan each thread's items,
// scan the threads' totals across the block with the tile's prefix from the decoupled
// look-back (pacxx/block/lookback.hpp), store the tile.
//
// `init` is the exclusive scan's initial value (has_init), which tile 0 folds into
// the prefix it publishes, so every later tile's look-back includes it.
#pragma once
#include <cstddef>

#include "pacxx/block/block_exchange.hpp"
#include "pacxx/block/block_scan.hpp"
#include "pacxx/block/lookback.hpp"

namespace pacxx {
namespace agent {

template <class P, class T, bool Exclusive, class Load, class Store, class Op>
__attribute__((always_inline)) inline void scan_tile(Load &&load, Store &&store, std::size_t n,
                                                     const tile_state<T> &state, Op op, T init) {
  constexpr std::size_t B = P::block, I = P::items, tile_size = B * I;
  block_exchange<T, B, I> exchange;
  block_scan<T, B> scan;
  const std::size_t tile = tile_order(state), base = tile * tile_size;
  const std::size_t l = Thread::get().local.x;
  const std::size_t valid = n - base < tile_size ? n - base : tile_size;
  const std::size_t mine = valid <= l * I ? 0 : (valid - l * I < I ? valid - l * I : I);

  T items[I];
  exchange.load_blocked([&](std::size_t i) -> T { return T(load(base + i)); }, valid, items);

  // The thread's own items: an inclusive scan over the first `mine` of them.
  T total = items[0];
  for (std::size_t k = 1; k < I; ++k)
    if (k < mine)
      total = op(total, items[k]);

  // prefix: what comes before the thread's first item (has_prefix false only for the
  // first thread of tile 0 of an inclusive scan). Tile 0 has no look-back: its
  // callback publishes its inclusive prefix and returns init, and an inclusive scan's
  // tile 0 uses the scan within the block alone. One scan call for every tile keeps
  // the barriers out of tile-dependent branches.
  auto prefix_of = [&](const T &aggregate) -> T {
    if (tile == 0) {
      if (warp::lane() == 0)
        state.publish_inclusive(0, Exclusive ? op(init, aggregate) : aggregate);
      return init;
    }
    lookback_prefix<T, Op> lookback{state, tile, op};
    return lookback(aggregate);
  };
  T before;
  T prefix = scan.exclusive_with_prefix(total, op, prefix_of, before);
  const bool has_prefix = Exclusive || tile != 0 || l != 0;
  if (!Exclusive && tile == 0)
    prefix = before;

  T out[I];
  if (Exclusive) {
    T run = prefix;
    for (std::size_t k = 0; k < I; ++k) {
      out[k] = run;
      run = op(run, items[k]);
    }
  } else {
    T run = has_prefix ? op(prefix, items[0]) : items[0];
    out[0] = run;
    for (std::size_t k = 1; k < I; ++k) {
      run = op(run, items[k]);
      out[k] = run;
    }
  }
  exchange.store_blocked(out, valid, [&](std::size_t i, const T &v) { store(base + i, v); });
}

} // namespace agent
} // namespace pacxx

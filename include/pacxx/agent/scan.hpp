// The tile loop of the single-pass scan (device code; CUB's AgentScan). One block per
// tile of P::block * P::items elements, taken in the order blocks start: load the tile
// blocked (each thread its P::items consecutive elements), scan each thread's items,
// scan the threads' totals across the block with the tile's prefix from the decoupled
// look-back (pacxx/block/lookback.hpp), store the tile.
//
// `init` is the exclusive scan's initial value (has_init), which tile 0 folds into
// the prefix it publishes, so every later tile's look-back includes it.
//
// A policy with `ordered` true (policy::scan_for<T, true>: the gpu::deterministic scans)
// takes the look-back whose result does not depend on timing
// (pacxx::ordered_lookback_prefix, P::ordered_windows windows a poll). Everything else in
// a tile is already a fixed order: the thread's items in index order, the block scan's
// fixed tree, tile t always the elements [t * tile_size, (t + 1) * tile_size).
#pragma once
#include <cstddef>
#include <type_traits>

#include "pacxx/block/block_exchange.hpp"
#include "pacxx/block/block_scan.hpp"
#include "pacxx/block/lookback.hpp"

namespace pacxx {
namespace agent {

namespace detail {
// Whether policy P asks for the ordered look-back (P::ordered; false where P has none,
// as reduce_by_key's).
template <class P, class = void> struct ordered_policy : std::false_type {};
template <class P>
struct ordered_policy<P, decltype(void(P::ordered))> : std::integral_constant<bool, P::ordered> {};

// The look-back of a scan tile under policy P.
template <class P, class T, class Op, bool Ordered = ordered_policy<P>::value> struct lookback_for {
  using type = lookback_prefix<T, Op>;
};
template <class P, class T, class Op> struct lookback_for<P, T, Op, true> {
  using type = ordered_lookback_prefix<T, Op, P::ordered_windows>;
};
} // namespace detail

// The block-wide part of a scan over blocked items, for callers that load their tile
// themselves (reduce_by_key computes its items from keys and values it holds): `total`
// is the thread's aggregate of its items of tile `tile`. Returns the value before the
// thread's first item (the tile's prefix from the look-back, init and the threads
// before it folded in); has_prefix is false only for the first thread of tile 0 of an
// inclusive scan, which has nothing before it, and the return value is then undefined.
// Every thread of the block must call it (it has barriers).
template <class P, class T, bool Exclusive, class Op>
__attribute__((always_inline)) inline T scan_tile_prefix(const T &total, std::size_t tile,
                                                         const tile_state<T> &state, Op op, T init,
                                                         bool &has_prefix) {
  block_scan<T, P::block> scan;
  // Tile 0 has no look-back: its callback publishes its inclusive prefix and returns
  // init, and an inclusive scan's tile 0 uses the scan within the block alone. One
  // scan call for every tile keeps the barriers out of tile-dependent branches.
  auto prefix_of = [&](const T &aggregate) -> T {
    if (tile == 0) {
      if (warp::lane() == 0)
        state.publish_inclusive(0, Exclusive ? op(init, aggregate) : aggregate);
      return init;
    }
    typename detail::lookback_for<P, T, Op>::type lookback{state, tile, op, P::lookback_delay_ns};
    return lookback(aggregate);
  };
  T before;
  T prefix = scan.exclusive_with_prefix(total, op, prefix_of, before);
  has_prefix = Exclusive || tile != 0 || Thread::get().local.x != 0;
  if (!Exclusive && tile == 0)
    prefix = before;
  return prefix;
}

// The tile's part of a scan: takes the next tile, loads it through `exchange` and scans
// it with the prefix from the look-back. On return inc[k] is the inclusive scan at the
// thread's item k (prefix and init included), prefix the value before its first item
// (has_prefix as scan_tile_prefix's), and base/valid the tile's first element and
// length.
template <class P, class T, bool Exclusive, class Load, class Op>
__attribute__((always_inline)) inline void
scan_tile_items(Load &&load, std::size_t n, const tile_state<T> &state, Op op, T init,
                block_exchange<T, P::block, P::items> &exchange, T (&inc)[P::items], T &prefix,
                bool &has_prefix, std::size_t &base, std::size_t &valid) {
  constexpr std::size_t I = P::items, tile_size = P::block * I;
  const std::size_t tile = tile_order(state);
  base = tile * tile_size;
  const std::size_t l = Thread::get().local.x;
  valid = n - base < tile_size ? n - base : tile_size;
  const std::size_t mine = valid <= l * I ? 0 : (valid - l * I < I ? valid - l * I : I);

  T items[I];
  exchange.load_blocked([&](std::size_t i) -> T { return T(load(base + i)); }, valid, items);

  // The thread's own items: an inclusive scan over the first `mine` of them.
  T total = items[0];
#pragma unroll
  for (std::size_t k = 1; k < I; ++k)
    if (k < mine)
      total = op(total, items[k]);
  prefix = scan_tile_prefix<P, T, Exclusive>(total, tile, state, op, init, has_prefix);

  // The items again, from the exchange's shared memory: holding 24 of them in registers
  // through the block scan and the look-back took the scan kernel from 64 registers to
  // 72 (ptxas -v, sm_90; 7 blocks per multiprocessor instead of 8, as CUB's scan).
  exchange.reload_blocked(items);
  T run = has_prefix ? op(prefix, items[0]) : items[0];
  inc[0] = run;
#pragma unroll
  for (std::size_t k = 1; k < I; ++k) {
    run = op(run, items[k]);
    inc[k] = run;
  }
}

// One tile of an inclusive or exclusive scan: store(i, out[i]) for the tile's elements,
// coalesced (through `exchange`).
template <class P, class T, bool Exclusive, class Load, class Store, class Op>
__attribute__((always_inline)) inline void scan_tile(Load &&load, Store &&store, std::size_t n,
                                                     const tile_state<T> &state, Op op, T init) {
  constexpr std::size_t I = P::items;
  block_exchange<T, P::block, I> exchange;
  T inc[I], prefix;
  bool has_prefix;
  std::size_t base, valid;
  scan_tile_items<P, T, Exclusive>(load, n, state, op, init, exchange, inc, prefix, has_prefix,
                                   base, valid);
  T out[I];
  if (Exclusive) {
    out[0] = prefix;
#pragma unroll
    for (std::size_t k = 1; k < I; ++k)
      out[k] = inc[k - 1];
  } else {
#pragma unroll
    for (std::size_t k = 0; k < I; ++k)
      out[k] = inc[k];
  }
  // load_blocked ended with a barrier: the exchange's memory is free again.
  exchange.store_blocked(out, valid, [&](std::size_t i, const T &v) { store(base + i, v); });
}

} // namespace agent
} // namespace pacxx

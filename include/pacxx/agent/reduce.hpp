// The tile loop of the reductions (device code; CUB's AgentReduce): gpu::reduce,
// transform_reduce, inner_product, count_if and the index-carrying min_element,
// max_element and minmax_element all run it. Each thread folds its elements of the
// block's tiles into one value, then pacxx::block_reduce folds the block's threads (warp
// shuffles on CUDA, a tree in shared memory where a warp is one thread); the dispatch
// (pacxx/algorithm/reduce.hpp) writes one partial per block and folds those on the host.
//
// Two operations: `fold` adds the thread's next element to its running value, and is
// always called with the earlier elements on the left (a thread visits its elements in
// increasing index order); `op` combines values of any two threads or blocks in any
// order, so it must be associative and commutative. For a plain reduction both are the
// reduction's op; an index-carrying reduction passes a cheaper fold that may assume the
// element on the right has the larger index (ties need no index comparison there).
#pragma once
#include <cstddef>
#include <utility>

#include "pacxx/agent/run_split.hpp"
#include "pacxx/block/block_reduce.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {
namespace agent {

namespace detail {
template <class Fold, class T> inline T fold_values(Fold &, T a) { return a; }
template <class Fold, class T, class... R> inline T fold_values(Fold &fold, T a, T b, R... rest) {
  return fold_values(fold, fold(a, b), rest...);
}
// sum fold load(first + K * stride)...: every load is an argument of the fold, so all of
// a thread's loads of a tile are in flight before the first fold waits for one.
template <class Load, class Fold, class T, std::size_t... K>
inline T fold_loads(Load &load, Fold &fold, T sum, std::size_t first, std::size_t stride,
                    std::index_sequence<K...>) {
  return fold_values(fold, sum, load(first + K * stride)...);
}
// sum fold load(first + k * stride) for k < count, as a loop: on targets where a warp
// is one work-item (PoCL on the CPU vectorises across work-items, not through
// independent loads of one), the unrolled packs above copy the element function into
// the kernel 3 * items + 1 times before the optimiser sees it, and PoCL's kernel
// compiler is superlinear in that: a transform_reduce whose function has two loops
// took 22-62 s of PoCL compile time (2 cores, issue 34), the same code as transform then
// reduce 2 s. A loop keeps one copy; the optimiser still unrolls it where the body is
// small (a plain load), as its cost model decides.
template <class Load, class Fold, class T>
inline T fold_loop(Load &load, Fold &fold, T sum, std::size_t first, std::size_t stride,
                   std::size_t count) {
  for (std::size_t k = 0; k < count; ++k)
    sum = fold(sum, load(first + k * stride));
  return sum;
}
} // namespace detail

// The block's fold of load(i) for its elements of [0, n), valid in thread 0. Every thread
// of the block must call it (block_reduce has barriers). load(i) returns a T.
//
// Block b takes the full tiles (P::block * P::items elements) b, b + blocks, ...:
// `rounds` of them at least, one more if b < tiles % blocks; the block after the last
// full tile's takes the partial tile. `rounds` must be n / (tile * blocks); the kernel
// computes it with pacxx::stage (Listing 9 of the paper), so the JIT sees a constant trip
// count. The grid must not exceed the tiles (every block then has values).
//
// Blocked: on the GPU path, a thread's elements of a full tile are consecutive (l *
// items, ..., l * items + items - 1) instead of B apart; for views computed from their
// index, whose neighbours share work (pacxx/detail/blocked.hpp). Partial tiles stay
// striped. Where a warp is one lane, blocks and threads take contiguous runs instead of
// tiles (below).
template <class P, class T, bool Blocked = false, class Load, class Fold, class Op>
__attribute__((always_inline)) inline T reduce_tiles(Load &&load, Fold fold, Op op, std::size_t n,
                                                     std::size_t rounds) {
  constexpr std::size_t B = P::block, tile = P::block * P::items;
  static_assert((B & (B - 1)) == 0, "reduce block size must be a power of two");
  block_reduce<T, B> block;
  const std::size_t l = Thread::get().local.x, b = Block::get().index.x;
  const std::size_t blocks = Grid::get().size.x, tiles = n / tile;
  const bool full = b < tiles;
  const bool one_lane = warp::size() == 1; // a constant in the JIT: one path remains
  // One lane a warp (PoCL on the CPU): block b takes the b-th of `blocks` contiguous runs
  // of [0, n) (each at least one element: the grid does not exceed the tiles) and each
  // thread a contiguous run of its block's, so a work-item streams through memory.
  // Striped tiles (the GPU path below) made each work-item read one element of every B,
  // and PoCL runs a work-group's work-items one after the other, each through all of its
  // tiles: every cache line came from memory up to 16 times once a block's tiles
  // outgrew the cache. At 2^24 ints (PoCL, 2 cores, 2026-12-07), striped: the H100
  // policy (528 blocks of 256 x 8) 11.6 ms, 8 blocks of 32 x 64 25 ms; in runs: 3.8 and
  // 1.9 ms (at 2^20: 1.4 ms and 0.15).
  const run_split run(n, blocks, b, B, l); // (used where one_lane)
  // A thread's first element starts its sum (op has no identity); a thread with no
  // element loads element 0 and never publishes it.
  const bool blocked = Blocked && !one_lane;
  // Where a thread's elements of a full tile start, and the step between them.
  const std::size_t own = blocked ? l * P::items : l, step = blocked ? 1 : B;
  const std::size_t start = one_lane ? run.first : full ? b * tile + own : tiles * tile + l;
  const bool have = one_lane ? run.count > 0 : full || start < n;
  T sum = load(have ? start : 0);
  std::size_t t = b;
  if (one_lane) {
    if (run.count > 1)
      sum = detail::fold_loop(load, fold, sum, start + 1, 1, run.count - 1);
  } else if (full) {
    sum = detail::fold_loads(load, fold, sum, start + step, step,
                             std::make_index_sequence<P::items - 1>{});
    t += blocks;
    for (std::size_t r = 1; r < rounds; ++r, t += blocks)
      sum = detail::fold_loads(load, fold, sum, t * tile + own, step,
                               std::make_index_sequence<P::items>{});
    if (t < tiles) {
      sum = detail::fold_loads(load, fold, sum, t * tile + own, step,
                               std::make_index_sequence<P::items>{});
      t += blocks;
    }
  }
  if (!one_lane && t == tiles) { // the partial tile at the end, bounds checked
    for (std::size_t k = full ? 0 : 1; k < P::items; ++k) {
      const std::size_t i = t * tile + k * B + l;
      if (i < n)
        sum = fold(sum, load(i));
    }
  }
  // The threads that have a value are a prefix of the block: all of it with a full
  // tile, else those below the partial tile's length (one lane: those with elements).
  // Outside any branch: block_reduce has barriers (PoCL needs them where every
  // work-item of the group passes).
  const std::size_t rest = n - tiles * tile;
  const std::size_t valid = one_lane    ? (run.block < B ? run.block : B)
                            : b < tiles ? B
                                        : (rest < B ? rest : B);
  return block.reduce(sum, op, valid);
}

} // namespace agent
} // namespace pacxx

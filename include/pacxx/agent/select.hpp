// The tile loop of the single-pass compaction (device code; CUB's AgentSelectIf). One
// block per tile of P::block * P::items elements, taken in the order blocks start
// (pacxx::tile_order): each thread loads its P::items consecutive elements and their
// selection flags (select_tile; select_tile_values loads the values a warp's
// consecutive elements at a time, then tests them), the block scans the threads'
// counts with the tile's output offset from the decoupled look-back
// (pacxx/block/lookback.hpp), the selected items are staged in shared memory in output
// order and stored from there, a block-width apart (coalesced). With Partition the
// rejected items follow the selected ones in the stage and go to their own output, also
// in order (a stable partition).
//
// In place (the output is the input): a tile writes only below the end of its own
// input (its output offset never exceeds its input offset), and it writes only after
// the look-back has seen every earlier tile's aggregate, which each tile publishes only
// after all its threads have loaded their elements. Later tiles' inputs lie above
// everything this tile writes. So no tile overwrites input that another tile has not
// read yet, and no scratch copy is needed. (A selector that also reads element i - 1,
// as unique does, reads the element before its tile: positions below a tile are written
// only by earlier tiles, and that position is written only when every element before
// the tile was selected, that is with the value it already holds.)
#pragma once
#include <cstddef>
#include <functional>

#include "pacxx/block/block_exchange.hpp"
#include "pacxx/block/block_scan.hpp"
#include "pacxx/block/lookback.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {
namespace agent {

namespace detail {

// The tile's compaction once its items are loaded: selected[k] says whether item k
// (tile element l * I + k) is kept. The block scans the threads' counts with the tile's
// offset from the look-back, stages the kept items (and for Partition the rejected ones)
// in output order in `stage` (B * I elements of shared memory) and stores them from
// there, a block-width apart. The input's last tile writes the number selected in all
// to *selected_total.
template <class P, class U, bool Partition, class C, class Store, class Rejected>
__attribute__((always_inline)) inline void
select_scatter(const U (&items)[P::items], const bool (&selected)[P::items], U *stage, Store &store,
               Rejected &rejected, std::size_t tile, std::size_t base, std::size_t valid,
               std::size_t n, const tile_state<C> &state, C *selected_total) {
  constexpr std::size_t B = P::block, I = P::items;
  block_scan<C, B> scan;
  shared_memory<C, 2> bounds;
  const std::size_t l = Thread::get().local.x;
  C count = 0;
#pragma unroll
  for (std::size_t k = 0; k < I; ++k)
    count += selected[k] ? 1 : 0;

  // The thread's output offset: the tile's prefix (look-back; tile 0 has none and
  // publishes its count at once) plus the counts of the threads before it. One scan
  // call for every tile keeps the barriers out of tile-dependent branches.
  auto prefix_of = [&](const C &aggregate) -> C {
    if (tile == 0) {
      if (warp::lane() == 0)
        state.publish_inclusive(0, aggregate);
      return C(0);
    }
    lookback_prefix<C, std::plus<C>> lookback{state, tile, std::plus<C>{}, P::lookback_delay_ns};
    return lookback(aggregate);
  };
  C before;
  const C offset = scan.exclusive_with_prefix(count, std::plus<C>{}, prefix_of, before);
  if (l == 0)
    bounds[0] = offset;
  if (l == B - 1)
    bounds[1] = offset + count;
  barrier();
  const C prefix = bounds[0], total = bounds[1] - prefix;
  if (l == 0 && base + valid == n)
    *selected_total = prefix + total;

  // Stage in output order: the selected items at [0, total), then (Partition) the
  // rejected ones at [total, valid).
  C mine = offset - prefix, other = total + l * I - mine;
  // Every loop over the items is unrolled by pragma: LLVM left this one rolled for the
  // partition's 17 items, which put items and flags in local memory (ncu, H100,
  // 2026-11-28: partition_copy of 2^26 floats moved 687 MB in 429 us, CUB 518 MB in 253).
#pragma unroll
  for (std::size_t k = 0; k < I; ++k) {
    if (selected[k])
      stage[mine++] = items[k];
    else if (Partition && l * I + k < valid)
      stage[other++] = items[k];
  }
  barrier();
  const std::size_t end = Partition ? valid : total;
#pragma unroll
  for (std::size_t k = 0; k < I; ++k) {
    const std::size_t i = k * B + l;
    if (i < end) {
      if (!Partition || i < total)
        store(prefix + i, stage[i]);
      else
        rejected(base - prefix + (i - total), stage[i]);
    }
  }
}

} // namespace detail

// C is the type of output offsets and counts: unsigned where fewer than 2^32 elements
// are selected (the tile state then packs a tile's count with its status in one word),
// else unsigned long long.
//
// load(i, U &v) -> bool: whether element i is selected; sets v to its value where it is
// (and, for Partition, everywhere). store(j, v): the selected element of rank j;
// rejected(j, v): the rejected element of rank j (Partition only). The input's last
// tile writes the number selected to *selected_total (for the host: one word, which may
// be pinned host memory, pacxx/algorithm/detail/readback.hpp).
template <class P, class U, bool Partition, class C, class Load, class Store, class Rejected>
__attribute__((always_inline)) inline void
select_tile(Load &&load, Store &&store, Rejected &&rejected, std::size_t n,
            const tile_state<C> &state, C *selected_total) {
  constexpr std::size_t B = P::block, I = P::items, tile_size = B * I;
  shared_memory<U, tile_size> stage;
  const std::size_t tile = tile_order(state), base = tile * tile_size;
  const std::size_t l = Thread::get().local.x;
  const std::size_t valid = n - base < tile_size ? n - base : tile_size;
  const std::size_t first = base + l * I;

  U items[I];
  bool selected[I];
  if (valid == tile_size) { // a full tile: no bounds checks
#pragma unroll
    for (std::size_t k = 0; k < I; ++k)
      selected[k] = load(first + k, items[k]);
  } else {
#pragma unroll
    for (std::size_t k = 0; k < I; ++k)
      selected[k] = l * I + k < valid && load(first + k, items[k]);
  }
  detail::select_scatter<P, U, Partition>(items, selected, stage.data(), store, rejected, tile,
                                          base, valid, n, state, selected_total);
}

// select_tile for a selection that depends on each element's value alone: value(i) ->
// U loads element i, test(v) -> bool selects it. The values are loaded a warp's
// consecutive elements at a time and turned into the blocked order in shared memory
// (block_exchange, CUB's BLOCK_LOAD_WARP_TRANSPOSE), whose memory then holds the stage.
// Loading each thread's consecutive elements directly made every load of a warp touch
// 17 lines, which L1 then served (ncu, H100, copy_if of 2^24 floats at 384 x 17: L1 hit
// rate 84 % against CUB's 15 %, DRAM throughput 47 % against 55 %).
template <class P, class U, bool Partition, class C, class Value, class Test, class Store,
          class Rejected>
__attribute__((always_inline)) inline void
select_tile_values(Value &&value, Test &&test, Store &&store, Rejected &&rejected, std::size_t n,
                   const tile_state<C> &state, C *selected_total) {
  constexpr std::size_t B = P::block, I = P::items, tile_size = B * I;
  block_exchange<U, B, I> exchange;
  const std::size_t tile = tile_order(state), base = tile * tile_size;
  const std::size_t l = Thread::get().local.x;
  const std::size_t valid = n - base < tile_size ? n - base : tile_size;

  U items[I];
  bool selected[I];
  exchange.load_blocked([&](std::size_t i) -> U { return value(base + i); }, valid, items);
#pragma unroll
  for (std::size_t k = 0; k < I; ++k)
    selected[k] = l * I + k < valid && bool(test(static_cast<const U &>(items[k])));
  // The stage reuses the exchange's memory: select_scatter writes it only after its
  // block scan's barriers, when every warp has read its items.
  detail::select_scatter<P, U, Partition>(items, selected, exchange.data(), store, rejected, tile,
                                          base, valid, n, state, selected_total);
}

} // namespace agent
} // namespace pacxx

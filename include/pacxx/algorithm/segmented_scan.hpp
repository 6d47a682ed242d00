// gpu::segmented_inclusive_scan([gpu::deterministic,] values, offsets, out[, op]) and
// gpu::segmented_exclusive_scan([gpu::deterministic,] values, offsets, out, init[, op]):
// a prefix scan of each
// segment of a CSR layout (offsets.size() = segments + 1, non-decreasing,
// offsets.back() <= values.size()), restarting at every segment, as CUB's
// DeviceSegmentedScan / a scan_by_key over segment ids:
//   inclusive: out[i] = values[offsets[s]] op ... op values[i]
//   exclusive: out[i] = init op values[offsets[s]] op ... op values[i - 1]
// for offsets[s] <= i < offsets[s + 1]. Elements outside every segment (before
// offsets[0], from offsets.back() on) are not written. op must be associative (it need
// not be commutative; default std::plus<>). The accumulator is std's: the values' type
// for the inclusive scan, init's for the exclusive one. values is any device range
// (views fused into the loads), offsets any device range of integers, out a gpu::vector
// or a writable view over one with at least values.size() elements (fused into the
// stores); out may be values.
//
// One single-pass scan (pacxx/agent/scan.hpp, decoupled look-back; with gpu::deterministic
// the ordered one, the same bits on every run) over (value, head flag) pairs with the
// segmented operator of gpu::inclusive_scan_by_key, whatever the segments' lengths. Two
// launches and a read back of 8 bytes after both, with no wait between them:
//   1. One small kernel clears the look-back's tile states and checks the offsets (a bad
//      one sets a word of ones_scratch to its index by atomic_min: segmented_reduce's
//      check and word, all ones between calls, so no fill before it).
//   2. The scan (segmented_scan_tile). Each tile makes its own head flags: warps 0 and 1
//      search the offsets for the tile's first offset and the next tile's (a 33-ary
//      search, 4 rounds for a million segments), the block's threads mark the offsets
//      between as bytes of shared memory (many empty segments at one position spread
//      over the threads), and each thread reads its items' flags as one bit mask. Only
//      the values (T, not pairs) pass through the tile's exchange, with scan_for<T>'s
//      tile (24 items for 4-byte values); pairs only in the block scan and the look-back,
//      one a thread. Every thread reads the check's word once; with a bad offset the
//      tiles compute on clamped offsets (every read stays inside values and offsets) and
//      store nothing, and the first thread copies the word for the host, which throws a
//      pacxx::error naming the call (out unchanged) and sets the word to all ones again.
// Why: the first version set a head bit per value in global memory in the check's launch
// (a clear of n / 32 words before it), read the check's result back between the launches,
// and scanned (value, head) pairs through the exchange. ncu on an H200 (base clocks, 2^26
// floats, segments of 100): clear 8 us, check 8.5 us plus a host round trip, scan 370 us
// at 48 registers, L1 throughput 91% and 150M instructions (8-byte pairs through shared
// memory, 12 items a thread, the bitmap word read per element), where CUB's
// InclusiveSumByKey took 280 us, 64M instructions, L1 46%; per call 45.7 against 20.0 us at
// 2^20, 334 against 283 us at 2^26. A warp or a block per segment, as segmented_reduce
// does, ran at 0.08x CUB's InclusiveSumByKey with segments of 100000 at 2^20 (ten blocks
// for the whole GPU) and 0.48-0.57x with segments of 100-1000 (H100, 2026-11-27).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/agent/scan.hpp"
#include "pacxx/algorithm/detail/readback.hpp"
#include "pacxx/algorithm/deterministic.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/algorithm/scan_by_key.hpp"
#include "pacxx/algorithm/segmented_reduce.hpp"
#include "pacxx/block/block_exchange.hpp"
#include "pacxx/block/lookback.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {

// The first s of [lo, hi) with offset(s) >= x, or hi (device code that a whole warp
// calls with the same arguments; offset(s) clamped as offset_at). The (warp size + 1)-ary
// search of find_segment: each lane probes one of W evenly spaced points and a ballot
// counts the probes below x, so a million offsets take 4 rounds of one load each (a
// binary search where a warp is one work-item). With bad (decreasing) offsets the answer
// is some s in [lo, hi] and the loop still ends: the range shrinks every round.
template <class Offset>
inline std::size_t first_offset_at_least(Offset &offset, std::size_t lo, std::size_t hi,
                                         std::size_t x) {
  const std::size_t W = pacxx::warp::size(), lane = pacxx::warp::lane();
  while (lo < hi) {
    const std::size_t step = (hi - lo + W) / (W + 1); // ceil((hi - lo) / (W + 1)) >= 1
    const std::size_t p = lo + (lane + 1) * step - 1;
    const bool below = p < hi && offset(p) < x;
    const std::size_t c = static_cast<std::size_t>(__builtin_popcount(pacxx::warp::ballot(below)));
    const std::size_t next = lo + c * step;
    if (c < W) // probe c (if inside) was at least x: the answer is at most it
      hi = next + step - 1 < hi ? next + step - 1 : hi;
    lo = next;
  }
  return lo;
}

// One tile of the segmented scan (device code; every thread of the block calls it): the
// single-pass scan of pacxx/agent/scan.hpp (tile_order, the values loaded blocked through
// a block_exchange of T, scan_tile_prefix's block scan and look-back) over (value, head)
// pairs under the segmented operator, with the head flags made from the offsets in the
// tile itself. load(i) is value i, offset(s) offset s clamped to [0, n] (s < offsets, the
// number of offsets: segments + 1), store(i, x) writes element i's result (the caller
// predicates it). good: whether the offsets' check passed; where not, the tile marks no
// heads (the search and the marks stay bounded, every read inside the ranges) and the
// caller stores nothing.
//
// Heads: warps 0 and 1 search the offsets for the tile's first offset at or after its
// start and the first at or after its end (first_offset_at_least, in parallel), and the
// block's threads then mark every offset between as a byte in shared memory, offset
// s_lo + l, s_lo + l + block, ... by thread l (many empty segments at one position are
// spread over the block, never one thread's loop); element 0 is always a head. Each
// thread reads the bytes of its own items as words into a bit mask. Marking every offset
// (also empty segments' and the last one) gives the same stores as marking only starts
// of non-empty segments: an empty segment's offset is the next segment's start or the
// end, after which nothing is written.
//
// Exclusive: a head carries init op value, so that the segmented inclusive scan gives
// init op values[s] op ... op values[i], and element i is stored as init at a head and
// the inclusive value of i - 1 elsewhere (scan_flagged_tile's scheme). The second pass
// reads the values again from the exchange's shared memory, never from values (which
// out may alias).
template <class P, class T, bool Exclusive, class Load, class Offset, class Store, class Op>
__attribute__((always_inline)) inline void
segmented_scan_tile(Load &&load, Offset &&offset, Store &&store, std::size_t n, std::size_t offsets,
                    bool good, const pacxx::tile_state<flagged<T>> &state, T init, Op op) {
  using F = flagged<T>;
  constexpr std::size_t B = P::block, I = P::items, tile_size = B * I;
  static_assert(I <= 32, "segmented scans: a thread's head flags must fit one word");
  constexpr std::size_t flag_words = (tile_size + 3) / 4, zero_rounds = (flag_words + B - 1) / B;
  const std::size_t tile = pacxx::tile_order(state), base = tile * tile_size;
  const unsigned l = unsigned(pacxx::Thread::get().local.x);
  const std::size_t valid = n - base < tile_size ? n - base : tile_size;
  const std::size_t mine = valid <= l * I ? 0 : (valid - l * I < I ? valid - l * I : I);

  pacxx::shared_memory<unsigned, flag_words> flags; // a byte per element of the tile
  pacxx::shared_memory<std::size_t, 2> bounds;      // the marked offsets: [bounds[0], bounds[1])
#pragma unroll
  for (std::size_t k = 0; k < zero_rounds; ++k)
    if (l + k * B < flag_words)
      flags[l + k * B] = 0;
  const std::size_t W = pacxx::warp::size(), warp_index = l / W;
  if (warp_index < 2) { // warp 0: the tile's first offset, warp 1: the next tile's
    const std::size_t s =
        good ? first_offset_at_least(offset, 0, offsets, base + warp_index * tile_size) : 0;
    if (pacxx::warp::lane() == 0)
      bounds[warp_index] = s;
  }

  pacxx::block_exchange<T, B, I> exchange;
  T items[I];
  exchange.load_blocked([&](std::size_t i) -> T { return T(load(base + i)); }, valid, items);
  pacxx::barrier(); // the flags zeroed, the bounds found
  unsigned char *bytes = reinterpret_cast<unsigned char *>(flags.data());
  const std::size_t s_hi = bounds[1];
  for (std::size_t s = bounds[0] + l; s < s_hi; s += B) {
    const std::size_t o = offset(s);
    if (o >= base && o - base < tile_size)
      bytes[o - base] = 1;
  }
  if (base == 0 && l == 0)
    bytes[0] = 1;
  pacxx::barrier(); // the flags marked
  // Bit k: a segment starts at the thread's item k. Four flags a word where I allows
  // (the multiply gathers a word's four 0/1 bytes into its bits 24..27).
  unsigned mask = 0;
  if (I % 4 == 0) {
#pragma unroll
    for (unsigned j = 0; j < I / 4; ++j) {
      const unsigned w = flags[l * (I / 4) + j] & 0x01010101u;
      mask |= ((w * 0x01020408u) >> 24 & 0xfu) << (4 * j);
    }
  } else {
#pragma unroll
    for (unsigned k = 0; k < I; ++k)
      mask |= unsigned(bytes[l * I + k] != 0) << k;
  }

  // The thread's aggregate: the fold of its items from its last head on.
  auto carried = [&](const T &v, bool h) -> T { return Exclusive && h ? T(op(init, v)) : v; };
  T acc = carried(items[0], (mask & 1u) != 0);
#pragma unroll
  for (unsigned k = 1; k < I; ++k)
    if (k < mine) {
      const bool h = (mask >> k & 1u) != 0;
      const T x = carried(items[k], h);
      acc = h ? x : T(op(acc, x));
    }
  const unsigned valid_mask = mine >= 32 ? ~0u : (1u << mine) - 1u;
  bool has_prefix;
  const F prefix = pacxx::agent::scan_tile_prefix<P, F, Exclusive>(
      F{acc, (mask & valid_mask) != 0 ? 1u : 0u}, tile, state, segmented<Op>{op}, F{init, 0u},
      has_prefix);

  // The items again, one at a time from the exchange's shared memory (as
  // scan_tile_items: fewer registers through the block scan and the look-back), and each
  // result written back over its item as soon as it is made (store_blocked_from): with
  // arrays of items and results the exclusive scan held 79 registers (ptxas -v, sm_90).
  T run = prefix.value;
  exchange.store_blocked_from(
      [&](unsigned k) -> T {
        const T v = exchange.item(k);
        const bool h = (mask >> k & 1u) != 0;
        const T x = carried(v, h);
        const T inc = h || (k == 0 && !has_prefix) ? x : T(op(run, x));
        const T r = Exclusive ? (h ? init : run) : inc;
        run = inc;
        return r;
      },
      valid, [&](std::size_t i, const T &v) { store(base + i, v); });
}

// The scan of values[0, n) restarting at every offset (segmented_scan_tile), stores only
// for offsets[0] <= i < offsets[segments] and only where the offsets' check (*bad, all
// ones where every offset is good) passed; the first thread copies *bad to seen for the
// host. Elements outside every segment are scanned (those before offsets[0] as a run of
// their own) but not written.
template <class P, class T, bool Exclusive, class V, class O, class R, class Op>
void scan_segments(const V &values, const O &offsets, const R &out, std::size_t segments,
                   std::size_t n, const pacxx::tile_state<flagged<T>> &state,
                   const unsigned long long *bad, unsigned long long *seen, T init, Op op) {
  using F = flagged<T>;
  using U = unsigned long long;
  pacxx::kernel(
      [init, op](const auto &values_view, const auto &offsets_view, const auto &out_view,
                 std::size_t segments, std::size_t n, const pacxx::tile_state<F> &s, const U *bad,
                 U *seen) {
        auto v = values_view;
        auto o = offsets_view;
        auto r = out_view;
        const auto value = ranges::begin(v);
        const auto off = ranges::begin(o);
        const auto result = ranges::begin(r);
        using DV = ranges::range_difference_t<decltype(v)>;
        using DR = ranges::range_difference_t<decltype(r)>;
        // The check's word, read once: no thread returns early (the tile has barriers);
        // with a bad offset every tile computes on clamped offsets and stores nothing.
        const U found = *bad;
        if (pacxx::Block::get().index.x == 0 && pacxx::Thread::get().local.x == 0)
          *seen = found;
        const bool good = found == ~0ull;
        const std::size_t first = offset_at(off, 0, n), last = offset_at(off, segments, n);
        auto offset = [&](std::size_t i) { return offset_at(off, i, n); };
        segmented_scan_tile<P, T, Exclusive>(
            [&](std::size_t i) { return T(*(value + static_cast<DV>(i))); }, offset,
            [&](std::size_t i, const T &x) {
              if (good && i >= first && i < last)
                *(result + static_cast<DR>(i)) = x;
            },
            n, segments + 1, good, s, init, op);
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(n, P::block * P::items)}, {P::block}})(
      values, offsets, out, segments, n, state, bad, seen);
}

// The launch before the scan: zeroes `count` words from `words` (the look-back's tile
// counter and states) and checks the offsets (check_offsets: the first bad index to *bad
// by atomic_min), a thread an entry, in one launch.
template <class O>
void clear_and_check(const O &offsets, std::size_t segments, std::size_t n, unsigned *words,
                     std::size_t count, unsigned long long *bad) {
  using U = unsigned long long;
  pacxx::kernel(
      [](const auto &offsets_view, std::size_t segments, std::size_t n, unsigned *words,
         std::size_t count, U *bad) {
        auto o = offsets_view;
        const std::size_t i = pacxx::Thread::get().global.x,
                          threads = pacxx::Grid::get().size.x * pacxx::Block::get().size.x;
        for (std::size_t j = i; j < count; j += threads)
          words[j] = 0;
        check_offsets(ranges::begin(o), segments, n, bad, i, threads);
      },
      pacxx::detail::grid_for(count > segments + 1 ? count : segments + 1, 256, 4096))(
      offsets, segments, n, words, count, bad);
}

template <class T, bool Exclusive, bool Ordered, class Values, class Offsets, class Out, class Op>
void segmented_scan(const char *name, Values &&values, Offsets &&offsets, Out &&out, T init,
                    Op op) {
  static_assert(pacxx::is_device_copyable<Op>::value,
                "gpu::segmented scans: the operation must be trivially copyable (capture "
                "values and device pointers only)");
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu::segmented scans: the accumulator must be device copyable");
  auto in = pacxx::detail::device_view(std::forward<Values>(values));
  auto off = pacxx::detail::device_view(std::forward<Offsets>(offsets));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  static_assert(std::is_integral<ranges::range_value_t<decltype(off)>>::value,
                "gpu::segmented scans: offsets must be integers");
  const std::size_t n = pacxx::detail::device_size(in), out_size = pacxx::detail::device_size(dst);
  if (out_size < n)
    throw pacxx::error(std::string(name) + ": the output has " + std::to_string(out_size) +
                       " elements, the values " + std::to_string(n));
  const std::size_t m = pacxx::detail::device_size(off);
  if (m < 2 || n == 0) { // nothing to write: the check alone (and its errors)
    checked_segments(name, off, n);
    return;
  }
  const std::size_t segments = m - 1;
  using F = flagged<T>;
  using P = pacxx::policy::segmented_scan<T, Ordered>;
  using U = unsigned long long;
  const std::size_t tiles = pacxx::detail::ceil_div(n, P::block * P::items);
  if (tiles > 0xffffffffu)
    throw pacxx::error(std::string(name) + ": " + std::to_string(n) +
                       " elements are more tiles than a scan counts");
  // One scratch block (scratch() hands every call the same buffer): the look-back's tile
  // states, then the word the host reads where kernels cannot write host memory.
  const std::size_t state_bytes = (pacxx::tile_state<F>::bytes(tiles) + 15) / 16 * 16;
  char *memory = static_cast<char *>(pacxx::detail::scratch(state_bytes + 16));
  const auto state = pacxx::tile_state<F>::at(memory, tiles);
  U *bad = bad_offset_word(); // the check's word, segmented_reduce's: all ones between calls
  const readback_memory<U> seen(1, memory + state_bytes);
  clear_and_check(off, segments, n, state.counter, pacxx::tile_state<F>::clear_words(tiles), bad);
  scan_segments<P, T, Exclusive>(in, off, dst, segments, n, state, bad, seen.kernel, init, op);
  const readback<U> found(seen);
  if (found[0] != ~0ull) {
    pacxx::detail::fill_on_device(bad, 0xff, sizeof(U)); // all ones again for the next call
    throw bad_offset_error(name, found[0], n);
  }
}

} // namespace detail

// out[i] = values[offsets[s]] op ... op values[i] for offsets[s] <= i < offsets[s + 1]: an
// inclusive scan restarting at every CSR segment; elements outside every segment are not
// written. Two launches (the clear of the look-back's states with the offsets' check, the
// scan) and 8 bytes read back after them. A bad offset, or an output with fewer than
// size(values) elements, is a pacxx::error, out unchanged. op associative.
// As gpu::inclusive_scan_by_key, a floating-point segment may differ in its last bits
// from run to run from its 4th tile on; with gpu::deterministic first, never.
template <class Values, class Offsets, class Out, class Op = std::plus<>,
          class = typename std::enable_if<!detail::is_deterministic_tag<Values>::value>::type>
void segmented_inclusive_scan(Values &&values, Offsets &&offsets, Out &&out, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::segmented_inclusive_scan", values);
  using T = ranges::range_value_t<decltype(pacxx::detail::device_view(std::declval<Values>()))>;
  detail::segmented_scan<T, false, false>(
      "gpu::segmented_inclusive_scan", std::forward<Values>(values), std::forward<Offsets>(offsets),
      std::forward<Out>(out), T(), op);
}

// out[i] = init op values[offsets[s]] op ... op values[i - 1] for offsets[s] <= i <
// offsets[s + 1]: the exclusive form of gpu::segmented_inclusive_scan, with the same
// launches and errors.
template <class Values, class Offsets, class Out, class T, class Op = std::plus<>,
          class = typename std::enable_if<!detail::is_deterministic_tag<Values>::value>::type>
void segmented_exclusive_scan(Values &&values, Offsets &&offsets, Out &&out, T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::segmented_exclusive_scan", values);
  detail::segmented_scan<T, true, false>(
      "gpu::segmented_exclusive_scan", std::forward<Values>(values), std::forward<Offsets>(offsets),
      std::forward<Out>(out), init, op);
}

// The same, deterministic: the same bits on every run (the ordered look-back of
// gpu::inclusive_scan(gpu::deterministic, ...)).
template <class Values, class Offsets, class Out, class Op = std::plus<>>
void segmented_inclusive_scan(deterministic_t, Values &&values, Offsets &&offsets, Out &&out,
                              Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::segmented_inclusive_scan", values);
  using T = ranges::range_value_t<decltype(pacxx::detail::device_view(std::declval<Values>()))>;
  detail::segmented_scan<T, false, true>(
      "gpu::segmented_inclusive_scan", std::forward<Values>(values), std::forward<Offsets>(offsets),
      std::forward<Out>(out), T(), op);
}
// The exclusive segmented scan, deterministic: the same bits on every run.
template <class Values, class Offsets, class Out, class T, class Op = std::plus<>>
void segmented_exclusive_scan(deterministic_t, Values &&values, Offsets &&offsets, Out &&out,
                              T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::segmented_exclusive_scan", values);
  detail::segmented_scan<T, true, true>(
      "gpu::segmented_exclusive_scan", std::forward<Values>(values), std::forward<Offsets>(offsets),
      std::forward<Out>(out), init, op);
}

} // namespace gpu

// gpu::segmented_reduce(values, offsets, out, init[, op]): for each segment s of a CSR
// layout (offsets.size() = segments + 1, non-decreasing, offsets.back() <= values.size()),
//   out[s] = init op values[offsets[s]] op ... op values[offsets[s + 1] - 1]
// (init alone for an empty segment), as CUB's DeviceSegmentedReduce::Reduce and
// Accelerate's foldSeg. op must be associative and commutative (default std::plus<>);
// values is any device range (views fused into the loads), offsets any device range of
// integers, out a gpu::vector or a writable view over one with at least `segments`
// elements.
//
// Two launches and a read back of 8 bytes, with no wait between the launches:
//   1. The fold, which also checks the offsets (a decreasing pair, a negative offset or
//      one past the end of values sets a word to the first bad index; reads clamp the
//      offsets, so bad ones are safe). Its shape follows the mean segment length
//      (pacxx::policy::segmented_reduce): short segments get a warp each (a work-item
//      each where a warp is one, on OpenCL), the lanes striding over the segment, so a
//      block reduces many segments at once; from split_min_mean on, blocks take fixed
//      tiles of the elements instead, several loads in flight a thread, so a long segment
//      is spread over many blocks (one block a segment, as CUB does, leaves most of the
//      GPU idle when there are fewer segments than multiprocessors) and a tile's short
//      segments are folded one after another. Either way the folds go to scratch.
//   2. A thread a segment (a warp a segment where there are few, after tiles) writes
//      init op its parts into out in a fixed order, unless the check found a bad
//      offset; then the host throws a pacxx::error naming it, and out is unchanged.
// The first version checked the offsets in a launch of its own and read the result back
// before the fold, so a call paid a host round trip between its launches, and a fill of
// the check's word before them (here a word of ones_scratch, all ones between calls).
// For the same input and device the result is the same to the bit: the grids and the
// order of every fold follow from the sizes alone (no atomics on values).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/iterator/traits.hpp>
#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/algorithm/reduce.hpp"
#include "pacxx/atomic.hpp"
#include "pacxx/block/block_reduce.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {

// Whether offsets[i] of [0, segments] is good (see the header; device code): within
// [0, n] and, below the last, at most the next.
template <class It>
inline bool offset_ok(It first, std::size_t i, std::size_t segments, std::size_t n) {
  using D = ranges::iter_difference_t<It>;
  const long long a = static_cast<long long>(*(first + static_cast<D>(i)));
  bool ok = a >= 0 && static_cast<unsigned long long>(a) <= n;
  if (i < segments)
    ok = ok && a <= static_cast<long long>(*(first + static_cast<D>(i + 1)));
  return ok;
}

// The index of the first bad offset of [0, segments] (see the header), or ~0 where
// all are good. One launch and a read back of 8 bytes. With `heads` (a zeroed bit per
// value), the same launch also sets the bit of the first element of every non-empty
// segment (the segmented scans' head flags). `bad_at`: 8 bytes of device memory for
// the result, where the caller holds the scratch memory (scratch() hands every call the
// same buffer); else scratch.
template <class O>
unsigned long long first_bad_offset(const O &offsets, std::size_t segments, std::size_t n,
                                    unsigned *heads = nullptr,
                                    unsigned long long *bad_at = nullptr) {
  using U = unsigned long long;
  U *bad = bad_at ? bad_at : static_cast<U *>(pacxx::detail::scratch(sizeof(U)));
  pacxx::detail::fill_on_device(bad, 0xff, sizeof(U));
  using P = pacxx::policy::elementwise;
  pacxx::kernel(
      [](const auto &offsets_view, std::size_t segments, std::size_t n, U *bad, unsigned *heads) {
        auto o = offsets_view;
        auto first = ranges::begin(o);
        using D = ranges::range_difference_t<decltype(o)>;
        pacxx::detail::for_each_index<P>(segments + 1, [&](std::size_t i) {
          const bool ok = offset_ok(first, i, segments, n);
          if (heads && ok && i < segments) {
            const long long a = static_cast<long long>(*(first + static_cast<D>(i)));
            const long long b = static_cast<long long>(*(first + static_cast<D>(i + 1)));
            // A non-empty segment's start; starts of non-empty segments are distinct,
            // so adding the bit is or-ing it.
            if (a < b && static_cast<unsigned long long>(b) <= n)
              pacxx::atomic_add(heads + (a >> 5), 1u << (a & 31));
          }
          if (!ok)
            pacxx::atomic_min(bad, U(i));
        });
      },
      pacxx::detail::elementwise_grid<P>(segments + 1))(offsets, segments, n, bad, heads);
  U result;
  pacxx::detail::copy_to_host(&result, bad, sizeof(U));
  return result;
}

// The device word in which the segmented algorithms' checks leave the first bad offset's
// index (atomic_min): after the two words the searches keep (pacxx/algorithm/policy.hpp)
// in ones_scratch, so all ones between calls and no fill before a check.
inline unsigned long long *bad_offset_word() {
  using U = unsigned long long;
  return reinterpret_cast<U *>(static_cast<char *>(pacxx::detail::ones_scratch(3 * sizeof(U)))) + 2;
}

// The error of a bad offset (first_bad_offset's index `bad`) in the call `name`.
inline pacxx::error bad_offset_error(const char *name, unsigned long long bad, std::size_t n) {
  return pacxx::error(std::string(name) + ": offset " + std::to_string(bad) +
                      " is negative, past the end of the " + std::to_string(n) +
                      " values, or greater than the next offset (offsets must be "
                      "non-decreasing, within [0, values.size()]); the output is unchanged");
}

// The number of segments of `offsets` (its size less one) for the call `name`; an empty
// offsets range is a pacxx::error (segment_count). checked_segments: the same after
// the checks of the header: an empty offsets range or a bad offset is a pacxx::error
// naming the call, thrown before anything is written.
// With `heads`, the check also sets the segments' head bits (first_bad_offset, as is
// bad_at).
template <class O> std::size_t segment_count(const char *name, const O &offsets) {
  const std::size_t m = pacxx::detail::device_size(offsets);
  if (m == 0)
    throw pacxx::error(std::string(name) +
                       ": offsets must hold segments + 1 elements (the first offset and one "
                       "end per segment); it is empty");
  return m - 1;
}
template <class O>
std::size_t checked_segments(const char *name, const O &offsets, std::size_t n,
                             unsigned *heads = nullptr, unsigned long long *bad_at = nullptr) {
  const std::size_t segments = segment_count(name, offsets);
  const unsigned long long bad = first_bad_offset(offsets, segments, n, heads, bad_at);
  if (bad != ~0ull)
    throw bad_offset_error(name, bad, n);
  return segments;
}

// Folds segments in device code: fold(s, lane, lanes) is the fold of every lanes-th
// element of segment s from its lane-th (maybe none: maybe<T>); store(s, m) writes
// init op m (init for none).
template <class T, class Op, class V, class O, class R> struct segment_folder {
  V values;
  O offsets;
  R out;
  std::size_t segments;
  T init;
  Op op;
  maybe<T> fold(std::size_t s, std::size_t lane, std::size_t lanes) const {
    using M = maybe<T>;
    M m{T(), 0u};
    if (s >= segments)
      return m;
    auto first = ranges::begin(values);
    auto offset = ranges::begin(offsets);
    using DV = ranges::range_difference_t<V>;
    using DO = ranges::range_difference_t<O>;
    const std::size_t begin = static_cast<std::size_t>(*(offset + static_cast<DO>(s)));
    const std::size_t end = static_cast<std::size_t>(*(offset + static_cast<DO>(s + 1)));
    // One load at a time: four in flight before each fold measured slower at every
    // segment length (H200, 2^26, 2026-11-27: 224 against 196 us at segments of 100,
    // 97.2 against 95.6 at 100000).
    std::size_t i = begin + lane;
    for (; i < end; i += lanes) {
      const T x = T(*(first + static_cast<DV>(i)));
      m = m.have ? M{op(m.value, x), 1u} : M{x, 1u};
    }
    return m;
  }
  void store(std::size_t s, const maybe<T> &m) const {
    using DR = ranges::range_difference_t<R>;
    if (s < segments)
      *(ranges::begin(out) + static_cast<DR>(s)) = m.have ? op(init, m.value) : init;
  }
};

template <class T, class Op, class V, class O, class R>
segment_folder<T, Op, V, O, R> make_segment_folder(const V &v, const O &o, const R &r,
                                                   std::size_t segments, T init, Op op) {
  return {v, o, r, segments, init, op};
}

// offsets[i] clamped to [0, n] (device code). The reduction's kernels run before the
// host knows whether the offsets are good (the check is folded into them), so with bad
// ones every read must still stay inside values.
template <class It> inline std::size_t offset_at(It first, std::size_t i, std::size_t n) {
  using D = ranges::iter_difference_t<It>;
  const long long a = static_cast<long long>(*(first + static_cast<D>(i)));
  return a < 0 ? 0 : (static_cast<unsigned long long>(a) > n ? n : static_cast<std::size_t>(a));
}

// The first s of [lo, hi) with offsets[s + 1] > x (clamped as offset_at), or hi; device
// code that a whole warp calls with the same arguments. A (warp size + 1)-ary search:
// each lane probes one of W evenly spaced points and a ballot counts the probes at or
// below x, so 2^24 segments take 5 rounds of one load each instead of 24 dependent loads
// (a binary search where a warp is one work-item). With bad (decreasing) offsets the
// answer is some s in [lo, hi] and the loop still ends: the range shrinks every round.
template <class It>
inline std::size_t find_segment(It first, std::size_t lo, std::size_t hi, std::size_t x,
                                std::size_t n) {
  const std::size_t W = pacxx::warp::size(), lane = pacxx::warp::lane();
  while (lo < hi) {
    const std::size_t step = (hi - lo + W) / (W + 1); // ceil((hi - lo) / (W + 1)) >= 1
    const std::size_t p = lo + (lane + 1) * step - 1;
    const bool below = p < hi && offset_at(first, p + 1, n) <= x;
    const std::size_t c = static_cast<std::size_t>(__builtin_popcount(pacxx::warp::ballot(below)));
    const std::size_t next = lo + c * step;
    if (c < W) // probe c (if inside) was above x: the answer is at most it
      hi = next + step - 1 < hi ? next + step - 1 : hi;
    lo = next;
  }
  return lo;
}

// The offsets' check of first_bad_offset, spread over a kernel's threads (thread `i` of
// `threads`; device code): a bad offset's index goes to *bad by atomic_min.
template <class It>
inline void check_offsets(It first, std::size_t segments, std::size_t n, unsigned long long *bad,
                          std::size_t i, std::size_t threads) {
  for (; i <= segments; i += threads)
    if (!offset_ok(first, i, segments, n))
      pacxx::atomic_min(bad, static_cast<unsigned long long>(i));
}

template <class T, class Op> inline maybe<T> fold_maybe(const maybe<T> &m, const T &x, Op &op) {
  return m.have ? maybe<T>{op(m.value, x), 1u} : maybe<T>{x, 1u};
}

// m op get(k) op get(k + stride) op ... for k < end (device code). On the GPU path a
// thread issues I loads (get) before it folds any, as gpu::reduce's tiles do (one load
// in flight per thread cannot keep HBM busy); the last, partial round loads clamped
// indices, all unconditionally, and folds those below end. Where a warp is one
// work-item (PoCL vectorises across work-items, and copies of get only add compile
// time) a plain loop. OneLeft: a last round of one element loads it alone (pass two,
// where most segments are one part; off in the tiles' kernel, where the branch cost
// registers, and spills under its launch bound, ptxas -v, sm_90).
template <std::size_t I, bool OneLeft = false, class T, class Get, class Op>
inline maybe<T> fold_strided(Get &get, Op &op, maybe<T> m, std::size_t k, std::size_t end,
                             std::size_t stride) {
  if (pacxx::warp::size() > 1) {
    T x[I];
    // Whole rounds unclamped: one base address and constant offsets (clamped indices
    // are a 64-bit address a load; the tiles' kernel spilled more under its launch
    // bound with every round clamped, ptxas -v, sm_90).
    for (; k + (I - 1) * stride < end; k += I * stride) {
      for (std::size_t j = 0; j < I; ++j)
        x[j] = get(k + j * stride);
      T r = x[0];
      for (std::size_t j = 1; j < I; ++j)
        r = op(r, x[j]);
      m = fold_maybe(m, r, op);
    }
    if (OneLeft && k + stride >= end) { // one element left: one load, not I
      if (k < end)
        m = fold_maybe(m, get(k), op);
    } else if (k < end) { // the last, partial round
      for (std::size_t j = 0; j < I; ++j)
        x[j] = get(k + j * stride < end ? k + j * stride : k);
      T r = x[0];
      for (std::size_t j = 1; j < I; ++j)
        if (k + j * stride < end)
          r = op(r, x[j]);
      m = fold_maybe(m, r, op);
    }
    return m;
  }
  for (; k < end; k += stride)
    m = fold_maybe(m, get(k), op);
  return m;
}

// Where the reduction's passes meet: `results` holds the fold of each segment that one
// block (one warp) folded whole, `heads[t]` the fold of tile t's piece of the segment
// that began before tile t, `tails[t]` that of the segment that begins in tile t and
// runs past it, all in one block of scratch. `bad` is a word of ones_scratch (all ones
// between calls: no fill before the check), `seen` where the host reads it.
template <class T> struct reduce_passes {
  T *results, *heads, *tails;
  unsigned long long *bad;
  readback_memory<unsigned long long> seen;
};

// Pass one for long segments: tiles of `tile` elements over [0, n), a block each. A
// block finds the segment at its tile's start (find_segment), then folds every piece of
// a segment in its tile in turn (the block's threads over the piece, block_reduce) and
// stores it as a whole segment's fold, a head or a tail (reduce_passes). A long segment
// is so split over many blocks, and a block folds the several short segments of its tile
// one after another. The same threads check the offsets.
template <class P, class T, class Op, class V, class O>
void fold_tiles(const V &values, const O &offsets, std::size_t segments, std::size_t n,
                std::size_t tile, const reduce_passes<T> &mem, Op op) {
  constexpr std::size_t B = P::block;
  using U = unsigned long long;
  pacxx::kernel(
      [op](const auto &v0, const auto &o0, std::size_t segments, std::size_t n, std::size_t tile,
           T *results, T *heads, T *tails, U *bad) {
        if (P::split_min_blocks > 0)
          pacxx::launch_bounds(B, P::split_min_blocks);
        auto v = v0;
        auto o = o0;
        const auto first = ranges::begin(v);
        const auto off = ranges::begin(o);
        using DV = ranges::range_difference_t<decltype(v)>;
        const std::size_t l = pacxx::Thread::get().local.x, t = pacxx::Block::get().index.x;
        check_offsets(off, segments, n, bad, t * B + l, pacxx::Grid::get().size.x * B);
        auto load = [&](std::size_t i) -> T { return T(*(first + static_cast<DV>(i))); };
        const std::size_t a = t * tile, b = n - a < tile ? n : a + tile;
        // From the first offset on (elements before it are in no segment): then, with good
        // offsets, segment s holds pos at the top of every round.
        std::size_t pos = offset_at(off, 0, n);
        pos = pos > a ? pos : a;
        std::size_t s = find_segment(off, 0, segments, pos, n), ob = b, oe = b;
        if (s < segments) {
          ob = offset_at(off, s, n);
          oe = offset_at(off, s + 1, n);
        }
        pacxx::block_reduce<maybe<T>, B> block;
        // Every thread computes the same pieces: the loop and its barriers are uniform.
        for (;;) {
          const std::size_t ps = ob > pos ? ob : pos, pe = oe < b ? oe : b;
          if (ps >= pe) // past the tile or the segments (or a bad offset)
            break;
          // The next segment's end, read before this piece's loads are waited for: a
          // tile of many short segments pays one memory latency a piece, not two.
          const std::size_t on = s + 1 < segments ? offset_at(off, s + 2, n) : b;
          const maybe<T> m =
              block.reduce(fold_strided<P::split_items>(load, op, maybe<T>{T(), 0u}, ps + l, pe, B),
                           maybe_op<Op>{op}, B);
          if (l == 0)
            *(ob < a ? heads + t : oe > b ? tails + t : results + s) = m.value;
          pacxx::barrier(); // block_reduce's shared memory is used again
          pos = pe;
          if (++s >= segments)
            break;
          if (on > pos) { // the next segment holds pos (it is not empty)
            ob = oe;
            oe = on;
          } else { // a search skips the empty segments
            s = find_segment(off, s, segments, pos, n);
            ob = oe = b;
            if (s < segments) {
              ob = offset_at(off, s, n);
              oe = offset_at(off, s + 1, n);
            }
          }
        }
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(n, tile)}, {B}})(
      values, offsets, segments, n, tile, mem.results, mem.heads, mem.tails, mem.bad);
}

// Pass one for short segments: a warp a segment (a work-item where a warp is one: the
// first B / 32 work-items of a block take one each and the others return; no barrier),
// the lanes striding over it, into results. The same threads check the offsets.
template <class P, class T, class Op, class V, class O>
void fold_by_warp(const V &values, const O &offsets, std::size_t segments, std::size_t n,
                  const reduce_passes<T> &mem, Op op) {
  constexpr std::size_t B = P::block, per_block = B / 32;
  using U = unsigned long long;
  pacxx::kernel(
      [op](const auto &v0, const auto &o0, std::size_t segments, std::size_t n, T *results,
           U *bad) {
        auto v = v0;
        auto o = o0;
        const auto first = ranges::begin(v);
        const auto off = ranges::begin(o);
        using DV = ranges::range_difference_t<decltype(v)>;
        const std::size_t l = pacxx::Thread::get().local.x, W = pacxx::warp::size();
        const std::size_t blk = pacxx::Block::get().index.x;
        check_offsets(off, segments, n, bad, blk * B + l, pacxx::Grid::get().size.x * B);
        if (W == 1 && l >= per_block)
          return;
        const std::size_t s = blk * per_block + l / W, lane = l % W;
        maybe<T> m{T(), 0u};
        if (s < segments) {
          // One load at a time: four in flight before each fold measured slower at every
          // segment length (H200, 2^26, 2026-11-27: 224 against 196 us at segments of 100).
          const std::size_t end = offset_at(off, s + 1, n);
          for (std::size_t i = offset_at(off, s, n) + lane; i < end; i += W)
            m = fold_maybe(m, T(*(first + static_cast<DV>(i))), op);
        }
        m = pacxx::warp::reduce(m, maybe_op<Op>{op}, static_cast<unsigned>(W));
        if (lane == 0 && s < segments && m.have)
          results[s] = m.value;
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(segments, per_block)}, {B}})(
      values, offsets, segments, n, mem.results, mem.bad);
}

// Pass two writes out[s] = init op the fold of segment s's parts (none for an empty
// segment: init), in a fixed order: its results entry where one tile (or warp) held it
// whole, else tails[first tile] op heads[next tiles ... last tile]. `by_warp`: a warp a
// segment, the lanes striding over its parts (a few segments, of many parts each: one
// tile's round of loads and a warp reduction); else a thread a segment, and a segment of
// more than P::finish_alone parts is folded by its whole warp, one such segment of the
// warp after another. Nothing is written where pass one found a bad offset; the first
// thread copies the check's word to where the host reads it.
template <class P, class T, class Op, class O, class R>
void finish_segments(const O &offsets, const R &out, std::size_t segments, std::size_t n,
                     std::size_t tile, bool by_warp, const reduce_passes<T> &mem, T init, Op op) {
  constexpr std::size_t B = P::block, per_block = B / 32, I = P::split_items;
  using U = unsigned long long;
  pacxx::kernel(
      [init, op](const auto &o0, const auto &r0, std::size_t segments, std::size_t n,
                 std::size_t tile, bool by_warp, const T *results, const T *heads, const T *tails,
                 const U *bad, U *seen) {
        auto o = o0;
        auto r = r0;
        const auto off = ranges::begin(o);
        using DR = ranges::range_difference_t<decltype(r)>;
        const std::size_t l = pacxx::Thread::get().local.x, blk = pacxx::Block::get().index.x;
        const std::size_t W = pacxx::warp::size();
        const U found = *bad;
        if (blk == 0 && l == 0)
          *seen = found;
        // No barriers in this kernel: returns are safe. A bad offset: the whole grid
        // returns and out is unchanged. Where a warp is one work-item, the first
        // per_block work-items of a block take a segment each in by_warp.
        if (found != ~0ull || (by_warp && W == 1 && l >= per_block))
          return;
        const std::size_t s = by_warp ? blk * per_block + l / W : blk * B + l;
        const std::size_t lane = l % W, lanes = by_warp ? W : 1;
        std::size_t tb = 0, count = 0; // the segment's first tile and its number of parts
        if (s < segments) {
          const std::size_t ob = offset_at(off, s, n), oe = offset_at(off, s + 1, n);
          if (ob < oe) {
            tb = ob / tile;
            count = (oe - 1) / tile - tb + 1;
          }
        }
        auto part_of = [&](std::size_t seg, std::size_t first_tile, std::size_t parts,
                           std::size_t k) -> T {
          return parts == 1 ? results[seg] : k == 0 ? tails[first_tile] : heads[first_tile + k];
        };
        auto part = [&](std::size_t k) { return part_of(s, tb, count, k); };
        const bool alone = by_warp || count <= P::finish_alone;
        maybe<T> m{T(), 0u};
        if (alone)
          m = fold_strided<I, true>(part, op, m, by_warp ? lane : 0, count, lanes);
        if (by_warp) {
          m = pacxx::warp::reduce(m, maybe_op<Op>{op}, static_cast<unsigned>(W));
        } else {
          for (unsigned rest = pacxx::warp::ballot(!alone); rest != 0; rest &= rest - 1) {
            const unsigned j = static_cast<unsigned>(__builtin_ctz(rest));
            const std::size_t js = s - lane + j, jtb = pacxx::warp::shuffle(tb, j),
                              jcount = pacxx::warp::shuffle(count, j);
            auto part_j = [&](std::size_t k) { return part_of(js, jtb, jcount, k); };
            maybe<T> x = fold_strided<I, true>(part_j, op, maybe<T>{T(), 0u}, lane, jcount, W);
            x = pacxx::warp::shuffle(
                pacxx::warp::reduce(x, maybe_op<Op>{op}, static_cast<unsigned>(W)), 0u);
            if (lane == j)
              m = x;
          }
        }
        if (s < segments && (!by_warp || lane == 0))
          *(ranges::begin(r) + static_cast<DR>(s)) = m.have ? op(init, m.value) : init;
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(segments, by_warp ? per_block : B)}, {B}})(
      offsets, out, segments, n, tile, by_warp, mem.results, mem.heads, mem.tails, mem.bad,
      mem.seen.kernel);
}

// gpu::segmented_reduce with the policy P (tests pass their own to reach every path at
// small sizes). Two launches and a read back of 8 bytes; see gpu::segmented_reduce.
template <class P, class Values, class Offsets, class Out, class T, class Op>
void segmented_reduce_with(Values &&values, Offsets &&offsets, Out &&out, T init, Op op) {
  const char *const name = "gpu::segmented_reduce";
  pacxx::detail::algorithm_scope pacxx_algorithm(name, values);
  static_assert(pacxx::is_device_copyable<Op>::value,
                "gpu::segmented_reduce: the operation must be trivially copyable (capture "
                "values and device pointers only)");
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu::segmented_reduce: the initial value must be device copyable");
  static_assert(alignof(T) <= 16, "gpu::segmented_reduce: T may be aligned to 16 bytes at most");
  auto in = pacxx::detail::device_view(std::forward<Values>(values));
  auto off = pacxx::detail::device_view(std::forward<Offsets>(offsets));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  static_assert(std::is_integral<ranges::range_value_t<decltype(off)>>::value,
                "gpu::segmented_reduce: offsets must be integers");
  const std::size_t n = pacxx::detail::device_size(in), out_size = pacxx::detail::device_size(dst);
  const std::size_t m = pacxx::detail::device_size(off);
  if (m > 0 && out_size < m - 1) // before the offsets' check: it needs no launch
    throw pacxx::error("gpu::segmented_reduce: the output has " + std::to_string(out_size) +
                       " elements, there are " + std::to_string(m - 1) + " segments");
  if (m < 2) { // no segments: the check alone (an empty offsets range, a bad first offset)
    checked_segments(name, off, n);
    return;
  }
  const std::size_t segments = m - 1;
  const bool split = n > 0 && n / segments >= P::split_min_mean;
  // Tiles of whole rounds (block x split_items elements), about split_tiles of them, of
  // split_min_rounds rounds at least.
  const std::size_t round = P::block * P::split_items;
  const std::size_t rounds =
      pacxx::detail::ceil_div(pacxx::detail::ceil_div(n, P::split_tiles), round);
  const std::size_t tile =
      split ? (rounds > P::split_min_rounds ? rounds : P::split_min_rounds) * round
            : (n > 0 ? n : 1); // one part a segment: all of it in results
  const std::size_t tiles = split ? pacxx::detail::ceil_div(n, tile) : 0;
  using U = unsigned long long;
  // One block of scratch (scratch() hands every call the same buffer): the host's word
  // where kernels cannot write host memory, then results, heads and tails.
  char *base = static_cast<char *>(pacxx::detail::scratch(16 + (segments + 2 * tiles) * sizeof(T)));
  T *results = reinterpret_cast<T *>(base + 16);
  U *bad = bad_offset_word(); // all ones between calls
  const reduce_passes<T> mem{results, results + segments, results + segments + tiles, bad,
                             readback_memory<U>(1, base)};
  if (split)
    fold_tiles<P>(in, off, segments, n, tile, mem, op);
  else
    fold_by_warp<P>(in, off, segments, n, mem, op);
  // A warp a segment in pass two where there are few (then they may have many parts).
  finish_segments<P>(off, dst, segments, n, tile, split && segments <= P::finish_by_warp_max, mem,
                     init, op);
  const readback<U> seen(mem.seen);
  if (seen[0] != ~0ull) {
    pacxx::detail::fill_on_device(bad, 0xff, sizeof(U)); // all ones again for the next call
    throw bad_offset_error(name, seen[0], n);
  }
}

} // namespace detail

// For each segment s of the CSR offsets (segments + 1 non-decreasing offsets into values),
// out[s] = init op values[offsets[s]] op ... op values[offsets[s + 1] - 1] (init alone for
// an empty segment). Two launches and a read back of 8 bytes (see the header). A bad
// offset (decreasing, negative, past the end of values) or an output with fewer than
// `segments` elements is a pacxx::error, out unchanged. op associative and commutative;
// for the same input and device the result is the same to the bit.
template <class Values, class Offsets, class Out, class T, class Op = std::plus<>>
void segmented_reduce(Values &&values, Offsets &&offsets, Out &&out, T init, Op op = Op{}) {
  detail::segmented_reduce_with<pacxx::policy::segmented_reduce>(std::forward<Values>(values),
                                                                 std::forward<Offsets>(offsets),
                                                                 std::forward<Out>(out), init, op);
}

} // namespace gpu

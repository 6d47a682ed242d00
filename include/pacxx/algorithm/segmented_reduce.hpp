// gpu::segmented_reduce(values, offsets, out, init[, op]): for each segment s of a CSR
// layout (offsets.size() = segments + 1, non-decreasing, offsets.back() <= values.size()),
//   out[s] = init op values[offsets[s]] op ... op values[offsets[s + 1] - 1]
// (init alone for an empty segment), as CUB's DeviceSegmentedReduce::Reduce and
// Accelerate's foldSeg. op must be associative and commutative (default std::plus<>);
// values is any device range (views fused into the loads), offsets any device range of
// integers, out a gpu::vector or a writable view over one with at least `segments`
// elements.
//
// Two launches: a check of the offsets (read back: a decreasing pair, a negative offset
// or one past the end of values is a pacxx::error naming the first bad offset, and out
// is left unchanged), then one reduction kernel. Its shape follows the mean segment
// length (pacxx::policy::segmented_reduce): short segments get a warp each (a work-item
// each where a warp is one, on OpenCL), the lanes striding over the segment, so a block
// reduces many segments at once; long ones a block each, as CUB does for every length
// (which is why CUB is slow on short segments: 356 GB/s at 100 elements, DESIGN.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

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
          const long long a = static_cast<long long>(*(first + static_cast<D>(i)));
          bool ok = a >= 0 && static_cast<unsigned long long>(a) <= n;
          if (i < segments) {
            const long long b = static_cast<long long>(*(first + static_cast<D>(i + 1)));
            ok = ok && a <= b;
            // A non-empty segment's start; starts of non-empty segments are distinct,
            // so adding the bit is or-ing it.
            if (heads && ok && a < b && static_cast<unsigned long long>(b) <= n)
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

// The number of segments of `offsets` (its size less one) for the call `name`, after
// the checks of the header: an empty offsets range or a bad offset is a pacxx::error
// naming the call, thrown before anything is written.
// With `heads`, the check also sets the segments' head bits (first_bad_offset, as is
// bad_at).
template <class O>
std::size_t checked_segments(const char *name, const O &offsets, std::size_t n,
                             unsigned *heads = nullptr, unsigned long long *bad_at = nullptr) {
  const std::size_t m = pacxx::detail::device_size(offsets);
  if (m == 0)
    throw pacxx::error(std::string(name) +
                       ": offsets must hold segments + 1 elements (the first offset and one "
                       "end per segment); it is empty");
  const unsigned long long bad = first_bad_offset(offsets, m - 1, n, heads, bad_at);
  if (bad != ~0ull)
    throw pacxx::error(std::string(name) + ": offset " + std::to_string(bad) +
                       " is negative, past the end of the " + std::to_string(n) +
                       " values, or greater than the next offset (offsets must be "
                       "non-decreasing, within [0, values.size()]); the output is unchanged");
  return m - 1;
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

// A warp a segment, blocks of B threads taking B / 32 segments (a warp has at most 32
// lanes; where it has one, the first B / 32 work-items of a block take one segment each
// and the others return: that path has no barrier).
template <std::size_t B, class T, class Op, class V, class O, class R>
void reduce_segments_by_warp(const V &values, const O &offsets, const R &out, std::size_t segments,
                             T init, Op op) {
  constexpr std::size_t per_block = B / 32;
  pacxx::kernel(
      [init, op](const auto &v, const auto &o, const auto &r, std::size_t segments) {
        const auto f = make_segment_folder(v, o, r, segments, init, op);
        const std::size_t l = pacxx::Thread::get().local.x, W = pacxx::warp::size();
        if (W == 1 && l >= per_block)
          return;
        const std::size_t s = pacxx::Block::get().index.x * per_block + l / W;
        maybe<T> m = f.fold(s, l % W, W);
        m = pacxx::warp::reduce(m, maybe_op<Op>{op}, static_cast<unsigned>(W));
        if (l % W == 0)
          f.store(s, m);
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(segments, per_block)}, {B}})(values, offsets,
                                                                                 out, segments);
}

// A block of B threads a segment.
template <std::size_t B, class T, class Op, class V, class O, class R>
void reduce_segments_by_block(const V &values, const O &offsets, const R &out, std::size_t segments,
                              T init, Op op) {
  pacxx::kernel(
      [init, op](const auto &v, const auto &o, const auto &r, std::size_t segments) {
        const auto f = make_segment_folder(v, o, r, segments, init, op);
        pacxx::block_reduce<maybe<T>, B> block;
        const std::size_t l = pacxx::Thread::get().local.x, s = pacxx::Block::get().index.x;
        const maybe<T> m = block.reduce(f.fold(s, l, B), maybe_op<Op>{op}, B);
        if (l == 0)
          f.store(s, m);
      },
      pacxx::launch_config{{segments}, {B}})(values, offsets, out, segments);
}

} // namespace detail

// For each segment s of the CSR offsets (segments + 1 non-decreasing offsets into values),
// out[s] = init op values[offsets[s]] op ... op values[offsets[s + 1] - 1] (init alone for
// an empty segment). Two launches: the offsets' check and one reduction kernel (a warp or a
// block per segment, by the mean length). A bad offset (decreasing, negative, past the end
// of values) or an output with fewer than `segments` elements is a pacxx::error, out
// unchanged. op associative and commutative.
template <class Values, class Offsets, class Out, class T, class Op = std::plus<>>
void segmented_reduce(Values &&values, Offsets &&offsets, Out &&out, T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::segmented_reduce", values);
  static_assert(pacxx::is_device_copyable<Op>::value,
                "gpu::segmented_reduce: the operation must be trivially copyable (capture "
                "values and device pointers only)");
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu::segmented_reduce: the initial value must be device copyable");
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
  const std::size_t segments = detail::checked_segments("gpu::segmented_reduce", off, n);
  if (segments == 0)
    return;
  using P = pacxx::policy::segmented_reduce;
  if (n / segments >= P::block_min_mean)
    detail::reduce_segments_by_block<P::block>(in, off, dst, segments, init, op);
  else
    detail::reduce_segments_by_warp<P::block>(in, off, dst, segments, init, op);
}

} // namespace gpu

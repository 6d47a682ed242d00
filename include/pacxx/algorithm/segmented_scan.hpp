// gpu::segmented_inclusive_scan(values, offsets, out[, op]) and
// gpu::segmented_exclusive_scan(values, offsets, out, init[, op]): a prefix scan of each
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
// Two launches: the offsets' check of segmented_reduce (a bad offset is a pacxx::error
// naming the call, out unchanged), then one scan kernel whose shape follows the mean
// segment length (pacxx::policy::segmented_scan): a warp per segment below it (a
// work-item per segment where a warp is one, on OpenCL), a block per segment above.
// A scan_by_key over keys from the offsets would need a key per element first (an
// upper_bound per element or a scatter of segment heads and a scan): a launch and
// n keys more.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/algorithm/reduce.hpp"
#include "pacxx/algorithm/segmented_reduce.hpp"
#include "pacxx/block/block_scan.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {

// The per-segment state of a scan in device code: the bounds of segment s, and the
// store of one element given the carry (the fold of the segment's elements before the
// chunk, with init for an exclusive scan) and the chunk-local inclusive and exclusive
// folds (maybe<T>: none before a chunk's first element).
template <class T, bool Exclusive, class Op, class V, class O, class R> struct segment_scanner {
  V values;
  O offsets;
  R out;
  T init;
  Op op;
  std::size_t bound(std::size_t s) const {
    using DO = ranges::range_difference_t<O>;
    return static_cast<std::size_t>(*(ranges::begin(offsets) + static_cast<DO>(s)));
  }
  maybe<T> first_carry() const { return {init, Exclusive ? 1u : 0u}; }
  maybe<T> load(std::size_t i, std::size_t end) const {
    using DV = ranges::range_difference_t<V>;
    if (i >= end)
      return {T(), 0u};
    return {T(*(ranges::begin(values) + static_cast<DV>(i))), 1u};
  }
  void store(std::size_t i, std::size_t end, const maybe<T> &carry, const maybe<T> &inc,
             const maybe<T> &exc) const {
    using DR = ranges::range_difference_t<R>;
    if (i < end)
      *(ranges::begin(out) + static_cast<DR>(i)) =
          maybe_op<Op>{op}(carry, Exclusive ? exc : inc).value;
  }
};

template <class T, bool Exclusive, class V, class O, class R, class Op>
segment_scanner<T, Exclusive, Op, V, O, R> make_segment_scanner(const V &v, const O &o, const R &r,
                                                                T init, Op op) {
  return {v, o, r, init, op};
}

// A warp a segment, blocks of B threads taking B / 32 segments (where a warp is one
// work-item, the first B / 32 work-items of a block take one segment each and scan it
// alone; the others return: that path has no barrier). The lanes scan W elements at a
// time; the chunk's aggregate, from the last lane, joins the carry.
template <std::size_t B, class T, bool Exclusive, class V, class O, class R, class Op>
void scan_segments_by_warp(const V &values, const O &offsets, const R &out, std::size_t segments,
                           T init, Op op) {
  constexpr std::size_t per_block = B / 32;
  pacxx::kernel(
      [init, op](const auto &v, const auto &o, const auto &r, std::size_t segments) {
        const auto f = make_segment_scanner<T, Exclusive>(v, o, r, init, op);
        const maybe_op<Op> mop{op};
        const std::size_t l = pacxx::Thread::get().local.x, W = pacxx::warp::size();
        if (W == 1 && l >= per_block)
          return;
        const std::size_t s = pacxx::Block::get().index.x * per_block + l / W, lane = l % W;
        if (s >= segments) // the whole warp: it shares s
          return;
        const std::size_t end = f.bound(s + 1);
        maybe<T> carry = f.first_carry();
        for (std::size_t base = f.bound(s); base < end; base += W) {
          const maybe<T> inc = pacxx::warp::inclusive_scan(f.load(base + lane, end), mop);
          maybe<T> exc = pacxx::warp::shuffle_up(inc, 1);
          if (lane == 0)
            exc.have = 0u;
          f.store(base + lane, end, carry, inc, exc);
          carry = mop(carry, pacxx::warp::shuffle(inc, static_cast<unsigned>(W - 1)));
        }
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(segments, per_block)}, {B}})(values, offsets,
                                                                                 out, segments);
}

// A block of B threads a segment, B elements at a time; the block's aggregate of each
// chunk joins the carry (every thread keeps it: block_scan hands it to all).
template <std::size_t B, class T, bool Exclusive, class V, class O, class R, class Op>
void scan_segments_by_block(const V &values, const O &offsets, const R &out, std::size_t segments,
                            T init, Op op) {
  pacxx::kernel(
      [init, op](const auto &v, const auto &o, const auto &r) {
        const auto f = make_segment_scanner<T, Exclusive>(v, o, r, init, op);
        const maybe_op<Op> mop{op};
        pacxx::block_scan<maybe<T>, B> scan;
        const std::size_t l = pacxx::Thread::get().local.x, s = pacxx::Block::get().index.x;
        const std::size_t end = f.bound(s + 1);
        maybe<T> carry = f.first_carry();
        for (std::size_t base = f.bound(s); base < end; base += B) {
          const maybe<T> x = f.load(base + l, end);
          maybe<T> total;
          // One scan gives both folds: the exclusive one (undefined in thread 0) and,
          // with this thread's own element, the inclusive one.
          maybe<T> exc = scan.exclusive(x, mop, total);
          if (l == 0)
            exc.have = 0u;
          f.store(base + l, end, carry, mop(exc, x), exc);
          carry = mop(carry, total);
          pacxx::barrier(); // the scan's shared slots are reused by the next chunk
        }
      },
      pacxx::launch_config{{segments}, {B}})(values, offsets, out);
}

template <class T, bool Exclusive, class Values, class Offsets, class Out, class Op>
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
  const std::size_t segments = checked_segments(name, off, n);
  if (segments == 0)
    return;
  using P = pacxx::policy::segmented_scan;
  if (n / segments >= P::block_min_mean)
    scan_segments_by_block<P::block, T, Exclusive>(in, off, dst, segments, init, op);
  else
    scan_segments_by_warp<P::block, T, Exclusive>(in, off, dst, segments, init, op);
}

} // namespace detail

// out[i] = values[offsets[s]] op ... op values[i] for offsets[s] <= i < offsets[s + 1]: an
// inclusive scan restarting at every CSR segment; elements outside every segment are not
// written. Two launches (the offsets' check and one scan kernel). A bad offset, or an
// output with fewer than size(values) elements, is a pacxx::error. op associative.
template <class Values, class Offsets, class Out, class Op = std::plus<>>
void segmented_inclusive_scan(Values &&values, Offsets &&offsets, Out &&out, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::segmented_inclusive_scan", values);
  using T = ranges::range_value_t<decltype(pacxx::detail::device_view(std::declval<Values>()))>;
  detail::segmented_scan<T, false>("gpu::segmented_inclusive_scan", std::forward<Values>(values),
                                   std::forward<Offsets>(offsets), std::forward<Out>(out), T(), op);
}

// out[i] = init op values[offsets[s]] op ... op values[i - 1] for offsets[s] <= i <
// offsets[s + 1]: the exclusive form of gpu::segmented_inclusive_scan, with the same
// launches and errors.
template <class Values, class Offsets, class Out, class T, class Op = std::plus<>>
void segmented_exclusive_scan(Values &&values, Offsets &&offsets, Out &&out, T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::segmented_exclusive_scan", values);
  detail::segmented_scan<T, true>("gpu::segmented_exclusive_scan", std::forward<Values>(values),
                                  std::forward<Offsets>(offsets), std::forward<Out>(out), init, op);
}

} // namespace gpu

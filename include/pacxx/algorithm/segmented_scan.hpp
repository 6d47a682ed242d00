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
// the ordered one, the same bits on every run) over (value, head flag) pairs with the segmented
// operator of gpu::inclusive_scan_by_key, whatever the segments' lengths. The head flags
// are a bit per value, set by the offsets' check of segmented_reduce (a bad offset is a
// pacxx::error naming the call, out unchanged) in the same launch. Three launches: the
// clear of the flags and the look-back's tile states, the check, the scan. A warp or a
// block per segment, as segmented_reduce does, ran at 0.08x CUB's InclusiveSumByKey with
// segments of 100000 at 2^20 (ten blocks for the whole GPU) and 0.48-0.57x with segments
// of 100-1000 (H100, 2026-11-27).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/agent/scan.hpp"
#include "pacxx/algorithm/detail/clear_tiles.hpp"
#include "pacxx/algorithm/deterministic.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/algorithm/scan_by_key.hpp"
#include "pacxx/algorithm/segmented_reduce.hpp"
#include "pacxx/block/lookback.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {

// The scan of values[0, n) as (value, head) pairs, head(i) the bit of i in heads (set at
// the first element of every non-empty segment), stores only for offsets[0] <= i <
// offsets[segments]: the elements outside every segment are scanned (they end where the
// first segment starts) but not written (scan_flagged_tile, as gpu::scan_by_key).
template <class P, class T, bool Exclusive, class V, class O, class R, class Op>
void scan_flagged_segments(const V &values, const O &offsets, const R &out, std::size_t segments,
                           std::size_t n, const unsigned *heads,
                           const pacxx::tile_state<flagged<T>> &state, T init, Op op) {
  using F = flagged<T>;
  pacxx::kernel(
      [init, op](const auto &values_view, const auto &offsets_view, const auto &out_view,
                 std::size_t segments, std::size_t n, const unsigned *heads,
                 const pacxx::tile_state<F> &s) {
        auto v = values_view;
        auto o = offsets_view;
        auto r = out_view;
        auto value = ranges::begin(v);
        auto result = ranges::begin(r);
        using DV = ranges::range_difference_t<decltype(v)>;
        using DO = ranges::range_difference_t<decltype(o)>;
        using DR = ranges::range_difference_t<decltype(r)>;
        const std::size_t first = static_cast<std::size_t>(*ranges::begin(o));
        const std::size_t last =
            static_cast<std::size_t>(*(ranges::begin(o) + static_cast<DO>(segments)));
        scan_flagged_tile<P, T, Exclusive>(
            [&](std::size_t i) { return i == 0 || ((heads[i >> 5] >> (i & 31)) & 1u) != 0; },
            [&](std::size_t i) { return T(*(value + static_cast<DV>(i))); },
            [&](std::size_t i, const T &x) {
              if (i >= first && i < last)
                *(result + static_cast<DR>(i)) = x;
            },
            n, s, init, op);
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(n, P::block * P::items)}, {P::block}})(
      values, offsets, out, segments, n, heads, state);
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
  using F = flagged<T>;
  using P = pacxx::policy::scan_for<F, Ordered>;
  // One scratch block (scratch() hands every call the same buffer): the look-back's tile
  // states, a bit per value for the heads, cleared with them, and the check's result.
  const std::size_t head_words = (n / 32 + 4) / 4 * 4;
  void *extra = nullptr;
  const auto state = prepare_pass<F, P>(name, n, 4 * head_words + 16, &extra, true);
  unsigned *heads = static_cast<unsigned *>(extra);
  auto *bad = reinterpret_cast<unsigned long long *>(heads + head_words);
  const std::size_t segments = checked_segments(name, off, n, heads, bad);
  if (segments == 0 || n == 0)
    return;
  scan_flagged_segments<P, T, Exclusive>(in, off, dst, segments, n, heads, state, init, op);
}

} // namespace detail

// out[i] = values[offsets[s]] op ... op values[i] for offsets[s] <= i < offsets[s + 1]: an
// inclusive scan restarting at every CSR segment; elements outside every segment are not
// written. Three launches (a clear, the offsets' check, one scan kernel). A bad offset,
// or an output with fewer than size(values) elements, is a pacxx::error. op associative.
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

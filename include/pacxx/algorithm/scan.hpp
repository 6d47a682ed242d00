// gpu::inclusive_scan(in, out[, op]) and gpu::exclusive_scan(in, out, init[, op]): prefix
// scans in one pass over the data (decoupled look-back, pacxx/agent/scan.hpp), one
// launch plus a tiny one that clears the tiles' state. `in` is any device range (views
// fused into the loads), `out` a gpu::vector or a writable view over one with at least
// as many elements (fused into the stores); in and out may be the same. op is any
// associative operation (it need not be commutative). The accumulator is std's: the
// input's value type for the inclusive scan, init's type for the exclusive one.
//
// With gpu::deterministic as the first argument (pacxx/algorithm/deterministic.hpp) the
// scan is deterministic: out[i] is computed in one fixed order of op's applications, the
// same on every run, whatever the timing (the look-back folds the tiles' aggregates one
// at a time in tile order, pacxx::ordered_lookback_prefix); out[i] depends only on
// in[0..i], not on the input's length. Without it a floating-point scan may differ in its
// last bits from run to run from its 4th tile on (the look-back's grouping depends on
// timing); integers are exact either way. Same launches, same memory; the price is a
// serial fold in each tile's look-back (benchmarks/scan.cpp, *_pacxxdet).
#pragma once
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/agent/scan.hpp"
#include "pacxx/agent/scan_runs.hpp"
#include "pacxx/algorithm/detail/clear_tiles.hpp"
#include "pacxx/algorithm/detail/readback.hpp"
#include "pacxx/algorithm/deterministic.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

// Whether policy P asks for the scan over contiguous runs (P::runs, the blocks; the
// tuning spaces' scan_runs_point) instead of the single-pass one.
template <class P, class = void> struct scans_runs : std::false_type {};
template <class P> struct scans_runs<P, decltype(void(P::runs))> : std::true_type {};

// The scan over contiguous runs (pacxx/agent/scan_runs.hpp): the blocks' totals, their
// scan on the host, the runs scanned with their prefixes. Two launches, the totals read
// back and the prefixes copied in between.
template <class P, class T, bool Exclusive, class Src, class Dst, class Op>
void scan_runs(const Src &src, const Dst &dst, std::size_t n, T init, Op op) {
  constexpr std::size_t B = P::block;
  const std::size_t blocks = n < P::runs ? n : P::runs;
  const readback_memory<T> m(blocks, pacxx::detail::scratch(blocks * sizeof(T)));
  pacxx::kernel(
      [op](const auto &in_view, std::size_t n, T *totals) {
        auto in = in_view;
        auto first = ranges::begin(in);
        using D = ranges::range_difference_t<decltype(in)>;
        T total;
        if (pacxx::agent::run_total<T, B>(
                [&](std::size_t i) -> T { return T(*(first + static_cast<D>(i))); }, op, n, total))
          totals[pacxx::Block::get().index.x] = total;
      },
      pacxx::launch_config{{blocks}, {B}})(src, n, m.kernel);
  std::vector<T> prefixes(blocks, init);
  {
    const readback<T> totals(m);
    for (std::size_t b = 1; b < blocks; ++b)
      prefixes[b] = Exclusive || b > 1 ? op(prefixes[b - 1], totals[b - 1]) : T(totals[b - 1]);
  }
  T *device_prefixes = static_cast<T *>(pacxx::detail::scratch(blocks * sizeof(T)));
  pacxx::detail::copy_to_device(device_prefixes, prefixes.data(), blocks * sizeof(T));
  pacxx::kernel(
      [op](const auto &in_view, const auto &out_view, std::size_t n, const T *prefixes) {
        auto in = in_view;
        auto out = out_view;
        auto first = ranges::begin(in);
        auto result = ranges::begin(out);
        using DI = ranges::range_difference_t<decltype(in)>;
        using DO = ranges::range_difference_t<decltype(out)>;
        const std::size_t b = pacxx::Block::get().index.x;
        pacxx::agent::run_scan<T, B, Exclusive>(
            [&](std::size_t i) -> T { return T(*(first + static_cast<DI>(i))); },
            [&](std::size_t i, const T &v) { *(result + static_cast<DO>(i)) = v; }, op, n,
            prefixes[b], Exclusive || b > 0);
      },
      pacxx::launch_config{{blocks}, {B}})(src, dst, n, device_prefixes);
}

// The single-pass scan (pacxx/agent/scan.hpp) of src into dst under policy P.
template <class P, class T, bool Exclusive, class Src, class Dst, class Op>
void scan_with(const char *name, const Src &src, const Dst &dst, std::size_t n, T init, Op op,
               std::false_type /*runs*/) {
  const std::size_t tiles = pacxx::detail::ceil_div(n, P::block * P::items);
  if (tiles > 0xffffffffu)
    throw pacxx::error(std::string(name) + ": " + std::to_string(n) +
                       " elements are more tiles than a scan counts");
  auto state =
      pacxx::tile_state<T>::at(pacxx::detail::scratch(pacxx::tile_state<T>::bytes(tiles)), tiles);
  clear_tiles(state, tiles);
  pacxx::kernel(
      [op, init](const auto &in_view, const auto &out_view, std::size_t n,
                 const pacxx::tile_state<T> &s) {
        auto in = in_view;
        auto out = out_view;
        auto first = ranges::begin(in);
        auto result = ranges::begin(out);
        using DI = ranges::range_difference_t<decltype(in)>;
        using DO = ranges::range_difference_t<decltype(out)>;
        pacxx::agent::scan_tile<P, T, Exclusive>(
            [&](std::size_t i) -> T { return T(*(first + static_cast<DI>(i))); },
            [&](std::size_t i, const T &v) { *(result + static_cast<DO>(i)) = v; }, n, s, op, init);
      },
      pacxx::launch_config{{tiles}, {P::block}})(src, dst, n, state);
}
template <class P, class T, bool Exclusive, class Src, class Dst, class Op>
void scan_with(const char *, const Src &src, const Dst &dst, std::size_t n, T init, Op op,
               std::true_type /*runs*/) {
  scan_runs<P, T, Exclusive>(src, dst, n, init, op);
}

// One scan of src into dst under policy P (n > 0 elements).
template <class P, class T, bool Exclusive, class Src, class Dst, class Op>
void scan_with(const char *name, const Src &src, const Dst &dst, std::size_t n, T init, Op op) {
  scan_with<P, T, Exclusive>(name, src, dst, n, init, op, scans_runs<P>{});
}

template <class T, bool Exclusive, bool Ordered, class In, class Out, class Op>
void scan(const char *name, In &&in, Out &&out, T init, Op op) {
  static_assert(pacxx::is_device_copyable<Op>::value,
                "gpu scans: the operation must be trivially copyable (capture values only)");
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu scans: the accumulator type must be device copyable");
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  // An unbounded input (view::repeat(x)) fills the output.
  const std::size_t n = pacxx::detail::leading_size(src, dst);
  const std::size_t m = pacxx::detail::device_size_alongside(dst, n);
  if (m < n)
    throw pacxx::error(std::string(name) + ": the output has " + std::to_string(m) +
                       " elements, the input " + std::to_string(n));
  if (n == 0)
    return;
  // Tuned (pacxx/tune.hpp). The output may be the input (an in-place scan), so a trial
  // scans into a scratch vector of T instead.
  using Space = pacxx::policy::tuning::scan_space<T, Ordered>;
  const std::string family =
      std::string(Exclusive ? "gpu::exclusive_scan/" : "gpu::inclusive_scan/") +
      std::to_string(sizeof(T)) + (Ordered ? "/ordered" : "");
  const std::size_t choice =
      pacxx::tune::choose<Space>(family, pacxx::tune::size_class(n), [&](auto policy) {
        gpu::vector<T> scratch(n);
        scan_with<decltype(policy), T, Exclusive>(name, src, pacxx::detail::device_view(scratch), n,
                                                  init, op);
      });
  pacxx::tune::invoke<Space>(choice, [&](auto policy) {
    scan_with<decltype(policy), T, Exclusive>(name, src, dst, n, init, op);
  });
}

} // namespace detail

// out[i] = in[0] op ... op in[i].
template <class In, class Out, class Op = std::plus<>,
          class = typename std::enable_if<!detail::is_deterministic_tag<In>::value>::type>
void inclusive_scan(In &&in, Out &&out, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::inclusive_scan", in);
  using T = ranges::range_value_t<decltype(pacxx::detail::device_view(std::forward<In>(in)))>;
  detail::scan<T, false, false>("gpu::inclusive_scan", std::forward<In>(in), std::forward<Out>(out),
                                T{}, op);
}

// out[0] = init, out[i] = init op in[0] op ... op in[i - 1].
template <class In, class Out, class T, class Op = std::plus<>,
          class = typename std::enable_if<!detail::is_deterministic_tag<In>::value>::type>
void exclusive_scan(In &&in, Out &&out, T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::exclusive_scan", in);
  detail::scan<T, true, false>("gpu::exclusive_scan", std::forward<In>(in), std::forward<Out>(out),
                               init, op);
}

// The same, deterministic: the same bits on every run.
template <class In, class Out, class Op = std::plus<>>
void inclusive_scan(deterministic_t, In &&in, Out &&out, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::inclusive_scan", in);
  using T = ranges::range_value_t<decltype(pacxx::detail::device_view(std::forward<In>(in)))>;
  detail::scan<T, false, true>("gpu::inclusive_scan", std::forward<In>(in), std::forward<Out>(out),
                               T{}, op);
}
// The exclusive scan, deterministic: the same bits on every run.
template <class In, class Out, class T, class Op = std::plus<>>
void exclusive_scan(deterministic_t, In &&in, Out &&out, T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::exclusive_scan", in);
  detail::scan<T, true, true>("gpu::exclusive_scan", std::forward<In>(in), std::forward<Out>(out),
                              init, op);
}

} // namespace gpu

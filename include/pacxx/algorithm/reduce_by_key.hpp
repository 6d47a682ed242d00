// gpu::reduce_by_key(keys, values, out_keys, out_values[, eq, op]): folds each run of
// consecutive keys with eq(keys[i - 1], keys[i]) with op, writes the first key of run r
// to out_keys[r] and its fold to out_values[r] (as Thrust and CUB), and returns the
// number of runs.
//
// One pass (CUB's DeviceReduce::ReduceByKey design on the single-pass scan,
// pacxx/agent/scan.hpp): an inclusive scan of (value, run count) pairs with the
// reduce-by-segment operator, in which element i's count is 1 where a run starts
// (keys[i - 1] and keys[i] differ); at i the scan holds the run index + 1 and the fold
// of the run up to i. A run's head writes its key and, from the scan just before it,
// the previous run's value; the last element writes the last run's value and the number
// of runs, which is read back (one small copy). One launch plus the tiny clear of the
// tiles' state. The pair is all the look-back carries: 8 bytes for 4-byte values, one
// 16-byte word per tile on CUDA (a 12-byte pair with head and tail flags took 3.3x
// CUB's time at 2^28, benchmarks/results/2026-11-23-h100-stl).
//
// keys and values are any device ranges (views fused into the loads; values needs at
// least as many elements as keys); out_keys and out_values gpu::vectors or writable
// views over them. Outputs with fewer elements than runs are a pacxx::error, thrown
// after the pass: the runs that fit have been written, none past the outputs' ends. The
// accumulator is the values' value type; op must be associative (not commutative).
// At most 2^32 - 1 elements (the run count is 32 bits).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/agent/scan.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/algorithm/scan_by_key.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/runtime.hpp"

namespace gpu {
namespace detail {

// The fold of a stretch of elements since its last run head, and the number of heads
// in it.
template <class T> struct run_fold {
  T value;
  unsigned count;
};

// The reduce-by-segment operator (associative whenever op is).
template <class Op> struct by_segment {
  Op op;
  template <class T> run_fold<T> operator()(const run_fold<T> &a, const run_fold<T> &b) const {
    return run_fold<T>{b.count ? b.value : op(a.value, b.value), a.count + b.count};
  }
};

} // namespace detail

template <class K, class V, class OK, class OV, class Eq = std::equal_to<>, class Op = std::plus<>>
std::size_t reduce_by_key(K &&keys_in, V &&values_in, OK &&out_keys_in, OV &&out_values_in,
                          Eq eq = Eq{}, Op op = Op{}) {
  static_assert(pacxx::is_device_copyable<Op>::value && pacxx::is_device_copyable<Eq>::value,
                "gpu::reduce_by_key: eq and op must be trivially copyable (capture values only)");
  const char *name = "gpu::reduce_by_key";
  auto keys = pacxx::detail::device_view(std::forward<K>(keys_in));
  auto values = pacxx::detail::device_view(std::forward<V>(values_in));
  auto out_keys = pacxx::detail::device_view(std::forward<OK>(out_keys_in));
  auto out_values = pacxx::detail::device_view(std::forward<OV>(out_values_in));
  using T = ranges::range_value_t<decltype(values)>;
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu::reduce_by_key: the values' type must be device copyable");
  using R = detail::run_fold<T>;
  using P = pacxx::policy::reduce_by_key_for<R>;
  const std::size_t n = pacxx::detail::device_size(keys);
  detail::checked_size(name, "values", values, n);
  const std::size_t cap_keys = pacxx::detail::device_size(out_keys);
  const std::size_t cap_values = pacxx::detail::device_size(out_values);
  if (n == 0)
    return 0;
  if (n > 0xffffffffu)
    throw pacxx::error(std::string(name) + ": " + std::to_string(n) +
                       " elements, more than its 32-bit run count holds");
  void *slot = nullptr;
  auto state = detail::prepare_pass<R, P>(name, n, sizeof(unsigned), &slot);
  unsigned *runs_at = static_cast<unsigned *>(slot);
  pacxx::kernel(
      [eq, op](const auto &keys_view, const auto &values_view, const auto &out_keys_view,
               const auto &out_values_view, std::size_t n, std::size_t cap_keys,
               std::size_t cap_values, unsigned *runs_at, const pacxx::tile_state<R> &s) {
        auto keys = keys_view;
        auto values = values_view;
        auto out_keys = out_keys_view;
        auto out_values = out_values_view;
        auto key = ranges::begin(keys);
        auto value = ranges::begin(values);
        auto key_out = ranges::begin(out_keys);
        auto value_out = ranges::begin(out_values);
        using DK = ranges::range_difference_t<decltype(keys)>;
        using DV = ranges::range_difference_t<decltype(values)>;
        using DOK = ranges::range_difference_t<decltype(out_keys)>;
        using DOV = ranges::range_difference_t<decltype(out_values)>;
        auto load = [&](std::size_t i) -> R {
          const std::size_t before = i == 0 ? 0 : i - 1;
          const bool head =
              i == 0 || !eq(*(key + static_cast<DK>(before)), *(key + static_cast<DK>(i)));
          return R{T(*(value + static_cast<DV>(i))), head ? 1u : 0u};
        };
        auto step = [&](std::size_t i, const R &before, const R &after) {
          if (after.count != before.count) { // a head: run after.count - 1 starts at i
            const std::size_t run = after.count - 1;
            if (run < cap_keys)
              *(key_out + static_cast<DOK>(run)) = *(key + static_cast<DK>(i));
            if (run != 0 && run - 1 < cap_values)
              *(value_out + static_cast<DOV>(run - 1)) = before.value;
          }
          if (i + 1 == n) {
            if (after.count - 1 < cap_values)
              *(value_out + static_cast<DOV>(after.count - 1)) = after.value;
            *runs_at = after.count;
          }
        };
        pacxx::agent::scan_tile_steps<P, R>(load, step, n, s, detail::by_segment<Op>{op},
                                            R{T{}, 0u});
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(n, P::block * P::items)}, {P::block}})(
      keys, values, out_keys, out_values, n, cap_keys, cap_values, runs_at, state);
  unsigned runs = 0;
  pacxx::detail::copy_to_host(&runs, runs_at, sizeof runs);
  if (runs > cap_keys || runs > cap_values)
    throw pacxx::error(std::string(name) + ": " + std::to_string(runs) + " runs, out_keys has " +
                       std::to_string(cap_keys) + " elements, out_values " +
                       std::to_string(cap_values));
  return runs;
}

} // namespace gpu

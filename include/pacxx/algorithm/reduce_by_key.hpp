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
// of runs, which the host reads (no copy on CUDA). One launch plus the tiny clear of the
// tiles' state. The pair is all the look-back carries: 8 bytes for 4-byte values, one
// 16-byte word per tile on CUDA (a 12-byte pair with head and tail flags took 3.3x
// CUB's time at 2^28, benchmarks/results/2026-11-23-h100-stl).
//
// The tile as CUB's AgentReduceByKey: the keys are loaded once each, blocked (a warp's
// coalesced loads turned around in shared memory, pacxx::block_exchange), and the heads
// found in registers: a thread's item j > 0 against its item j - 1, its first against
// the previous lane's last (a shuffle), a warp's first lane's (every thread's where a
// warp is one thread) against one key it loads. Then the values, blocked the same way;
// the thread folds its items, the block scan with the look-back
// (agent::scan_tile_prefix) gives it the pair before its first item, and it walks its
// items again. Indices within the tile are 32-bit. The kernel this replaced went
// through the scan's generic tile: two global key loads per element for its head, the
// (value, count) pairs through shared memory twice, the key reloaded from global memory
// at each head and 64-bit index tests per element (ncu, H100, 2^28: 54.6 M warp
// instructions against CUB's 32.1 M, 0.86x CUB's speed; ptxas -v, sm_90, int keys and
// float values: 42 registers then, 36 now).
//
// keys and values are any device ranges (views fused into the loads; values needs at
// least as many elements as keys); out_keys and out_values gpu::vectors or writable
// views over them; values may be unbounded (view::repeat(1), Thrust's constant_iterator),
// the keys give the size. Outputs with fewer elements than runs are a pacxx::error that
// leaves them unchanged: where an output is smaller than the input, the runs are counted
// first (one launch more, a reduction over the keys) and the error thrown before the
// pass. The
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

#include <range/v3/view/drop_exactly.hpp>
#include <range/v3/view/zip.hpp>

#include "pacxx/agent/scan.hpp"
#include "pacxx/algorithm/count.hpp"
#include "pacxx/algorithm/detail/readback.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/algorithm/scan_by_key.hpp"
#include "pacxx/block/block_exchange.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/tools.hpp"

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

// Whether the keys of a pair (keys[i - 1], keys[i]) differ: i starts a run.
template <class Eq> struct starts_run {
  Eq eq;
  template <class P> bool operator()(const P &p) const {
    return !bool(eq(std::get<0>(p), std::get<1>(p)));
  }
};
// The number of runs of n keys, 1 <= n < 2^32: the first, and every key that differs from
// the one before it (one reduction over the pairs of neighbours).
template <class Keys, class Eq> std::size_t count_runs(const Keys &keys, std::size_t n, Eq eq) {
  if (n <= 1)
    return n;
  auto neighbours = ranges::views::zip(keys, ranges::views::drop_exactly(keys, 1));
  return 1 + count_in<unsigned>(neighbours, n - 1, starts_run<Eq>{eq});
}

inline pacxx::error too_many_runs(const char *name, std::size_t runs, std::size_t cap_keys,
                                  std::size_t cap_values) {
  return pacxx::error(std::string(name) + ": " + std::to_string(runs) + " runs, out_keys has " +
                      std::to_string(cap_keys) + " elements, out_values " +
                      std::to_string(cap_values));
}

} // namespace detail

namespace detail {
// reduce_by_key for the call `name` (its errors name it: gpu::run_length_encode is one).
template <class K, class V, class OK, class OV, class Eq, class Op>
std::size_t reduce_by_key_as(const char *name, K &&keys_in, V &&values_in, OK &&out_keys_in,
                             OV &&out_values_in, Eq eq, Op op) {
  static_assert(pacxx::is_device_copyable<Op>::value && pacxx::is_device_copyable<Eq>::value,
                "gpu::reduce_by_key: eq and op must be trivially copyable (capture values only)");
  auto keys = pacxx::detail::device_view(std::forward<K>(keys_in));
  auto values = pacxx::detail::device_view(std::forward<V>(values_in));
  auto out_keys = pacxx::detail::device_view(std::forward<OK>(out_keys_in));
  auto out_values = pacxx::detail::device_view(std::forward<OV>(out_values_in));
  using T = ranges::range_value_t<decltype(values)>;
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu::reduce_by_key: the values' type must be device copyable");
  using R = detail::run_fold<T>;
  using P = pacxx::policy::reduce_by_key_for<R, ranges::range_value_t<decltype(keys)>>;
  const std::size_t n = pacxx::detail::leading_size(keys, values);
  detail::checked_size(name, "values", values, n);
  const std::size_t cap_keys = pacxx::detail::device_size(out_keys);
  const std::size_t cap_values = pacxx::detail::device_size(out_values);
  if (n == 0)
    return 0;
  if (n > 0xffffffffu)
    throw pacxx::error(std::string(name) + ": " + std::to_string(n) +
                       " elements, more than its 32-bit run count holds");
  if (cap_keys < n || cap_values < n) {
    const std::size_t runs = detail::count_runs(keys, n, eq);
    if (runs > cap_keys || runs > cap_values)
      throw detail::too_many_runs(name, runs, cap_keys, cap_values);
  }
  void *slot = nullptr;
  auto state = detail::prepare_pass<R, P>(name, n, sizeof(unsigned), &slot);
  // The number of runs, written by the thread that holds the last element: into pinned
  // host memory where the device writes it (detail/readback.hpp), else into the slot.
  const detail::readback_memory<unsigned> runs_at(1, slot);
  // Run indices are below n <= 2^32 - 1, so clamping the capacities to 32 bits keeps
  // every `run < cap` test exact.
  const unsigned cap_keys32 = cap_keys < 0xffffffffu ? unsigned(cap_keys) : 0xffffffffu;
  const unsigned cap_values32 = cap_values < 0xffffffffu ? unsigned(cap_values) : 0xffffffffu;
  pacxx::kernel(
      [eq, op](const auto &keys_view, const auto &values_view, const auto &out_keys_view,
               const auto &out_values_view, std::size_t n, unsigned cap_keys, unsigned cap_values,
               unsigned *runs_at, const pacxx::tile_state<R> &s) {
        constexpr unsigned B = P::block, I = P::items;
        constexpr std::size_t tile_size = std::size_t(B) * I;
        auto keys = keys_view;
        auto values = values_view;
        auto out_keys = out_keys_view;
        auto out_values = out_values_view;
        using KT = ranges::range_value_t<decltype(keys)>;
        using DK = ranges::range_difference_t<decltype(keys)>;
        using DV = ranges::range_difference_t<decltype(values)>;
        using DOK = ranges::range_difference_t<decltype(out_keys)>;
        using DOV = ranges::range_difference_t<decltype(out_values)>;
        const std::size_t tile = pacxx::tile_order(s);
        const std::size_t base = tile * tile_size;
        const bool last_tile = n - base <= tile_size;
        const unsigned valid = last_tile ? unsigned(n - base) : unsigned(tile_size);
        const unsigned first = unsigned(pacxx::Thread::get().local.x) * I;
        auto key = ranges::begin(keys) + static_cast<DK>(base);
        auto value = ranges::begin(values) + static_cast<DV>(base);

        KT k[I];
        pacxx::block_exchange<KT, B, I> key_exchange;
        key_exchange.load_blocked([&](std::size_t i) { return KT(*(key + static_cast<DK>(i))); },
                                  valid, k);
        // The key before the thread's first: the previous lane's last, or for a warp's
        // first lane (every thread where a warp is one thread) one load of its own.
        KT before = pacxx::warp::shuffle_up(k[I - 1], 1);
        const bool input_first = tile == 0 && first == 0;
        if (pacxx::warp::lane() == 0 && first < valid && !input_first)
          before = KT(*(key + (static_cast<DK>(first) - 1)));
        bool head[I];
        head[0] = input_first || !eq(before, k[0]);
#pragma unroll
        for (unsigned j = 1; j < I; ++j)
          head[j] = !eq(k[j - 1], k[j]);
        unsigned heads = 0; // bit j: head[j], one register through the scan
#pragma unroll
        for (unsigned j = 0; j < I; ++j)
          heads |= unsigned(head[j]) << j;

        T v[I];
        pacxx::block_exchange<T, B, I> value_exchange;
        value_exchange.load_blocked([&](std::size_t i) { return T(*(value + static_cast<DV>(i))); },
                                    valid, v);
        // The thread's fold: over all I items, also those past the end of the last tile
        // (copies of its first element): only the prefixes of threads that hold no element
        // after them, and the last tile's aggregate, which no tile reads, depend on them.
        T fold = v[0];
#pragma unroll
        for (unsigned j = 1; j < I; ++j)
          fold = head[j] ? v[j] : op(fold, v[j]);
        const R total{fold, unsigned(__builtin_popcount(heads))};
        bool has_prefix;
        const R prefix = pacxx::agent::scan_tile_prefix<P, R, false>(
            total, tile, s, detail::by_segment<Op>{op}, R{T{}, 0u}, has_prefix);

        // The walk over the thread's items: a head writes the key of the run it starts and
        // the fold of the run it ends. The items again from the exchanges' shared memory
        // (keys only at heads): with keys and values held in registers through the block
        // scan and the look-back the kernel took 53 registers, with the keys read here 46,
        // with both 40 (ptxas -v, sm_90, int keys and float values; 4 blocks of 256
        // threads per multiprocessor against 6).
        unsigned run = has_prefix ? prefix.count : 0u; // runs started before item 0
        fold = has_prefix ? prefix.value : T{};        // of run - 1 up to here
        auto out_key = ranges::begin(out_keys);
        auto out_value = ranges::begin(out_values);
        value_exchange.reload_blocked(v);
        // Full: no element past the input's end among the items. Checked: some run the
        // thread writes may not fit the outputs. Run - 1 of the first run is 2^32 - 1,
        // never below the clamped cap_values.
        auto walk = [&](auto full, auto checked) {
    // No early exit from the loop: a `break` here left the loop rolled for 4 items
    // ("loop not unrolled", the items indexed at run time in local memory).
#pragma unroll
          for (unsigned j = 0; j < I; ++j) {
            if (!decltype(full)::value && first + j >= valid)
              continue;
            if (heads >> j & 1u) {
              if (!decltype(checked)::value || run < cap_keys)
                *(out_key + static_cast<DOK>(run)) = key_exchange.item(j);
              if (!decltype(checked)::value || run - 1 < cap_values)
                *(out_value + static_cast<DOV>(run - 1)) = fold;
              ++run;
              fold = v[j];
            } else {
              fold = op(fold, v[j]);
            }
          }
        };
        // A full tile's thread writes runs run .. end - 1 and the folds of runs run - 1 ..
        // end - 2: nearly always all within the outputs, so the walk that tests nothing per
        // head is the common one (not for the input's first thread, which has no run - 1).
        const unsigned end = run + total.count;
        if (valid == tile_size && run != 0 && end <= cap_keys && end - 1 <= cap_values)
          walk(std::true_type{}, std::false_type{});
        else if (valid == tile_size)
          walk(std::true_type{}, std::true_type{});
        else
          walk(std::false_type{}, std::true_type{});
        if (last_tile && valid - 1 - first < I) { // the thread holds the input's last element
          if (run - 1 < cap_values)
            *(out_value + static_cast<DOV>(run - 1)) = fold;
          *runs_at = run;
        }
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(n, P::block * P::items)}, {P::block}})(
      keys, values, out_keys, out_values, n, cap_keys32, cap_values32, runs_at.kernel, state);
  const unsigned runs = detail::readback<unsigned>(runs_at)[0];
  // Only an eq that is not an equivalence (its result changing between the count and the
  // pass) gets here with too many runs; the outputs have been written within their ends.
  if (runs > cap_keys || runs > cap_values)
    throw detail::too_many_runs(name, runs, cap_keys, cap_values);
  return runs;
}
} // namespace detail

// Writes each run's key and the fold of its values (see the top of this header); returns
// the number of runs.
template <class K, class V, class OK, class OV, class Eq = std::equal_to<>, class Op = std::plus<>>
std::size_t reduce_by_key(K &&keys, V &&values, OK &&out_keys, OV &&out_values, Eq eq = Eq{},
                          Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::reduce_by_key", keys);
  return detail::reduce_by_key_as("gpu::reduce_by_key", std::forward<K>(keys),
                                  std::forward<V>(values), std::forward<OK>(out_keys),
                                  std::forward<OV>(out_values), eq, op);
}

} // namespace gpu

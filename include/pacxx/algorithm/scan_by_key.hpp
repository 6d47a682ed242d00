// gpu::inclusive_scan_by_key(keys, values, out[, eq, op]) and
// gpu::exclusive_scan_by_key(keys, values, out, init[, eq, op]): scans that restart at
// every segment, a segment being a run of consecutive keys with eq(keys[i - 1], keys[i])
// (Thrust's semantics). The exclusive scan starts every segment at init:
// out[i] = init op values[s] op ... op values[i - 1], s the first index of i's segment.
//
// They are the single-pass scan (pacxx/agent/scan.hpp, decoupled look-back: one launch
// plus the tiny clear of the tiles' state) over (value, head flag) pairs with the
// segmented operator, so no look-back code of their own: the flag of element i is
// computed in the loads from keys[i - 1] and keys[i]. keys and values are any device
// ranges (views fused into the loads; values needs at least as many elements as keys),
// out a gpu::vector or a writable view over one (fused into the stores). out may be
// values (in place), never keys. The accumulator is std's: the values' value type for
// the inclusive scan, init's type for the exclusive one.
//
// With gpu::deterministic as the first argument they are deterministic as gpu's scans
// are (pacxx/algorithm/scan.hpp): the same bits on every run. Without it a floating-point
// segment may differ in its last bits from run to run from its 4th tile on.
#pragma once
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
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {

// A value and whether a segment starts at it (or, after the scan, anywhere in the
// elements it stands for).
template <class T> struct flagged {
  T value;
  unsigned head;
};

// The segmented operator: b's value alone if a segment starts in b, else a op b.
// Associative whenever op is.
template <class Op> struct segmented {
  Op op;
  template <class T> flagged<T> operator()(const flagged<T> &a, const flagged<T> &b) const {
    return flagged<T>{b.head ? b.value : op(a.value, b.value), a.head | b.head};
  }
};

// The tile state of a single pass over n elements in `extra` more bytes of scratch
// (at `*extra_at`, 16-byte aligned), its status words cleared (and the extra bytes too,
// in the same launch, with clear_extra; extra a multiple of 4 then).
template <class S, class P>
pacxx::tile_state<S> prepare_pass(const char *name, std::size_t n, std::size_t extra = 0,
                                  void **extra_at = nullptr, bool clear_extra = false) {
  const std::size_t tiles = pacxx::detail::ceil_div(n, P::block * P::items);
  if (tiles > 0xffffffffu)
    throw pacxx::error(std::string(name) + ": " + std::to_string(n) +
                       " elements are more tiles than a scan counts");
  const std::size_t bytes = (pacxx::tile_state<S>::bytes(tiles) + 15) / 16 * 16;
  char *memory = static_cast<char *>(pacxx::detail::scratch(bytes + extra));
  if (extra_at)
    *extra_at = memory + bytes;
  auto state = pacxx::tile_state<S>::at(memory, tiles);
  if (clear_extra) // the state's layout begins with the words clear_tiles zeroes
    clear_words(reinterpret_cast<unsigned *>(memory), (bytes + extra) / 4);
  else
    clear_tiles(state, tiles);
  return state;
}

template <class View>
inline std::size_t checked_size(const char *name, const char *what, View &v, std::size_t n) {
  // Unbounded values (Thrust's constant_iterator: view::repeat(1)) are as long as the keys.
  const std::size_t m = pacxx::detail::device_size_alongside(v, n);
  if (m < n)
    throw pacxx::error(std::string(name) + ": " + what + " has " + std::to_string(m) +
                       " elements, the keys " + std::to_string(n));
  return m;
}

// The tile loop of a scan that restarts where head(i) (device code): the single-pass
// scan of (value(i), head(i)) pairs under the segmented operator, write(i, x) storing
// the result of element i. Exclusive: a head carries init op value, so that the
// segmented inclusive scan gives init op values[s] op ... op values[i], and the store
// writes init at heads and the inclusive value of i - 1 elsewhere, which is what the
// exclusive scan of pairs hands it. (Reading values[i - 1] in the loads instead would
// race with the previous tile's stores when the output is the values.)
template <class P, class T, bool Exclusive, class Head, class Value, class Write, class Op>
__attribute__((always_inline)) inline void
scan_flagged_tile(Head &&head, Value &&value, Write &&write, std::size_t n,
                  const pacxx::tile_state<flagged<T>> &s, T init, Op op) {
  using F = flagged<T>;
  auto load = [&](std::size_t i) -> F {
    const bool h = head(i);
    const T v = value(i);
    return F{Exclusive && h ? op(init, v) : v, h ? 1u : 0u};
  };
  auto store = [&](std::size_t i, const F &f) { write(i, Exclusive && head(i) ? init : f.value); };
  pacxx::agent::scan_tile<P, F, Exclusive>(load, store, n, s, segmented<Op>{op}, F{init, 0u});
}

template <class T, bool Exclusive, bool Ordered, class K, class V, class O, class Eq, class Op>
void scan_by_key(const char *name, K &&keys_in, V &&values_in, O &&out_in, T init, Eq eq, Op op) {
  static_assert(pacxx::is_device_copyable<Op>::value && pacxx::is_device_copyable<Eq>::value,
                "gpu scans by key: eq and op must be trivially copyable (capture values only)");
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu scans by key: the accumulator type must be device copyable");
  using F = flagged<T>;
  using P = pacxx::policy::scan_for<F, Ordered>;
  auto keys = pacxx::detail::device_view(std::forward<K>(keys_in));
  auto values = pacxx::detail::device_view(std::forward<V>(values_in));
  auto out = pacxx::detail::device_view(std::forward<O>(out_in));
  const std::size_t n = pacxx::detail::leading_size(keys, values);
  checked_size(name, "values", values, n);
  checked_size(name, "the output", out, n);
  if (n == 0)
    return;
  auto state = prepare_pass<F, P>(name, n);
  pacxx::kernel(
      [eq, op, init](const auto &keys_view, const auto &values_view, const auto &out_view,
                     std::size_t n, const pacxx::tile_state<F> &s) {
        auto keys = keys_view;
        auto values = values_view;
        auto out = out_view;
        auto key = ranges::begin(keys);
        auto value = ranges::begin(values);
        auto result = ranges::begin(out);
        using DK = ranges::range_difference_t<decltype(keys)>;
        using DV = ranges::range_difference_t<decltype(values)>;
        using DO = ranges::range_difference_t<decltype(out)>;
        auto head = [&](std::size_t i) -> bool {
          const std::size_t before = i == 0 ? 0 : i - 1;
          return i == 0 || !eq(*(key + static_cast<DK>(before)), *(key + static_cast<DK>(i)));
        };
        scan_flagged_tile<P, T, Exclusive>(
            head, [&](std::size_t i) { return T(*(value + static_cast<DV>(i))); },
            [&](std::size_t i, const T &x) { *(result + static_cast<DO>(i)) = x; }, n, s, init, op);
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(n, P::block * P::items)}, {P::block}})(
      keys, values, out, n, state);
}

} // namespace detail

// out[i] = values[s] op ... op values[i], s the first index of i's segment.
template <class K, class V, class O, class Eq = std::equal_to<>, class Op = std::plus<>,
          class = typename std::enable_if<!detail::is_deterministic_tag<K>::value>::type>
void inclusive_scan_by_key(K &&keys, V &&values, O &&out, Eq eq = Eq{}, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::inclusive_scan_by_key", keys);
  using T = ranges::range_value_t<decltype(pacxx::detail::device_view(std::declval<V>()))>;
  detail::scan_by_key<T, false, false>("gpu::inclusive_scan_by_key", std::forward<K>(keys),
                                       std::forward<V>(values), std::forward<O>(out), T{}, eq, op);
}

// out[i] = init at the first index of a segment, else init op values[s] op ... op
// values[i - 1].
template <class K, class V, class O, class T, class Eq = std::equal_to<>, class Op = std::plus<>,
          class = typename std::enable_if<!detail::is_deterministic_tag<K>::value>::type>
void exclusive_scan_by_key(K &&keys, V &&values, O &&out, T init, Eq eq = Eq{}, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::exclusive_scan_by_key", keys);
  detail::scan_by_key<T, true, false>("gpu::exclusive_scan_by_key", std::forward<K>(keys),
                                      std::forward<V>(values), std::forward<O>(out), init, eq, op);
}

// The same, deterministic: the same bits on every run.
template <class K, class V, class O, class Eq = std::equal_to<>, class Op = std::plus<>>
void inclusive_scan_by_key(deterministic_t, K &&keys, V &&values, O &&out, Eq eq = Eq{},
                           Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::inclusive_scan_by_key", keys);
  using T = ranges::range_value_t<decltype(pacxx::detail::device_view(std::declval<V>()))>;
  detail::scan_by_key<T, false, true>("gpu::inclusive_scan_by_key", std::forward<K>(keys),
                                      std::forward<V>(values), std::forward<O>(out), T{}, eq, op);
}
// The exclusive scan by key, deterministic: the same bits on every run.
template <class K, class V, class O, class T, class Eq = std::equal_to<>, class Op = std::plus<>>
void exclusive_scan_by_key(deterministic_t, K &&keys, V &&values, O &&out, T init, Eq eq = Eq{},
                           Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::exclusive_scan_by_key", keys);
  detail::scan_by_key<T, true, true>("gpu::exclusive_scan_by_key", std::forward<K>(keys),
                                     std::forward<V>(values), std::forward<O>(out), init, eq, op);
}

} // namespace gpu

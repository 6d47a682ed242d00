// Scatter with a combining operation (Accelerate's permute, Kokkos' ScatterView):
//
//   gpu::scatter_reduce(values, map, out, op)                for every i of values:
//                                                            out[map[i]] = op(out[map[i]],
//                                                            values[i])
//   gpu::scatter_reduce(gpu::atomic, values, map, out, op)   the same through device atomics
//
// values and map are any device ranges (views fused; map has at least values.size()
// integers), out a gpu::vector or a writable view over one; targets no value maps to keep
// their element. A map entry outside [0, out.size()) is a pacxx::error naming the first
// such index, thrown before out is touched (one check launch and an 8-byte read back).
// op must be associative and commutative; gpu::minimum<> and gpu::maximum<> are given
// here beside std::plus<>.
//
// Which path is deterministic:
// - Without a tag (the default) the result is the same bits on every run, also for float
//   +: the (map, value) pairs are copied out with the check, sorted by map with the
//   stable radix sort (gpu::sort_by_key over the bits the targets need: equal targets keep
//   the values' index order), then a warp per target (a block per target where the mean
//   run is long, as gpu::segmented_reduce) folds its run in a fixed order and combines
//   the fold into out[t]. Launches: 1 (check and copy) + the sort's (2 + ceil(bits / 8))
//   + 1. The fold's association is fixed but not the host's left-to-right order, so a
//   float sum may differ from a sequential host loop in its last bits (integers are exact).
// - With gpu::atomic: one check launch, then one launch of an atomic per value
//   (pacxx::atomic_add / atomic_min / atomic_max). Faster (no sort, no copies), but float
//   + depends on the order in which the atomics land: its last bits may change from run
//   to run. Integer +, and min / max of any type, are exact and deterministic either way.
//   Only op and value types with a device atomic compile: std::plus, gpu::minimum or
//   gpu::maximum over int, unsigned, long, long long (signed and unsigned), float or
//   double, and an out whose elements are those objects in memory (not a
//   transform_output).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>
#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>

#include "pacxx/algorithm/binary_search.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/algorithm/reduce.hpp"
#include "pacxx/algorithm/segmented_reduce.hpp"
#include "pacxx/algorithm/sort.hpp"
#include "pacxx/atomic.hpp"
#include "pacxx/block/block_reduce.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/vector.hpp"

namespace gpu {

// The tag of the atomic variant (see the header).
struct atomic_t {
  explicit constexpr atomic_t() = default;
};
// The tag that selects gpu::scatter_reduce's path through device atomics.
constexpr atomic_t atomic{};

// The lesser / greater of two values (CUDA's cuda::minimum, cuda::maximum), for the
// reductions whose op has to be recognised (the atomic scatter).
template <class T = void> struct minimum {
  // The lesser of a and b (a if neither is less).
  T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
// gpu::minimum<> for any argument type.
template <> struct minimum<void> {
  // The lesser of a and b (a if neither is less).
  template <class T> T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
// The greater of two values (CUDA's cuda::maximum).
template <class T = void> struct maximum {
  // The greater of a and b (a if neither is greater).
  T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
// gpu::maximum<> for any argument type.
template <> struct maximum<void> {
  // The greater of a and b (a if neither is greater).
  template <class T> T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};

namespace detail {

// Which device atomic applies op: 1 add, 2 min, 3 max, 0 none.
template <class Op, class T> struct atomic_kind : std::integral_constant<int, 0> {};
template <class T> struct atomic_kind<std::plus<>, T> : std::integral_constant<int, 1> {};
template <class T> struct atomic_kind<std::plus<T>, T> : std::integral_constant<int, 1> {};
template <class T> struct atomic_kind<minimum<>, T> : std::integral_constant<int, 2> {};
template <class T> struct atomic_kind<minimum<T>, T> : std::integral_constant<int, 2> {};
template <class T> struct atomic_kind<maximum<>, T> : std::integral_constant<int, 3> {};
template <class T> struct atomic_kind<maximum<T>, T> : std::integral_constant<int, 3> {};
template <class T> void atomic_combine(T *p, T v, std::integral_constant<int, 1>) {
  pacxx::atomic_add(p, v);
}
template <class T> void atomic_combine(T *p, T v, std::integral_constant<int, 2>) {
  pacxx::atomic_min(p, v);
}
template <class T> void atomic_combine(T *p, T v, std::integral_constant<int, 3>) {
  pacxx::atomic_max(p, v);
}

// Checks map[0, n) against [0, m) in one launch, calling each(values, i, map[i]) for the
// good entries; returns the first bad index, ~0 where all are good. (values travels as a
// kernel argument of its own: a view need not be trivially copyable inside a struct.)
template <class M, class V, class Each>
unsigned long long check_map(const M &map, const V &values, std::size_t n, std::size_t m,
                             const Each &each) {
  using U = unsigned long long;
  U *bad = static_cast<U *>(pacxx::detail::scratch(sizeof(U)));
  pacxx::detail::fill_on_device(bad, 0xff, sizeof(U));
  using P = pacxx::policy::elementwise;
  pacxx::kernel(
      [](const auto &map_view, const auto &values, const auto &each_arg, std::size_t n,
         std::size_t m, U *bad) {
        auto mp = map_view;
        auto e = each_arg;
        auto first = ranges::begin(mp);
        using D = ranges::range_difference_t<decltype(mp)>;
        pacxx::detail::for_each_index<P>(n, [&](std::size_t i) {
          const long long t = static_cast<long long>(*(first + static_cast<D>(i)));
          if (t < 0 || static_cast<U>(t) >= m)
            pacxx::atomic_min(bad, U(i));
          else
            e(values, i, static_cast<std::size_t>(t));
        });
      },
      pacxx::detail::elementwise_grid<P>(n))(map, values, each, n, m, bad);
  U result;
  pacxx::detail::copy_to_host(&result, bad, sizeof(U));
  return result;
}

struct no_copy {
  template <class V> void operator()(const V &, std::size_t, std::size_t) const {}
};
// Copies (map[i], values[i]) into the pairs to sort.
template <class K, class T> struct copy_pair {
  K *keys;
  T *vals;
  template <class V> void operator()(const V &values, std::size_t i, std::size_t t) const {
    auto v = values;
    keys[i] = static_cast<K>(t);
    vals[i] = T(*(ranges::begin(v) + static_cast<ranges::range_difference_t<V>>(i)));
  }
};

template <class V, class M, class R>
void check_scatter(const char *name, const V &values, const M &map, const R &out, std::size_t &n,
                   std::size_t &m) {
  static_assert(std::is_integral<ranges::range_value_t<M>>::value,
                "gpu::scatter_reduce: the map must hold integers");
  n = pacxx::detail::device_size(values);
  m = pacxx::detail::device_size(out);
  const std::size_t k = pacxx::detail::device_size_alongside(map, n);
  if (k < n)
    throw pacxx::error(std::string(name) + ": the map has " + std::to_string(k) +
                       " elements, the values " + std::to_string(n));
}
[[noreturn]] inline void bad_map(const char *name, unsigned long long i, std::size_t m) {
  throw pacxx::error(std::string(name) + ": map[" + std::to_string(i) +
                     "] is outside the output's " + std::to_string(m) +
                     " elements; the output is unchanged");
}

// The fold of a target's lanes: the block's (every thread of it calls this) or the warp's.
template <std::size_t B, class M, class Op>
M fold_lanes(M x, Op op, unsigned, std::true_type /*by block*/) {
  pacxx::block_reduce<M, B> block;
  return block.reduce(x, op, B);
}
template <std::size_t B, class M, class Op> M fold_lanes(M x, Op op, unsigned w, std::false_type) {
  return pacxx::warp::reduce(x, op, w);
}

// out[t] = op(out[t], fold of the sorted values of target t), a warp (ByBlock: a block)
// per target; the runs are found by binary search in the sorted keys.
template <bool ByBlock, class T, class Op, class KV, class VV, class R>
void fold_targets(const KV &keys, const VV &vals, const R &out, std::size_t n, std::size_t m,
                  Op op) {
  constexpr std::size_t B = pacxx::policy::segmented_reduce::block,
                        per_block = ByBlock ? 1 : B / 32;
  // Run t of the sorted keys is [offsets[t], offsets[t + 1]).
  auto offsets = ranges::views::iota(std::size_t(0), m + 1) |
                 ranges::views::transform(
                     make_search<search_kind::lower>(keys, n, std::less<>{}, std::false_type{}));
  pacxx::kernel(
      [op](const auto &v, const auto &o, const auto &r, std::size_t m) {
        const auto f = make_segment_folder(v, o, r, m, T(), op);
        const std::size_t l = pacxx::Thread::get().local.x;
        const std::size_t W = ByBlock ? B : pacxx::warp::size();
        if (!ByBlock && W == 1 && l >= per_block)
          return; // a warp of one: the first per_block work-items take a target each (no barrier)
        const std::size_t t = pacxx::Block::get().index.x * per_block + l / W;
        maybe<T> x = f.fold(t, l % W, W);
        x = fold_lanes<B>(x, maybe_op<Op>{op}, static_cast<unsigned>(W),
                          std::integral_constant<bool, ByBlock>{});
        if (l % W == 0 && t < m && x.have) {
          auto out = r;
          auto at = ranges::begin(out) + static_cast<ranges::range_difference_t<decltype(out)>>(t);
          *at = op(T(*at), x.value);
        }
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(m, per_block)}, {B}})(vals, offsets, out, m);
}

} // namespace detail

// out[map[i]] = op(out[map[i]], values[i]) for every i of values, deterministically (the
// same bits on every run): check and copy, a stable radix sort by target, a fold per
// target. A map shorter than values, or an entry outside out (checked before out is
// touched), is a pacxx::error; at most 2^32 - 1 output elements. op associative and
// commutative.
template <class Values, class Map, class Out, class Op>
void scatter_reduce(Values &&values, Map &&map, Out &&out, Op op) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::scatter_reduce", values);
  static_assert(pacxx::is_device_copyable<Op>::value,
                "gpu::scatter_reduce: the operation must be trivially copyable (capture values "
                "and device pointers only)");
  const char *name = "gpu::scatter_reduce";
  auto in = pacxx::detail::device_view(std::forward<Values>(values));
  auto mp = pacxx::detail::device_view(std::forward<Map>(map));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  using T = ranges::range_value_t<decltype(dst)>;
  std::size_t n, m;
  detail::check_scatter(name, in, mp, dst, n, m);
  if (n == 0)
    return;
  // Keys as narrow as the targets allow: fewer radix passes.
  using K = unsigned;
  if (m > std::size_t(~K(0)))
    throw pacxx::error(std::string(name) + ": at most 2^32 - 1 output elements");
  vector<K> keys(n);
  vector<T> vals(n);
  using KV = decltype(pacxx::detail::device_view(keys));
  const detail::copy_pair<K, T> copy{keys.data(), vals.data()};
  const unsigned long long bad = detail::check_map(mp, in, n, m, copy);
  if (bad != ~0ull)
    detail::bad_map(name, bad, m);
  int bits = 1;
  while (bits < 32 && (std::size_t(1) << bits) < m)
    ++bits;
  sort_by_key(keys, vals, 0, bits);
  const KV kv = pacxx::detail::device_view(keys);
  if (n / m >= pacxx::policy::segmented_reduce::block_min_mean)
    detail::fold_targets<true, T>(kv, pacxx::detail::device_view(vals), dst, n, m, op);
  else
    detail::fold_targets<false, T>(kv, pacxx::detail::device_view(vals), dst, n, m, op);
}

// The same through device atomics: one check launch, then one atomic per value. Faster, but
// a float sum's last bits may change from run to run. Compiles only for the ops and types
// with a device atomic (std::plus, gpu::minimum, gpu::maximum); same errors as the
// deterministic form.
template <class Values, class Map, class Out, class Op>
void scatter_reduce(atomic_t, Values &&values, Map &&map, Out &&out, Op) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::scatter_reduce", values);
  const char *name = "gpu::scatter_reduce(gpu::atomic, ...)";
  auto in = pacxx::detail::device_view(std::forward<Values>(values));
  auto mp = pacxx::detail::device_view(std::forward<Map>(map));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  using R = ranges::range_reference_t<decltype(dst)>;
  using T = typename std::decay<R>::type;
  constexpr int kind = detail::atomic_kind<Op, T>::value;
  static_assert(
      kind != 0 && pacxx::detail::is_atomic_type<T>::value,
      "gpu::scatter_reduce(gpu::atomic, ...): device atomics exist for std::plus, "
      "gpu::minimum and gpu::maximum over int, unsigned, long, long long (signed and "
      "unsigned), float and double; use the deterministic gpu::scatter_reduce(values, map, out, "
      "op) for other operations and types");
  static_assert(std::is_lvalue_reference<R>::value,
                "gpu::scatter_reduce(gpu::atomic, ...): the output's elements must be objects in "
                "device memory (a gpu::vector or a view that keeps its elements' addresses), "
                "not computed or write-only views");
  std::size_t n, m;
  detail::check_scatter(name, in, mp, dst, n, m);
  if (n == 0)
    return;
  const unsigned long long bad = detail::check_map(mp, mp, n, m, detail::no_copy{});
  if (bad != ~0ull)
    detail::bad_map(name, bad, m);
  using P = pacxx::policy::elementwise;
  pacxx::kernel(
      [](const auto &in_view, const auto &map_view, const auto &out_view, std::size_t n) {
        auto v = in_view;
        auto mp = map_view;
        auto out = out_view;
        using DV = ranges::range_difference_t<decltype(v)>;
        using DM = ranges::range_difference_t<decltype(mp)>;
        using DO = ranges::range_difference_t<decltype(out)>;
        pacxx::detail::for_each_index<P>(n, [&](std::size_t i) {
          const auto t = static_cast<DO>(*(ranges::begin(mp) + static_cast<DM>(i)));
          detail::atomic_combine(&*(ranges::begin(out) + t),
                                 T(*(ranges::begin(v) + static_cast<DV>(i))),
                                 std::integral_constant<int, kind>{});
        });
      },
      pacxx::detail::elementwise_grid<P>(n))(in, mp, dst, n);
}

} // namespace gpu

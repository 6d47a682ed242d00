// Selection: gpu::top_k, gpu::nth_element, gpu::partial_sort.
//
//   gpu::top_k(in, k, out_values[, out_indices][, comp])
//       The k first elements of in in the order comp (default std::greater<>: the k
//       largest), sorted by comp, ties in input order (as a stable sort of in, cut at
//       k), written to the first k elements of out_values, and their positions in in to
//       out_indices. k > size of in, or an output with fewer than k elements, is a
//       pacxx::error.
//   gpu::nth_element(v, nth[, comp])
//       Reorders the gpu::vector v so that v[nth] is the element a sort by comp would put
//       there, no element before it after it in comp's order and none after it before it
//       (std::nth_element). nth == v.size() does nothing, as std's; beyond is an error.
//   gpu::partial_sort(v, k[, comp])
//       The k first elements of v in comp's order, sorted, at the front (std::partial_sort;
//       the rest in unspecified order).
//
// Arithmetic keys with std::less / std::greater (comparators that are radix orders, as
// gpu::sort's) are selected by radix select, not sorted: the key with the wanted rank is
// found one 8-bit digit at a time from the top, each digit by a 256-bin histogram of the
// keys that share the digits found so far (gpu::histogram_even over a digit view: two
// launches and 2 KiB read back per digit, 4 digits for 32-bit keys, 8 for 64-bit), so
// the counts of keys before, at and after it are known exactly; then
//   top_k         compacts the keys before it and the first ones equal to it (two
//                 compactions: tile clear and pass each), then sorts the k results
//                 (a radix sort by key of k elements, skipped for k = 1);
//   nth_element   three-way partitions v around it (pacxx/algorithm/partition_three_way.hpp);
//   partial_sort  is nth_element for rank k - 1, then a sort of the first k.
// Any other comparator (user structs, user orders) sorts the whole range (stable merge
// sort) and cuts it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include "pacxx/agent/radix_sort.hpp"
#include "pacxx/algorithm/copy.hpp"
#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/algorithm/histogram.hpp"
#include "pacxx/algorithm/partition_three_way.hpp"
#include "pacxx/algorithm/sort.hpp"
#include "pacxx/algorithm/transform.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

// The bits of key k in the order of comp (radix_order 1: ascending, 2: descending).
template <class K, int Order> struct select_bits {
  using B = typename pacxx::agent::radix_key<K>::bits_type;
  B operator()(const K &k) const {
    const B b = pacxx::agent::radix_key<K>::bits(k);
    return Order == 2 ? B(~b) : b;
  }
};

// Digit of the bits at `shift` for keys whose bits under `mask` are `prefix`; 256 (no
// bin) for the others.
template <class K, int Order> struct select_digit {
  using B = typename select_bits<K, Order>::B;
  B prefix, mask;
  unsigned shift;
  unsigned operator()(const K &k) const {
    const B b = select_bits<K, Order>{}(k);
    return (b & mask) == prefix ? static_cast<unsigned>(b >> shift) & 255u : 256u;
  }
};

// The selected key's bits and the numbers of keys before it and equal to it.
template <class B> struct radix_selection {
  B bits;
  std::size_t before, equal;
};

// The bits of the key of rank r (0-based, in comp's order) among the n elements of the
// device view src: one histogram per 8-bit digit, top digit first.
template <class K, int Order, class V>
radix_selection<typename select_bits<K, Order>::B> radix_select(const V &src, std::size_t r) {
  using B = typename select_bits<K, Order>::B;
  B prefix = 0, mask = 0;
  std::size_t before = 0, equal = 0;
  for (int shift = int(sizeof(B) * 8) - 8; shift >= 0; shift -= 8) {
    const select_digit<K, Order> digit{prefix, mask, static_cast<unsigned>(shift)};
    const std::vector<unsigned long long> h =
        gpu::copy(gpu::histogram_even(src | ranges::views::transform(digit), 256, 0u, 256u));
    unsigned d = 0;
    for (; d < 255u && r >= h[d]; ++d) { // rank r is in bin d (the last bin, if not before)
      r -= h[d];
      before += h[d];
    }
    equal = h[d];
    prefix = B(prefix | (B(d) << shift));
    mask = B(mask | (B(255u) << shift));
  }
  return {prefix, before, equal};
}

// Tests of a key against the selected bits: before it, equal to it.
template <class K, int Order, class B> struct bits_before {
  B bits;
  bool operator()(const K &k) const { return select_bits<K, Order>{}(k) < bits; }
};
template <class K, int Order, class B> struct bits_equal {
  B bits;
  bool operator()(const K &k) const { return select_bits<K, Order>{}(k) == bits; }
};
// The same on (key, index) pairs.
template <class Test> struct on_first {
  Test test;
  template <class P> bool operator()(const P &p) const { return test(std::get<0>(p)); }
};

// Compacts the elements of src (n) that sel selects into out, which the caller knows
// has room for them (no count): tile clear and pass.
template <class V, class Sel, class Out>
std::size_t compact_known(const char *name, const V &src, std::size_t n, Sel sel, const Out &out) {
  using U = ranges::range_value_t<V>;
  using P = pacxx::policy::select_for<U>;
  return select_with(n, [&](auto c_type) -> std::size_t {
    using C = decltype(c_type);
    const select_memory<C> mem = select_setup<P, C>(name, n);
    clear_tiles(mem);
    return select_pass<P, false>(src, n, sel, out, out, mem);
  });
}

template <class C, class K>
using radix_selectable = std::integral_constant<bool, pacxx::agent::is_radix_key<K>::value &&
                                                          radix_order_t<C, K>::value != 0>;

// top_k into the new vectors vals and idx (k elements each), sorted by comp.
template <class K, class Comp, class V>
void top_k_into(const char *name, const V &src, std::size_t n, std::size_t k, vector<K> &vals,
                vector<std::size_t> &idx, Comp comp, std::true_type /*radix*/) {
  constexpr int Order = radix_order_t<Comp, K>::value;
  using B = typename select_bits<K, Order>::B;
  const radix_selection<B> s = radix_select<K, Order>(src, k - 1);
  auto pairs = ranges::views::zip(src, ranges::views::iota(std::size_t(0), n));
  auto out = ranges::views::zip(pacxx::detail::device_view(vals), pacxx::detail::device_view(idx));
  if (s.before > 0)
    compact_known(name, pairs, n, select_if<on_first<bits_before<K, Order, B>>>{{{s.bits}}}, out);
  const std::size_t need = k - s.before;
  // The equal keys to a buffer of all of them (their number is known), the first `need`
  // moved behind the others (device copies).
  vector<K> eq_vals(s.equal);
  vector<std::size_t> eq_idx(s.equal);
  compact_known(
      name, pairs, n, select_if<on_first<bits_equal<K, Order, B>>>{{{s.bits}}},
      ranges::views::zip(pacxx::detail::device_view(eq_vals), pacxx::detail::device_view(eq_idx)));
  pacxx::detail::copy_on_device(vals.data() + s.before, eq_vals.data(), need * sizeof(K));
  pacxx::detail::copy_on_device(idx.data() + s.before, eq_idx.data(), need * sizeof(std::size_t));
  if (k > 1)
    gpu::sort_by_key(vals, idx, comp);
}
template <class K, class Comp, class V>
void top_k_into(const char *, const V &src, std::size_t n, std::size_t k, vector<K> &vals,
                vector<std::size_t> &idx, Comp comp, std::false_type /*radix*/) {
  vector<K> all(n);
  vector<std::size_t> pos(n);
  gpu::transform(src, all, identity{});
  gpu::transform(ranges::views::iota(std::size_t(0), n), pos, identity{});
  gpu::sort_by_key(all, pos, comp);
  pacxx::detail::copy_on_device(vals.data(), all.data(), k * sizeof(K));
  pacxx::detail::copy_on_device(idx.data(), pos.data(), k * sizeof(std::size_t));
}

template <class D> void check_output(const char *name, const char *what, D &d, std::size_t k) {
  const std::size_t m = pacxx::detail::device_size(d);
  if (m < k)
    throw pacxx::error(std::string(name) + ": " + what + " has " + std::to_string(m) +
                       " elements, fewer than k = " + std::to_string(k));
}

template <class In, class OutV, class OutI, class Comp>
void top_k_impl(In &&in, std::size_t k, OutV &&out_values, OutI *out_indices, Comp comp) {
  const char *name = "gpu::top_k";
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto dv = pacxx::detail::device_view(std::forward<OutV>(out_values));
  const std::size_t n = pacxx::detail::device_size(src);
  if (k > n)
    throw pacxx::error(std::string(name) + ": k = " + std::to_string(k) + " of " +
                       std::to_string(n) + " elements");
  check_output(name, "out_values", dv, k);
  if (out_indices)
    check_output(name, "out_indices", *out_indices, k);
  if (k == 0)
    return;
  using K = ranges::range_value_t<decltype(src)>;
  vector<K> vals(k);
  vector<std::size_t> idx(k);
  top_k_into(name, src, n, k, vals, idx, comp, radix_selectable<Comp, K>{});
  gpu::transform(pacxx::detail::device_view(vals), dv, identity{});
  if (out_indices)
    gpu::transform(pacxx::detail::device_view(idx), *out_indices, identity{});
}

template <class T, class Comp>
void nth_element_impl(const char *, vector<T> &v, std::size_t nth, Comp comp, std::false_type) {
  (void)nth;
  gpu::sort(v, comp);
}
template <class T, class Comp>
void nth_element_impl(const char *name, vector<T> &v, std::size_t nth, Comp, std::true_type) {
  constexpr int Order = radix_order_t<Comp, T>::value;
  using B = typename select_bits<T, Order>::B;
  const std::size_t n = v.size();
  vector<T> copy(v); // a device copy, no launch
  auto src = pacxx::detail::device_view(copy);
  const radix_selection<B> s = radix_select<T, Order>(src, nth);
  auto dst = pacxx::detail::device_view(v);
  partition_three_way_into(name, src, dst | ranges::views::take(s.before),
                           dst | ranges::views::slice(s.before, s.before + s.equal),
                           dst | ranges::views::drop(s.before + s.equal),
                           bits_before<T, Order, B>{s.bits}, bits_equal<T, Order, B>{s.bits}, true);
  (void)n;
}

template <class T> void check_rank(const char *name, const vector<T> &v, std::size_t r) {
  if (r > v.size())
    throw pacxx::error(std::string(name) + ": position " + std::to_string(r) + " of a vector of " +
                       std::to_string(v.size()) + " elements");
}

} // namespace detail

/// The k first elements of in in comp's order (default: the k largest), sorted, ties in
/// input order, to out_values (see the file's comment).
template <class In, class OutV, class Comp = std::greater<>,
          class = typename std::enable_if<!ranges::range<Comp>>::type>
void top_k(In &&in, std::size_t k, OutV &&out_values, Comp comp = {}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::top_k", in);
  using I = ranges::views::all_t<vector<std::size_t> &>;
  detail::top_k_impl(std::forward<In>(in), k, std::forward<OutV>(out_values),
                     static_cast<I *>(nullptr), comp);
}

/// The same, with the positions in in of the selected elements to out_indices (a
/// gpu::vector or writable view of an integer type).
template <class In, class OutV, class OutI, class Comp = std::greater<>,
          class = typename std::enable_if<ranges::range<OutI>>::type>
void top_k(In &&in, std::size_t k, OutV &&out_values, OutI &&out_indices, Comp comp = {}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::top_k", in);
  auto di = pacxx::detail::device_view(std::forward<OutI>(out_indices));
  detail::top_k_impl(std::forward<In>(in), k, std::forward<OutV>(out_values), &di, comp);
}

/// Reorders v so that v[nth] is what a sort by comp puts there, with nothing after it in
/// comp's order before it and nothing before it after it (std::nth_element).
template <class T, class Comp = std::less<>>
void nth_element(vector<T> &v, std::size_t nth, Comp comp = {}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::nth_element", v);
  detail::check_rank("gpu::nth_element", v, nth);
  if (nth == v.size())
    return;
  detail::nth_element_impl("gpu::nth_element", v, nth, comp, detail::radix_selectable<Comp, T>{});
}

/// Puts the k first elements of v in comp's order, sorted, at its front
/// (std::partial_sort; the others follow in unspecified order).
template <class T, class Comp = std::less<>>
void partial_sort(vector<T> &v, std::size_t k, Comp comp = {}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::partial_sort", v);
  detail::check_rank("gpu::partial_sort", v, k);
  if (k == 0)
    return;
  if (!detail::radix_selectable<Comp, T>::value || k == v.size()) {
    gpu::sort(v, comp);
    return;
  }
  detail::nth_element_impl("gpu::partial_sort", v, k - 1, comp,
                           detail::radix_selectable<Comp, T>{});
  if (k > 1) {
    vector<T> head(k);
    pacxx::detail::copy_on_device(head.data(), v.data(), k * sizeof(T));
    gpu::sort(head, comp);
    pacxx::detail::copy_on_device(v.data(), head.data(), k * sizeof(T));
  }
}

} // namespace gpu

// gpu::sort, gpu::stable_sort and gpu::sort_by_key: in place on gpu::vectors.
//
//   gpu::sort(v)                       ascending
//   gpu::sort(v, comp)                 std::less<> / std::less<K>: ascending,
//                                      std::greater<> / std::greater<K>: descending
//   gpu::sort(v, begin_bit, end_bit)   ascending by bits [begin_bit, end_bit) of the keys'
//                                      radix order (CUB's bit range; the other bits are
//                                      ignored, equal keys keep their order)
//   gpu::stable_sort(v[, comp])        the same (every sort here is stable)
//   gpu::sort_by_key(keys, values[, comp])     values (any trivially copyable type)
//   gpu::sort_by_key(keys, values, begin_bit, end_bit)   follow their keys, stably
//
// Integer, float and double keys with those comparators are radix sorted
// (pacxx/algorithm/radix_sort.hpp: 2 + ceil(bits / 8) launches). Floating point keys:
// -0.0 and +0.0 are equal (they keep their input order), NaNs are kept: positive NaNs
// after +inf, negative ones before -inf (descending: the other way round), as CUB does.
// Every sort is stable: equal keys keep their input order.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>

#include "pacxx/agent/radix_sort.hpp"
#include "pacxx/algorithm/radix_sort.hpp"
#include "pacxx/error.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

// How a comparator orders radix keys: 1 ascending, 2 descending, 0 not a radix order.
template <class C, class K> struct radix_order : std::integral_constant<int, 0> {};
template <class K> struct radix_order<std::less<>, K> : std::integral_constant<int, 1> {};
template <class K> struct radix_order<std::less<K>, K> : std::integral_constant<int, 1> {};
template <class K> struct radix_order<std::greater<>, K> : std::integral_constant<int, 2> {};
template <class K> struct radix_order<std::greater<K>, K> : std::integral_constant<int, 2> {};
template <class C, class K>
using radix_order_t =
    std::integral_constant<int, pacxx::agent::is_radix_key<K>::value
                                    ? radix_order<typename std::decay<C>::type, K>::value
                                    : 0>;

template <class K, class V>
void sort_pairs(const char *name, K *keys, V *values, std::size_t n, int begin_bit, int end_bit,
                std::integral_constant<int, 1>) {
  radix_sort<K, V, false>(name, keys, values, n, begin_bit, end_bit);
}
template <class K, class V>
void sort_pairs(const char *name, K *keys, V *values, std::size_t n, int begin_bit, int end_bit,
                std::integral_constant<int, 2>) {
  radix_sort<K, V, true>(name, keys, values, n, begin_bit, end_bit);
}

template <class K, class V> void check_values(const char *name, vector<K> &keys, vector<V> &v) {
  if (v.size() < keys.size())
    throw pacxx::error(std::string(name) + ": the values have " + std::to_string(v.size()) +
                       " elements, the keys " + std::to_string(keys.size()));
}

} // namespace detail

template <class K, class Comp,
          class = typename std::enable_if<!std::is_integral<Comp>::value>::type>
void sort(vector<K> &v, Comp comp) {
  (void)comp;
  detail::sort_pairs<K, detail::no_values>("gpu::sort", v.data(), nullptr, v.size(), 0,
                                           int(sizeof(K) * 8), detail::radix_order_t<Comp, K>{});
}
template <class K> void sort(vector<K> &v) { sort(v, std::less<>{}); }
template <class K> void sort(vector<K> &v, int begin_bit, int end_bit) {
  detail::sort_pairs<K, detail::no_values>("gpu::sort", v.data(), nullptr, v.size(), begin_bit,
                                           end_bit, std::integral_constant<int, 1>{});
}

template <class K, class Comp> void stable_sort(vector<K> &v, Comp comp) { sort(v, comp); }
template <class K> void stable_sort(vector<K> &v) { sort(v, std::less<>{}); }

template <class K, class V, class Comp,
          class = typename std::enable_if<!std::is_integral<Comp>::value>::type>
void sort_by_key(vector<K> &keys, vector<V> &values, Comp comp) {
  (void)comp;
  const char *name = "gpu::sort_by_key";
  detail::check_values(name, keys, values);
  detail::sort_pairs<K, V>(name, keys.data(), values.data(), keys.size(), 0, int(sizeof(K) * 8),
                           detail::radix_order_t<Comp, K>{});
}
template <class K, class V> void sort_by_key(vector<K> &keys, vector<V> &values) {
  sort_by_key(keys, values, std::less<>{});
}
template <class K, class V>
void sort_by_key(vector<K> &keys, vector<V> &values, int begin_bit, int end_bit) {
  const char *name = "gpu::sort_by_key";
  detail::check_values(name, keys, values);
  detail::sort_pairs<K, V>(name, keys.data(), values.data(), keys.size(), begin_bit, end_bit,
                           std::integral_constant<int, 1>{});
}

} // namespace gpu

// gpu::sort, gpu::stable_sort and gpu::sort_by_key: in place on gpu::vectors.
//
//   gpu::sort(v)                       ascending
//   gpu::sort(v, comp)                 std::less<> / std::less<K>: ascending,
//                                      std::greater<> / std::greater<K>: descending
//   gpu::sort(v, begin_bit, end_bit)   ascending by bits [begin_bit, end_bit) of the keys'
//                                      radix order (CUB's bit range; the other bits are
//                                      ignored, equal keys keep their order)
//   gpu::stable_sort(v[, comp])        the same (every sort here is stable)
//   gpu::sort_by_key(keys, values[, comp])     values (any trivially copyable type, or a
//                                              view::zip of gpu::vectors)
//   gpu::sort_by_key(keys, values, begin_bit, end_bit)   follow their keys, stably
//
//   gpu::sort(v, comp, proj)           by proj(element) with comp
//   gpu::sort(view[, comp])            a writable view over gpu::vectors: zip (tuples),
//                                      reverse, slice, stride, take ... (also stable_sort,
//                                      and sort_by_key with keys or values as views)
//
// Integer, float and double keys with those comparators are radix sorted
// (pacxx/algorithm/radix_sort.hpp: 2 + ceil(bits / 8) launches). Any other strict weak
// ordering (user structs, user comparators, projections) is merge sorted
// (pacxx/algorithm/merge_sort.hpp: 1 + 2 * ceil(log2(tiles)) launches; sort_by_key packs
// keys and values into pairs first and unpacks them after, two launches more). A view is
// copied into a gpu::vector of its elements (tuples as packs of their parts) and written
// back after the sort, two launches more, and sorted as that vector would be: radix for
// arithmetic elements with std::less / std::greater, else merge. Floating point keys:
// -0.0 and +0.0 are equal (they keep their input order), NaNs are kept: positive NaNs
// after +inf, negative ones before -inf (descending: the other way round), as CUB does.
// Every sort is stable: equal keys keep their input order.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/concepts.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/agent/radix_sort.hpp"
#include "pacxx/algorithm/merge_sort.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/algorithm/radix_sort.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"
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

// Any other ordering: the merge sort, keys alone or with their values alongside.
template <class K, class Comp>
void sort_pairs(const char *, K *keys, no_values *, std::size_t n, int, int, Comp comp,
                std::integral_constant<int, 0>) {
  merge_sort(keys, n, comp);
}
template <class K, class V> struct key_value {
  K key;
  V value;
};
template <class Comp> struct by_key {
  Comp comp;
  template <class P> bool operator()(const P &a, const P &b) const { return comp(a.key, b.key); }
};
template <class K, class V, class Comp>
void sort_pairs(const char *, K *keys, V *values, std::size_t n, int, int, Comp comp,
                std::integral_constant<int, 0>) {
  using KV = key_value<K, V>;
  using P = pacxx::policy::elementwise;
  if (n <= 1)
    return;
  // Pairs of key and value sorted as one (two more launches: pack and unpack).
  vector<KV> pairs(n);
  pacxx::kernel(
      [](const K *k, const V *v, KV *kv, std::size_t n) {
        pacxx::detail::for_each_index<P>(n, [&](std::size_t i) { kv[i] = KV{k[i], v[i]}; });
      },
      pacxx::detail::elementwise_grid<P>(n))(keys, values, pairs.data(), n);
  merge_sort(pairs.data(), n, by_key<Comp>{comp});
  pacxx::kernel(
      [](K *k, V *v, const KV *kv, std::size_t n) {
        pacxx::detail::for_each_index<P>(n, [&](std::size_t i) {
          k[i] = kv[i].key;
          v[i] = kv[i].value;
        });
      },
      pacxx::detail::elementwise_grid<P>(n))(keys, values, pairs.data(), n);
}
// The radix orders with their comparator (unused: the order says it all).
template <class K, class V, class Comp, int O>
void sort_pairs(const char *name, K *keys, V *values, std::size_t n, int begin_bit, int end_bit,
                Comp, std::integral_constant<int, O> order) {
  sort_pairs(name, keys, values, n, begin_bit, end_bit, order);
}

// comp(proj(a), proj(b)).
template <class Comp, class Proj> struct projected {
  Comp comp;
  Proj proj;
  template <class T> bool operator()(const T &a, const T &b) const {
    return comp(proj(a), proj(b));
  }
};

// A writable view (a zip of gpu::vectors, a reverse, slice or stride of one ...) is
// sorted as a gpu::vector of its elements: packed before the sort and written back after
// it (two launches more). Elements that are tuples (a zip's) travel as a trivially
// copyable pack of their parts (pacxx::detail::arg_pack) and are compared as the view's
// value type; any other element travels as its value type, so that arithmetic keys keep
// the radix sort.
template <class Tuple, class Seq> struct pod_of;
template <class Tuple, std::size_t... I> struct pod_of<Tuple, std::index_sequence<I...>> {
  using type = pacxx::detail::arg_pack<
      typename std::decay<typename std::tuple_element<I, Tuple>::type>::type...>;
  template <class T> static type pack(const T &t) {
    return pacxx::detail::make_arg_pack(std::get<I>(t)...);
  }
  template <class R> static void unpack(R &&r, const type &p) {
    int in_order[] = {0, (std::get<I>(r) = pacxx::detail::pack_get<I>::get(p), 0)...};
    (void)in_order;
  }
  // The view's value type T again, made from a pack.
  template <class T> static T as(const type &p) { return T(pacxx::detail::pack_get<I>::get(p)...); }
};

// comp over packs, as the view's value type T.
template <class T, class Pod, class Comp> struct on_values {
  Comp comp;
  template <class Pack> bool operator()(const Pack &a, const Pack &b) const {
    return comp(Pod::template as<T>(a), Pod::template as<T>(b));
  }
};

template <class T, class = void> struct is_tuple_like : std::false_type {};
template <class T>
struct is_tuple_like<T,
                     typename pacxx::detail::make_void<decltype(std::tuple_size<T>::value)>::type>
    : std::true_type {};

// How the elements of value type T travel: tuples as packs of their parts.
template <class T, bool Tuple = is_tuple_like<T>::value> struct element_packing {
  using Pod = pod_of<T, std::make_index_sequence<std::tuple_size<T>::value>>;
  using Pack = typename Pod::type;
  template <class E> static Pack pack(const E &e) { return Pod::pack(e); }
  template <class R> static void unpack(R &&r, const Pack &p) {
    Pod::unpack(std::forward<R>(r), p);
  }
  template <class Comp> static on_values<T, Pod, Comp> compare(Comp comp) { return {comp}; }
};
// Anything else as its value type.
template <class T> struct element_packing<T, false> {
  using Pack = T;
  template <class E> static Pack pack(const E &e) { return Pack(e); }
  template <class R> static void unpack(R &&r, const Pack &p) { std::forward<R>(r) = p; }
  template <class Comp> static Comp compare(Comp comp) { return comp; }
};

template <class View> struct packed_view {
  using T = ranges::range_value_t<View>;
  using Packing = element_packing<T>;
  using Pack = typename Packing::Pack;
  static_assert(pacxx::warp::detail::moves_as_bytes<Pack>::value,
                "gpu sorts: a view's elements (or, for tuples, their parts) must be "
                "trivially copyable");
  using P = pacxx::policy::elementwise;

  // The first n elements of the view as packs (one launch).
  static vector<Pack> pack(const View &view, std::size_t n) {
    vector<Pack> packed(n);
    pacxx::kernel(
        [](const auto &view, Pack *out, std::size_t n) {
          auto v = view;
          auto first = ranges::begin(v);
          using D = ranges::range_difference_t<decltype(v)>;
          pacxx::detail::for_each_index<P>(
              n, [&](std::size_t i) { out[i] = Packing::pack(*(first + static_cast<D>(i))); });
        },
        pacxx::detail::elementwise_grid<P>(n))(view, packed.data(), n);
    return packed;
  }
  // Writes the packs back into the view's first n elements (one launch).
  static void unpack(const View &view, const vector<Pack> &packed, std::size_t n) {
    pacxx::kernel(
        [](const auto &view, const Pack *in, std::size_t n) {
          auto v = view;
          auto first = ranges::begin(v);
          using D = ranges::range_difference_t<decltype(v)>;
          pacxx::detail::for_each_index<P>(
              n, [&](std::size_t i) { Packing::unpack(*(first + static_cast<D>(i)), in[i]); });
        },
        pacxx::detail::elementwise_grid<P>(n))(view, packed.data(), n);
  }
};

// Sorts the packs of keys (with their values alongside, or no_values) by comp over the
// keys' elements: radix where the keys are arithmetic and comp a radix order, else merge.
template <class PK, class K, class V, class Comp>
void sort_packs(const char *name, K *keys, V *values, std::size_t n, Comp comp) {
  const auto c = PK::Packing::compare(comp);
  sort_pairs(name, keys, values, n, 0, int(sizeof(K) * 8), c, radix_order_t<decltype(c), K>{});
}

template <class K, class View, class Comp>
void sort_by_key_view(const char *name, vector<K> &keys, View &&values_in, Comp comp) {
  static_assert(!pacxx::detail::is_write_only<View>::value,
                "gpu::sort_by_key: the values are read and written; a write-only view "
                "(gpu::views::transform_output) cannot be sorted");
  auto values = pacxx::detail::device_view(std::forward<View>(values_in));
  using PV = packed_view<decltype(values)>;
  const std::size_t n = keys.size(), m = pacxx::detail::device_size_alongside(values, n);
  if (m < n)
    throw pacxx::error(std::string(name) + ": the values have " + std::to_string(m) +
                       " elements, the keys " + std::to_string(n));
  if (n <= 1)
    return;
  vector<typename PV::Pack> packed = PV::pack(values, n);
  sort_pairs(name, keys.data(), packed.data(), n, 0, int(sizeof(K) * 8), comp,
             radix_order_t<Comp, K>{});
  PV::unpack(values, packed, n);
}

// Keys given as a view (values a gpu::vector or a view): both packed, sorted as vectors,
// written back (four launches more than sorting gpu::vectors).
template <class KeysView, class Values, class Comp>
void sort_view_by_key(const char *name, KeysView &&keys_in, Values &&values_in, Comp comp) {
  static_assert(!pacxx::detail::is_write_only<KeysView>::value &&
                    !pacxx::detail::is_write_only<Values>::value,
                "gpu::sort_by_key: keys and values are read and written; a write-only view "
                "(gpu::views::transform_output) cannot be sorted");
  auto keys = pacxx::detail::device_view(std::forward<KeysView>(keys_in));
  auto values = pacxx::detail::device_view(std::forward<Values>(values_in));
  using PK = packed_view<decltype(keys)>;
  using PV = packed_view<decltype(values)>;
  const std::size_t n = pacxx::detail::device_size(keys);
  const std::size_t m = pacxx::detail::device_size_alongside(values, n);
  if (m < n)
    throw pacxx::error(std::string(name) + ": the values have " + std::to_string(m) +
                       " elements, the keys " + std::to_string(n));
  if (n <= 1)
    return;
  vector<typename PK::Pack> packed_keys = PK::pack(keys, n);
  vector<typename PV::Pack> packed_values = PV::pack(values, n);
  sort_packs<PK>(name, packed_keys.data(), packed_values.data(), n, comp);
  PK::unpack(keys, packed_keys, n);
  PV::unpack(values, packed_values, n);
}

// Sorts a writable view by comp over its elements (two launches more than sorting a
// gpu::vector of them: pack and unpack).
template <class View, class Comp> void sort_view(View &&view_in, Comp comp) {
  static_assert(!pacxx::detail::is_write_only<View>::value,
                "gpu::sort: the view is read and written; a write-only view "
                "(gpu::views::transform_output) cannot be sorted");
  auto view = pacxx::detail::device_view(std::forward<View>(view_in));
  using PV = packed_view<decltype(view)>;
  const std::size_t n = pacxx::detail::device_size(view);
  if (n <= 1)
    return;
  vector<typename PV::Pack> packed = PV::pack(view, n);
  sort_packs<PV>("gpu::sort", packed.data(), static_cast<no_values *>(nullptr), n, comp);
  PV::unpack(view, packed, n);
}

template <class V>
using if_values_view = typename std::enable_if<!is_vector<typename std::decay<V>::type>::value &&
                                               ranges::range<V>>::type;

template <class K, class V> void check_values(const char *name, vector<K> &keys, vector<V> &v) {
  if (v.size() < keys.size())
    throw pacxx::error(std::string(name) + ": the values have " + std::to_string(v.size()) +
                       " elements, the keys " + std::to_string(keys.size()));
}

} // namespace detail

// Sorts v in place by comp, stably. Integer, float and double keys with std::less /
// std::greater are radix sorted (2 + ceil(bits / 8) launches); any other strict weak
// ordering is merge sorted (1 + 2 * ceil(log2(tiles)) launches). comp must be trivially
// copyable.
template <class K, class Comp,
          class = typename std::enable_if<!std::is_integral<Comp>::value>::type>
void sort(vector<K> &v, Comp comp) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::sort", v);
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::sort: the comparison must be trivially copyable (capture values only)");
  detail::sort_pairs("gpu::sort", v.data(), static_cast<detail::no_values *>(nullptr), v.size(), 0,
                     int(sizeof(K) * 8), comp, detail::radix_order_t<Comp, K>{});
}
// Sorts by proj(element) with comp (a merge sort): e.g. structures by one of their fields.
template <class K, class Comp, class Proj,
          class = typename std::enable_if<!std::is_integral<Comp>::value>::type>
void sort(vector<K> &v, Comp comp, Proj proj) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::sort", v);
  static_assert(pacxx::is_device_copyable<Proj>::value,
                "gpu::sort: the projection must be trivially copyable (capture values only)");
  sort(v, detail::projected<Comp, Proj>{comp, proj});
}
// Sorts v ascending (std::less<>), stably.
template <class K> void sort(vector<K> &v) { sort(v, std::less<>{}); }
// Sorts v ascending by bits [begin_bit, end_bit) of the keys' radix order (CUB's bit range;
// equal keys under those bits keep their order). A range outside [0, bits of K] or with
// begin_bit > end_bit is a pacxx::error.
template <class K> void sort(vector<K> &v, int begin_bit, int end_bit) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::sort", v);
  detail::sort_pairs<K, detail::no_values>("gpu::sort", v.data(), nullptr, v.size(), begin_bit,
                                           end_bit, std::integral_constant<int, 1>{});
}

// A writable view over gpu::vectors: a zip (structures of arrays: sorted by comp over its
// tuples, merge sort), a reverse, slice, stride ... (radix or merge sort as a gpu::vector
// of its elements would be).
template <class View, class Comp, class = detail::if_values_view<View>,
          class = typename std::enable_if<!std::is_integral<Comp>::value>::type>
void sort(View &&v, Comp comp) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::sort", v);
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::sort: the comparison must be trivially copyable (capture values only)");
  detail::sort_view(std::forward<View>(v), comp);
}
// Sorts a writable view over gpu::vectors ascending (std::less<>), stably, as sort(view,
// comp).
template <class View, class = detail::if_values_view<View>> void sort(View &&v) {
  detail::sort_view(std::forward<View>(v), std::less<>{});
}
// gpu::sort(view, comp): every sort here is stable.
template <class View, class Comp, class = detail::if_values_view<View>,
          class = typename std::enable_if<!std::is_integral<Comp>::value>::type>
void stable_sort(View &&v, Comp comp) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::stable_sort", v);
  sort(std::forward<View>(v), comp);
}
// gpu::sort(view): every sort here is stable.
template <class View, class = detail::if_values_view<View>> void stable_sort(View &&v) {
  sort(std::forward<View>(v));
}

// gpu::sort(v, comp): every sort here is stable.
template <class K, class Comp> void stable_sort(vector<K> &v, Comp comp) { sort(v, comp); }
// gpu::sort(v, comp, proj): every sort here is stable.
template <class K, class Comp, class Proj> void stable_sort(vector<K> &v, Comp comp, Proj proj) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::stable_sort", v);
  sort(v, comp, proj);
}
// gpu::sort(v): every sort here is stable.
template <class K> void stable_sort(vector<K> &v) { sort(v, std::less<>{}); }

// Sorts keys in place by comp, stably, and moves each value with its key (radix or merge
// sort as gpu::sort; the merge sort packs and unpacks pairs, two launches more). Values
// shorter than keys are a pacxx::error.
template <class K, class V, class Comp,
          class = typename std::enable_if<!std::is_integral<Comp>::value>::type>
void sort_by_key(vector<K> &keys, vector<V> &values, Comp comp) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::sort_by_key", keys);
  static_assert(
      pacxx::is_device_copyable<Comp>::value,
      "gpu::sort_by_key: the comparison must be trivially copyable (capture values only)");
  const char *name = "gpu::sort_by_key";
  detail::check_values(name, keys, values);
  detail::sort_pairs(name, keys.data(), values.data(), keys.size(), 0, int(sizeof(K) * 8), comp,
                     detail::radix_order_t<Comp, K>{});
}
// sort_by_key(keys, values, std::less<>{}): ascending.
template <class K, class V> void sort_by_key(vector<K> &keys, vector<V> &values) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::sort_by_key", keys);
  sort_by_key(keys, values, std::less<>{});
}
// values: a writable view of tuples, e.g. view::zip(a, b) of gpu::vectors (structures of
// arrays); each part follows the keys.
template <class K, class View, class Comp, class = detail::if_values_view<View>,
          class = typename std::enable_if<!std::is_integral<Comp>::value>::type>
void sort_by_key(vector<K> &keys, View &&values, Comp comp) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::sort_by_key", keys);
  static_assert(
      pacxx::is_device_copyable<Comp>::value,
      "gpu::sort_by_key: the comparison must be trivially copyable (capture values only)");
  detail::sort_by_key_view("gpu::sort_by_key", keys, std::forward<View>(values), comp);
}
// sort_by_key(keys, view, std::less<>{}): ascending, the parts of the view's tuples
// following their keys.
template <class K, class View, class = detail::if_values_view<View>>
void sort_by_key(vector<K> &keys, View &&values) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::sort_by_key", keys);
  detail::sort_by_key_view("gpu::sort_by_key", keys, std::forward<View>(values), std::less<>{});
}
// keys: a writable view (reverse, slice, stride, zip ... of gpu::vectors); values a
// gpu::vector or a writable view.
template <class KeysView, class Values, class Comp, class = detail::if_values_view<KeysView>,
          class = typename std::enable_if<!std::is_integral<Comp>::value>::type>
void sort_by_key(KeysView &&keys, Values &&values, Comp comp) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::sort_by_key", keys);
  static_assert(
      pacxx::is_device_copyable<Comp>::value,
      "gpu::sort_by_key: the comparison must be trivially copyable (capture values only)");
  detail::sort_view_by_key("gpu::sort_by_key", std::forward<KeysView>(keys),
                           std::forward<Values>(values), comp);
}
// sort_by_key(keys view, values, std::less<>{}): ascending.
template <class KeysView, class Values, class = detail::if_values_view<KeysView>>
void sort_by_key(KeysView &&keys, Values &&values) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::sort_by_key", keys);
  detail::sort_view_by_key("gpu::sort_by_key", std::forward<KeysView>(keys),
                           std::forward<Values>(values), std::less<>{});
}
// Sorts keys by bits [begin_bit, end_bit) of their radix order, stably, values following
// their keys. Values shorter than keys, or a bad bit range, is a pacxx::error.
template <class K, class V>
void sort_by_key(vector<K> &keys, vector<V> &values, int begin_bit, int end_bit) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::sort_by_key", keys);
  const char *name = "gpu::sort_by_key";
  detail::check_values(name, keys, values);
  detail::sort_pairs<K, V>(name, keys.data(), values.data(), keys.size(), begin_bit, end_bit,
                           std::integral_constant<int, 1>{});
}

} // namespace gpu

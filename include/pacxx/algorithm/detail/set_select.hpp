// The set operations on sorted ranges (set_intersection, set_difference, set_union,
// set_symmetric_difference) as compactions, with std's multiset semantics: of the
// elements equivalent to some v, a holding m and b holding n, element r (counted from
// 0) of a's is in the intersection where r < n, in a - b where r >= n, and so on. So
// whether an element of one range is in the result depends on its rank among its
// equivalents and on how many equivalents the other range holds: two binary searches,
// without looking at any other output. Elements are selected in order (the compaction
// pass, pacxx/agent/select.hpp), and where both ranges contribute (union, symmetric
// difference) the selections are merged (pacxx/algorithm/merge.hpp, a's elements first
// on ties, as std's).
//
// This is not yet the single merge-path pass of Thrust's set operations: each element
// pays O(log n) dependent loads, and union and symmetric difference go through scratch
// and a merge. The indices of the selection view are 32-bit (range-v3's 64-bit iota
// counts with a type that the device cannot use), so each input has fewer than 2^32
// elements.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>
#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/algorithm/detail/search_one.hpp"
#include "pacxx/algorithm/merge.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/transform_output.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

template <class T> struct set_element {
  T value;
  bool keep;
};

// i -> {mine[i], whether it is kept}: kept where its rank among its equivalents in mine
// is below (Below) or not below the number of its equivalents in other.
template <class M, class O, class Comp, bool Below> struct set_flag {
  mutable M mine;
  mutable O other;
  std::size_t no;
  Comp comp;
  using T = ranges::range_value_t<M>;
  set_element<T> operator()(std::uint32_t i) const {
    auto fm = ranges::begin(mine);
    const T v = *(fm + static_cast<ranges::range_difference_t<M>>(i));
    const std::size_t rank =
        i - partition_point_at(fm, i, [&](const auto &e) { return bool(comp(e, v)); });
    auto fo = ranges::begin(other);
    const std::size_t lo =
        partition_point_at(fo, no, [&](const auto &e) { return bool(comp(e, v)); });
    // Only whether rank < count matters: the equivalents of other from lo on, up to
    // rank + 1 of them.
    const std::size_t span = no - lo < rank + 1 ? no - lo : rank + 1;
    const std::size_t count =
        partition_point_at(fo + static_cast<ranges::range_difference_t<O>>(lo), span,
                           [&](const auto &e) { return !bool(comp(v, e)); });
    return {v, Below ? rank < count : rank >= count};
  }
};

// The selector over the flagged view: its flag, and its value.
struct select_flagged {
  template <class Src, class U> bool operator()(const Src &src, std::size_t i, U &v) const {
    v = src.get(i);
    return v.keep;
  }
};
// What goes to the output: the value of a flagged element.
struct set_element_value {
  template <class T> T operator()(const set_element<T> &f) const { return f.value; }
};

// The flagged view of mine against other.
template <bool Below, class M, class O, class Comp>
auto flag_view(const char *name, const M &mine, std::size_t nm, const O &other, std::size_t no,
               Comp comp) {
  if (nm > std::numeric_limits<std::uint32_t>::max() ||
      no > std::numeric_limits<std::uint32_t>::max())
    throw pacxx::error(std::string(name) + ": inputs of " + std::to_string(nm) + " and " +
                       std::to_string(no) + " elements; each must have fewer than 2^32");
  return ranges::views::iota(std::uint32_t(0), static_cast<std::uint32_t>(nm)) |
         ranges::views::transform(set_flag<M, O, Comp, Below>{mine, other, no, comp});
}

// The selected elements of a flagged view of n elements into device view out of m
// elements (an error, out unchanged, if they do not fit); returns how many.
template <class F, class Out>
std::size_t select_flagged_into(const char *name, const F &flags, std::size_t n, const Out &out,
                                std::size_t m) {
  return select_into(name, flags, n, select_flagged{},
                     gpu::views::transform_output(out, set_element_value{}), m);
}

// comp on the keys of (key, value) pairs: the _by_key forms.
template <class Comp> struct keys_compare {
  Comp comp;
  template <class P, class Q> bool operator()(const P &p, const Q &q) const {
    return bool(comp(std::get<0>(p), std::get<0>(q)));
  }
};

// The (key, value) pairs of the _by_key forms: values must be as many as keys.
template <class K, class V> auto checked_zip(const char *name, K &&keys, V &&values) {
  auto k = pacxx::detail::device_view(std::forward<K>(keys));
  auto v = pacxx::detail::device_view(std::forward<V>(values));
  const std::size_t nk = pacxx::detail::device_size(k), nv = pacxx::detail::device_size(v);
  if (nv < nk)
    throw pacxx::error(std::string(name) + ": " + std::to_string(nk) + " keys and " +
                       std::to_string(nv) + " values");
  return ranges::views::zip(std::move(k), std::move(v));
}

// set_intersection (Below) and set_difference: the selected elements of mine into out.
template <bool Below, class M, class O, class Out, class Comp>
std::size_t set_select_one(const char *name, const M &mine, const O &other, const Out &out,
                           Comp comp) {
  const std::size_t nm = pacxx::detail::device_size(mine);
  const std::size_t no = pacxx::detail::device_size(other);
  return select_flagged_into(name, flag_view<Below>(name, mine, nm, other, no, comp), nm, out,
                             pacxx::detail::device_size(out));
}

// How many of a's elements the symmetric difference takes (selected into scratch), or
// all of them for the union.
template <class A, class B, class SA, class Comp>
std::size_t select_from_a(const char *name, const A &a, const B &b, const SA &scratch, Comp comp,
                          std::true_type /*symmetric*/) {
  const std::size_t na = pacxx::detail::device_size(a), nb = pacxx::detail::device_size(b);
  return select_flagged_into(name, flag_view<false>(name, a, na, b, nb, comp), na, scratch, na);
}
template <class A, class B, class SA, class Comp>
std::size_t select_from_a(const char *, const A &a, const B &, const SA &, Comp, std::false_type) {
  return pacxx::detail::device_size(a);
}

// The merge of set_merge_two: a itself or its selection, then b's selection.
template <class A, class SA, class SB, class Out, class Comp>
void merge_two(const A &a, const SA &, std::size_t ka, const SB &b, std::size_t kb, const Out &out,
               Comp comp, std::false_type /*a itself*/) {
  using T = ranges::range_value_t<A>;
  merge_views<pacxx::policy::merge_for<T>, T>(a, ka, b, kb, out, comp);
}
template <class A, class SA, class SB, class Out, class Comp>
void merge_two(const A &, const SA &sa, std::size_t ka, const SB &b, std::size_t kb, const Out &out,
               Comp comp, std::true_type /*a's selection*/) {
  using T = ranges::range_value_t<SA>;
  merge_views<pacxx::policy::merge_for<T>, T>(sa, ka, b, kb, out, comp);
}

// set_union (Symmetric false: all of a) and set_symmetric_difference: the selected
// elements of a (scratch_a, as long as a; unused for the union) and of b (scratch_b, as
// long as b) merged into out. Nothing is written to out unless it is large enough.
template <bool Symmetric, class A, class B, class SA, class SB, class Out, class Comp>
std::size_t set_merge_two(const char *name, const A &a, const B &b, const SA &scratch_a,
                          const SB &scratch_b, const Out &out, Comp comp) {
  const std::size_t na = pacxx::detail::device_size(a), nb = pacxx::detail::device_size(b);
  const std::size_t m = pacxx::detail::device_size(out);
  const std::size_t ka =
      select_from_a(name, a, b, scratch_a, comp, std::integral_constant<bool, Symmetric>{});
  const std::size_t kb =
      select_flagged_into(name, flag_view<false>(name, b, nb, a, na, comp), nb, scratch_b, nb);
  if (ka + kb > m)
    throw pacxx::error(std::string(name) + ": the output has " + std::to_string(m) +
                       " elements, the result " + std::to_string(ka + kb));
  merge_two(a, scratch_a, ka, scratch_b, kb, out, comp, std::integral_constant<bool, Symmetric>{});
  return ka + kb;
}

// set_union and set_symmetric_difference (Symmetric) of device ranges: the scratch as
// vectors of their value type.
template <bool Symmetric, class A, class B, class Out, class Comp>
std::size_t set_merge_two_plain(const char *name, A &&a_in, B &&b_in, Out &&out, Comp comp) {
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu set operations: the comparison must be trivially copyable (capture values "
                "only)");
  auto a = pacxx::detail::device_view(std::forward<A>(a_in));
  auto b = pacxx::detail::device_view(std::forward<B>(b_in));
  using T = ranges::range_value_t<decltype(a)>;
  vector<T> from_a(Symmetric ? pacxx::detail::device_size(a) : 0);
  vector<T> from_b(pacxx::detail::device_size(b));
  return set_merge_two<Symmetric>(name, a, b, pacxx::detail::device_view(from_a),
                                  pacxx::detail::device_view(from_b),
                                  pacxx::detail::device_view(std::forward<Out>(out)), comp);
}

// The _by_key forms of set_intersection (Below) and set_difference: keys_a with
// values_a selected against keys_b.
template <bool Below, class KA, class KB, class VA, class OK, class OV, class Comp>
std::size_t set_select_one_by_key(const char *name, KA &&keys_a, KB &&keys_b, VA &&values_a,
                                  OK &&out_keys, OV &&out_values, Comp comp) {
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu set operations: the comparison must be trivially copyable (capture values "
                "only)");
  auto kb = pacxx::detail::device_view(std::forward<KB>(keys_b));
  return set_select_one<Below>(
      name, checked_zip(name, std::forward<KA>(keys_a), std::forward<VA>(values_a)),
      ranges::views::zip(kb, kb),
      ranges::views::zip(pacxx::detail::device_view(std::forward<OK>(out_keys)),
                         pacxx::detail::device_view(std::forward<OV>(out_values))),
      keys_compare<Comp>{comp});
}

// The _by_key forms of set_union and set_symmetric_difference (Symmetric): the scratch
// as pairs of vectors.
template <bool Symmetric, class KA, class KB, class VA, class VB, class OK, class OV, class Comp>
std::size_t set_merge_two_by_key(const char *name, KA &&keys_a, KB &&keys_b, VA &&values_a,
                                 VB &&values_b, OK &&out_keys, OV &&out_values, Comp comp) {
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu set operations: the comparison must be trivially copyable (capture values "
                "only)");
  auto a = checked_zip(name, std::forward<KA>(keys_a), std::forward<VA>(values_a));
  auto b = checked_zip(name, std::forward<KB>(keys_b), std::forward<VB>(values_b));
  using P = ranges::range_value_t<decltype(a)>;
  using K = typename std::decay<decltype(std::get<0>(std::declval<P>()))>::type;
  using V = typename std::decay<decltype(std::get<1>(std::declval<P>()))>::type;
  const std::size_t na = Symmetric ? pacxx::detail::device_size(a) : 0;
  const std::size_t nb = pacxx::detail::device_size(b);
  vector<K> ka(na), kb(nb);
  vector<V> va(na), vb(nb);
  return set_merge_two<Symmetric>(
      name, a, b,
      ranges::views::zip(pacxx::detail::device_view(ka), pacxx::detail::device_view(va)),
      ranges::views::zip(pacxx::detail::device_view(kb), pacxx::detail::device_view(vb)),
      ranges::views::zip(pacxx::detail::device_view(std::forward<OK>(out_keys)),
                         pacxx::detail::device_view(std::forward<OV>(out_values))),
      keys_compare<Comp>{comp});
}

} // namespace detail
} // namespace gpu

namespace pacxx {
template <class M, class O, class Comp, bool Below>
struct is_device_copyable<gpu::detail::set_flag<M, O, Comp, Below>>
    : std::integral_constant<bool, is_device_copyable<M>::value && is_device_copyable<O>::value &&
                                       is_device_copyable<Comp>::value> {};
} // namespace pacxx

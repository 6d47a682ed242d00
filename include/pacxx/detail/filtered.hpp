// Filtered pipelines on a device: range-v3's views::filter (remove_if_view<R,
// logical_negate<P>>) and views::remove_if (remove_if_view<R, P>), possibly under
// transform views and nested (x | filter(p) | transform(f) | filter(q)), over a
// random-access device range. Such a view is not random access, so no kernel can index
// it; pacxx evaluates it predicated instead: over the indices of its random-access base,
// keep(i) says whether base element i survives every filter, get(i) is the pipeline's
// element for it (only called where keep(i)).
//
// The pieces come from the view object itself (the kernel gets a copy of the whole
// pipeline): a remove_if_view's predicate is its private box base (reached by a C-style
// cast, which may convert to an inaccessible base), a transform's function is applied by
// building the transform's own iterator over the inner position (range-v3's adaptor
// cursor, constructed from the base iterator and the adaptor the view gives through
// range_access), so the user's function is called exactly as range-v3 calls it.
// Nothing walks the filter: its begin() (which searches the first survivor) is never
// called.
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

#include <range/v3/functional/invoke.hpp>
#include <range/v3/range/access.hpp>
#include <range/v3/range/concepts.hpp>
#include <range/v3/range/traits.hpp>
#include <range/v3/utility/box.hpp>
#include <range/v3/utility/semiregular_box.hpp>
#include <range/v3/view/adaptor.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/remove_if.hpp>
#include <range/v3/view/transform.hpp>

namespace pacxx {
namespace detail {

// filter_access<V> is defined where V is a filtered pipeline: base(v) is its
// random-access base, iter(v, it) the pipeline's iterator at base iterator it,
// keep(v, it) whether that element survives.
template <class V, class = void> struct filter_access;

template <class V, class = void> struct is_filtered : std::false_type {};
template <class V>
struct is_filtered<V, decltype(void(sizeof(typename filter_access<V>::base_type)))>
    : std::true_type {};

// A random-access range at the bottom of the pipeline.
template <class V> struct filter_leaf {
  using base_type = V;
  static V &base(V &v) { return v; }
  template <class It> static It iter(V &, It it) { return it; }
  template <class It> static bool keep(V &, const It &) { return true; }
};
template <class V>
using filter_part = typename std::conditional<ranges::random_access_range<V>, filter_leaf<V>,
                                              filter_access<V>>::type;

// The adaptor cursor of view V (over R) at base iterator it: V's own iterator.
template <class V, class R, class Adaptor, class It>
ranges::iterator_t<V> adapted_iterator(It it, Adaptor adaptor) {
  using cursor = ranges::adaptor_cursor<ranges::iterator_t<R>, Adaptor>;
  return ranges::iterator_t<V>(cursor(std::move(it), std::move(adaptor)));
}

// A remove_if_view<R, P>, or the filter_view<R, Q> derived from remove_if_view<R,
// logical_negate<Q>> (V: the view's own type).
template <class V, class R, class P> struct filter_access_remove_if {
  using RV = ranges::remove_if_view<R, P>;
  using inner = filter_part<R>;
  using base_type = typename inner::base_type;
  // The adaptor of the filter's iterator, built from the view without calling
  // begin_adaptor() (that one searches the first survivor).
  using adaptor = ranges::detail::begin_adaptor_t<RV>;

  static base_type &base(V &v) { return inner::base(v.base()); }
  template <class It> static ranges::iterator_t<RV> iter(V &v, It it) {
    return adapted_iterator<RV, R>(inner::iter(v.base(), std::move(it)),
                                   adaptor(static_cast<RV *>(&v)));
  }
  template <class It> static bool keep(V &v, const It &it) {
    if (!inner::keep(v.base(), it))
      return false;
    auto &pred = ((ranges::box<ranges::semiregular_box_t<P>> &)static_cast<RV &>(v)).get();
    return !ranges::invoke(pred, *inner::iter(v.base(), it));
  }
};
template <class R>
using filterable =
    std::integral_constant<bool, ranges::random_access_range<R> || is_filtered<R>::value>;
template <class R, class P>
struct filter_access<ranges::remove_if_view<R, P>,
                     typename std::enable_if<filterable<R>::value>::type>
    : filter_access_remove_if<ranges::remove_if_view<R, P>, R, P> {};
template <class R, class Q>
struct filter_access<ranges::filter_view<R, Q>, typename std::enable_if<filterable<R>::value>::type>
    : filter_access_remove_if<ranges::filter_view<R, Q>, R, ranges::logical_negate<Q>> {};

// A transform (or iter_transform) over a filtered pipeline.
template <class V, class R> struct filter_access_transform {
  using inner = filter_access<R>;
  using base_type = typename inner::base_type;
  static base_type &base(V &v) { return inner::base(v.base()); }
  template <class It> static ranges::iterator_t<V> iter(V &v, It it) {
    return adapted_iterator<V, R>(inner::iter(v.base(), std::move(it)),
                                  ranges::range_access::begin_adaptor(v));
  }
  template <class It> static bool keep(V &v, const It &it) { return inner::keep(v.base(), it); }
};
template <class R, class F>
struct filter_access<ranges::transform_view<R, F>,
                     typename std::enable_if<is_filtered<R>::value>::type>
    : filter_access_transform<ranges::transform_view<R, F>, R> {};
template <class R, class F>
struct filter_access<ranges::iter_transform_view<R, F>,
                     typename std::enable_if<is_filtered<R>::value>::type>
    : filter_access_transform<ranges::iter_transform_view<R, F>, R> {};

// The device side of an algorithm's input (device code; v is the kernel's own copy of
// the view): keep(i) and get(i) over indices [0, n) of the random-access base.
template <class V, bool Filtered = is_filtered<V>::value> struct source {
  using D = ranges::range_difference_t<V>;
  decltype(ranges::begin(std::declval<V &>())) first;
  explicit source(V &v) : first(ranges::begin(v)) {}
  bool keep(std::size_t) const { return true; }
  decltype(auto) get(std::size_t i) const { return *(first + static_cast<D>(i)); }
};
template <class V> struct source<V, true> {
  using A = filter_access<V>;
  using B = typename A::base_type;
  using D = ranges::range_difference_t<B>;
  V *v;
  decltype(ranges::begin(std::declval<B &>())) first;
  explicit source(V &view) : v(&view), first(ranges::begin(A::base(view))) {}
  bool keep(std::size_t i) const { return A::keep(*v, first + static_cast<D>(i)); }
  decltype(auto) get(std::size_t i) const { return *A::iter(*v, first + static_cast<D>(i)); }
};
template <class V> source<V> make_source(V &v) { return source<V>(v); }

} // namespace detail
} // namespace pacxx

// How ranges reach a device.
//
// A gpu::vector enters a range-v3 view as (pointer, size), never by the container's
// host address: an lvalue through a ref_view specialisation (the view refers to it, as
// to any lvalue container), an rvalue through a subrange that owns it (moved in, shared
// by the view's copies, released with the last one: C++20's owning_view, copyable
// because range-v3 0.12 views must be). So a view over a temporary may be stored and
// used later, as users expect; it never reads freed memory.
//
// Concepts stated up front:
//   is_device_copyable<T>  the bytes of T can be sent to a device and used there:
//                          trivially copyable types, and range-v3 views built only of
//                          device-copyable parts (views over gpu::vectors, generators,
//                          trivially copyable functions). A view over a host container
//                          is not.
//   is_device_range<R>     a gpu::vector, or a random-access view that is device copyable.
//   detail::is_write_only<R>  a device range that is only written (an output view,
//                          pacxx/transform_output.hpp).
#pragma once
#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/concepts.hpp>
#include <range/v3/range/primitives.hpp>
#include <range/v3/range/traits.hpp>
#include <range/v3/view/all.hpp>
#include <range/v3/view/concat.hpp>
#include <range/v3/view/delimit.hpp>
#include <range/v3/view/drop_while.hpp>
#include <range/v3/view/interface.hpp>
#include <range/v3/view/ref.hpp>
#include <range/v3/view/replace_if.hpp>
#include <range/v3/view/sliding.hpp>
#include <range/v3/view/subrange.hpp>
#include <range/v3/view/take_while.hpp>
#include <range/v3/view/trim.hpp>

#include "pacxx/detail/filtered.hpp"
#include "pacxx/detail/owner.hpp"
#include "pacxx/vector.hpp"

namespace ranges {
// An lvalue gpu::vector in a view: its device pointer and size.
template <class T> struct ref_view<gpu::vector<T>> : view_interface<ref_view<gpu::vector<T>>> {
  T *first_ = nullptr;
  std::size_t size_ = 0;
  constexpr ref_view() noexcept = default;
  ref_view(gpu::vector<T> &v) noexcept : first_(v.data()), size_(v.size()) {}
  constexpr T *begin() const noexcept { return first_; }
  constexpr T *end() const noexcept { return first_ + size_; }
  constexpr std::size_t size() const noexcept { return size_; }
};
template <class T>
struct ref_view<const gpu::vector<T>> : view_interface<ref_view<const gpu::vector<T>>> {
  const T *first_ = nullptr;
  std::size_t size_ = 0;
  constexpr ref_view() noexcept = default;
  ref_view(const gpu::vector<T> &v) noexcept : first_(v.data()), size_(v.size()) {}
  constexpr const T *begin() const noexcept { return first_; }
  constexpr const T *end() const noexcept { return first_ + size_; }
  constexpr std::size_t size() const noexcept { return size_; }
};

// An rvalue gpu::vector is accepted by views (range-v3 asks that rvalue ranges be
// borrowed) and becomes make_subrange(std::move(v)): a subrange of its iterators, which
// is specialised below to take the vector over.
template <class T> RANGES_INLINE_VAR constexpr bool enable_borrowed_range<gpu::vector<T>> = true;

// The view of an rvalue gpu::vector: owns it. Constructed from iterators (a user's
// make_subrange(v.begin(), v.end())) it owns nothing, like any subrange. Its begin()
// and end() are device pointers; in a kernel it is a (pointer, size) view whose copies
// own nothing (pacxx/detail/owner.hpp).
template <class T, subrange_kind K>
struct subrange<gpu::detail::vector_iterator<T>, gpu::detail::vector_iterator<T>, K>
    : view_interface<
          subrange<gpu::detail::vector_iterator<T>, gpu::detail::vector_iterator<T>, K>> {
  using vector_type = gpu::vector<typename std::remove_const<T>::type>;
  T *first_ = nullptr;
  std::size_t size_ = 0;
  pacxx::detail::shared_owner owner_;

  subrange() = default;
  subrange(vector_type &&v) : first_(v.data()), size_(v.size()), owner_(std::move(v)) {}
  // A const rvalue cannot be moved from: the view owns a copy.
  subrange(const vector_type &&v) : subrange(vector_type(v)) {}
  subrange(gpu::detail::vector_iterator<T> first, gpu::detail::vector_iterator<T> last)
      : first_(first.get()), size_(static_cast<std::size_t>(last - first)) {}
  subrange(gpu::detail::vector_iterator<T> first, gpu::detail::vector_iterator<T> last, std::size_t)
      : subrange(first, last) {}

  T *begin() const noexcept { return first_; }
  T *end() const noexcept { return first_ + size_; }
  std::size_t size() const noexcept { return size_; }
};
// Iterators into an owning view die with it, as with any owning range.
template <class T, subrange_kind K>
RANGES_INLINE_VAR constexpr bool enable_borrowed_range<
    subrange<gpu::detail::vector_iterator<T>, gpu::detail::vector_iterator<T>, K>> = false;
} // namespace ranges

namespace pacxx {

namespace detail {
// The parts of a view: its template arguments that are types (the ranges it adapts, its
// functions, its value types), as a type list; `void` for a shape not known here. A
// template of types only is matched by V<A...>; the views of range-v3 0.12 that also
// take a value (a bool: chunk_view_, slice_view_, take_exactly_view_, cycled_view,
// common_view; an enumerator: sliding_view<Rng, cache>) need a pattern each, since C++14
// cannot match "any mix of types and values". A shape missing here makes its view
// non-device-copyable (rejected with the host-container message, the bug of issue 34
// item 5), so tests/e2e/stl_views_device_test.cpp checks the trait for every view of
// range-v3 0.12 that is random access.
template <class... A> struct type_list {};
template <class V> struct view_parts {
  using type = void;
};
template <template <class...> class V, class... A> struct view_parts<V<A...>> {
  using type = type_list<A...>;
};
template <template <class, bool> class V, class R, bool B> struct view_parts<V<R, B>> {
  using type = type_list<R>;
};
template <template <class, ranges::sliding_view_detail::cache> class V, class R,
          ranges::sliding_view_detail::cache C>
struct view_parts<V<R, C>> {
  using type = type_list<R>;
};

template <class L> struct list_device_copyable : std::false_type {};
template <class... A> struct list_device_copyable<type_list<A...>> : all_device_copyable<A...> {};

// A view is as device-copyable as what it is made of.
template <class V>
struct view_parts_device_copyable : list_device_copyable<typename view_parts<V>::type> {};
template <class T>
struct view_parts_device_copyable<ranges::ref_view<gpu::vector<T>>> : std::true_type {};
template <class T>
struct view_parts_device_copyable<ranges::ref_view<const gpu::vector<T>>> : std::true_type {};
template <class I, class S, ranges::subrange_kind K>
struct view_parts_device_copyable<ranges::subrange<I, S, K>> : all_device_copyable<I, S> {};

// Views whose bounds are found by reading elements: take_while's end and delimit's end
// compare elements with a predicate or a value, drop_while's begin and trim's begin and
// end search for the first element that fails one. Sizing such a view (every algorithm
// needs the size before its launch) would read device memory on the host, element by
// element, behind the user's back; so would any view built on one.
template <class V> struct reads_for_bounds : std::false_type {};
template <class R, class P>
struct reads_for_bounds<ranges::iter_take_while_view<R, P>> : std::true_type {};
template <class R, class P>
struct reads_for_bounds<ranges::take_while_view<R, P>> : std::true_type {};
template <class R, class P>
struct reads_for_bounds<ranges::drop_while_view<R, P>> : std::true_type {};
template <class R, class P> struct reads_for_bounds<ranges::trim_view<R, P>> : std::true_type {};
template <class R, class V> struct reads_for_bounds<ranges::delimit_view<R, V>> : std::true_type {};

// Whether view V or any view it is built of (recursively, through the parts of views)
// is one that Is<> names.
template <template <class> class Is, class V, class = void>
struct contains_view : std::false_type {};
template <template <class> class Is, class L> struct any_contains_view : std::false_type {};
template <template <class> class Is, class A, class... As>
struct any_contains_view<Is, type_list<A, As...>>
    : std::integral_constant<bool, contains_view<Is, A>::value ||
                                       any_contains_view<Is, type_list<As...>>::value> {};
template <template <class> class Is, class V>
struct contains_view<Is, V, typename std::enable_if<ranges::view_<V>>::type>
    : std::integral_constant<bool, Is<V>::value ||
                                       any_contains_view<Is, typename view_parts<V>::type>::value> {
};

template <class V> using finds_bounds_by_reading = contains_view<reads_for_bounds, V>;

// view::concat: its iterator is a range-v3 variant of the parts' iterators, whose access
// checks the alternative and throws bad_variant_access, which no device can (the offline
// compiler refuses the kernel, pointing into range-v3's variant.hpp).
template <class V> struct is_concat : std::false_type {};
template <class... R> struct is_concat<ranges::concat_view<R...>> : std::true_type {};
template <class V> using throws_on_device = contains_view<is_concat, V>;

// An unbounded range: view::repeat, view::iota(x), view::cycle, view::unbounded, and
// views of them that stay unbounded. It has no size of its own.
template <class V>
using is_unbounded =
    std::integral_constant<bool, ranges::range_cardinality<V>::value == ranges::infinite>;
} // namespace detail

// range-v3's replace_if keeps its predicate and value in a compressed pair of boxes,
// which is not trivially copyable where the predicate (a lambda) is not assignable; its
// bytes are its parts'.
template <class P, class V>
struct is_device_copyable<ranges::detail::replacer_if_fn<P, V>>
    : detail::all_device_copyable<P, V> {};

template <class T>
struct is_device_copyable<T, typename std::enable_if<ranges::view_<T>>::type>
    : detail::view_parts_device_copyable<T> {};

// Whether R can be an algorithm's device input or output: a gpu::vector, or a random-access
// view whose parts are all device copyable (no host addresses).
template <class R, class = void> struct is_device_range : std::false_type {};
// A gpu::vector is one.
template <class R>
struct is_device_range<
    R, typename std::enable_if<gpu::is_vector<typename std::decay<R>::type>::value>::type>
    : std::true_type {};
// A view is one where it is device copyable and random access.
template <class R>
struct is_device_range<R,
                       typename std::enable_if<ranges::view_<typename std::decay<R>::type>>::type>
    : std::integral_constant<bool, is_device_copyable<typename std::decay<R>::type>::value &&
                                       ranges::random_access_range<typename std::decay<R>::type>> {
};

namespace detail {

template <class...> struct make_void {
  using type = void;
};

// A range whose elements can be assigned but not read: gpu::views::transform_output,
// and views over it that keep its elements (take, reverse, slice ...). Its proxies say
// so by a member type pacxx_write_only.
template <class R, class = void> struct is_write_only : std::false_type {};
template <class R>
struct is_write_only<R, typename make_void<typename std::decay<
                            ranges::range_reference_t<R>>::type::pacxx_write_only>::type>
    : std::true_type {};

// The view an algorithm sends to the device.
template <class R> auto device_view(R &&r) {
  static_assert(!is_filtered<typename std::decay<R>::type>::value,
                "pacxx: a filtered pipeline (view::filter, view::remove_if, possibly under "
                "view::transform) is not random access; gpu::reduce, gpu::for_each, gpu::copy "
                "and gpu::copy_if evaluate it predicated, this algorithm cannot: materialise "
                "it first (gpu::copy(pipeline, out) or gpu::materialize)");
  static_assert(is_filtered<typename std::decay<R>::type>::value || is_device_range<R>::value,
                "pacxx: GPU algorithms take gpu::vectors and views over them (or over "
                "generators such as iota and repeat), random access; a host container "
                "or a view over one must be copied to the device first (gpu::copy)");
  return ranges::views::all(std::forward<R>(r));
}

// Number of elements. Views zipped with an unbounded range (repeat, iota without end)
// are not sized in range-v3; their length is found by walking them on the host
// (pointer arithmetic only: views whose walk would read elements are refused).
template <class V> std::size_t device_size(V &v, std::true_type /*sized*/) {
  return static_cast<std::size_t>(ranges::size(v));
}
template <class V> std::size_t device_size(V &v, std::false_type) {
  return static_cast<std::size_t>(ranges::distance(ranges::begin(v), ranges::end(v)));
}
// The views no algorithm can size on the host (V without const: a const view is not a
// view_ to range-v3, and the traits below look for views).
template <class V> void device_size_checks() {
  static_assert(!finds_bounds_by_reading<V>::value,
                "pacxx: view::take_while, view::drop_while, view::trim and view::delimit find "
                "their bounds by reading elements, which for device data would read device "
                "memory on the host; find the bound on the device (gpu::find_if, "
                "gpu::find_if_not) and use view::take, view::drop or view::slice with it");
  static_assert(!throws_on_device<V>::value,
                "pacxx: view::concat cannot run on a device: its iterator is a variant whose "
                "access throws bad_variant_access, and a device cannot throw; copy the parts "
                "into one gpu::vector (gpu::copy(part, out | view::slice(from, to))) instead");
  static_assert(!is_unbounded<V>::value,
                "pacxx: an unbounded range (view::repeat, view::iota(x), view::cycle, "
                "view::unbounded) has no size: bound it (view::take, view::repeat_n, "
                "view::iota(x, y)), or give it as the second input of a two-range algorithm, "
                "which takes its size from the first");
}
template <class V> std::size_t device_size(V &v) {
  device_size_checks<typename std::remove_const<V>::type>();
  return device_size(v, std::integral_constant<bool, ranges::sized_range<V>>{});
}
// The size of a range that an algorithm reads alongside another range of n elements
// (the second input of inner_product, equal, merge, transform with two inputs, the values
// of the by-key algorithms ...): an unbounded one, Thrust's constant_iterator idiom
// (`gpu::reduce_by_key(keys, view::repeat(1), ...)`), has as many as it is asked for.
template <class V> std::size_t device_size_alongside(V &v, std::size_t n, std::true_type) {
  (void)v;
  return n;
}
template <class V> std::size_t device_size_alongside(V &v, std::size_t, std::false_type) {
  return device_size(v);
}
template <class V> std::size_t device_size_alongside(V &v, std::size_t n) {
  return device_size_alongside(v, n, is_unbounded<V>{});
}
// The number of elements an algorithm walks in two ranges read together (a first
// input and a second input, or an input and its output): the first's size, or, where the
// first is unbounded, the second's.
template <class A, class B> std::size_t leading_size(A &a, B &, std::false_type /*a unbounded*/) {
  return device_size(a);
}
template <class A, class B> std::size_t leading_size(A &, B &b, std::true_type) {
  return device_size(b);
}
template <class A, class B> std::size_t leading_size(A &a, B &b) {
  return leading_size(a, b, is_unbounded<A>{});
}

} // namespace detail
} // namespace pacxx

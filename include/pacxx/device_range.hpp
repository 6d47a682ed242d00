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
#include <range/v3/view/interface.hpp>
#include <range/v3/view/ref.hpp>

#include <range/v3/view/subrange.hpp>

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
// A view is as device-copyable as what it is made of: its template arguments (the
// ranges it adapts, its functions, its value types).
template <class V> struct view_parts_device_copyable : std::false_type {};
template <template <class...> class V, class... A>
struct view_parts_device_copyable<V<A...>> : all_device_copyable<A...> {};
template <template <class, bool> class V, class R, bool B>
struct view_parts_device_copyable<V<R, B>> : is_device_copyable<R> {};
template <class T>
struct view_parts_device_copyable<ranges::ref_view<gpu::vector<T>>> : std::true_type {};
template <class T>
struct view_parts_device_copyable<ranges::ref_view<const gpu::vector<T>>> : std::true_type {};
template <class I, class S, ranges::subrange_kind K>
struct view_parts_device_copyable<ranges::subrange<I, S, K>> : all_device_copyable<I, S> {};
} // namespace detail

template <class T>
struct is_device_copyable<T, typename std::enable_if<ranges::view_<T>>::type>
    : detail::view_parts_device_copyable<T> {};

template <class R, class = void> struct is_device_range : std::false_type {};
template <class R>
struct is_device_range<
    R, typename std::enable_if<gpu::is_vector<typename std::decay<R>::type>::value>::type>
    : std::true_type {};
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
// (pointer arithmetic only, no device memory is read).
template <class V> std::size_t device_size(V &v, std::true_type /*sized*/) {
  return static_cast<std::size_t>(ranges::size(v));
}
template <class V> std::size_t device_size(V &v, std::false_type) {
  return static_cast<std::size_t>(ranges::distance(ranges::begin(v), ranges::end(v)));
}
template <class V> std::size_t device_size(V &v) {
  return device_size(v, std::integral_constant<bool, ranges::sized_range<V>>{});
}

} // namespace detail
} // namespace pacxx

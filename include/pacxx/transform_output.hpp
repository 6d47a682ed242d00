// gpu::views::transform_output: an output view that applies a function on store (Thrust's
// transform_output_iterator), so that what an algorithm writes is transformed in the same
// kernel:
//
//   gpu::inclusive_scan(x | view::transform(f), out | gpu::views::transform_output(g));
//   // out[i] = g(f(x[0]) + ... + f(x[i])): one scan launch (and the tiny tile clear)
//
//   gpu::views::transform_output(out, g)   element i is a write-only proxy:
//   out | gpu::views::transform_output(g)  `e = v` stores g(v) into out[i]
//
// out is a gpu::vector or any writable device view over one (a zip, a gather view, a
// slice, another transform_output); the view is random access, sized as out and device
// copyable (g: trivially copyable, capturing values and device pointers only). g is
// called (as const) with exactly what the algorithm stores (its value type and
// accumulator are unchanged: an inclusive scan accumulates in its input's value type and
// hands that to g) and returns something assignable to out's element: for a zip of
// vectors a std::pair where two are zipped (range-v3 zips two into pairs), a std::tuple
// where more are.
//
// Outputs of every algorithm that writes its output without reading it back take it:
// transform, copy (device to view), copy_if, scans, scans by key, reduce_by_key, merge,
// gather, scatter, lower_bound / upper_bound / binary_search, fill, for_each (the
// function assigns to the proxy). Where an algorithm lets out alias its input (scans,
// transform, copy_if in place), out | transform_output(g) may alias it likewise: those
// algorithms never read what they have stored. The elements cannot be read, so the view
// is no input: converting an element to a value (an algorithm's load), assigning one
// element to another (copying the view into a vector, to the host) and gpu::sort or
// sort_by_key of it are static assertions; any other read fails to compile on the proxy
// type (transform_output_reference).
#pragma once
#include <type_traits>
#include <utility>

#include <range/v3/iterator/operations.hpp>
#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>
#include <range/v3/utility/semiregular_box.hpp>
#include <range/v3/view/facade.hpp>

#include "pacxx/algorithm/detail/functional.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/kernel.hpp"

namespace gpu {
namespace detail {

template <class T> struct write_only_error : std::false_type {};

// An element reference, assignable through a const proxy: a prvalue proxy reference
// (a zip's tuple of references) is kept mutable, a language reference as it is.
template <class Ref> struct assignable_ref {
  mutable Ref ref;
  explicit assignable_ref(Ref r) : ref(static_cast<Ref &&>(r)) {}
  Ref &get() const noexcept { return ref; }
};
template <class T> struct assignable_ref<T &> {
  T &ref;
  explicit assignable_ref(T &r) noexcept : ref(r) {}
  T &get() const noexcept { return ref; }
};
template <class T> struct assignable_ref<T &&> {
  T &ref;
  explicit assignable_ref(T &&r) noexcept : ref(r) {}
  T &get() const noexcept { return ref; }
};

// Element i of a transform_output view: out[i]'s reference (T&, or a proxy such as a
// zip's tuple of references) and g. Write-only.
template <class Ref, class G> class transform_output_reference {
  assignable_ref<Ref> ref_;
  G g_;

public:
  using pacxx_write_only = void; // pacxx::detail::is_write_only

  transform_output_reference(Ref ref, const G &g) : ref_(static_cast<Ref &&>(ref)), g_(g) {}
  transform_output_reference(const transform_output_reference &) = default;

  // Stores g(v).
  template <class V, class = typename std::enable_if<!std::is_same<
                         typename std::decay<V>::type, transform_output_reference>::value>::type>
  const transform_output_reference &operator=(V &&v) const {
    ref_.get() = g_(std::forward<V>(v));
    return *this;
  }

  // Not values: neither read nor assigned from another element.
  const transform_output_reference &operator=(const transform_output_reference &) const {
    static_assert(write_only_error<Ref>::value,
                  "gpu::views::transform_output: its elements are write-only; one cannot be "
                  "assigned from another (is the view used as an input, or copied into a "
                  "vector?)");
    return *this;
  }
  template <class U> operator U() const {
    static_assert(write_only_error<U>::value,
                  "gpu::views::transform_output: its elements are write-only (an output of "
                  "an algorithm); they cannot be read, e.g. as an algorithm's input");
    __builtin_unreachable();
  }
};

} // namespace detail

namespace views {

// The view; built by transform_output(out, g).
template <class V, class G>
class transform_output_view : public ranges::view_facade<transform_output_view<V, G>> {
  friend ranges::range_access;
  mutable V base_; // mutable: a range-v3 view need not be iterable when const
  ranges::semiregular_box_t<G> g_;

  using base_iterator = ranges::iterator_t<V>;
  using difference_type = ranges::range_difference_t<V>;
  using reference = detail::transform_output_reference<ranges::range_reference_t<V>, G>;

  struct cursor {
    base_iterator it_;
    ranges::semiregular_box_t<G> g_;
    reference read() const { return reference(*it_, static_cast<const G &>(g_)); }
    void next() { ++it_; }
    void prev() { --it_; }
    void advance(difference_type n) { it_ += n; }
    difference_type distance_to(const cursor &o) const { return o.it_ - it_; }
    bool equal(const cursor &o) const { return it_ == o.it_; }
  };
  cursor begin_cursor() const { return {ranges::begin(base_), g_}; }
  cursor end_cursor() const { return {ranges::next(ranges::begin(base_), ranges::end(base_)), g_}; }

public:
  transform_output_view() = default;
  // The view that stores g(x) into base's element for every x written to it.
  transform_output_view(V base, G g) : base_(std::move(base)), g_(std::move(g)) {}
  // The view of out it writes into.
  V base() const { return base_; }
};

template <class Out, class G> auto transform_output(Out &&out, G g);

} // namespace views

namespace detail {
// The closure of out | views::transform_output(g).
template <class G> struct transform_output_pipe {
  G g;
  template <class Out> auto operator()(Out &&out) const {
    return views::transform_output(std::forward<Out>(out), g);
  }
};
} // namespace detail

namespace views {

// The view of out whose element i stores g(v) into out[i] when v is assigned to it.
template <class Out, class G> auto transform_output(Out &&out, G g) {
  static_assert(pacxx::is_device_copyable<G>::value,
                "gpu::views::transform_output: the function must be trivially copyable "
                "(capture values and device pointers only)");
  auto base = pacxx::detail::device_view(std::forward<Out>(out));
  return transform_output_view<decltype(base), G>(std::move(base), std::move(g));
}
// out | transform_output(g)
template <class G> auto transform_output(G g) {
  return gpu::detail::make_pipe(gpu::detail::transform_output_pipe<G>{std::move(g)});
}

} // namespace views
} // namespace gpu

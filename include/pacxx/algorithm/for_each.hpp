// gpu::for_each(rng, f): f(x) for every element, in one kernel; f may write through
// the references a view gives (e.g. the tuple of references of a zip).
#pragma once
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/detail/shaped.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/detail/filtered.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

namespace detail {
// gpu::for_each over a filtered pipeline (pacxx/detail/filtered.hpp): one kernel over
// the indices of its base, f called for the elements that survive the filters.
template <class Rng, class F> void for_each_filtered(Rng &&rng, F f) {
  static_assert(pacxx::is_device_copyable<typename std::decay<Rng>::type>::value,
                "gpu::for_each: a filtered pipeline on a device must be made of "
                "device-copyable parts (views over gpu::vectors or generators, trivially "
                "copyable functions)");
  auto in = ranges::views::all(std::forward<Rng>(rng));
  const std::size_t n =
      pacxx::detail::device_size(pacxx::detail::filter_access<decltype(in)>::base(in));
  if (n == 0)
    return;
  using P = pacxx::policy::elementwise;
  pacxx::kernel(
      [f](const auto &view, std::size_t n) {
        auto v = view;
        const auto src = pacxx::detail::make_source(v);
        pacxx::detail::for_each_index<P>(n, [&](std::size_t i) {
          if (src.keep(i))
            f(src.get(i));
        });
      },
      pacxx::detail::elementwise_grid<P>(n))(in, n);
}
template <class Rng, class F> void for_each_any(Rng &&rng, F f, std::true_type);
template <class Rng, class F> void for_each_any(Rng &&rng, F f, std::false_type);
} // namespace detail

// Calls f(x) for every element x of rng in one kernel (a filtered pipeline: only the
// elements that pass). f may write through the references the view gives (a zip's tuple of
// references); it must be trivially copyable (values and device pointers).
template <class Rng, class F> void for_each(Rng &&rng, F f) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::for_each", rng);
  static_assert(pacxx::is_device_copyable<F>::value,
                "gpu::for_each: the function must be trivially copyable (capture values and "
                "device pointers only)");
  detail::for_each_any(std::forward<Rng>(rng), f,
                       pacxx::detail::is_filtered<typename std::decay<Rng>::type>{});
}

namespace detail {
template <class Rng, class F> void for_each_any(Rng &&rng, F f, std::true_type) {
  for_each_filtered(std::forward<Rng>(rng), f);
}
// A shaped range (an md view, indices, a stencil): a 2D/3D grid, f(element at (x, y, z)).
template <class V, class F> void for_each_view(const V &in, F f, std::true_type /*shaped*/) {
  const pacxx::detail::extents3 e = pacxx::detail::extents_of(in);
  if (e.w == 0 || e.h == 0 || e.d == 0)
    return;
  using P = pacxx::detail::shaped_policy<V>;
  pacxx::kernel(
      [f](const auto &view, pacxx::detail::extents3 e0) {
        // The extents as JIT-time constants (detail/shaped.hpp: restaged).
        const pacxx::detail::extents3 e{pacxx::stage(e0.w), pacxx::stage(e0.h), pacxx::stage(e0.d)};
        auto v = pacxx::detail::restaged(view, e);
        auto g = f; // f may be a mutable lambda
        pacxx::detail::for_each_coord<P>(e, [&](std::size_t x, std::size_t y, std::size_t z) {
          pacxx::detail::apply_at(v, g, x, y, z);
        });
      },
      pacxx::detail::shaped_grid<P>(e))(in, e);
}
template <class V, class F> void for_each_view(const V &in, F f, std::false_type);

template <class Rng, class F> void for_each_any(Rng &&rng, F f, std::false_type) {
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  for_each_view(in, f, pacxx::detail::is_shaped<decltype(in)>{});
}
template <class V, class F> void for_each_view(const V &in, F f, std::false_type) {
  const std::size_t n = pacxx::detail::device_size(in);
  if (n == 0)
    return;
  using P = pacxx::policy::elementwise;
  pacxx::kernel(
      [f](const auto &view, std::size_t n) {
        auto v = view; // a thread's own copy: some views keep state while iterated
        auto g = f;    // f may be a mutable lambda
        auto first = ranges::begin(v);
        using D = ranges::range_difference_t<decltype(v)>;
        pacxx::detail::for_each_index<P>(n,
                                         [&](std::size_t i) { g(*(first + static_cast<D>(i))); });
      },
      pacxx::detail::elementwise_grid<P>(n))(in, n);
}
} // namespace detail

// gpu::fill(rng, value): every element becomes value.
template <class Rng, class T> void fill(Rng &&rng, const T &value) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::fill", rng);
  gpu::for_each(std::forward<Rng>(rng), [value](auto &&x) { x = value; });
}

} // namespace gpu

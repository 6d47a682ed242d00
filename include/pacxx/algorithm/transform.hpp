// gpu::transform(in, out, f): out[i] = f(in[i]) in one kernel; in is any device range
// (views fused into the kernel), out a gpu::vector or a writable view over one.
#pragma once
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/detail/shaped.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

namespace detail {
// f(element) as the output's value type where it converts, so that the load really
// happens in the load, not when a proxy is assigned in the store.
template <class F, class E, class Out> struct transform_value {
  using R = decltype(std::declval<const F &>()(std::declval<E>()));
  using VO = ranges::range_value_t<Out>;
  using type = typename std::conditional<std::is_constructible<VO, R>::value, VO,
                                         typename std::decay<R>::type>::type;
};

// Whether out has room for n results (else a pacxx::error) and there are any.
template <class D> bool output_has_room(D &dst, std::size_t n) {
  const std::size_t m = pacxx::detail::device_size_alongside(dst, n);
  if (m < n)
    throw pacxx::error("gpu::transform: the output has " + std::to_string(m) +
                       " elements, the input " + std::to_string(n));
  return n != 0;
}

// transform_shaped_with's loops (device code): by groups (a stencil of rank 2 or 3) or
// element by element.
template <class P, std::size_t Rank, class V, class In, class F, class Store>
inline void transform_shaped_body(const pacxx::detail::extents3 &e, const In &in, F &f,
                                  Store &store, std::true_type /*groups*/) {
  pacxx::detail::stencil_groups<P, Rank, V>(e, in, f, store);
}
template <class P, std::size_t Rank, class V, class In, class F, class Store>
inline void transform_shaped_body(const pacxx::detail::extents3 &e, const In &in, F &f,
                                  Store &store, std::false_type) {
  pacxx::detail::load_store_coords<P>(
      e,
      [&](std::size_t x, std::size_t y, std::size_t z) -> V {
        return pacxx::detail::apply_at(in, f, x, y, z);
      },
      store);
}
// A shaped input (an md view, indices, a stencil): a 2D/3D grid; out is written at
// x + w * (y + h * z), or by coordinates where it is shaped too (then with the same
// extents). A stencil of rank 2 or 3 goes by groups of rows or planes a thread
// (detail/shaped.hpp: stencil_groups); P is the policy (policy::shaped or
// shaped_stencil; tests pass their own).
template <class S>
using stencil_groups_apply =
    std::integral_constant<bool, pacxx::detail::has_interior<S>::value && (S::rank >= 2)>;
template <class P, std::size_t Rank>
pacxx::launch_config shaped_launch(const pacxx::detail::extents3 &e, std::true_type /*groups*/) {
  return pacxx::detail::stencil_grid<P, Rank>(e);
}
template <class P, std::size_t Rank>
pacxx::launch_config shaped_launch(const pacxx::detail::extents3 &e, std::false_type) {
  return pacxx::detail::shaped_grid<P>(e);
}
template <class P, class S, class D, class F>
void transform_shaped_with(const S &src, const D &dst, F f) {
  const pacxx::detail::extents3 e = pacxx::detail::extents_of(src);
  using shaped_out = pacxx::detail::is_shaped<D>;
  pacxx::detail::check_shaped_output(dst, e, "gpu::transform", shaped_out{});
  const std::size_t n = e.w * e.h * e.d;
  if (!output_has_room(dst, n))
    return;
  using groups = stencil_groups_apply<S>;
  constexpr std::size_t rank = groups::value ? S::rank : 2;
  pacxx::kernel(
      [f](const auto &in_view, const auto &out_view, pacxx::detail::extents3 e0) {
        // The extents as JIT-time constants (detail/shaped.hpp: restaged).
        const pacxx::detail::extents3 e{pacxx::stage(e0.w), pacxx::stage(e0.h), pacxx::stage(e0.d)};
        auto in = pacxx::detail::restaged(in_view, e);
        auto out = out_view;
        using V = typename transform_value<F, decltype(in.at_coords(0, 0, 0)), decltype(out)>::type;
        auto store = [&](std::size_t x, std::size_t y, std::size_t z, V &&v) {
          pacxx::detail::output_at(out, e, x, y, z, shaped_out{}) = std::move(v);
        };
        auto g = f;
        transform_shaped_body<P, rank, V>(e, in, g, store, groups{});
      },
      shaped_launch<P, rank>(e, groups{}))(src, dst, e);
}
template <class S, class D, class F> void transform_shaped(const S &src, const D &dst, F f) {
  transform_shaped_with<typename pacxx::detail::transform_policy_of<S>::type>(src, dst, f);
}
template <class S, class D, class F>
void transform_views(const S &src, const D &dst, F f, std::true_type) {
  transform_shaped(src, dst, f);
}
template <class S, class D, class F>
void transform_views(const S &src, const D &dst, F f, std::false_type);
} // namespace detail

// out[i] = f(in[i]) in one kernel, the views of in fused into it; out a gpu::vector or
// writable view with at least size(in) elements, else a pacxx::error. f must be trivially
// copyable (values and device pointers).
template <class In, class Out, class F> void transform(In &&in, Out &&out, F f) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::transform", in);
  static_assert(pacxx::is_device_copyable<F>::value,
                "gpu::transform: the function must be trivially copyable (capture values "
                "and device pointers only)");
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  detail::transform_views(src, dst, f, pacxx::detail::is_shaped<decltype(src)>{});
}

namespace detail {
template <class S, class D, class F>
void transform_views(const S &src_, const D &dst_, F f, std::false_type) {
  auto src = src_;
  auto dst = dst_;
  // An unbounded input (view::iota(x), view::repeat(x)) fills the output.
  const std::size_t n = pacxx::detail::leading_size(src, dst);
  if (!output_has_room(dst, n))
    return;
  using P = pacxx::policy::elementwise;
  pacxx::kernel(
      [f](const auto &in_view, const auto &out_view, std::size_t n) {
        auto in = in_view;
        auto out = out_view;
        auto first = ranges::begin(in);
        auto result = ranges::begin(out);
        using DI = ranges::range_difference_t<decltype(in)>;
        using DO = ranges::range_difference_t<decltype(out)>;
        using V = typename transform_value<F, decltype(*first), decltype(out)>::type;
        pacxx::detail::load_store_index<P>(
            n, [&](std::size_t i) -> V { return f(*(first + static_cast<DI>(i))); },
            [&](std::size_t i, V &&v) { *(result + static_cast<DO>(i)) = std::move(v); });
      },
      pacxx::detail::elementwise_grid<P>(n))(src, dst, n);
}
} // namespace detail

} // namespace gpu

// gpu::transform(in, out, f): out[i] = f(in[i]) in one kernel; in is any device range
// (views fused into the kernel), out a gpu::vector or a writable view over one.
#pragma once
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"

namespace gpu {

template <class In, class Out, class F> void transform(In &&in, Out &&out, F f) {
  static_assert(pacxx::is_device_copyable<F>::value,
                "gpu::transform: the function must be trivially copyable (capture values "
                "and device pointers only)");
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  // An unbounded input (view::iota(x), view::repeat(x)) fills the output.
  const std::size_t n = pacxx::detail::leading_size(src, dst);
  const std::size_t m = pacxx::detail::device_size_alongside(dst, n);
  if (m < n)
    throw pacxx::error("gpu::transform: the output has " + std::to_string(m) +
                       " elements, the input " + std::to_string(n));
  if (n == 0)
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
        // f's result as the output's value type where it converts, so that the load
        // really happens in load(i), not when a proxy is assigned in store(i).
        using R = decltype(f(*first));
        using VO = ranges::range_value_t<decltype(out)>;
        using V = typename std::conditional<std::is_constructible<VO, R>::value, VO,
                                            typename std::decay<R>::type>::type;
        pacxx::detail::load_store_index<P>(
            n, [&](std::size_t i) -> V { return f(*(first + static_cast<DI>(i))); },
            [&](std::size_t i, V &&v) { *(result + static_cast<DO>(i)) = std::move(v); });
      },
      pacxx::detail::elementwise_grid<P>(n))(src, dst, n);
}

} // namespace gpu

// gpu::minmax_element(rng[, comp]): a std::pair of indices (std::size_t), the first
// smallest and the last largest element under comp (std::less<> by default), as
// std::minmax_element; {size, size} if the range is empty. One kernel over the fused
// views (gpu::reduce's over (value, index) pairs), the block partials folded on the
// host. Pipe form: rng | gpu::minmax_element([comp]).
#pragma once
#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

#include <range/v3/range/concepts.hpp>

#include "pacxx/algorithm/detail/arg_reduce.hpp"
#include "pacxx/algorithm/detail/functional.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

template <class Rng, class Comp = std::less<>,
          class = typename std::enable_if<ranges::range<Rng>>::type>
// The indices {first smallest, last largest} of rng's elements under comp, or {size, size}
// if it is empty (std::minmax_element with indices). One kernel, the block partials folded
// on the host.
std::pair<std::size_t, std::size_t> minmax_element(Rng &&rng, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::minmax_element", rng);
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::minmax_element: the comparison must be trivially copyable (capture "
                "values only)");
  using V = detail::device_value_t<Rng>;
  static_assert(pacxx::is_device_copyable<V>::value,
                "gpu::minmax_element: the elements must be device copyable");
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(in);
  if (n == 0)
    return {0, 0};
  const auto r = detail::arg_reduce<detail::arg_pair<V>>(in, n, detail::to_arg_pair<V>{},
                                                         detail::minmax_fold<Comp>{comp},
                                                         detail::minmax_op<Comp>{comp});
  return {r.lo_index, r.hi_index};
}

// rng | gpu::minmax_element([comp])
template <class Comp = std::less<>, class = typename std::enable_if<!ranges::range<Comp>>::type>
auto minmax_element(Comp comp = Comp{}) {
  return detail::make_pipe(
      [comp](auto &&rng) { return gpu::minmax_element(std::forward<decltype(rng)>(rng), comp); });
}

} // namespace gpu

// gpu::max_element(rng[, comp]): the index (std::size_t) of the first largest element
// under comp (std::less<> by default), or the range's size if it is empty: the first
// smallest under the flipped comparison (gpu::min_element's kernel). Pipe form:
// rng | gpu::max_element([comp]).
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
// The index of the first largest element of rng under comp, or size(rng) if it is empty
// (std::max_element with indices). One kernel, the block partials folded on the host.
std::size_t max_element(Rng &&rng, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::max_element", rng);
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::max_element: the comparison must be trivially copyable (capture values "
                "only)");
  return detail::first_min_index(std::forward<Rng>(rng), detail::flip<Comp>{comp});
}

// rng | gpu::max_element([comp])
template <class Comp = std::less<>, class = typename std::enable_if<!ranges::range<Comp>>::type>
auto max_element(Comp comp = Comp{}) {
  return detail::make_pipe(
      [comp](auto &&rng) { return gpu::max_element(std::forward<decltype(rng)>(rng), comp); });
}

} // namespace gpu

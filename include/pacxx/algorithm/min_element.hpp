// gpu::min_element(rng[, comp]): the index (std::size_t) of the first smallest element
// under comp (std::less<> by default), or the range's size if it is empty. One kernel
// over the fused views (gpu::reduce's over (value, index) pairs), the block partials
// folded on the host. Pipe form: rng | gpu::min_element([comp]).
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
// The index of the first smallest element of rng under comp, or size(rng) if it is empty
// (std::min_element with indices). One kernel, the block partials folded on the host.
std::size_t min_element(Rng &&rng, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::min_element", rng);
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::min_element: the comparison must be trivially copyable (capture values "
                "only)");
  return detail::first_min_index(std::forward<Rng>(rng), comp);
}

// rng | gpu::min_element([comp])
template <class Comp = std::less<>, class = typename std::enable_if<!ranges::range<Comp>>::type>
auto min_element(Comp comp = Comp{}) {
  return detail::make_pipe(
      [comp](auto &&rng) { return gpu::min_element(std::forward<decltype(rng)>(rng), comp); });
}

} // namespace gpu

// gpu::is_sorted_until(rng[, comp]): the index of the first element that is less (comp)
// than the one before it, or the range's size, as std::is_sorted_until. One first-match
// search over the adjacent pairs (as gpu::is_sorted) that stops at the first pair out of
// order.
#pragma once
#include <cstddef>
#include <functional>
#include <utility>

#include "pacxx/algorithm/detail/find_first.hpp"
#include "pacxx/algorithm/is_sorted.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

// The index of the first element of rng that is less (comp) than the one before it, or
// size(rng) (std::is_sorted_until). One launch that stops at the first pair out of order.
template <class Rng, class Comp = std::less<>>
std::size_t is_sorted_until(Rng &&rng, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::is_sorted_until", rng);
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::is_sorted_until: the comparison must be trivially copyable (capture "
                "values only)");
  auto v = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(v);
  if (n < 2)
    return n;
  return detail::find_first(detail::adjacent_pairs(v, n), n - 1, detail::descends<Comp>{comp}) + 1;
}

} // namespace gpu

// gpu::is_sorted_until(rng[, comp]): the index of the first element that is less (comp)
// than the one before it, or the range's size, as std::is_sorted_until. One first-match
// search over the adjacent pairs (as gpu::is_sorted) that stops at the first pair out of
// order.
#pragma once
#include <cstddef>
#include <functional>
#include <utility>

#include <range/v3/view/drop.hpp>
#include <range/v3/view/take.hpp>
#include <range/v3/view/zip.hpp>

#include "pacxx/algorithm/detail/find_first.hpp"
#include "pacxx/algorithm/is_sorted.hpp"

namespace gpu {

template <class Rng, class Comp = std::less<>>
std::size_t is_sorted_until(Rng &&rng, Comp comp = Comp{}) {
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::is_sorted_until: the comparison must be trivially copyable (capture "
                "values only)");
  auto v = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(v);
  if (n < 2)
    return n;
  using D = ranges::range_difference_t<decltype(v)>;
  auto pairs = ranges::views::zip(v | ranges::views::take(static_cast<D>(n - 1)),
                                  v | ranges::views::drop(static_cast<D>(1)));
  return detail::find_first(pairs, n - 1, detail::descends<Comp>{comp}) + 1;
}

} // namespace gpu

// gpu::equal_range(sorted, value[, comp]): the indices {lower, upper} of the elements of
// sorted equivalent to value, as std::equal_range (lower: the first element not less
// than value, upper: the first greater). Both binary searches in one launch on the
// device (detail/search_one.hpp). For many values at once, gpu::lower_bound and
// gpu::upper_bound (pacxx/algorithm/binary_search.hpp).
#pragma once
#include <cstddef>
#include <functional>
#include <utility>

#include "pacxx/algorithm/detail/search_one.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {
struct index_pair {
  std::size_t first, second;
};
template <class T, class Comp> struct equal_range_search {
  T value;
  Comp comp;
  template <class It> index_pair operator()(It first, std::size_t n) const {
    const std::size_t lo =
        partition_point_at(first, n, [&](const auto &e) { return bool(comp(e, value)); });
    const std::size_t hi =
        lo + partition_point_at(first + static_cast<ranges::iter_difference_t<It>>(lo), n - lo,
                                [&](const auto &e) { return !bool(comp(value, e)); });
    return {lo, hi};
  }
};
} // namespace detail

// The indices {lower, upper} of the elements of sorted equivalent to value under comp
// (std::equal_range); {0, 0} for an empty range without a launch. sorted must be sorted by
// comp; one launch does both binary searches. value and comp must be trivially copyable.
template <class Rng, class T, class Comp = std::less<>>
std::pair<std::size_t, std::size_t> equal_range(Rng &&sorted, const T &value, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::equal_range", sorted);
  static_assert(pacxx::is_device_copyable<Comp>::value && pacxx::is_device_copyable<T>::value,
                "gpu::equal_range: the value and the comparison must be trivially copyable");
  auto v = pacxx::detail::device_view(std::forward<Rng>(sorted));
  const std::size_t n = pacxx::detail::device_size(v);
  if (n == 0)
    return {0, 0};
  const detail::index_pair r = detail::search_once<detail::index_pair>(
      v, n, detail::equal_range_search<T, Comp>{value, comp});
  return {r.first, r.second};
}

} // namespace gpu

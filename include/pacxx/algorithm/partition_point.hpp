// gpu::partition_point(rng, pred): the index of the first element for which pred does
// not hold in a range partitioned by pred (std::partition_point), or its size. One
// binary search on the device (detail/search_one.hpp): one launch, log2(n) loads.
#pragma once
#include <cstddef>
#include <utility>

#include "pacxx/algorithm/detail/search_one.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {
template <class Pred> struct partition_point_search {
  Pred pred;
  template <class It> std::size_t operator()(It first, std::size_t n) const {
    return partition_point_at(first, n, pred);
  }
};
} // namespace detail

// The index of the first element of rng (partitioned by pred) for which pred does not hold,
// or size(rng) (std::partition_point). One launch, a binary search of log2(n) loads.
template <class Rng, class Pred> std::size_t partition_point(Rng &&rng, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::partition_point", rng);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::partition_point: the predicate must be trivially copyable (capture "
                "values only)");
  auto v = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(v);
  if (n == 0)
    return 0;
  return detail::search_once<std::size_t>(v, n, detail::partition_point_search<Pred>{pred});
}

} // namespace gpu

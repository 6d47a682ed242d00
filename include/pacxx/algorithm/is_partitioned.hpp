// gpu::is_partitioned(rng, pred): whether every element for which pred holds comes
// before every element for which it does not, as std::is_partitioned. One first-match
// search (pacxx/agent/find.hpp) over the adjacent pairs for a false element followed by a
// true one; it stops at the first.
#pragma once
#include <cstddef>
#include <tuple>
#include <utility>

#include "pacxx/algorithm/any_all_none_of.hpp"
#include "pacxx/algorithm/is_sorted.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {
// Whether the pair (previous, next) is a false element followed by a true one.
template <class Pred> struct breaks_partition {
  Pred pred;
  template <class P> bool operator()(const P &p) const {
    return !bool(pred(std::get<0>(p))) && bool(pred(std::get<1>(p)));
  }
};
} // namespace detail

// Whether every element of rng for which pred holds comes before every element for which it
// does not (std::is_partitioned). One launch that stops at the first false element followed
// by a true one.
template <class Rng, class Pred> bool is_partitioned(Rng &&rng, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::is_partitioned", rng);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::is_partitioned: the predicate must be trivially copyable (capture values "
                "only)");
  auto v = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(v);
  if (n < 2)
    return true;
  return gpu::none_of(detail::adjacent_pairs(v, n), detail::breaks_partition<Pred>{pred});
}

} // namespace gpu

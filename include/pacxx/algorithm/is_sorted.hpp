// gpu::is_sorted(rng[, comp]): whether no element is less (comp) than the one before it,
// as std::is_sorted. One first-match search over the adjacent pairs (any views of rng
// fused in; pacxx/agent/find.hpp), which stops at the first pair out of order.
#pragma once
#include <cstddef>
#include <functional>
#include <tuple>
#include <utility>

#include <range/v3/view/drop.hpp>
#include <range/v3/view/take.hpp>
#include <range/v3/view/zip.hpp>

#include "pacxx/algorithm/any_all_none_of.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {
// The n - 1 pairs (v[i - 1], v[i]) of device view v of n >= 2 elements.
template <class V> auto adjacent_pairs(V &v, std::size_t n) {
  using D = ranges::range_difference_t<V>;
  return ranges::views::zip(v | ranges::views::take(static_cast<D>(n - 1)),
                            v | ranges::views::drop(static_cast<D>(1)));
}
// Whether the pair (previous, next) is out of order.
template <class Comp> struct descends {
  Comp comp;
  template <class P> bool operator()(const P &p) const {
    return comp(std::get<1>(p), std::get<0>(p));
  }
};
} // namespace detail

// Whether no element of rng is less (comp) than the one before it (std::is_sorted); true
// for fewer than two elements without a launch. One launch that stops at the first pair out
// of order.
template <class Rng, class Comp = std::less<>> bool is_sorted(Rng &&rng, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::is_sorted", rng);
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::is_sorted: the comparison must be trivially copyable (capture values only)");
  auto v = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(v);
  if (n < 2)
    return true;
  return gpu::none_of(detail::adjacent_pairs(v, n), detail::descends<Comp>{comp});
}

} // namespace gpu

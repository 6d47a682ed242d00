// gpu::set_difference(a, b, out[, comp]): the elements of a that b does not hold: of the elements equivalent to some v, a holding m and b n, the last max(m - n, 0) of a's, in order, as std::set_difference;
// returns the number written. a and b are sorted by comp (any device ranges, views fused),
// out a gpu::vector or a writable view over one; an out too small for the result is a
// pacxx::error and out is left unchanged.
//
// One compaction of a (detail/set_select.hpp: each element's rank among its equivalents
// against their number in b, two binary searches) and the tiny tile clear; where out is
// smaller than a, the elements are counted first (a launch instead of the clear).
#pragma once
#include <cstddef>
#include <functional>
#include <utility>

#include "pacxx/algorithm/detail/set_select.hpp"
#include "pacxx/device_range.hpp"

namespace gpu {

template <class A, class B, class Out, class Comp = std::less<>>
std::size_t set_difference(A &&a_in, B &&b_in, Out &&out_in, Comp comp = Comp{}) {
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::set_difference: the comparison must be trivially copyable (capture values "
                "only)");
  const char *name = "gpu::set_difference";
  auto a = pacxx::detail::device_view(std::forward<A>(a_in));
  auto b = pacxx::detail::device_view(std::forward<B>(b_in));
  auto out = pacxx::detail::device_view(std::forward<Out>(out_in));
  const std::size_t na = pacxx::detail::device_size(a), nb = pacxx::detail::device_size(b);
  const auto flags = detail::flag_view<false>(name, a, na, b, nb, comp);
  return detail::select_flagged_into(name, flags, na, out, pacxx::detail::device_size(out));
}

} // namespace gpu

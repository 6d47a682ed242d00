// gpu::set_union(a, b, out[, comp]): the sorted union of sorted a and b with std's
// multiset semantics (of the elements equivalent to some v, a holding m and b n: a's m,
// then the last max(n - m, 0) of b's), as std::set_union; returns the number written.
// a and b are any device ranges sorted by comp (views fused), out a gpu::vector or a
// writable view over one; an out too small is a pacxx::error and out is left unchanged.
//
// b's elements that a does not cover are compacted into pooled scratch (the tile clear
// and one pass, detail/set_select.hpp), then a and they are merged into out (two
// launches, pacxx/algorithm/merge.hpp). Four launches.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <utility>

#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/detail/set_select.hpp"
#include "pacxx/algorithm/merge.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/vector.hpp"

namespace gpu {

template <class A, class B, class Out, class Comp = std::less<>>
std::size_t set_union(A &&a_in, B &&b_in, Out &&out_in, Comp comp = Comp{}) {
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::set_union: the comparison must be trivially copyable (capture values only)");
  const char *name = "gpu::set_union";
  auto a = pacxx::detail::device_view(std::forward<A>(a_in));
  auto b = pacxx::detail::device_view(std::forward<B>(b_in));
  auto out = pacxx::detail::device_view(std::forward<Out>(out_in));
  using T = ranges::range_value_t<decltype(a)>;
  const std::size_t na = pacxx::detail::device_size(a), nb = pacxx::detail::device_size(b);
  const std::size_t m = pacxx::detail::device_size(out);
  vector<T> extra(nb);
  const std::size_t ne = detail::select_flagged_into(
      name, detail::flag_view<false>(name, b, nb, a, na, comp), nb,
      pacxx::detail::device_view(extra), nb);
  if (na + ne > m)
    throw pacxx::error(std::string(name) + ": the output has " + std::to_string(m) +
                       " elements, the union " + std::to_string(na + ne));
  detail::merge_views<pacxx::policy::merge_for<T>, T>(a, na, pacxx::detail::device_view(extra),
                                                      ne, out, comp);
  return na + ne;
}

} // namespace gpu

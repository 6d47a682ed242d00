// gpu::set_symmetric_difference(a, b, out[, comp]): the elements of sorted a not in
// sorted b and of b not in a, sorted, with std's multiset semantics (of the elements
// equivalent to some v, a holding m and b n: the last m - n of a's where m > n, else the
// last n - m of b's), as std::set_symmetric_difference; returns the number written. a and
// b are any device ranges sorted by comp (views fused), out a gpu::vector or a writable
// view over one; an out too small is a pacxx::error and out is left unchanged.
//
// Each side's surplus is compacted into pooled scratch (the tile clear and one pass
// each, detail/set_select.hpp), then the two are merged into out (two launches,
// pacxx/algorithm/merge.hpp). Six launches.
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
std::size_t set_symmetric_difference(A &&a_in, B &&b_in, Out &&out_in, Comp comp = Comp{}) {
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::set_symmetric_difference: the comparison must be trivially copyable "
                "(capture values only)");
  const char *name = "gpu::set_symmetric_difference";
  auto a = pacxx::detail::device_view(std::forward<A>(a_in));
  auto b = pacxx::detail::device_view(std::forward<B>(b_in));
  auto out = pacxx::detail::device_view(std::forward<Out>(out_in));
  using T = ranges::range_value_t<decltype(a)>;
  const std::size_t na = pacxx::detail::device_size(a), nb = pacxx::detail::device_size(b);
  const std::size_t m = pacxx::detail::device_size(out);
  vector<T> from_a(na), from_b(nb);
  const std::size_t ka = detail::select_flagged_into(
      name, detail::flag_view<false>(name, a, na, b, nb, comp), na,
      pacxx::detail::device_view(from_a), na);
  const std::size_t kb = detail::select_flagged_into(
      name, detail::flag_view<false>(name, b, nb, a, na, comp), nb,
      pacxx::detail::device_view(from_b), nb);
  if (ka + kb > m)
    throw pacxx::error(std::string(name) + ": the output has " + std::to_string(m) +
                       " elements, the symmetric difference " + std::to_string(ka + kb));
  detail::merge_views<pacxx::policy::merge_for<T>, T>(pacxx::detail::device_view(from_a), ka,
                                                      pacxx::detail::device_view(from_b), kb, out,
                                                      comp);
  return ka + kb;
}

} // namespace gpu

// gpu::set_intersection(a, b, out[, comp]): the elements of sorted a that sorted b also
// holds, in order, as std::set_intersection (multiset semantics: of the elements
// equivalent to some v, a holding m and b n, the first min(m, n) of a's); returns the
// number written.
// gpu::set_intersection_by_key(keys_a, keys_b, values_a, out_keys, out_values[, comp]):
// the same selection of a's keys, each with its value (Thrust's; b has no values here).
//
// a and b are device ranges sorted by comp (views fused); the outputs gpu::vectors or
// writable views; an output too small is a pacxx::error and the outputs are left
// unchanged. One compaction of a (detail/set_select.hpp: each element's rank among its
// equivalents against their number in b, from binary searches) and the tiny tile clear;
// where an output is smaller than a, the elements are counted first.
#pragma once
#include <cstddef>
#include <functional>
#include <utility>

#include "pacxx/algorithm/detail/set_select.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

// The elements of a (sorted by comp) that b (sorted by comp) also holds, in order, into
// out, with std::set_intersection's multiset semantics; returns the number written. One
// compaction of a and the tile clear (and a counting launch where out is smaller than a).
// An output too small is a pacxx::error that leaves it unchanged.
template <class A, class B, class Out, class Comp = std::less<>>
std::size_t set_intersection(A &&a, B &&b, Out &&out, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::set_intersection", a);
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::set_intersection: the comparison must be trivially copyable (capture "
                "values only)");
  return detail::set_select_one<true>("gpu::set_intersection",
                                      pacxx::detail::device_view(std::forward<A>(a)),
                                      pacxx::detail::device_view(std::forward<B>(b)),
                                      pacxx::detail::device_view(std::forward<Out>(out)), comp);
}

// gpu::set_intersection over the keys, each selected key of a written with its value from
// values_a (b has no values). Returns the number written; same launches and errors.
template <class KA, class KB, class VA, class OK, class OV, class Comp = std::less<>>
std::size_t set_intersection_by_key(KA &&keys_a, KB &&keys_b, VA &&values_a, OK &&out_keys,
                                    OV &&out_values, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::set_intersection_by_key", keys_a);
  return detail::set_select_one_by_key<true>(
      "gpu::set_intersection_by_key", std::forward<KA>(keys_a), std::forward<KB>(keys_b),
      std::forward<VA>(values_a), std::forward<OK>(out_keys), std::forward<OV>(out_values), comp);
}

} // namespace gpu

// gpu::set_intersection(a, b, out[, comp]): the elements of sorted a that sorted b also
// holds, in order, as std::set_intersection (multiset semantics: of the elements
// equivalent to some v, a holding m and b n, the first min(m, n) of a's); returns the
// number written.
// gpu::set_intersection_by_key(keys_a, keys_b, values_a, out_keys, out_values[, comp]):
// the same selection of a's keys, each with its value (Thrust's; b has no values here).
//
// a and b are device ranges sorted by comp (views fused into the loads); the outputs
// gpu::vectors or writable views (fused into the stores); an output too small is a
// pacxx::error and the outputs are left unchanged. One merge-path pass
// (detail/set_operations.hpp): two launches where the output holds the largest possible
// result (min(size(a), size(b))), else three (a count first).
#pragma once
#include <cstddef>
#include <functional>
#include <utility>

#include "pacxx/algorithm/detail/set_operations.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

// The elements of a (sorted by comp) that b (sorted by comp) also holds, in order, into
// out, with std::set_intersection's multiset semantics; returns the number written. One
// merge-path pass: two launches where out holds min(size(a), size(b)) elements, else three
// (a count first). An output too small is a pacxx::error that leaves it unchanged.
template <class A, class B, class Out, class Comp = std::less<>>
std::size_t set_intersection(A &&a, B &&b, Out &&out, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::set_intersection", a);
  return detail::set_op_plain<detail::set_op::intersection>("gpu::set_intersection",
                                                            std::forward<A>(a), std::forward<B>(b),
                                                            std::forward<Out>(out), comp);
}

// gpu::set_intersection over the keys, each selected key of a written with its value from
// values_a (b has no values). Returns the number written; same launches and errors.
template <class KA, class KB, class VA, class OK, class OV, class Comp = std::less<>>
std::size_t set_intersection_by_key(KA &&keys_a, KB &&keys_b, VA &&values_a, OK &&out_keys,
                                    OV &&out_values, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::set_intersection_by_key", keys_a);
  return detail::set_op_by_key_a<detail::set_op::intersection>(
      "gpu::set_intersection_by_key", std::forward<KA>(keys_a), std::forward<KB>(keys_b),
      std::forward<VA>(values_a), std::forward<OK>(out_keys), std::forward<OV>(out_values), comp);
}

} // namespace gpu

// gpu::set_difference(a, b, out[, comp]): the elements of sorted a that sorted b does not
// hold, in order, as std::set_difference (multiset semantics: of the elements equivalent
// to some v, a holding m and b n, the last max(m - n, 0) of a's); returns the number
// written.
// gpu::set_difference_by_key(keys_a, keys_b, values_a, values_b, out_keys, out_values[,
// comp]): the same selection of a's keys, each with its value (Thrust's signature;
// values_b is not read).
//
// a and b are device ranges sorted by comp (views fused into the loads); the outputs
// gpu::vectors or writable views (fused into the stores); an output too small is a
// pacxx::error and the outputs are left unchanged. One merge-path pass
// (detail/set_operations.hpp): two launches where the output holds the largest possible
// result (size(a)), else three (a count first).
#pragma once
#include <cstddef>
#include <functional>
#include <utility>

#include "pacxx/algorithm/detail/set_operations.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

// The elements of a (sorted by comp) that b (sorted by comp) does not hold, in order, into
// out, with std::set_difference's multiset semantics; returns the number written. One
// merge-path pass: two launches where out holds size(a) elements, else three (a count
// first). An output too small is a pacxx::error that leaves it unchanged.
template <class A, class B, class Out, class Comp = std::less<>>
std::size_t set_difference(A &&a, B &&b, Out &&out, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::set_difference", a);
  return detail::set_op_plain<detail::set_op::difference>(
      "gpu::set_difference", std::forward<A>(a), std::forward<B>(b), std::forward<Out>(out), comp);
}

// gpu::set_difference over the keys, each selected key of a written with its value from
// values_a (Thrust's signature; values_b is not read). Returns the number written; same
// launches and errors.
template <class KA, class KB, class VA, class VB, class OK, class OV, class Comp = std::less<>>
std::size_t set_difference_by_key(KA &&keys_a, KB &&keys_b, VA &&values_a, VB &&, OK &&out_keys,
                                  OV &&out_values, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::set_difference_by_key", keys_a);
  return detail::set_op_by_key_a<detail::set_op::difference>(
      "gpu::set_difference_by_key", std::forward<KA>(keys_a), std::forward<KB>(keys_b),
      std::forward<VA>(values_a), std::forward<OK>(out_keys), std::forward<OV>(out_values), comp);
}

} // namespace gpu

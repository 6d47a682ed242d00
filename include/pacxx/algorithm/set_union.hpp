// gpu::set_union(a, b, out[, comp]): the sorted union of sorted a and b with std's
// multiset semantics (of the elements equivalent to some v, a holding m and b n: a's m,
// then the last max(n - m, 0) of b's), as std::set_union; returns the number written.
// gpu::set_union_by_key(keys_a, keys_b, values_a, values_b, out_keys, out_values[,
// comp]): the same selection of keys, each with its value (Thrust's).
//
// a and b are device ranges sorted by comp (views fused into the loads); the outputs
// gpu::vectors or writable views (fused into the stores); an output too small is a
// pacxx::error and the outputs are left unchanged. One merge-path pass
// (detail/set_operations.hpp): two launches where the output holds the largest possible
// result (size(a) + size(b)), else three (a count first).
#pragma once
#include <cstddef>
#include <functional>
#include <utility>

#include "pacxx/algorithm/detail/set_operations.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

// The sorted union of a and b (both sorted by comp) into out, with std::set_union's
// multiset semantics; returns the number written. One merge-path pass: two launches where
// out holds size(a) + size(b) elements, else three (a count first). An output too small is
// a pacxx::error that leaves it unchanged.
template <class A, class B, class Out, class Comp = std::less<>>
std::size_t set_union(A &&a, B &&b, Out &&out, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::set_union", a);
  return detail::set_op_plain<detail::set_op::union_>(
      "gpu::set_union", std::forward<A>(a), std::forward<B>(b), std::forward<Out>(out), comp);
}

// gpu::set_union over the keys, each selected key written with its value (from values_a or
// values_b). Returns the number written; same launches and errors.
template <class KA, class KB, class VA, class VB, class OK, class OV, class Comp = std::less<>>
std::size_t set_union_by_key(KA &&keys_a, KB &&keys_b, VA &&values_a, VB &&values_b, OK &&out_keys,
                             OV &&out_values, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::set_union_by_key", keys_a);
  return detail::set_op_by_key<detail::set_op::union_>(
      "gpu::set_union_by_key", std::forward<KA>(keys_a), std::forward<KB>(keys_b),
      std::forward<VA>(values_a), std::forward<VB>(values_b), std::forward<OK>(out_keys),
      std::forward<OV>(out_values), comp);
}

} // namespace gpu

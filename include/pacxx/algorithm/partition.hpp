// gpu::partition(v, pred): reorders v so that the elements for which pred holds come
// first; returns how many there are. std::partition need not keep the order; this one
// is gpu::stable_partition (pacxx/algorithm/copy_if.hpp: one pass in place, the false
// elements through pooled scratch), since a single-pass unstable partition would read
// and write the same tiles from both ends and gain nothing measurable over it.
#pragma once
#include <cstddef>

#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/vector.hpp"

namespace gpu {

// Reorders v so that the elements for which pred holds come first and returns how many
// there are. Stable (it is gpu::stable_partition: one pass in place, the false elements
// through pooled scratch).
template <class T, class Pred> std::size_t partition(vector<T> &v, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::partition", v);
  return gpu::stable_partition(v, pred);
}

} // namespace gpu

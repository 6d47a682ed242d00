// Merge path (Odeh, Green, Mwassi, Shmueli, Birk, "Merge Path - Parallel Merging Made
// Simple", 2012; CUB's AgentMerge): the merge of sorted a and b, cut into tiles of equal
// output length. The cut of output position d is the number i of a's elements among
// the first d outputs (a binary search along the cross diagonal); a tile's elements of
// a and b are loaded into shared memory, each thread finds its own cut in there and
// merges its `items` outputs sequentially, and the tile is stored from shared memory.
// Stable: on ties a's element comes first.
#pragma once
#include <cstddef>

#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {
namespace agent {

// The number of a's elements among the first d elements of the stable merge of
// a[0, na) and b[0, nb) (at(a, i), at(b, j) read them).
template <class A, class B, class Comp>
inline std::size_t merge_path(const A &a, std::size_t na, const B &b, std::size_t nb, std::size_t d,
                              Comp comp) {
  std::size_t lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    // a[mid] is among the first d unless b[d - 1 - mid] comes before it.
    if (comp(b(d - 1 - mid), a(mid)))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// One tile of the merge: output positions [d0, d1) (d1 - d0 <= P::block * P::items),
// whose a-elements are [i0, i1) (the merge path at d0 and d1). load_a(i), load_b(j)
// read the inputs, store(d, v) writes output position d.
template <class P, class T, class LoadA, class LoadB, class Store, class Comp>
__attribute__((always_inline)) inline void merge_tile(LoadA &&load_a, LoadB &&load_b, Store &&store,
                                                      std::size_t d0, std::size_t d1,
                                                      std::size_t i0, std::size_t i1, Comp comp) {
  constexpr std::size_t B = P::block, I = P::items, tile = B * I;
  shared_memory<T, tile> sh;
  const std::size_t l = Thread::get().local.x;
  const std::size_t la = i1 - i0, len = d1 - d0, lb = len - la, j0 = d0 - i0;
  for (std::size_t x = l; x < tile; x += B) {
    if (x < la)
      sh[x] = load_a(i0 + x);
    else if (x < len)
      sh[x] = load_b(j0 + (x - la));
  }
  barrier();
  const T *sa = sh.data(), *sb = sh.data() + la;
  const std::size_t dl = l * I < len ? l * I : len;
  std::size_t ia = merge_path([&](std::size_t i) -> const T & { return sa[i]; }, la,
                              [&](std::size_t j) -> const T & { return sb[j]; }, lb, dl, comp);
  std::size_t ib = dl - ia;
  T out[I];
#pragma unroll
  for (std::size_t k = 0; k < I; ++k) {
    const bool take_b = ib < lb && (ia >= la || comp(sb[ib], sa[ia]));
    // Past the tile's end both sides may be exhausted: read a slot that exists.
    const std::size_t at = take_b ? la + ib : (ia < la ? ia : 0);
    out[k] = sh[at];
    ib += take_b ? 1 : 0;
    ia += take_b ? 0 : 1;
  }
  barrier();
#pragma unroll
  for (std::size_t k = 0; k < I; ++k)
    if (l * I + k < len)
      sh[l * I + k] = out[k];
  barrier();
  for (std::size_t x = l; x < len; x += B)
    store(d0 + x, sh[x]);
}

} // namespace agent
} // namespace pacxx

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

// Merges I outputs from a's position ia and b's ib (sa[0, la) and sb[0, lb) in shared
// memory; base: any element that exists, read where a side is empty), stably, into
// out. The heads of both sides wait in registers, so each output is one shared-memory
// read (CUB's SerialMerge; reading both heads for every output, as before, was three,
// measured on the H100, 2026-11-24: a comparator sort of 12-byte items at 0.72x
// Thrust). Outputs past la + lb repeat an element and must not be stored.
template <std::size_t I, class T, class Comp>
__attribute__((always_inline)) inline void
serial_merge(const T *sa, std::size_t la, const T *sb, std::size_t lb, const T *base,
             std::size_t ia, std::size_t ib, T (&out)[I], Comp comp) {
  const T *pa = la != 0 ? sa : base, *pb = lb != 0 ? sb : base;
  T a = pa[ia < la ? ia : 0], b = pb[ib < lb ? ib : 0];
#pragma unroll
  for (std::size_t k = 0; k < I; ++k) {
    // Branches, not a ?: of two T lvalues: that selects an address and puts a and b
    // on the stack (112 bytes of local memory for a 12-byte item, per ptxas).
    if (ib < lb && (ia >= la || comp(b, a))) {
      out[k] = b;
      ++ib;
      b = pb[ib < lb ? ib : 0];
    } else {
      out[k] = a;
      ++ia;
      a = pa[ia < la ? ia : 0];
    }
  }
}

// Striped moves of a tile between memory and registers: item k of thread l is tile
// element l + k * B, elements [0, valid) exist. All I loads are issued before the first
// use: a rolled loop that loaded one element and stored it to shared memory before
// loading the next kept one load a warp in flight, which held the merge at 0.58x CUB
// and Thrust at 2^28 on the H100 (2026-11-24; 24 registers, so occupancy was not it).
template <std::size_t B, std::size_t I, class T, class Load>
__attribute__((always_inline)) inline void load_striped(Load &&load, std::size_t valid,
                                                        T (&items)[I]) {
  const std::size_t l = Thread::get().local.x;
#pragma unroll
  for (std::size_t k = 0; k < I; ++k)
    if (l + k * B < valid)
      items[k] = load(l + k * B);
}
template <std::size_t B, std::size_t I, class T, class Store>
__attribute__((always_inline)) inline void store_striped(const T (&items)[I], std::size_t valid,
                                                         Store &&store) {
  const std::size_t l = Thread::get().local.x;
#pragma unroll
  for (std::size_t k = 0; k < I; ++k)
    if (l + k * B < valid)
      store(l + k * B, items[k]);
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
  {
    T in[I];
    load_striped<B>(
        [&](std::size_t x) -> T { return x < la ? load_a(i0 + x) : load_b(j0 + (x - la)); }, len, in);
    store_striped<B>(in, len, [&](std::size_t x, const T &v) { sh[x] = v; });
  }
  barrier();
  const T *sa = sh.data(), *sb = sh.data() + la;
  const std::size_t dl = l * I < len ? l * I : len;
  const std::size_t ia =
      merge_path([&](std::size_t i) -> const T & { return sa[i]; }, la,
                 [&](std::size_t j) -> const T & { return sb[j]; }, lb, dl, comp);
  T out[I];
  serial_merge(sa, la, sb, lb, sh.data(), ia, dl - ia, out, comp);
  barrier();
#pragma unroll
  for (std::size_t k = 0; k < I; ++k)
    if (l * I + k < len)
      sh[l * I + k] = out[k];
  barrier();
  {
    T res[I];
    load_striped<B>([&](std::size_t x) -> T { return sh[x]; }, len, res);
    store_striped<B>(res, len, [&](std::size_t x, const T &v) { store(d0 + x, v); });
  }
}

} // namespace agent
} // namespace pacxx

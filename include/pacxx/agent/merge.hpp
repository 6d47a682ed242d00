// Merge path (Odeh, Green, Mwassi, Shmueli, Birk, "Merge Path - Parallel Merging Made
// Simple", 2012; CUB's AgentMerge): the merge of sorted a and b, cut into tiles of equal
// output length. The cut of output position d is the number i of a's elements among
// the first d outputs (a binary search along the cross diagonal); a tile's elements of
// a and b are loaded into shared memory, each thread finds its own cut in there and
// merges its `items` outputs sequentially, and the tile is stored from shared memory.
// Stable: on ties a's element comes first.
#pragma once
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "pacxx/block/warp.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {
namespace agent {

// The number of a's elements among the first d elements of the stable merge of
// a[0, na) and b[0, nb) (at(a, i), at(b, j) read them). Idx: std::size_t for global
// ranges, unsigned within a tile (32-bit arithmetic: half the instructions).
template <class Idx, class A, class B, class Comp>
inline Idx merge_path(const A &a, Idx na, const B &b, Idx nb, Idx d, Comp comp) {
  Idx lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
  while (lo < hi) {
    const Idx mid = lo + (hi - lo) / 2;
    // a[mid] is among the first d unless b[d - 1 - mid] comes before it.
    if (comp(b(d - 1 - mid), a(mid)))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

namespace detail {
// p ? x : y as a select, without a branch and without memory: a ?: of two lvalues of a
// struct selects an address, which put them on the stack (112 bytes of local memory
// for a 12-byte item, per ptxas), so structs are selected 32-bit word by word.
template <class T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
__attribute__((always_inline)) inline T select_value(bool p, const T &x, const T &y) {
  return p ? x : y;
}
template <class T, typename std::enable_if<!std::is_arithmetic<T>::value, int>::type = 0>
__attribute__((always_inline)) inline T select_value(bool p, const T &x, const T &y) {
  warp::detail::words<T> a, b;
  std::memset(&a, 0, sizeof a);
  std::memset(&b, 0, sizeof b);
  std::memcpy(&a, &x, sizeof(T));
  std::memcpy(&b, &y, sizeof(T));
#pragma unroll
  for (std::size_t k = 0; k < warp::detail::words<T>::count; ++k)
    a.w[k] = p ? a.w[k] : b.w[k];
  return warp::detail::from_bytes<T>(&a);
}
} // namespace detail

// A tile of T in shared memory. Structs of 8 or 16 bytes move with one 64- or 128-bit
// access each (the array aligned to their size), where a plain copy was one 4-byte access
// per member: with a thread's run of I elements written blocked, 16-byte structs at 4
// items made 16-way bank conflicts in the block sort (a model:
// benchmarks/results/2026-11-26-h100-min-element-u64-sort/banks.py). Arithmetic types
// are one access already; so are std::pair and other types whose copy is a byte copy
// (warp::detail::moves_as_bytes); any other type is copied as written.
// 16-byte structs (sort_points, 2^28, H100): 132.1 ms with 4-byte accesses, 91.9 with
// 128-bit ones (ncu at 2^24: block sort 2.59 -> 1.33 ms, merge pass 310 -> 242 us;
// benchmarks/results/2026-11-26-h100-wide-shared).
template <class T, std::size_t N> class item_tile {
  static constexpr std::size_t wide = !std::is_arithmetic<T>::value &&
                                              warp::detail::moves_as_bytes<T>::value &&
                                              (sizeof(T) == 8 || sizeof(T) == 16)
                                          ? sizeof(T)
                                          : 0;
  typedef unsigned word_pair __attribute__((vector_size(8), may_alias));
  typedef unsigned word_quad __attribute__((vector_size(16), may_alias));
  shared_memory<T, N, (wide > alignof(T) ? wide : alignof(T))> sh_;

  static T get(const T *p, std::integral_constant<std::size_t, 0>) { return *p; }
  static T get(const T *p, std::integral_constant<std::size_t, 8>) {
    const word_pair w = *reinterpret_cast<const word_pair *>(p);
    const unsigned u[2] = {w[0], w[1]};
    return warp::detail::from_bytes<T>(u);
  }
  static T get(const T *p, std::integral_constant<std::size_t, 16>) {
    const word_quad w = *reinterpret_cast<const word_quad *>(p);
    const unsigned u[4] = {w[0], w[1], w[2], w[3]};
    return warp::detail::from_bytes<T>(u);
  }
  static void set(T *p, const T &v, std::integral_constant<std::size_t, 0>) { *p = v; }
  static void set(T *p, const T &v, std::integral_constant<std::size_t, 8>) {
    unsigned u[2];
    std::memcpy(u, &v, 8);
    *reinterpret_cast<word_pair *>(p) = word_pair{u[0], u[1]};
  }
  static void set(T *p, const T &v, std::integral_constant<std::size_t, 16>) {
    unsigned u[4];
    std::memcpy(u, &v, 16);
    *reinterpret_cast<word_quad *>(p) = word_quad{u[0], u[1], u[2], u[3]};
  }

public:
  __attribute__((always_inline)) item_tile() = default;
  T get(unsigned i) const {
    return get(sh_.data() + i, std::integral_constant<std::size_t, wide>{});
  }
  void set(unsigned i, const T &v) {
    set(sh_.data() + i, v, std::integral_constant<std::size_t, wide>{});
  }
};

// Merges I outputs of the runs s[ia, a_end) and s[ib, b_end) (both in one shared array,
// b's run after a's), stably, into out. s[b_end] must be readable (the tile's array has
// one spare element, as CUB's): a head past its run's end is read but never compared
// or used, so no index needs a clamp. The heads wait in registers, so each output is
// one shared-memory read (CUB's SerialMerge; reading both heads for every output was
// three, measured on the H100, 2026-11-24: a comparator sort of 12-byte items at 0.72x
// Thrust). Each step is selects, not branches: with an if/else per output the lanes of
// a warp, which take a's or b's head as their data says, ran both sides one after the
// other (PTX of the u32 merge: 3 compares, 2-3 branches and both sides' loads per
// output). Outputs past the runs' end repeat an element and must not be stored.
template <unsigned I, class T, class Tile, class Comp>
__attribute__((always_inline)) inline void serial_merge(const Tile &s, unsigned ia, unsigned a_end,
                                                        unsigned ib, unsigned b_end, T (&out)[I],
                                                        Comp comp) {
  T a = s.get(ia), b = s.get(ib);
#pragma unroll
  for (unsigned k = 0; k < I; ++k) {
    const bool p = ib < b_end && (ia >= a_end || comp(b, a));
    out[k] = detail::select_value(p, b, a);
    const unsigned next = (p ? ib : ia) + 1;
    ib = p ? next : ib;
    ia = p ? ia : next;
    const T v = s.get(next);
    b = detail::select_value(p, v, b);
    a = detail::select_value(p, a, v);
  }
}

// Moves [0, valid) of a tile, store(x, load(x)), striped: item k of thread l is tile
// element l + k * B. All I loads are issued, into registers, before the first store (a
// rolled loop that loads one element and stores it before loading the next keeps one
// load a warp in flight).
template <unsigned B, unsigned I, class T, class Load, class Store>
__attribute__((always_inline)) inline void move_striped(Load &&load, unsigned valid,
                                                        Store &&store) {
  const unsigned l = unsigned(Thread::get().local.x);
  T items[I];
#pragma unroll
  for (unsigned k = 0; k < I; ++k)
    if (l + k * B < valid)
      items[k] = load(l + k * B);
#pragma unroll
  for (unsigned k = 0; k < I; ++k)
    if (l + k * B < valid)
      store(l + k * B, items[k]);
}

// One tile of the merge: output positions [d0, d1) (d1 - d0 <= P::block * P::items),
// whose a-elements are [i0, i1) (the merge path at d0 and d1). load_a(i), load_b(j)
// read the inputs, store(d, v) writes output position d.
//
// Within the tile every index is 32-bit, and the merged items go back through shared
// memory padded against bank conflicts. Before (64-bit tile indices, no padding: 8
// items a thread wrote with 4.5-way bank conflicts) the merge kernel was bound by its
// integer pipeline: ncu on the H100 (2026-11-25, 2^24 u32): 45 M warp instructions,
// ALU 78.6 %, 85 us; CUB's DeviceMerge takes 512 threads x 15 items with int indices.
template <class P, class T, class LoadA, class LoadB, class Store, class Comp>
__attribute__((always_inline)) inline void merge_tile(LoadA &&load_a, LoadB &&load_b, Store &&store,
                                                      std::size_t d0, std::size_t d1,
                                                      std::size_t i0, std::size_t i1, Comp comp) {
  constexpr unsigned B = P::block, I = P::items, tile = B * I;
  // The merged items go back through the same memory, blocked (thread l writes l * I +
  // k), so where I is even one padding slot per 32 elements keeps those writes off a
  // single bank (block_exchange's padding); the striped reads that follow are
  // conflict-free either way.
  constexpr bool padded = I % 2 == 0;
  const auto at = [](unsigned i) { return padded ? i + i / 32 : i; };
  item_tile<T, (padded ? tile + tile / 32 : tile) + 1> sh;
  const unsigned l = unsigned(Thread::get().local.x);
  // Inputs that are not sorted by comp (std::merge's precondition) may give cuts that
  // are not monotone; clamped, they give unspecified elements of a and b but never a
  // read outside them (i1 >= d1 - nb holds for any cut, so b's reads stay below d1 - i1).
  const unsigned len = unsigned(d1 - d0);
  const unsigned la = i1 <= i0 ? 0u : (i1 - i0 < len ? unsigned(i1 - i0) : len), lb = len - la;
  const std::size_t j0 = d0 - i0;
  move_striped<B, I, T>(
      [&](unsigned x) -> T { return x < la ? load_a(i0 + x) : load_b(j0 + (x - la)); }, len,
      [&](unsigned x, const T &v) { sh.set(x, v); });
  barrier();
  const unsigned dl = l * I < len ? l * I : len;
  const unsigned ia = merge_path([&](unsigned i) { return sh.get(i); }, la,
                                 [&](unsigned j) { return sh.get(la + j); }, lb, dl, comp);
  T out[I];
  serial_merge(sh, ia, la, la + (dl - ia), len, out, comp);
  barrier();
#pragma unroll
  for (unsigned k = 0; k < I; ++k)
    sh.set(at(l * I + k), out[k]);
  barrier();
  move_striped<B, I, T>([&](unsigned x) -> T { return sh.get(at(x)); }, len,
                        [&](unsigned x, const T &v) { store(d0 + x, v); });
}

} // namespace agent
} // namespace pacxx

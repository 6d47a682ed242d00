// The block sort of the merge sort (device code; CUB's AgentBlockSort and
// BlockMergeSort): a block sorts a tile of P::block * P::items elements stably with any
// strict weak ordering. Each thread sorts its `items` consecutive elements in registers
// (odd-even transposition: fixed indices, no local memory), then the threads' runs are
// merged pairwise in shared memory, log2(P::block) rounds, each thread producing
// `items` outputs of its pair from its own merge path cut (pacxx/agent/merge.hpp). The
// global passes that merge the sorted tiles are merge_tile's.
#pragma once
#include <cstddef>

#include "pacxx/agent/merge.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {
namespace agent {

// Sorts elements [0, valid) of the tile; load(i) reads tile element i, store(i, v)
// writes sorted element i. Indices within the tile are 32-bit (pacxx/agent/merge.hpp).
template <class P, class T, class Load, class Store, class Comp>
__attribute__((always_inline)) inline void block_sort_tile(Load &&load, Store &&store,
                                                           unsigned valid, Comp comp) {
  constexpr unsigned B = P::block, I = P::items, tile = B * I;
  item_tile<T, tile + 1> sh; // one spare element for serial_merge
  const unsigned l = unsigned(Thread::get().local.x);
  move_striped<B, I, T>(load, valid, [&](unsigned x, const T &v) { sh.set(x, v); });
  barrier();
  // The thread's run: [l * I, l * I + mine).
  const unsigned first = l * I;
  const unsigned mine = valid <= first ? 0 : (valid - first < I ? valid - first : I);
  T v[I];
#pragma unroll
  for (unsigned k = 0; k < I; ++k)
    v[k] = sh.get(k < mine ? first + k : 0);
#pragma unroll
  for (unsigned round = 0; round < I; ++round) {
#pragma unroll
    for (unsigned k = round % 2; k + 1 < I; k += 2) {
      if (k + 1 < mine && comp(v[k + 1], v[k])) {
        T t = v[k];
        v[k] = v[k + 1];
        v[k + 1] = t;
      }
    }
  }
  barrier();
#pragma unroll
  for (unsigned k = 0; k < I; ++k)
    if (k < mine)
      sh.set(first + k, v[k]);
  barrier();
  for (unsigned w = I; w < tile; w *= 2) {
    // Pairs of runs of w: [s, s + w) and [s + w, s + 2w), clamped to valid.
    const unsigned s = first / (2 * w) * (2 * w);
    const unsigned a0 = s < valid ? s : valid, a1 = s + w < valid ? s + w : valid;
    const unsigned b1 = s + 2 * w < valid ? s + 2 * w : valid;
    const unsigned la = a1 - a0, lb = b1 - a1;
    const unsigned d = first - s < la + lb ? first - s : la + lb;
    const unsigned ia = merge_path([&](unsigned i) { return sh.get(a0 + i); }, la,
                                   [&](unsigned j) { return sh.get(a1 + j); }, lb, d, comp);
    serial_merge(sh, a0 + ia, a1, a1 + (d - ia), b1, v, comp);
    barrier();
#pragma unroll
    for (unsigned k = 0; k < I; ++k)
      if (k < mine)
        sh.set(first + k, v[k]);
    barrier();
  }
  move_striped<B, I, T>([&](unsigned x) -> T { return sh.get(x); }, valid, store);
}

} // namespace agent
} // namespace pacxx

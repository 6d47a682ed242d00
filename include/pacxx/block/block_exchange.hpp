// pacxx::block_exchange<T, B, I>: moves a tile of B * I values between the order that
// global memory wants and the blocked one that scans want (thread l holds tile elements
// l * I .. l * I + I - 1), through shared memory (device code).
//
// Each warp moves its own stretch of the tile (the warp's lanes' blocked elements, w * I
// of them, w the warp size): its k-th round of loads or stores reads or writes w
// consecutive elements (coalesced), and the warp turns them around in its own part of
// the shared memory (CUB's BLOCK_LOAD_WARP_TRANSPOSE). So the exchange needs no block
// barrier, only the warp's own synchronisation: a block-wide transpose cost the scan two
// barriers per tile, at which the block waited for the warp doing the look-back. Where a
// warp is one thread (OpenCL) each thread moves its own I elements.
//
// The loops over a thread's I items are unrolled (#pragma unroll): a loop the compiler
// leaves rolled indexes the items' array at run time, which puts the array in local
// memory (ptxas reported a 96-byte stack frame for the scan, every tile's items stored
// to and reloaded from it).
//
// Every thread of the block must call them. Where I is even, one padding slot per 32
// elements (CUB's padding) keeps the blocked accesses (lane j at j * I + k) off a single
// shared-memory bank; where I is odd they fall on 32 banks as they are. Indices are
// 32-bit (a tile is far smaller than 2^32 elements): with 64-bit index arithmetic the
// scan kernel held twice the registers for its shared-memory addresses (80 registers,
// 6 blocks per multiprocessor, against 64 and 8 with 32-bit indices; ptxas -v, sm_90).
#pragma once
#include <cstddef>

#include "pacxx/block/warp.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {

// Moves a tile of B * I values of type T between global memory's order and the blocked one
// (thread l holds elements l * I .. l * I + I - 1) through shared memory, a warp at a time,
// with no block barrier (device code; every thread of the block calls its functions).
template <class T, std::size_t B, std::size_t I> class block_exchange {
  static constexpr bool padded = I % 2 == 0;
  shared_memory<T, padded ? B * I + B * I / 32 : B * I> tile_;
  static unsigned at(unsigned i) { return padded ? i + i / 32 : i; }

  // Slots as a base pointer and constant offsets where the padding allows, so that the
  // unrolled loops address shared and global memory with immediate offsets instead of
  // computing each index (i + i / 32, widening, a 64-bit add: 4 PTX instructions per
  // element and exchange in reduce_by_key's kernel). A thread's blocked items lie in I
  // consecutive slots where no padding slot falls among them: unpadded, or I divides 32.
  static constexpr bool rows_contiguous = !padded || 32 % I == 0;
  // Round k of a warp's coalesced accesses (element first + k * w + lane) is slot
  // at(first + lane) + k * stride(w) where each round starts at a multiple of 32 (w a
  // multiple of 32, as on CUDA: the padding before a round grows by w / 32 a round) or
  // where a round is one element of a contiguous row (w 1); w is a constant after the
  // JIT, so the tests fold.
  static bool strided_linear(unsigned w) {
    return !padded || w % 32 == 0 || (w == 1 && rows_contiguous);
  }
  static unsigned stride(unsigned w) { return padded && w % 32 == 0 ? w + w / 32 : w; }
  // The slot of the thread's item k: row[k] (row = row_of(l)) where rows are contiguous.
  T *row_of(unsigned l) { return tile_.data() + at(l * unsigned(I)); }
  T &item_at(T *row, unsigned l, unsigned k) {
    return rows_contiguous ? row[k] : tile_[at(l * unsigned(I) + k)];
  }
  const T &item_at(const T *row, unsigned l, unsigned k) const {
    return rows_contiguous ? row[k] : tile_[at(l * unsigned(I) + k)];
  }
  // The slot of round k of the warp's coalesced accesses, from the slot of round 0.
  T &round_at(T *round0, unsigned first, unsigned w, unsigned lane, unsigned k) {
    return strided_linear(w) ? round0[k * stride(w)] : tile_[at(first + k * w + lane)];
  }

public:
  __attribute__((always_inline)) block_exchange() = default;

  // items[k] = load(l * I + k) for the tile's first `valid` elements. Slots past
  // `valid` hold load(0) (a value of the range, never uninitialised memory), so valid
  // must be at least 1. load(i) is called with tile-relative indices, std::size_t so
  // that a 64-bit address computed from one (base + i) folds the round's constant
  // offset into the access.
  template <class Load> void load_blocked(Load &&load, std::size_t valid, T (&items)[I]) {
    const unsigned l = unsigned(Thread::get().local.x), w = warp::size(), lane = warp::lane();
    const unsigned first = (l - lane) * unsigned(I); // the warp's stretch starts here
    const std::size_t mine = first + lane;           // the thread's element of round 0
    // All loads into registers before the first store to shared memory, which the
    // compiler may not move a global load across: I loads in flight per thread.
    T v[I];
    if (valid == B * I) {
#pragma unroll
      for (unsigned k = 0; k < I; ++k)
        v[k] = load(mine + std::size_t(k * w));
    } else {
      const T zeroth = load(0);
#pragma unroll
      for (unsigned k = 0; k < I; ++k) {
        const std::size_t i = mine + std::size_t(k * w);
        v[k] = i < valid ? load(i) : zeroth;
      }
    }
    T *round0 = tile_.data() + at(first + lane);
#pragma unroll
    for (unsigned k = 0; k < I; ++k)
      round_at(round0, first, w, lane, k) = v[k];
    warp::sync();
    T *row = row_of(l);
#pragma unroll
    for (unsigned k = 0; k < I; ++k)
      items[k] = item_at(row, l, k);
    warp::sync(); // the warp's stretch may be reused
  }

  // The exchange's shared memory: B * I elements (plus a padding slot per 32 where I is
  // even), for a caller that reuses it for something else once every warp is done with
  // the exchange (after a block barrier).
  T *data() { return tile_.data(); }

  // The items of the last load_blocked again, read from the shared memory that still
  // holds them (nothing may have written the exchange since): a caller that needs them
  // only before and after a long stretch of code (the scan's block scan and look-back)
  // need not keep them in registers through it.
  void reload_blocked(T (&items)[I]) const {
    const unsigned l = unsigned(Thread::get().local.x);
    const T *row = tile_.data() + at(l * unsigned(I));
#pragma unroll
    for (unsigned k = 0; k < I; ++k)
      items[k] = item_at(row, l, k);
  }

  // The thread's item k of the last load_blocked, from the same shared memory (as
  // reload_blocked): for a caller that needs only a few of them, where it needs them.
  T item(unsigned k) const {
    const unsigned l = unsigned(Thread::get().local.x);
    return item_at(tile_.data() + at(l * unsigned(I)), l, k);
  }

  // store_blocked with the thread's item k made by item(k), k = 0, 1, ..., I - 1 in
  // order, each written to shared memory as soon as it is made: a caller whose items
  // come from a running fold need not hold all I of them in registers at once (the
  // segmented exclusive scan held 79 registers with an array of them, 62 without; ptxas
  // -v, sm_90).
  template <class Item, class Store>
  void store_blocked_from(Item &&item, std::size_t valid, Store &&store) {
    const unsigned l = unsigned(Thread::get().local.x), w = warp::size(), lane = warp::lane();
    const unsigned first = (l - lane) * unsigned(I);
    const std::size_t mine = first + lane;
    T *row = row_of(l);
#pragma unroll
    for (unsigned k = 0; k < I; ++k)
      item_at(row, l, k) = item(k);
    warp::sync();
    T *round0 = tile_.data() + at(first + lane);
    if (valid == B * I) {
#pragma unroll
      for (unsigned k = 0; k < I; ++k)
        store(mine + std::size_t(k * w), round_at(round0, first, w, lane, k));
    } else {
#pragma unroll
      for (unsigned k = 0; k < I; ++k) {
        const std::size_t i = mine + std::size_t(k * w);
        if (i < valid)
          store(i, round_at(round0, first, w, lane, k));
      }
    }
  }

  // store(i, value) for tile-relative i in [0, valid), from the blocked items, a warp's
  // w consecutive elements at a time.
  template <class Store> void store_blocked(const T (&items)[I], std::size_t valid, Store &&store) {
    store_blocked_from([&items](unsigned k) -> const T & { return items[k]; }, valid, store);
    // No synchronisation after: a warp that writes this exchange's memory again (another
    // load_blocked or store_blocked) needs a pacxx::warp::sync() (or a barrier) first.
  }
};

} // namespace pacxx

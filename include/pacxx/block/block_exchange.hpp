// pacxx::block_exchange<T, B, I>: moves a tile of B * I values between the striped
// arrangement that global memory wants (value k of thread l is tile element k * B + l:
// a warp's loads are contiguous) and the blocked one that scans want (thread l holds
// elements l * I .. l * I + I - 1), through shared memory (device code).
//
// Every thread of the block must call them (they have barriers). One padding slot per
// 32 (CUB's BlockExchange padding) keeps the blocked accesses, thread l at l * I + k,
// from landing on one shared-memory bank when I shares factors with 32.
#pragma once
#include <cstddef>

#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {

template <class T, std::size_t B, std::size_t I> class block_exchange {
  shared_memory<T, B * I + B * I / 32> tile_;
  static std::size_t at(std::size_t i) { return i + i / 32; }

public:
  __attribute__((always_inline)) block_exchange() = default;

  // items[k] = load(l * I + k) for the tile's first `valid` elements. Slots past
  // `valid` hold load(0) (a value of the range, never uninitialised memory), so valid
  // must be at least 1. load(i) is called with tile-relative indices.
  template <class Load> void load_blocked(Load &&load, std::size_t valid, T (&items)[I]) {
    const std::size_t l = Thread::get().local.x;
    // All loads into registers before the first store to shared memory, which the
    // compiler may not move a global load across: I loads in flight per thread.
    T v[I];
    if (valid == B * I) {
      for (std::size_t k = 0; k < I; ++k)
        v[k] = load(k * B + l);
    } else {
      const T first = load(0);
      for (std::size_t k = 0; k < I; ++k) {
        const std::size_t i = k * B + l;
        v[k] = i < valid ? load(i) : first;
      }
    }
    for (std::size_t k = 0; k < I; ++k)
      tile_[at(k * B + l)] = v[k];
    barrier();
    for (std::size_t k = 0; k < I; ++k)
      items[k] = tile_[at(l * I + k)];
    barrier(); // the tile may be reused
  }

  // store(i, value) for tile-relative i in [0, valid), from the blocked items, in
  // striped order.
  template <class Store> void store_blocked(const T (&items)[I], std::size_t valid, Store &&store) {
    const std::size_t l = Thread::get().local.x;
    for (std::size_t k = 0; k < I; ++k)
      tile_[at(l * I + k)] = items[k];
    barrier();
    if (valid == B * I) {
      for (std::size_t k = 0; k < I; ++k)
        store(k * B + l, tile_[at(k * B + l)]);
    } else {
      for (std::size_t k = 0; k < I; ++k)
        if (k * B + l < valid)
          store(k * B + l, tile_[at(k * B + l)]);
    }
    // No barrier after: a block that writes this exchange's memory again (another
    // load_blocked or store_blocked) needs a pacxx::barrier() first.
  }
};

} // namespace pacxx

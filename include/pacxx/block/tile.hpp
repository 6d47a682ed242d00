// pacxx::block_tile<T, Rows, Cols, Threads, AlongRows, Pad, Stages>: a block of Threads
// threads moves Rows x Cols tiles of a 2D source (a matrix, an md view, anything that
// gives the element at tile coordinates) into shared memory, Stages buffers of them
// (device code). The GEMM's operand tiles (pacxx/algorithm/gemm.hpp) are its first users:
// CUTLASS's split of a threadblock tile iterator (global -> registers) from the store
// into shared memory, so that the next tile's loads are in flight while the block
// computes on the current one (double buffering with one barrier a tile):
//
//   pacxx::block_tile<float, 8, 128, 256, false, 4> t;   // 8 rows of 128, pitch 132
//   t.fetch(src, rows, cols);   // this thread's elements of tile 0 -> registers
//                               // (fetch_strided(it, rs, cs, rows, cols): from memory)
//   t.commit(0); pacxx::barrier();
//   for (tile i) {
//     if (more) t.fetch(next_src, ...);   // loads of tile i + 1 in flight ...
//     use(t.stage(i % 2));                // ... while tile i is read from shared memory
//     if (more) t.commit((i + 1) % 2);  // or commit(s, f): f(element) stored
//     pacxx::barrier();                   // all reads of stage i % 2 done before it is refilled
//   }
//
// src(r, c) is the element at row r, column c of the tile; fetch reads only those with
// r < rows and c < cols (the part of the tile inside the source) and puts zeros in the
// rest, so a partial tile at an edge needs nothing from its user. AlongRows says which
// way consecutive threads walk through the tile: down the columns (r fastest) where the
// source is contiguous along r, along the rows (c fastest) otherwise, so that a warp's
// loads are consecutive addresses either way. Pad elements after each row of shared
// memory keep a warp's stores off one bank when it walks down columns (rows Cols + Pad
// apart); a multiple of 4 keeps rows 16-byte aligned for vector reads.
//
// Every thread of the block must call fetch and commit (Threads of them, in a 1D block).
// Shared-memory indices are 32-bit (a tile is far smaller than 2^32 elements), and the
// item loops are unrolled so that the registers stay registers (block_exchange.hpp).
#pragma once
#include <cstddef>

#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {

// Moves Rows x Cols tiles of a 2D source into Stages shared-memory buffers, a block of
// Threads threads together, the loads of the next tile in flight while the block computes
// on the current one (device code; see the header's loop). Every thread calls fetch and
// commit.
template <class T, std::size_t Rows, std::size_t Cols, std::size_t Threads, bool AlongRows,
          std::size_t Pad = 0, std::size_t Stages = 2>
class block_tile {
public:
  // The tile's rows and columns, and the elements from one row to the next in shared
  // memory.
  // @{
  static constexpr std::size_t rows = Rows, cols = Cols, pitch = Cols + Pad;
  // @}
  static constexpr std::size_t items = Rows * Cols / Threads; // per thread
  static constexpr std::size_t stage_size = Rows * pitch;     // elements of one buffer

private:
  static_assert(Rows * Cols % Threads == 0,
                "block_tile: the tile must have a whole number of elements per thread");
  shared_memory<T, Stages * stage_size, 16> smem_;
  T reg_[items];

  // Tile coordinates of element e of the block's walk (item k of thread t is e = k *
  // Threads + t).
  static unsigned row_of(unsigned e) { return AlongRows ? e % unsigned(Rows) : e / unsigned(Cols); }
  static unsigned col_of(unsigned e) { return AlongRows ? e / unsigned(Rows) : e % unsigned(Cols); }
  // Whether every thread's items lie a constant step apart: item k is item_rows * k rows
  // and item_cols * k columns past item 0 (Threads a multiple of the walk's fast extent).
  static constexpr bool regular = AlongRows ? Threads % Rows == 0 : Threads % Cols == 0;
  static constexpr unsigned item_rows = regular && !AlongRows ? unsigned(Threads / Cols) : 0;
  static constexpr unsigned item_cols = regular && AlongRows ? unsigned(Threads / Rows) : 0;

public:
  __attribute__((always_inline)) block_tile() = default;

  // This thread's elements of the tile into registers: src(r, c) where r < rows_in and
  // c < cols_in, T() elsewhere.
  template <class Src> void fetch(const Src &src, std::size_t rows_in, std::size_t cols_in) {
    const unsigned t = unsigned(Thread::get().local.x);
    if (rows_in >= Rows && cols_in >= Cols) { // an inner tile: no bounds checks
#pragma unroll
      for (unsigned k = 0; k < items; ++k) {
        const unsigned e = k * unsigned(Threads) + t;
        reg_[k] = T(src(row_of(e), col_of(e)));
      }
    } else {
#pragma unroll
      for (unsigned k = 0; k < items; ++k) {
        const unsigned e = k * unsigned(Threads) + t, r = row_of(e), c = col_of(e);
        reg_[k] = r < rows_in && c < cols_in ? T(src(r, c)) : T();
      }
    }
  }
  // fetch from a source in memory: the tile's element (r, c) is *(at + r * rs + c * cs)
  // (an md view's iterator_at(origin) and its strides). The same registers as fetch,
  // with one multiply-add an element from a per-thread start where fetch's src(r, c)
  // paid an md view's whole index arithmetic for each (64-bit multiplies; integer work
  // was the busiest pipe of the TF32 gemm under ncu on the H100).
  template <class It>
  __attribute__((always_inline)) void fetch_strided(It at, std::ptrdiff_t rs, std::ptrdiff_t cs,
                                                    std::size_t rows_in, std::size_t cols_in) {
    const unsigned t = unsigned(Thread::get().local.x), r0 = row_of(t), c0 = col_of(t);
    const It p = at + (std::ptrdiff_t(r0) * rs + std::ptrdiff_t(c0) * cs);
    // Where whole rows (columns) of threads tile the block's walk, item k of a thread is
    // k * item_rows rows and k * item_cols columns past its first: one stride d an item.
    const std::ptrdiff_t d = std::ptrdiff_t(item_rows) * rs + std::ptrdiff_t(item_cols) * cs;
    auto offset = [&](unsigned k) __attribute__((always_inline)) {
      const unsigned e = k * unsigned(Threads) + t;
      return regular ? std::ptrdiff_t(k) * d
                     : (std::ptrdiff_t(row_of(e)) - std::ptrdiff_t(r0)) * rs +
                           (std::ptrdiff_t(col_of(e)) - std::ptrdiff_t(c0)) * cs;
    };
    if (rows_in >= Rows && cols_in >= Cols) { // an inner tile: no bounds checks
#pragma unroll
      for (unsigned k = 0; k < items; ++k)
        reg_[k] = T(*(p + offset(k)));
    } else {
#pragma unroll
      for (unsigned k = 0; k < items; ++k) {
        const unsigned e = k * unsigned(Threads) + t;
        reg_[k] = row_of(e) < rows_in && col_of(e) < cols_in ? T(*(p + offset(k))) : T();
      }
    }
  }
  // The registers into stage s of shared memory.
  void commit(unsigned s) {
    commit(s, [](T x) { return x; });
  }
  // f(register) for each register into stage s: work on the loaded values (gemm's
  // rounding to TF32) belongs here, after the block's arithmetic on the current stage,
  // not in fetch's source function, where it would wait for each load as it is issued.
  template <class F> __attribute__((always_inline)) void commit(unsigned s, F f) {
    const unsigned t = unsigned(Thread::get().local.x);
    T *base = smem_.data() + s * unsigned(stage_size);
#pragma unroll
    for (unsigned k = 0; k < items; ++k) {
      const unsigned e = k * unsigned(Threads) + t;
      base[row_of(e) * unsigned(pitch) + col_of(e)] = T(f(reg_[k]));
    }
  }
  // Stage s: row r of the tile at [r * pitch, r * pitch + Cols).
  const T *stage(unsigned s) const { return smem_.data() + s * unsigned(stage_size); }
};

} // namespace pacxx

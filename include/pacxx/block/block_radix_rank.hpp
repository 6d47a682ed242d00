// pacxx::block_radix_rank<B, I, RadixBits>: ranks the digits of a tile of B * I items
// stably (device code): item k of thread l gets its position in the tile sorted by
// digit, equal digits in tile order. What a radix sort's pass (pacxx/agent/radix_sort.hpp)
// scatters by; CUB's BlockRadixRankMatchEarlyCounts.
//
// Tile order is group-striped: the threads form groups of 32 (a CUDA warp), and item k
// of lane j in group g is tile element g * 32 * I + k * 32 + j, so a group's loads of
// one k are 32 consecutive elements and all of group g's items come before group g + 1's.
// Each group has its own row of shared counters, one per digit.
//
//   CUDA (warp of 32), counts first ("early counts"): every lane adds its items'
//     digits to its group's row (shared atomics); the counts are scanned over the
//     groups and over the digits (below), so each row holds where the group's run of
//     each digit starts in the tile; then the group ranks item k after item k - 1: the
//     lanes holding the same digit (peers) find each other with RadixBits ballots, the
//     highest peer advances the row's counter past them all with one shared atomic and
//     hands the old value to the others with a shuffle, and a lane's rank is that value
//     plus its peers below it. The tile's digit counts are known before the ranking, so
//     an onesweep pass publishes them to its successors' look-back that much earlier.
//   OpenCL (a warp is one work-item): a shared-memory counting rank. Every thread posts
//     its digits at their tile positions (in memory the caller lends: B * I words), and
//     the first thread of each group walks its group's positions in order, replacing
//     each digit by the row's count so far; two barriers in all, which every thread
//     reaches (PoCL compiles each barrier-free stretch once: few barriers keep the
//     kernels quick to build). The scanned rows' starts are added after the scan.
// The scan: each digit's counts over the groups, then over the digits by the caller's
// scan_digits (which may scan more along: the onesweep pass scans the global digit
// offsets in the same block scan).
//
// Measured on the H100 (2026-11-25, u32 keys, 256 x 20, benchmarks/sort): ranking
// first and adding the scanned starts after took 126 registers unbounded (80 and 96
// bytes of spills at 3 blocks a multiprocessor) and 6892 us at 2^28, 0.93x CUB; counts
// first take 75 registers (80, no spills) and 6447 us, 0.99x CUB (CUB 6410, Thrust 6169
// in the same process; benchmarks/results/2026-11-25-h100-early-counts/).
//
// Every thread of the block must call rank (it has barriers).
#pragma once
#include <cstddef>

#include "pacxx/atomic.hpp"
#include "pacxx/block/block_scan.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {

// Ranks the RadixBits-bit digits of a tile of B * I items stably, in group-striped tile
// order (device code; CUB's BlockRadixRankMatchEarlyCounts, see the header). Every thread
// of the block must call rank.
template <std::size_t B, std::size_t I, unsigned RadixBits = 8> class block_radix_rank {
public:
  static constexpr unsigned radix = 1u << RadixBits; // digits: 2^RadixBits
  static constexpr std::size_t group = 32;           // threads of a group (a CUDA warp)
  static constexpr std::size_t groups = B / group;   // groups in the block
  static_assert(B % group == 0, "block_radix_rank: B must be a multiple of 32");
  static_assert(B >= radix, "block_radix_rank: at least one thread per digit");

  // The tile element that item k of thread l holds (group-striped order).
  static std::size_t position(std::size_t l, std::size_t k) {
    return (l / group) * group * I + k * group + l % group;
  }

  // digit(k): the digit (< radix) of this thread's item k, called twice per item (so
  // that no array of digits needs registers); rank[k] out: the item's position in the
  // tile sorted stably by digit. scan_digits(count) is called by every thread: thread
  // d < radix passes the tile's count of digit d (the others 0) and must get back the
  // exclusive prefix of the counts over the digits (the sum of the counts of the digits
  // below d); it may use barriers. posts: B * I words of shared memory that the rank may
  // use (OpenCL) until it returns.
  template <class Digit, class ScanDigits>
  void rank(Digit &&digit, unsigned (&rank)[I], ScanDigits &&scan_digits, unsigned *posts) {
    const std::size_t l = Thread::get().local.x, g = l / group;
    const unsigned j = static_cast<unsigned>(l % group);
    unsigned *row = counters_.data() + g * radix;
    for (std::size_t i = l; i < groups * radix; i += B)
      counters_[i] = 0;
    barrier();
    // CUDA: the group's digit counts first (shared atomics in the group's row), so the
    // tile's counts reach scan_digits (and the look-back) before the ranking; the rows
    // then hold each group's start of each digit, and the ranking adds to them
    // (CUB's BlockRadixRankMatchEarlyCounts). OpenCL: the rank among the group's items
    // of the same digit, with the row's start added after the scan.
    if (warp::size() == 1)
      count_shared(digit, rank, row, j, posts);
    else
      count_digits(digit, row);
    barrier();
    // Digit d (thread d): its counts over the groups become exclusive offsets.
    unsigned total = 0;
    if (l < radix) {
      for (std::size_t h = 0; h < groups; ++h) {
        const unsigned c = counters_[h * radix + l];
        counters_[h * radix + l] = total;
        total += c;
      }
    }
    const unsigned start = scan_digits(l < radix ? total : 0u);
    if (l < radix)
      for (std::size_t h = 0; h < groups; ++h)
        counters_[h * radix + l] += start;
    barrier();
    if (warp::size() == 1) {
#pragma unroll
      for (std::size_t k = 0; k < I; ++k)
        rank[k] += row[digit(k)];
    } else {
      // The row again, from the lane's id: the same row, but in terms LLVM does not
      // see as equal to the first, so the items' counter addresses are computed again
      // here rather than kept live across the scan from count_digits (20 64-bit shared
      // addresses: 88 registers unbounded at 256 x 20 with the first row, 75 with this
      // one; ptxas, sm_90).
      unsigned *again_row = counters_.data() + (l - warp::lane()) / group * radix;
      count_warp(digit, rank, again_row, j);
    }
    // No barrier after: a block that ranks again needs a pacxx::barrier() first.
  }

private:
  shared_memory<unsigned, groups * radix> counters_;

  // CUDA: the group's count of each digit, added to its row.
  template <class Digit> void count_digits(Digit &digit, unsigned *row) {
#pragma unroll
    for (std::size_t k = 0; k < I; ++k)
      atomic_add(row + digit(k), 1u);
  }

  // CUDA: rank[k] = the row's counter of the item's digit plus the item's peers below
  // it; the group's highest peer advances the counter past them all.
  template <class Digit>
  void count_warp(Digit &digit, unsigned (&local)[I], unsigned *row, unsigned j) {
    const unsigned below = (1u << j) - 1u;
#pragma unroll
    for (std::size_t k = 0; k < I; ++k) {
      const unsigned d = digit(k);
      const unsigned peers = warp::match(d, RadixBits);
      const unsigned leader = 31u - static_cast<unsigned>(__builtin_clz(peers));
      unsigned base = 0;
      if (j == leader)
        base = atomic_add(row + d, static_cast<unsigned>(__builtin_popcount(peers)));
      base = warp::shuffle(base, leader);
      local[k] = base + static_cast<unsigned>(__builtin_popcount(peers & below));
    }
  }

  template <class Digit>
  void count_shared(Digit &digit, unsigned (&local)[I], unsigned *row, unsigned j,
                    unsigned *posts) {
    const std::size_t l = Thread::get().local.x;
#pragma unroll
    for (std::size_t k = 0; k < I; ++k)
      posts[position(l, k)] = digit(k);
    barrier();
    if (j == 0) {
      unsigned *p = posts + (l / group) * group * I;
      for (std::size_t i = 0; i < group * I; ++i)
        p[i] = row[p[i]]++;
    }
    barrier();
#pragma unroll
    for (std::size_t k = 0; k < I; ++k)
      local[k] = posts[position(l, k)];
  }
};

// The usual scan_digits of block_radix_rank: an exclusive sum of the digit counts.
template <std::size_t B> struct digit_sum {
  block_scan<unsigned, B> scan; // the block scan it sums with
  __attribute__((always_inline)) digit_sum() = default;
  // The exclusive sum of count over the block's threads (every thread calls it).
  unsigned operator()(unsigned count) {
    return scan.exclusive(count, 0u, [](unsigned a, unsigned b) { return a + b; });
  }
};

} // namespace pacxx

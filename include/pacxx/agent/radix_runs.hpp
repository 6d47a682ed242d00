// The radix sort's passes over contiguous runs (device code): the CPU-shaped alternative
// to the onesweep passes of pacxx/agent/radix_sort.hpp, for the tuning spaces
// (policy::tuning::radix_runs_point). A grid of one-thread blocks, block r the r-th
// contiguous run of the keys (agent/run_split.hpp). Each pass of radix_bits:
//   1. run_digit_counts: each run counts its keys' digits;
//   2. the host turns the counts into each (run, digit)'s first output position, digit
//      by digit and, within a digit, run by run (pacxx/algorithm/radix_sort.hpp);
//   3. run_scatter: each run walks its keys in order and moves each (and its value) to
//      its digit's next position. Stable: the keys of a digit keep their run's order,
//      and runs their order.
// Where a warp is one work-item (PoCL), that is the sort a CPU thread does best, with no
// work-group waiting for another: the onesweep passes' look-back spun on predecessors
// that the other core had not finished (perf, PoCL, 2 cores, 2026-12-07: 29 % of the
// single-pass scan's time, whose look-back is the same). On a GPU, a few threads would
// walk the whole input: exploration prunes the candidate there (one_lane_only).
#pragma once
#include <cstddef>

#include "pacxx/agent/radix_sort.hpp"
#include "pacxx/agent/run_split.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {
namespace agent {

// Step 1: counts[r * radix_digits + d] = the keys of run r (this block) whose digit
// (at `shift`, `mask` its bits) is d.
template <class K, bool Descending>
__attribute__((always_inline)) inline void
run_digit_counts(const K *keys, std::size_t n, unsigned shift, unsigned mask, unsigned *counts) {
  const std::size_t r = Block::get().index.x;
  const run_split run(n, Grid::get().size.x, r, 1, 0);
  const radix_digit<K, Descending> digit{shift, mask};
  unsigned c[radix_digits];
  for (unsigned d = 0; d < radix_digits; ++d)
    c[d] = 0;
  for (std::size_t i = run.first; i < run.first + run.count; ++i)
    ++c[digit(keys[i])];
  for (unsigned d = 0; d < radix_digits; ++d)
    counts[r * radix_digits + d] = c[d];
}

// Step 3: every key of run r (this block), in order, to out[next[d]++] (d its digit),
// next starting at offsets[r * radix_digits + d]; its value alike where V is not
// no_values.
template <class K, class V, bool Descending>
__attribute__((always_inline)) inline void
run_scatter(const K *keys_in, K *keys_out, const V *values_in, V *values_out, std::size_t n,
            unsigned shift, unsigned mask, const unsigned *offsets) {
  const std::size_t r = Block::get().index.x;
  const run_split run(n, Grid::get().size.x, r, 1, 0);
  const radix_digit<K, Descending> digit{shift, mask};
  unsigned next[radix_digits];
  for (unsigned d = 0; d < radix_digits; ++d)
    next[d] = offsets[r * radix_digits + d];
  for (std::size_t i = run.first; i < run.first + run.count; ++i) {
    const K k = keys_in[i];
    const unsigned j = next[digit(k)]++;
    keys_out[j] = k;
    if (staged_size<V>::value != 0)
      values_out[j] = values_in[i];
  }
}

} // namespace agent
} // namespace pacxx

// The scan over contiguous runs (device code): the CPU-shaped alternative to the
// single-pass scan of pacxx/agent/scan.hpp, for the tuning spaces (policy::tuning::
// scan_runs_point). Block b of the grid takes the b-th of `blocks` contiguous runs of
// [0, n), and each of its threads a contiguous run of the block's. Three steps, no
// look-back:
//   1. run_total: each block folds its run (each thread its own, then block_scan over
//      the threads in order) and writes the total;
//   2. the host scans the blocks' totals (pacxx/algorithm/scan.hpp, scan_runs);
//   3. run_scan: each thread folds its run again, block_scan gives it the fold of the
//      threads before it, and with its block's prefix it scans its run into the output.
// Where a warp is one work-item (PoCL), a work-group runs its work-items one after the
// other, so a work-item streaming through its own run is what a CPU thread does best,
// and no work-group ever waits for another: the single-pass scan spent 29 % of its
// time (perf, PoCL, 2 cores, 2^22 ints, 2026-12-07) spinning in the look-back on a
// predecessor that the other core had not finished. On a GPU a few threads would walk
// the input one uncoalesced load at a time: exploration prunes the candidate there
// (one_lane_only, pacxx/tune.hpp).
//
// op need not be commutative: every fold keeps index order. Each element is read twice
// (steps 1 and 3) and written once; in place (the output is the input) is allowed, since
// a thread reads each of its elements before it writes it and no other thread touches it.
#pragma once
#include <cstddef>

#include "pacxx/agent/run_split.hpp"
#include "pacxx/block/block_scan.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {
namespace agent {

namespace detail {
// The fold of load(first), ..., load(first + count - 1) in index order (count > 0).
template <class T, class Load, class Op>
__attribute__((always_inline)) inline T fold_run(Load &load, Op &op, std::size_t first,
                                                 std::size_t count) {
  T sum = load(first);
  for (std::size_t i = first + 1; i < first + count; ++i)
    sum = op(sum, load(i));
  return sum;
}
// The run of this thread (blocks of B threads) and the fold of its elements. A thread
// without elements (its run then starts at its block's end) holds the block's first
// element: only threads after it, which have none either, see it.
template <class T, std::size_t B, class Load, class Op> struct own_run {
  run_split run;
  T fold;
  __attribute__((always_inline)) own_run(Load &load, Op &op, std::size_t n)
      : run(n, Grid::get().size.x, Block::get().index.x, B, Thread::get().local.x),
        fold(run.count ? fold_run<T>(load, op, run.first, run.count)
                       : load(run.first - run.block)) {}
};
} // namespace detail

// Step 1: the fold of the block's run (the thread of its last element returns true and
// sets total; the others return false). Every thread of the block must call it.
template <class T, std::size_t B, class Load, class Op>
__attribute__((always_inline)) inline bool run_total(Load &&load, Op op, std::size_t n, T &total) {
  const std::size_t l = Thread::get().local.x;
  const detail::own_run<T, B, Load, Op> own(load, op, n);
  block_scan<T, B> scan;
  T all;
  const T inclusive = scan.inclusive(own.fold, op, all);
  const std::size_t last = (own.run.block < B ? own.run.block : B) - 1;
  if (l == last)
    total = inclusive;
  return l == last;
}

// Step 3: store(i, v) for the scan of the thread's run, v the inclusive (Exclusive:
// exclusive) scan at i. prefix: the fold of everything before the block (with init for
// an exclusive scan); has_prefix false only for block 0 of an inclusive scan. Every
// thread of the block must call it.
template <class T, std::size_t B, bool Exclusive, class Load, class Store, class Op>
__attribute__((always_inline)) inline void
run_scan(Load &&load, Store &&store, Op op, std::size_t n, const T &prefix, bool has_prefix) {
  const std::size_t l = Thread::get().local.x;
  const detail::own_run<T, B, Load, Op> own(load, op, n);
  const run_split &r = own.run;
  block_scan<T, B> scan;
  T all;
  const T before = scan.exclusive(own.fold, op, all); // the threads before this one (not in 0)
  bool have = has_prefix || l > 0;
  T run = l == 0 ? prefix : has_prefix ? op(prefix, before) : before;
  for (std::size_t i = r.first; i < r.first + r.count; ++i) {
    const T x = load(i); // read before the store: the output may be the input
    if (Exclusive) {
      store(i, run);
      run = op(run, x);
    } else {
      run = have ? op(run, x) : x;
      have = true;
      store(i, run);
    }
  }
}

} // namespace agent
} // namespace pacxx

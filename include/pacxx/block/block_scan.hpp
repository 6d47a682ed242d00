// pacxx::block_scan<T, B>: prefix scans over one value per thread of a block of B
// threads, in thread order, for any associative op (device code). On CUDA each warp
// scans with shuffles and the first warp scans the warps' totals (CUB's WARP_SCANS);
// where a warp is one thread (OpenCL) a Hillis-Steele scan in shared memory does it.
//
//   pacxx::block_scan<int, 256> s;
//   int total;
//   int inc = s.inclusive(v, std::plus<>{}, total);   // total: the block's aggregate
//
// The *_with_prefix forms are what single-pass scans build on: after the block's aggregate
// is known, the threads of the first warp call prefix(aggregate) together (a look-back,
// pacxx/block/lookback.hpp) and lane 0's result is the prefix of the whole block.
//
// Every thread of the block must call a scan (it has barriers). Calling one again on
// the same object needs a pacxx::barrier() between the calls.
#pragma once
#include <cstddef>

#include "pacxx/block/warp.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {

// Prefix scans over one value per thread of a block of B threads (a multiple of 32 up to
// 1024), in thread order, for any associative op (device code; see the header). Every
// thread calls a scan (it has barriers); a second call on the same object needs a
// pacxx::barrier() between.
template <class T, std::size_t B> class block_scan {
  // Whole warps of 32 (CUDA's shuffles take full warps); any such B, not only powers of
  // two (CUB's onesweep and select run 384 threads).
  static_assert(B > 0 && B % 32 == 0, "block_scan: B must be a multiple of 32");
  static_assert(B <= 1024, "block_scan: at most 1024 threads");
  // The warps' totals (B of them where a warp is one thread), then the block prefix.
  shared_memory<T, B + 1> slot_;

  // Returns this thread's inclusive scan within the block; total receives the block's
  // aggregate and before the previous thread's inclusive value (v0 op ... op v(l-1);
  // undefined in thread 0). Two barriers on CUDA: the exclusive values come from the
  // same shuffles, not from a second pass.
  template <class Op> T scan_block(T v, Op op, T &total, T &before) {
    const std::size_t l = Thread::get().local.x;
    const unsigned w = warp::size();
    if (w > 1) {
      const std::size_t warps = B / w, wi = l / w;
      T inc = warp::inclusive_scan(v, op);
      T up = warp::shuffle_up(inc, 1);
      if (warp::lane() == w - 1)
        slot_[wi] = inc;
      barrier();
      if (l < w) { // the first warp scans the totals of the warps (<= 32 of them)
        T t = slot_[l < warps ? l : warps - 1];
        t = warp::inclusive_scan(t, op);
        if (l < warps)
          slot_[l] = t;
      }
      barrier();
      total = slot_[warps - 1];
      const bool first_lane = warp::lane() == 0;
      if (wi == 0) {
        before = first_lane ? inc : up;
        return inc;
      }
      const T warp_prefix = slot_[wi - 1];
      before = first_lane ? warp_prefix : op(warp_prefix, up);
      return op(warp_prefix, inc);
    }
    slot_[l] = v;
    barrier();
    for (std::size_t d = 1; d < B; d *= 2) {
      T x = slot_[l];
      if (l >= d)
        x = op(slot_[l - d], x);
      barrier();
      slot_[l] = x;
      barrier();
    }
    total = slot_[B - 1];
    before = slot_[l == 0 ? 0 : l - 1];
    return slot_[l];
  }
  template <class Op> T scan_block(T v, Op op, T &total) {
    T before;
    return scan_block(v, op, total, before);
  }

public:
  __attribute__((always_inline)) block_scan() = default;

  // Thread l gets v0 op ... op vl; total receives the block's aggregate (in every thread).
  template <class Op> T inclusive(T v, Op op, T &total) { return scan_block(v, op, total); }
  // Thread l gets v0 op ... op vl.
  template <class Op> T inclusive(T v, Op op) {
    T total;
    return scan_block(v, op, total);
  }

  // Thread 0 gets init; thread l gets init op v0 op ... op v(l-1).
  template <class Op> T exclusive(T v, T init, Op op, T &total) {
    T before;
    scan_block(v, op, total, before);
    return Thread::get().local.x == 0 ? init : op(init, before);
  }
  // Thread 0 gets init; thread l gets init op v0 op ... op v(l-1).
  template <class Op> T exclusive(T v, T init, Op op) {
    T total;
    return exclusive(v, init, op, total);
  }

  // Without an initial value: thread l gets v0 op ... op v(l-1); thread 0's result is
  // undefined (CUB's ExclusiveScan without initial value).
  template <class Op> T exclusive(T v, Op op, T &total) {
    T before;
    scan_block(v, op, total, before);
    return before;
  }

  // Inclusive scan whose block prefix comes from prefix(total) (called by the threads of
  // the first warp; lane 0's result counts). Returns prefix op v0 op ... op vl.
  template <class Op, class PrefixOp> T inclusive_with_prefix(T v, Op op, PrefixOp &prefix) {
    T total;
    T inc = scan_block(v, op, total);
    T p = call_prefix(total, prefix);
    return op(p, inc);
  }
  // Exclusive scan whose block prefix comes from prefix(total): thread 0 gets the
  // prefix, thread l gets prefix op v0 op ... op v(l-1). `before` receives
  // v0 op ... op v(l-1) without the prefix (undefined in thread 0), for callers whose
  // first tile has no prefix: they can use it without a second, divergent scan (PoCL
  // wants every barrier in code all threads reach by the same path).
  template <class Op, class PrefixOp>
  T exclusive_with_prefix(T v, Op op, PrefixOp &prefix, T &before) {
    T total;
    scan_block(v, op, total, before);
    T p = call_prefix(total, prefix);
    return Thread::get().local.x == 0 ? p : op(p, before);
  }
  // Thread 0 gets prefix(total), thread l prefix(total) op v0 op ... op v(l-1) (as the
  // overload with `before`, without it).
  template <class Op, class PrefixOp> T exclusive_with_prefix(T v, Op op, PrefixOp &prefix) {
    T before;
    return exclusive_with_prefix(v, op, prefix, before);
  }

private:
  template <class PrefixOp> T call_prefix(const T &total, PrefixOp &prefix) {
    // slot_[B] is not among the slots the scan used: no barrier is needed before it.
    const std::size_t l = Thread::get().local.x;
    if (l < warp::size()) {
      T p = prefix(total);
      if (l == 0)
        slot_[B] = p;
    }
    barrier();
    return slot_[B];
  }
};

} // namespace pacxx

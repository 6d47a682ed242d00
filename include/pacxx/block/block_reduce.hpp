// pacxx::block_reduce<T, B>: folds one value per thread of a block of B threads (device
// code). On CUDA each warp folds with shuffles and the first warp folds the warps'
// results; where a warp is one thread (OpenCL) a tree in shared memory does it.
//
//   pacxx::block_reduce<float, 256> r;        // its shared memory: one per construction site
//   float s = r.reduce(v, std::plus<>{});    // valid in thread 0
//
// Every thread of the block must call reduce (it has barriers). Calling it again on the
// same object needs a pacxx::barrier() between the calls, as CUB's TempStorage does.
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

#include "pacxx/block/warp.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {

namespace detail {
// An op may fold a warp's values itself: op.warp_reduce(v, valid), with warp::reduce's
// contract (lanes [0, valid) in lane order, the result in lane 0). The index-carrying
// reductions do (gpu::detail::first_min_op): a (value, index) pair folded as one moves
// every word of it through each of the five shuffle steps.
template <class Op, class T, class = void> struct has_warp_reduce : std::false_type {};
template <class Op, class T>
struct has_warp_reduce<
    Op, T, decltype(void(std::declval<const Op &>().warp_reduce(std::declval<T>(), 0u)))>
    : std::true_type {};
template <class T, class Op> inline T warp_fold(T v, Op &op, unsigned valid, std::true_type) {
  return op.warp_reduce(v, valid);
}
template <class T, class Op> inline T warp_fold(T v, Op &op, unsigned valid, std::false_type) {
  return warp::reduce(v, op, valid);
}
} // namespace detail

// Folds one value per thread of a block of B threads, B a multiple of 32 up to 1024 (device
// code; see the header). Every thread calls reduce (it has barriers); a second call on the
// same object needs a pacxx::barrier() between.
template <class T, std::size_t B> class block_reduce {
  // Whole warps of 32 (CUDA's shuffles take full warps); any such B, not only powers of
  // two (CUB's onesweep and select run 384 threads).
  static_assert(B > 0 && B % 32 == 0, "block_reduce: B must be a multiple of 32");
  static_assert(B <= 1024, "block_reduce: at most 1024 threads");
  // One slot per warp; B of them because the warp size is known only to the JIT (a
  // warp of one thread on OpenCL needs all B).
  shared_memory<T, B> slot_;

public:
  __attribute__((always_inline)) block_reduce() = default;

  // op over the values of threads [0, valid) in thread order (op need not be
  // commutative); the result is valid in thread 0. Threads >= valid pass anything.
  template <class Op> T reduce(T v, Op op, std::size_t valid) {
    const std::size_t l = Thread::get().local.x;
    const unsigned w = warp::size();
    if (w > 1) {
      const std::size_t first = l - warp::lane(); // the warp's first thread
      const unsigned in_warp =
          valid <= first ? 0u : (valid - first >= w ? w : unsigned(valid - first));
      v = detail::warp_fold(v, op, in_warp, detail::has_warp_reduce<Op, T>{});
      if (warp::lane() == 0)
        slot_[l / w] = v;
      barrier();
      if (l < w) {
        const std::size_t warps = (valid + w - 1) / w; // <= 32: B <= 1024, w = 32
        T x = slot_[l < warps ? l : 0];
        v = detail::warp_fold(x, op, unsigned(warps), detail::has_warp_reduce<Op, T>{});
      }
      return v;
    }
    slot_[l] = v;
    barrier();
    for (std::size_t d = 1; d < B; d *= 2) { // neighbours first: thread order is kept
      if (l % (2 * d) == 0 && l + d < valid)
        slot_[l] = op(slot_[l], slot_[l + d]);
      barrier();
    }
    return slot_[0];
  }
  // op over every thread's value in thread order; the result is valid in thread 0.
  template <class Op> T reduce(T v, Op op) { return reduce(v, op, B); }
};

} // namespace pacxx

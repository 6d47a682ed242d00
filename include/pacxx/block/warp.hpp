// Warp-level primitives (device code): the lanes of a warp exchange registers without
// shared memory or barriers. pacxx::warp::size() is 32 on CUDA and 1 on OpenCL, where
// pacxx uses no sub-groups; it is a constant after the JIT, so code written for any
// size folds to the one path the target takes. Every lane of the warp must call a
// shuffle, ballot, reduce or scan together (blocks are multiples of the warp size).
//
// Values travel as 32-bit words of their bytes: a shuffle of a 12-byte struct is three
// shuffles. Any type whose copy is a byte copy moves so (what gpu::vector holds:
// trivially copy constructible and destructible), also those that are not trivially
// copyable, such as std::pair (its assignment is not trivial): the bytes move, not the
// type.
#pragma once
#include <cstring>
#include <type_traits>

#include "pacxx/builtins.hpp"

namespace pacxx {
namespace warp {

// The lanes of a warp: 32 on CUDA, 1 on OpenCL (a constant after the JIT).
inline unsigned size() { return __pacxx_warp_size(); }
// This thread's lane in its warp, in [0, size()).
inline unsigned lane() { return __pacxx_lane_id(); }
// Bit l set where lane l's pred is true.
inline unsigned ballot(bool pred) { return __pacxx_ballot(pred ? 1 : 0); }
// Bit l set where lane l's v equals this lane's v in its low `bits` bits (CUDA
// __match_any_sync on those bits, as CUB's MatchAny: a ballot per bit, which CUB
// measured faster than match.any for few bits).
inline unsigned match(unsigned v, unsigned bits) {
  unsigned peers = ~0u;
  for (unsigned b = 0; b < bits; ++b)
    peers &= __pacxx_ballot_agree(v, 1u << b);
  return peers;
}
// Waits for the warp's lanes; their shared-memory writes before it are seen by every
// lane after it (CUDA __syncwarp).
inline void sync() { __pacxx_warp_sync(); }

namespace detail {
// Whether a T is moved by copying its bytes: its copy constructor and destructor are
// trivial (std::is_trivially_copyable also asks for a trivial assignment, which
// std::pair and std::tuple do not have).
template <class T>
struct moves_as_bytes
    : std::integral_constant<bool, std::is_trivially_copy_constructible<T>::value &&
                                       std::is_trivially_destructible<T>::value> {};

template <class T> struct words {
  static_assert(moves_as_bytes<T>::value,
                "warp shuffles move values whose copy is a byte copy (trivially copy "
                "constructible and destructible) only");
  static constexpr std::size_t count = (sizeof(T) + 3) / 4;
  unsigned w[count];
};

// A T made of the sizeof(T) bytes at p. A trivially copyable T is written over with
// them; any other (e.g. std::pair) is copy constructed, trivially, from an object those
// bytes make up in aligned storage, so it needs no default constructor or assignment.
template <class T> inline T from_bytes(const void *p, std::true_type /*trivially copyable*/) {
  T r;
  std::memcpy(&r, p, sizeof(T));
  return r;
}
template <class T> inline T from_bytes(const void *p, std::false_type) {
  struct alignas(T) storage {
    unsigned char b[sizeof(T)];
  } s;
  std::memcpy(s.b, p, sizeof(T));
  return *reinterpret_cast<const T *>(s.b);
}
template <class T> inline T from_bytes(const void *p) {
  static_assert(moves_as_bytes<T>::value, "from_bytes: T's copy must be a byte copy");
  return from_bytes<T>(p, std::is_trivially_copyable<T>{});
}

template <class T, class Shuffle> inline T shuffle_words(const T &v, Shuffle shuffle) {
  words<T> in, out;
  std::memset(&in, 0, sizeof in);
  std::memcpy(&in, &v, sizeof(T));
  for (std::size_t k = 0; k < words<T>::count; ++k)
    out.w[k] = shuffle(in.w[k]);
  return from_bytes<T>(&out);
}
} // namespace detail

// The value of the lane `delta` below (up) or above (down) this one; a lane with no
// such lane keeps its own value.
template <class T> inline T shuffle_up(const T &v, unsigned delta) {
  return detail::shuffle_words(v, [delta](unsigned w) { return __pacxx_shfl_up(w, delta); });
}
// The value of the lane `delta` above this one (a lane with none keeps its own).
template <class T> inline T shuffle_down(const T &v, unsigned delta) {
  return detail::shuffle_words(v, [delta](unsigned w) { return __pacxx_shfl_down(w, delta); });
}
// The value of lane `src`.
template <class T> inline T shuffle(const T &v, unsigned src) {
  return detail::shuffle_words(v, [src](unsigned w) { return __pacxx_shfl_idx(w, src); });
}

// op over the values of lanes [0, valid) of the warp, in lane order (op need not be
// commutative); the result is valid in lane 0.
template <class T, class Op> inline T reduce(T v, Op op, unsigned valid) {
  const unsigned n = size(), l = lane();
  for (unsigned d = 1; d < n; d *= 2) {
    T other = shuffle_down(v, d);
    if (l + d < valid)
      v = op(v, other);
  }
  return v;
}
// op over every lane's value in lane order; the result is valid in lane 0.
template <class T, class Op> inline T reduce(T v, Op op) { return reduce(v, op, size()); }

// Inclusive scan over the lanes in lane order: lane l gets v0 op ... op vl.
template <class T, class Op> inline T inclusive_scan(T v, Op op) {
  const unsigned n = size(), l = lane();
  for (unsigned d = 1; d < n; d *= 2) {
    T other = shuffle_up(v, d);
    if (l >= d)
      v = op(other, v);
  }
  return v;
}

} // namespace warp

// Orders this thread's global memory accesses before and after it for every thread of
// the device (CUDA's __threadfence).
inline void thread_fence() { __pacxx_thread_fence(); }
// Suspends the thread for about ns nanoseconds (nothing on OpenCL).
inline void nanosleep(unsigned ns) { __pacxx_nanosleep(ns); }

} // namespace pacxx

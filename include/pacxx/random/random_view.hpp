// Lazy views of random numbers on Philox (philox.hpp), fused into whatever consumes them:
//
//   gpu::views::random_uniform<T>(seed, n[, lo, hi])   element i: uniform_real_distribution
//                                                       <T>(lo, hi) (0 and 1 by default)
//                                                       of word i of Philox's stream of seed
//   gpu::views::random_normal<T>(seed, n[, mean, stddev])  element i: normal_distribution
//                                                       <T>(mean, stddev) of words 2i, 2i + 1
//
// Nothing is stored: a Monte Carlo estimate of pi is one reduction,
//   auto inside = [](auto p) { float x = std::get<0>(p), y = std::get<1>(p);
//                              return x * x + y * y <= 1.f ? 1u : 0u; };
//   view::zip(random_uniform<float>(1, n), random_uniform<float>(2, n))
//       | view::transform(inside) | gpu::reduce(0u);
// Element i of the view is what an engine philox4x32(seed) gives after discard(i) (2i for
// the normal view) through the same distribution, on the host as on the device. The
// views index with 32 bits (range-v3's 64-bit iota counts with a type the device cannot
// use), so n < 2^32. Algorithms read them in blocked order where they can
// (pacxx/detail/blocked.hpp), so that neighbours share their Philox block.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <range/v3/view/facade.hpp>

#include "pacxx/error.hpp"
#include "pacxx/random/distributions.hpp"
#include "pacxx/random/philox.hpp"
#include "pacxx/view/md.hpp"

namespace gpu {
namespace random {
namespace detail {

// blocked_reads: consecutive elements share Philox blocks (four words a block), so
// algorithms read these views a thread's elements consecutive (pacxx/detail/blocked.hpp).
template <class T> struct uniform_at {
  using blocked_reads = void;
  std::uint64_t seed;
  T lo, hi;
  T operator()(std::uint32_t i) const {
    philox4x32 e(seed);
    e.discard(i);
    return uniform_real_distribution<T>(lo, hi)(e);
  }
};
template <class T> struct normal_at {
  using blocked_reads = void;
  std::uint64_t seed;
  T mean, stddev;
  T operator()(std::uint32_t i) const {
    philox4x32 e(seed);
    e.discard(2 * static_cast<unsigned long long>(i));
    return normal_distribution<T>(mean, stddev)(e);
  }
};

// Elements f(0), f(1), ..., f(n - 1) (n < 2^32): iota | transform(f) with the count
// starting at the constant 0, not at an iota's stored first value. A kernel that reads
// element base + k of it, with base a multiple of 4 (a blocked read,
// pacxx/detail/blocked.hpp), then shows the optimiser that elements base .. base + 3 are
// words of one Philox block, which it computes once; an iota's first value is a kernel
// argument, so it could not.
template <class F> class counter_view : public ranges::view_facade<counter_view<F>> {
  friend ranges::range_access;
  F f_{};
  std::uint32_t n_ = 0;

  // The position arithmetic of md views and index spaces (pacxx/view/md.hpp).
  struct cursor : gpu::detail::index_position<cursor> {
    F f_{};
    cursor() = default;
    cursor(F f, std::size_t i) : f_(f) { this->i_ = i; }
    auto read() const { return f_(static_cast<std::uint32_t>(this->i_)); }
  };
  cursor begin_cursor() const { return {f_, 0}; }
  cursor end_cursor() const { return {f_, n_}; }

public:
  counter_view() = default;
  counter_view(std::uint32_t n, F f) : f_(f), n_(n) {}
  // The number of elements.
  std::size_t size() const noexcept { return n_; }
};

template <class F> counter_view<F> indexed_view(const char *name, std::size_t n, F f) {
  if (n > 0xffffffffu)
    throw pacxx::error(std::string(name) + ": " + std::to_string(n) +
                       " elements; its 32-bit indices reach 2^32 - 1");
  return counter_view<F>(static_cast<std::uint32_t>(n), f);
}

} // namespace detail
} // namespace random

namespace views {

// n numbers uniform in [lo, hi): element i is uniform_real_distribution<T>(lo, hi) of word
// i of philox4x32(seed)'s stream, computed where it is read (nothing stored; fused into the
// consuming algorithm). n of 2^32 or more is a pacxx::error.
template <class T = float>
auto random_uniform(std::uint64_t seed, std::size_t n, T lo = T(0), T hi = T(1)) {
  return random::detail::indexed_view("gpu::views::random_uniform", n,
                                      random::detail::uniform_at<T>{seed, lo, hi});
}

// n normally distributed numbers: element i is normal_distribution<T>(mean, stddev) of
// words 2i and 2i + 1 of philox4x32(seed)'s stream, computed where it is read. n of 2^32 or
// more is a pacxx::error.
template <class T = float>
auto random_normal(std::uint64_t seed, std::size_t n, T mean = T(0), T stddev = T(1)) {
  return random::detail::indexed_view("gpu::views::random_normal", n,
                                      random::detail::normal_at<T>{seed, mean, stddev});
}

} // namespace views
} // namespace gpu

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
// use), so n < 2^32.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>

#include "pacxx/error.hpp"
#include "pacxx/random/distributions.hpp"
#include "pacxx/random/philox.hpp"

namespace gpu {
namespace random {
namespace detail {

template <class T> struct uniform_at {
  std::uint64_t seed;
  T lo, hi;
  T operator()(std::uint32_t i) const {
    philox4x32 e(seed);
    e.discard(i);
    return uniform_real_distribution<T>(lo, hi)(e);
  }
};
template <class T> struct normal_at {
  std::uint64_t seed;
  T mean, stddev;
  T operator()(std::uint32_t i) const {
    philox4x32 e(seed);
    e.discard(2 * static_cast<unsigned long long>(i));
    return normal_distribution<T>(mean, stddev)(e);
  }
};

template <class F> auto indexed_view(const char *name, std::size_t n, F f) {
  if (n > 0xffffffffu)
    throw pacxx::error(std::string(name) + ": " + std::to_string(n) +
                       " elements; its 32-bit indices reach 2^32 - 1");
  return ranges::views::iota(std::uint32_t(0), static_cast<std::uint32_t>(n)) |
         ranges::views::transform(f);
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

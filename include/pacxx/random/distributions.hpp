// Distributions usable in kernels and element functions (<random>'s are not: their
// generate_canonical computes in long double): gpu::random::uniform_int_distribution,
// uniform_real_distribution and normal_distribution, with <random>'s constructors and
// call operator d(engine), over any engine with min(), max() and operator() (the engines
// of linear_congruential.hpp and philox.hpp). They do not give std's numbers (std
// leaves its algorithms to the implementation); each draw uses a fixed number of engine
// calls (no rejection loop), so element i of a stream is reachable by discard:
//   uniform_int     a + (r * span) / R, r the engine's output less min(), R its range,
//                   span = b - a + 1 at most 2^32: for spans far below R nearly uniform
//                   (bias below span / R)
//   uniform_real    a + (b - a) * u, u in [0, 1): the top 24 bits of a 32-bit engine for
//                   float, r * (1 / R) in float for a float from a narrower engine (the
//                   minstd engines), else r / R in double; never b
//   normal          Box-Muller, two uniform draws per number (the cosine branch)
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace gpu {
namespace random {
namespace detail {

// u in [0, 1) from one engine call, in T, by the engine's range and T:
template <int Kind> using canonical_kind = std::integral_constant<int, Kind>;
// 0: float from a full 32-bit engine: its top 24 bits.
template <class T, class E> T canonical(E &e, canonical_kind<0>) {
  return T(static_cast<std::uint32_t>(e() - E::min()) >> 8) * T(1.0f / 16777216.0f);
}
// 1: float from a narrower engine (the minstd engines' 2^31 - 2 values): r converted to
// float and scaled by the constant 1 / R, in float, where a double division cost a
// sequence of double operations per draw on the GPU (engine + discard 516 -> 476 us at
// 2^26 on the H100, benchmarks/results/2026-11-28-h100-random); a product that rounds up
// to 1 is 0.
template <class T, class E> T canonical(E &e, canonical_kind<1>) {
  constexpr float scale = float(1.0 / (double(E::max() - E::min()) + 1.0));
  const float u = float(e() - E::min()) * scale;
  return u < 1.0f ? u : 0.0f;
}
// 2: anything else: r / R in double.
template <class T, class E> T canonical(E &e, canonical_kind<2>) {
  const double r = double(e() - E::min()), range = double(E::max() - E::min()) + 1.0;
  const T u = T(r / range);
  return u < T(1) ? u : T(0); // a float rounding r / range up to 1
}
template <class T, class E> T canonical(E &e) {
  constexpr bool is_float = std::is_same<T, float>::value;
  constexpr int kind = !is_float                                  ? 2
                       : E::min() == 0 && E::max() == 0xffffffffu ? 0
                       : E::max() - E::min() < 0xffffffffu        ? 1
                                                                  : 2;
  return canonical<T>(e, canonical_kind<kind>{});
}

} // namespace detail

// Integers uniform in [a, b] (std::uniform_int_distribution's interface), one engine call
// per draw: a + (r * span) / R (bias below span / R); usable in kernels.
template <class T = int> class uniform_int_distribution {
  static_assert(std::is_integral<T>::value, "uniform_int_distribution: an integer type");
  T a_, b_;

public:
  // The type of the numbers drawn.
  using result_type = T;
  // Numbers in [a, b]; b by default the largest T, at most 2^31 - 1 (spans are at most
  // 2^32).
  explicit uniform_int_distribution(T a = 0, T b = T(std::numeric_limits<T>::max() < 0x7fffffff
                                                         ? std::numeric_limits<T>::max()
                                                         : 0x7fffffff))
      : a_(a), b_(b) {}
  // The smallest number drawn.
  T a() const { return a_; }
  // The largest number drawn.
  T b() const { return b_; }
  // A number in [a, b] from one call of the engine e (min(), max(), operator()).
  template <class E> T operator()(E &e) const {
    const std::uint64_t span = std::uint64_t(b_) - std::uint64_t(a_) + 1;
    const std::uint64_t range = std::uint64_t(E::max() - E::min()) + 1;
    const std::uint64_t r = std::uint64_t(e() - E::min());
    // span and range both at most 2^32: the product fits 64 bits.
    return T(std::uint64_t(a_) + (span == 0 ? r : r * span / range));
  }
};

// Reals uniform in [a, b) (std::uniform_real_distribution's interface), one engine call per
// draw (the top 24 bits of a 32-bit engine for float, else r / R in double); never b.
// Usable in kernels.
template <class T = double> class uniform_real_distribution {
  static_assert(std::is_floating_point<T>::value, "uniform_real_distribution: a float type");
  T a_, b_;

public:
  // The type of the numbers drawn.
  using result_type = T;
  // Numbers in [a, b).
  explicit uniform_real_distribution(T a = T(0), T b = T(1)) : a_(a), b_(b) {}
  // The lower bound (included).
  T a() const { return a_; }
  // The upper bound (excluded).
  T b() const { return b_; }
  // a + (b - a) * u, u in [0, 1) from one call of the engine e.
  template <class E> T operator()(E &e) const {
    const T x = a_ + (b_ - a_) * detail::canonical<T>(e);
    return x < b_ ? x : a_;
  }
};

// Normally distributed reals (std::normal_distribution's interface) by Box-Muller (the
// cosine branch): two engine calls per draw. Usable in kernels.
template <class T = double> class normal_distribution {
  static_assert(std::is_floating_point<T>::value, "normal_distribution: a float type");
  T mean_, stddev_;

public:
  // The type of the numbers drawn.
  using result_type = T;
  // The distribution of mean `mean` and standard deviation `stddev`.
  explicit normal_distribution(T mean = T(0), T stddev = T(1)) : mean_(mean), stddev_(stddev) {}
  // The mean.
  T mean() const { return mean_; }
  // The standard deviation.
  T stddev() const { return stddev_; }
  // A number from two calls of the engine e.
  template <class E> T operator()(E &e) const {
    const T u1 = T(1) - detail::canonical<T>(e); // (0, 1]: log is finite
    const T u2 = detail::canonical<T>(e);
    const T two_pi = T(6.283185307179586);
    return mean_ + stddev_ * std::sqrt(T(-2) * std::log(u1)) * std::cos(two_pi * u2);
  }
};

} // namespace random
} // namespace gpu

// gpu::random::minstd_rand, minstd_rand0 and default_random_engine (= minstd_rand, as
// Thrust's default engine): the multiplicative congruential engines of <random>, usable
// in kernels and element functions (trivially copyable, no long double), giving exactly
// the numbers of std::minstd_rand and std::minstd_rand0 for the same seed.
//
// discard(n) takes O(log n) steps (a^n mod m by squaring; std's takes n), so each thread
// can jump to its own part of one stream:
//   gpu::tabulate(out, [seed](std::size_t i) {
//     gpu::random::default_random_engine e(seed);
//     e.discard(i);
//     return e();
//   });   // out[i]: element i of the stream std::minstd_rand(seed) gives
#pragma once
#include <cstdint>

namespace gpu {
namespace random {

// x <- a * x mod m, with m < 2^31 (so products fit 64 bits) and c = 0.
template <std::uint32_t A, std::uint32_t M> class multiplicative_congruential_engine {
  static_assert(M < (1u << 31) && A < M, "products must fit 64 bits");
  std::uint32_t x_;

  static std::uint32_t mul(std::uint64_t a, std::uint64_t b) {
    return static_cast<std::uint32_t>(a * b % M);
  }

public:
  // The type of the numbers generated.
  using result_type = std::uint32_t;
  static constexpr result_type multiplier = A;   // a
  static constexpr result_type increment = 0;    // c: 0, multiplicative
  static constexpr result_type modulus = M;      // m
  static constexpr result_type default_seed = 1; // the seed of a default-constructed engine
  // The smallest number generated (1).
  static constexpr result_type min() { return 1; }
  // The largest number generated (m - 1).
  static constexpr result_type max() { return M - 1; }

  // An engine seeded with s (as seed(s)).
  explicit multiplicative_congruential_engine(result_type s = default_seed) { seed(s); }
  // As std's: s mod m, and 1 in place of 0 (0 would stay 0 forever).
  void seed(result_type s = default_seed) {
    x_ = s % M;
    if (x_ == 0)
      x_ = 1;
  }
  // The next number: x = a * x mod m.
  result_type operator()() {
    x_ = mul(A, x_);
    return x_;
  }
  // The state after n more calls: x * a^n mod m, a^n by repeated squaring.
  void discard(unsigned long long n) {
    std::uint32_t p = A, f = 1;
    while (n != 0) {
      if (n & 1)
        f = mul(f, p);
      p = mul(p, p);
      n >>= 1;
    }
    x_ = mul(f, x_);
  }
  // Whether a and b give the same numbers from here on.
  friend bool operator==(const multiplicative_congruential_engine &a,
                         const multiplicative_congruential_engine &b) {
    return a.x_ == b.x_;
  }
  // Whether a and b give different numbers from here on.
  friend bool operator!=(const multiplicative_congruential_engine &a,
                         const multiplicative_congruential_engine &b) {
    return a.x_ != b.x_;
  }
};

// std::minstd_rand0 (a = 16807, m = 2^31 - 1): the same numbers for the same seed.
using minstd_rand0 = multiplicative_congruential_engine<16807, 2147483647>;
// std::minstd_rand (a = 48271, m = 2^31 - 1): the same numbers for the same seed.
using minstd_rand = multiplicative_congruential_engine<48271, 2147483647>;
// Thrust's default_random_engine (std's is implementation-defined; libstdc++'s is
// minstd_rand0).
using default_random_engine = minstd_rand;

} // namespace random
} // namespace gpu

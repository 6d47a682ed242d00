// gpu::random::minstd_rand, minstd_rand0 and default_random_engine (= minstd_rand, as
// Thrust's default engine): the multiplicative congruential engines of <random>, usable
// in kernels and element functions (trivially copyable, no long double), giving exactly
// the numbers of std::minstd_rand and std::minstd_rand0 for the same seed.
//
// discard(n) takes one multiplication per byte of n (a^n mod m from a table of a^(j 256^b),
// made at compile time; std's takes n steps), so each thread can jump to its own part of
// one stream:
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

  // a * b mod m, up to one m too many (a, b <= 2^31). For m = 2^31 - 1 (both minstd
  // engines) by folding: 2^31 = 1 mod m, so the 62-bit product's high and low 31 bits add
  // up to it (twice, then reduce's one subtraction), where the 64-bit % became a call or
  // a long multiply sequence on the GPU. The operands are 32-bit and the folds work on
  // 32-bit halves, so the product is one widening 32-bit multiply (PTX mul.wide.u32) and
  // the rest 32-bit operations: with 64-bit operands, whose high halves the compiler
  // could not prove zero, each product was a 64-bit multiply (mul.lo.s64) and each fold
  // 64-bit ands, shifts and adds (pacxx-kernels --ptx of gpu::tabulate with
  // default_random_engine + discard, 2026-12-07).
  static constexpr std::uint32_t mul(std::uint32_t a, std::uint32_t b) {
    return M == 2147483647u ? fold(static_cast<std::uint64_t>(a) * b)
                            : static_cast<std::uint32_t>(static_cast<std::uint64_t>(a) * b % M);
  }
  // p mod m up to one m too many, for p < 2^62: <= 2^31.
  static constexpr std::uint32_t fold(std::uint64_t p) {
    const std::uint32_t s = (static_cast<std::uint32_t>(p) & 2147483647u) +
                            static_cast<std::uint32_t>(p >> 31); // < 2^32
    return (s & 2147483647u) + (s >> 31);
  }
  static constexpr std::uint32_t reduce(std::uint32_t r) { return r >= M ? r - M : r; }

  // jumps.p[b][j] = a^(j * 256^b) mod m: discard(n) multiplies one entry per byte of n.
  // 8 KiB, a constant global on the device (global memory on CUDA, read through L1: the
  // threads of a warp with consecutive n read one line for the low byte and one word for
  // the others). Measured before (square and multiply with a 64-bit % per step, as
  // Thrust's): 0.94x Thrust's engine + discard at 2^26 on the H200
  // (benchmarks/results/2026-11-27-h200-issue-38).
  struct jump_table {
    std::uint32_t p[8][256];
    constexpr jump_table() : p{} {
      std::uint64_t base = A;
      for (int b = 0; b < 8; ++b) {
        std::uint64_t x = 1;
        for (int j = 0; j < 256; ++j) {
          p[b][j] = static_cast<std::uint32_t>(x);
          x = x * base % M;
        }
        base = x; // a^(256^(b + 1))
      }
    }
  };
  static constexpr jump_table jumps{};

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
    x_ = reduce(mul(A, x_));
    return x_;
  }
  // The state after n more calls: x * a^n mod m, a^n as the product of one table entry
  // per byte of n.
  void discard(unsigned long long n) {
    std::uint32_t f = 1;
    for (int b = 0; n != 0; ++b, n >>= 8)
      f = mul(f, jumps.p[b][n & 255u]);
    x_ = reduce(mul(f, x_));
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

#if __cplusplus < 201703L
// C++14 needs the definition of a static constexpr member that is odr-used.
template <std::uint32_t A, std::uint32_t M>
constexpr typename multiplicative_congruential_engine<A, M>::jump_table
    multiplicative_congruential_engine<A, M>::jumps;
#endif

// std::minstd_rand0 (a = 16807, m = 2^31 - 1): the same numbers for the same seed.
using minstd_rand0 = multiplicative_congruential_engine<16807, 2147483647>;
// std::minstd_rand (a = 48271, m = 2^31 - 1): the same numbers for the same seed.
using minstd_rand = multiplicative_congruential_engine<48271, 2147483647>;
// Thrust's default_random_engine (std's is implementation-defined; libstdc++'s is
// minstd_rand0).
using default_random_engine = minstd_rand;

} // namespace random
} // namespace gpu

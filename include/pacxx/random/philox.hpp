// gpu::random::philox4x32: Random123's Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel
// random numbers: as easy as 1, 2, 3", SC 2011; cuRAND's default generator), a
// counter-based engine: block(counter, key) is a bijection of 128-bit counters under a
// 64-bit key, ten rounds of two 32 x 32 -> 64-bit multiplications, and equals
// Random123's known-answer vectors. Word i of the stream of seed s is word i % 4 of
// block({i / 4 as 64 bits, subsequence as 64 bits}, s), so any element is computable on
// its own: discard(n) is O(1), and gpu::views::random_uniform (random_view.hpp) is a
// view of them that fuses into any algorithm. Usable in kernels (trivially copyable).
#pragma once
#include <cstdint>

namespace gpu {
namespace random {

// Random123's Philox4x32-10, a counter-based engine with a 64-bit seed and a 64-bit
// subsequence: any word of a stream is computable on its own, discard(n) is O(1). Usable in
// kernels (trivially copyable).
class philox4x32 {
public:
  // The type of the numbers generated (32-bit words).
  using result_type = std::uint32_t;
  // A 128-bit counter or block: four 32-bit words.
  struct block_type {
    std::uint32_t v[4]; // the words, low first
  };
  // The smallest word (0).
  static constexpr result_type min() { return 0; }
  // The largest word (2^32 - 1).
  static constexpr result_type max() { return 0xffffffffu; }

  // The bijection: ten rounds, the key bumped by the Weyl constants between them.
  static block_type block(block_type c, std::uint32_t k0, std::uint32_t k1) {
    for (int r = 0; r < 10; ++r) {
      if (r > 0) {
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
      }
      const std::uint64_t p0 = std::uint64_t(0xD2511F53u) * c.v[0];
      const std::uint64_t p1 = std::uint64_t(0xCD9E8D57u) * c.v[2];
      const std::uint32_t hi0 = std::uint32_t(p0 >> 32), lo0 = std::uint32_t(p0);
      const std::uint32_t hi1 = std::uint32_t(p1 >> 32), lo1 = std::uint32_t(p1);
      c = block_type{{hi1 ^ c.v[1] ^ k0, lo1, hi0 ^ c.v[3] ^ k1, lo0}};
    }
    return c;
  }
  // Block j (words 4j .. 4j + 3) of the stream of (seed, subsequence).
  static block_type block_of(std::uint64_t seed, unsigned long long j,
                             std::uint64_t subsequence = 0) {
    return block(block_type{{std::uint32_t(j), std::uint32_t(j >> 32), std::uint32_t(subsequence),
                             std::uint32_t(subsequence >> 32)}},
                 std::uint32_t(seed), std::uint32_t(seed >> 32));
  }
  // Word i of the stream of (seed, subsequence).
  static result_type at(std::uint64_t seed, unsigned long long i, std::uint64_t subsequence = 0) {
    return block_of(seed, i >> 2, subsequence).v[i & 3];
  }

  // The stream of (seed, subsequence), at its first word.
  explicit philox4x32(std::uint64_t seed = 0, std::uint64_t subsequence = 0)
      : seed_(seed), sub_(subsequence), i_(0), held_(0), words_{{0, 0, 0, 0}} {}
  // Restarts at the first word of seed s's stream (the subsequence kept).
  void seed(std::uint64_t s = 0) {
    seed_ = s;
    i_ = 0;
    held_ = 0;
  }
  // A block is computed once for its four words.
  result_type operator()() {
    const unsigned long long j = i_ >> 2;
    if (held_ != j + 1) {
      words_ = block_of(seed_, j, sub_);
      held_ = j + 1;
    }
    return words_.v[i_++ & 3];
  }
  // Skips n words, in O(1).
  void discard(unsigned long long n) { i_ += n; }
  // Equal engines give equal numbers from here on.
  friend bool operator==(const philox4x32 &a, const philox4x32 &b) {
    return a.seed_ == b.seed_ && a.sub_ == b.sub_ && a.i_ == b.i_;
  }
  // Whether a and b give different numbers from here on.
  friend bool operator!=(const philox4x32 &a, const philox4x32 &b) { return !(a == b); }

private:
  std::uint64_t seed_, sub_;
  unsigned long long i_, held_; // held_: 1 + the index of the block in words_, or 0
  block_type words_;
};

} // namespace random
} // namespace gpu

// gpu::shuffle(v, g): a random permutation of the gpu::vector v, drawn with the uniform
// random bit generator g (gpu::random::default_random_engine, std::mt19937 ... on the
// host), as CCCL's thrust::shuffle: a bijection of [0, n) from a Feistel network.
//
// The network permutes the 2h-bit numbers, 2^(2h) the smallest even power of two not
// below n (at most 4n), in 24 rounds (CCCL's count), each mixing one half with a round
// key drawn from g; a number that lands at n or beyond is fed through the network again
// (cycle walking) until it lands below n, which keeps the map a bijection of [0, n)
// (the walk from i cannot meet the walk from another j: the network is a bijection of
// the larger set). Element i of the result is element perm(i) of v: one gather kernel
// from a device copy of v. The permutation depends on g's state only (24 draws).
#pragma once
#include <cstddef>
#include <cstdint>

#include "pacxx/kernel.hpp"
#include "pacxx/thread.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

// The bijection of [0, n) (see the file's comment).
struct feistel_permutation {
  static constexpr unsigned rounds = 24;
  std::uint32_t keys[rounds];
  std::uint64_t n;
  unsigned half;           // bits of each half
  std::uint64_t half_mask; // (1 << half) - 1

  // MurmurHash3's 32-bit finaliser of x ^ key: every input bit reaches every output bit.
  static std::uint32_t mix(std::uint32_t x, std::uint32_t key) {
    x ^= key;
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    x ^= x >> 16;
    return x;
  }
  std::uint64_t network(std::uint64_t x) const {
    std::uint64_t l = x >> half, r = x & half_mask;
    for (unsigned k = 0; k < rounds; ++k) {
      const std::uint64_t f =
          (std::uint64_t(mix(std::uint32_t(r), keys[k])) ^
           (std::uint64_t(mix(std::uint32_t(r >> 32), keys[k] ^ 0x9e3779b9u)) << 32)) &
          half_mask;
      const std::uint64_t t = l ^ f;
      l = r;
      r = t;
    }
    return (l << half) | r;
  }
  std::uint64_t operator()(std::uint64_t i) const {
    std::uint64_t x = network(i);
    while (x >= n)
      x = network(x);
    return x;
  }
};

template <class G> feistel_permutation make_feistel(std::size_t n, G &g) {
  feistel_permutation p{};
  for (auto &k : p.keys) { // two draws a key: generators of fewer than 32 bits (minstd: 31)
    const std::uint32_t a = static_cast<std::uint32_t>(g());
    const std::uint32_t b = static_cast<std::uint32_t>(g());
    k = a ^ (b << 16) ^ (b >> 16);
  }
  unsigned bits = 0;
  while (bits < 64 && (std::uint64_t(1) << bits) < n)
    ++bits;
  p.half = (bits + 1) / 2;
  p.half_mask = (std::uint64_t(1) << p.half) - 1;
  p.n = n;
  return p;
}

} // namespace detail

/// Permutes v at random with the uniform random bit generator g (a bijective Feistel
/// permutation, as CCCL's shuffle; one gather kernel). g advances by 48 draws.
template <class T, class G> void shuffle(vector<T> &v, G &&g) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::shuffle", v);
  const std::size_t n = v.size();
  const detail::feistel_permutation perm = detail::make_feistel(n, g);
  if (n < 2)
    return;
  const vector<T> from(v); // a device copy
  const std::size_t block = 256, blocks = (n + block - 1) / block;
  pacxx::kernel(
      [perm](const T *from, T *to, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          to[i] = from[perm(i)];
      },
      {{blocks}, {block}})(from.data(), v.data(), n);
}

} // namespace gpu

// Shared by the end-to-end tests: a deterministic pseudo-random generator, random
// input vectors made with it, and small launch/device helpers. Host code only; must
// compile as C++14 (saxpy_test and structs_test are built with -std=c++14). Included by
// several units of one program (multifile_main.cpp), so every function here is inline
// or a template.
#pragma once
#include <pacxx/pacxx.hpp>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

namespace pacxx_test {

// Deterministic pseudo-random values (xorshift64*, independent of libstdc++): the same
// seed gives the same sequence on every platform, so the tests' inputs never change.
class rng {
  std::uint64_t s_;

public:
  explicit rng(std::uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 0x2545F4914F6CDD1Dull;
  }
  // In [lo, hi), from the top 53 bits, computed in double.
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0);
  }
  // In [lo, hi), from the top 24 bits, computed in float (not the same values as
  // uniform(lo, hi) converted to float).
  float uniform_float(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
  }
  // In [lo, hi], both ends included.
  long long integer(long long lo, long long hi) {
    return lo + static_cast<long long>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  // -1.0 or 1.0.
  double sign() { return (next() >> 63) ? -1.0 : 1.0; }
};

// n values rng(seed).uniform(lo, hi), each converted to T.
template <class T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed, double lo, double hi) {
  rng r(seed);
  std::vector<T> v(n);
  for (auto &x : v)
    x = static_cast<T>(r.uniform(lo, hi));
  return v;
}

// n floats rng(seed).uniform_float(lo, hi).
inline std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo, float hi) {
  rng r(seed);
  std::vector<float> v(n);
  for (auto &x : v)
    x = r.uniform_float(lo, hi);
  return v;
}

// A device vector holding the one element value.
template <class T> gpu::vector<T> device_scalar(T value) {
  std::vector<T> h(1, value);
  return gpu::copy(h);
}

// A 1D launch of blocks of `block` threads covering n.
inline pacxx::launch_config cover(std::size_t n, std::size_t block = 128) {
  return {{(n + block - 1) / block}, {block}};
}

// n pseudo-random ints in [lo, hi].
inline std::vector<int> ints(std::size_t n, std::uint64_t seed, int lo = -1000, int hi = 1000) {
  rng r(seed);
  std::vector<int> v(n);
  for (auto &x : v)
    x = static_cast<int>(r.integer(lo, hi));
  return v;
}

// pacxx::stats() once every launch so far has finished.
inline pacxx::runtime_stats counts() {
  pacxx::synchronize();
  return pacxx::stats();
}

// Sizes and functions the STL tests share (internal linkage: the header is in several
// translation units of one program).
static constexpr std::size_t prime = 1009;
static constexpr std::size_t big = (std::size_t(1) << 20) + 3;
static const auto mult = [](const auto &p) { return std::get<0>(p) * std::get<1>(p); };
static const auto plus = [](const auto &p) { return std::get<0>(p) + std::get<1>(p); };
static const auto twice = [](auto x) { return 2 * x; };
static const auto max_op = [](int a, int b) { return a > b ? a : b; };

} // namespace pacxx_test

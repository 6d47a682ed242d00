// End-to-end: random numbers on the device (issue 38, item 6).
//   engines        gpu::random::minstd_rand / minstd_rand0 / default_random_engine give
//                  std::minstd_rand's (std::minstd_rand0's) numbers, on the host and in
//                  kernels, with discard(n) in O(log n) checked against std's discard;
//                  philox4x32 gives Random123's known-answer vectors on the device, and
//                  its stream is the blocks' words in order
//   distributions  uniform_int / uniform_real / normal in kernels: ranges, every value
//                  of a small range drawn, moments of 2^20 draws
//   views          random_uniform / random_normal equal the engine's numbers and fuse
//                  into one reduction (Monte Carlo estimate of pi, one launch)
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace view = ranges::views;
namespace rnd = gpu::random;

namespace {

using pacxx_test::big;
using pacxx_test::prime;

static_assert(std::is_same<rnd::default_random_engine, rnd::minstd_rand>::value,
              "Thrust's default engine is minstd_rand");
static_assert(std::is_trivially_copyable<rnd::minstd_rand>::value &&
                  std::is_trivially_copyable<rnd::philox4x32>::value,
              "engines go into kernels by value");

TEST(Minstd, HostMatchesStdWithDiscard) {
  for (std::uint32_t seed : {0u, 1u, 42u, 2147483647u, 4000000000u}) {
    std::minstd_rand s(seed);
    rnd::minstd_rand g(seed);
    std::minstd_rand0 s0(seed);
    rnd::minstd_rand0 g0(seed);
    for (int i = 0; i < 10000; ++i) {
      ASSERT_EQ(g(), s()) << "seed " << seed << " i " << i;
      ASSERT_EQ(g0(), s0());
    }
    for (unsigned long long n : {0ull, 1ull, 2ull, 12345ull, 2147483646ull / 300, 4000000ull}) {
      s.discard(n);
      g.discard(n);
      ASSERT_EQ(g(), s()) << "seed " << seed << " discard " << n;
    }
  }
}

// out[i] = element i of the stream of seed, each thread jumping to it.
struct minstd_at {
  std::uint32_t seed;
  std::uint32_t operator()(std::size_t i) const {
    rnd::default_random_engine e(seed);
    e.discard(i);
    return e();
  }
};

TEST(Minstd, DeviceStreamMatchesStd) {
  for (std::size_t n : {std::size_t(1), prime, big}) {
    gpu::vector<std::uint32_t> out(n);
    gpu::tabulate(out, minstd_at{7});
    std::minstd_rand s(7);
    std::vector<std::uint32_t> want(n);
    for (auto &x : want)
      x = static_cast<std::uint32_t>(s());
    ASSERT_EQ(gpu::copy(out), want) << "n = " << n;
  }
}

// The three known-answer vectors of Random123 (its kat_vectors) for Philox4x32-10.
struct kat {
  rnd::philox4x32::block_type ctr;
  std::uint32_t k0, k1;
  rnd::philox4x32::block_type out;
};
const kat kats[] = {
    {{{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}}},
    {{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
     0xffffffffu,
     0xffffffffu,
     {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}}},
    {{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
     0xa4093822u,
     0x299f31d0u,
     {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}}},
};

struct kat_word {
  kat k[3];
  std::uint32_t operator()(std::size_t i) const {
    const kat &v = k[i / 4];
    return rnd::philox4x32::block(v.ctr, v.k0, v.k1).v[i % 4];
  }
};

TEST(Philox, KnownAnswersOnHostAndDevice) {
  kat_word f{{kats[0], kats[1], kats[2]}};
  gpu::vector<std::uint32_t> out(12);
  gpu::tabulate(out, f);
  const std::vector<std::uint32_t> got = gpu::copy(out);
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(got[i], kats[i / 4].out.v[i % 4]) << "device, word " << i;
    EXPECT_EQ(f(i), kats[i / 4].out.v[i % 4]) << "host, word " << i;
  }
}

TEST(Philox, StreamIsTheBlocksWordsInOrder) {
  rnd::philox4x32 e(0x1234567890abcdefull, 3);
  for (unsigned long long i = 0; i < 100; ++i) {
    const auto b = rnd::philox4x32::block_of(0x1234567890abcdefull, i / 4, 3);
    ASSERT_EQ(e(), b.v[i % 4]) << i;
  }
  rnd::philox4x32 d(99);
  d.discard(1000001);
  EXPECT_EQ(d(), rnd::philox4x32::at(99, 1000001));
}

// Draws of each distribution in a kernel: thread i's engine jumps to its own part.
struct draw_int {
  std::uint64_t seed;
  int operator()(std::size_t i) const {
    rnd::philox4x32 e(seed);
    e.discard(i);
    return rnd::uniform_int_distribution<int>(-3, 9)(e);
  }
};
struct draw_int_minstd {
  std::uint32_t seed;
  int operator()(std::size_t i) const {
    rnd::minstd_rand e(seed);
    e.discard(i);
    return rnd::uniform_int_distribution<int>(0, 99)(e);
  }
};
template <class T> struct draw_real {
  std::uint64_t seed;
  T operator()(std::size_t i) const {
    rnd::minstd_rand e(static_cast<std::uint32_t>(seed));
    e.discard(i);
    return rnd::uniform_real_distribution<T>(T(-2), T(3))(e);
  }
};

template <class T> void moments(const std::vector<T> &v, double &mean, double &var) {
  double s = 0, q = 0;
  for (T x : v) {
    s += x;
    q += double(x) * double(x);
  }
  mean = s / v.size();
  var = q / v.size() - mean * mean;
}

TEST(Distributions, UniformIntAndReal) {
  const std::size_t n = big;
  gpu::vector<int> ints(n), ints2(n);
  gpu::tabulate(ints, draw_int{5});
  gpu::tabulate(ints2, draw_int_minstd{5});
  const std::vector<int> hi = gpu::copy(ints), hi2 = gpu::copy(ints2);
  std::vector<std::size_t> seen(13, 0), seen2(100, 0);
  for (int x : hi) {
    ASSERT_GE(x, -3);
    ASSERT_LE(x, 9);
    ++seen[x + 3];
  }
  for (int x : hi2) {
    ASSERT_GE(x, 0);
    ASSERT_LE(x, 99);
    ++seen2[x];
  }
  for (std::size_t c : seen) // n / 13 each, within 2 %
    EXPECT_NEAR(double(c), double(n) / 13, 0.02 * n / 13);
  for (std::size_t c : seen2)
    EXPECT_NEAR(double(c), double(n) / 100, 0.05 * n / 100);
  // Host and device draw the same numbers.
  for (std::size_t i = 0; i < n; i += 997)
    ASSERT_EQ(hi[i], draw_int{5}(i));

  gpu::vector<float> f(n);
  gpu::vector<double> d(n);
  gpu::tabulate(f, draw_real<float>{11});
  gpu::tabulate(d, draw_real<double>{11});
  const std::vector<float> hf = gpu::copy(f);
  const std::vector<double> hd = gpu::copy(d);
  for (float x : hf) {
    ASSERT_GE(x, -2.f);
    ASSERT_LT(x, 3.f);
  }
  for (double x : hd) {
    ASSERT_GE(x, -2.0);
    ASSERT_LT(x, 3.0);
  }
  double mean, var;
  moments(hd, mean, var);
  EXPECT_NEAR(mean, 0.5, 0.01);
  EXPECT_NEAR(var, 25.0 / 12, 0.02);
  // The same numbers up to rounding: the device may contract a + (b - a) * u into an fma.
  for (std::size_t i = 0; i < n; i += 997)
    ASSERT_NEAR(hd[i], draw_real<double>{11}(i), 1e-14);
}

TEST(Views, RandomUniformAndNormalMatchTheEngine) {
  const std::size_t n = big;
  const std::vector<float> u = gpu::copy(gpu::views::random_uniform<float>(21, n, 1.f, 2.f));
  for (std::size_t i = 0; i < n; i += 101) {
    rnd::philox4x32 e(21);
    e.discard(i);
    ASSERT_EQ(u[i], rnd::uniform_real_distribution<float>(1.f, 2.f)(e)) << i;
  }
  for (float x : u) {
    ASSERT_GE(x, 1.f);
    ASSERT_LT(x, 2.f);
  }
  const std::vector<double> g = gpu::copy(gpu::views::random_normal<double>(22, n, 3.0, 2.0));
  double mean, var;
  moments(g, mean, var);
  EXPECT_NEAR(mean, 3.0, 0.01);
  EXPECT_NEAR(var, 4.0, 0.03);
  // Float normals: the host's libm and the device's may differ in the last bits.
  const std::vector<float> gf = gpu::copy(gpu::views::random_normal<float>(23, prime));
  for (std::size_t i = 0; i < prime; ++i) {
    rnd::philox4x32 e(23);
    e.discard(2 * i);
    ASSERT_NEAR(gf[i], rnd::normal_distribution<float>()(e), 1e-5f) << i;
  }
}

// Reductions read random views a thread's elements consecutive on a GPU (four of them one
// Philox block; pacxx/detail/blocked.hpp) and striped on OpenCL: integer sums of the same
// numbers are exact either way, through full and partial tiles and the index-carrying
// min_element.
TEST(Views, ReductionsOverRandomViewsAreExact) {
  for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(4097), prime, big + 3}) {
    auto u = gpu::views::random_uniform<float>(31, n);
    auto bucket = [](float x) { return static_cast<unsigned>(x * 1024.f); };
    const std::vector<float> hu = gpu::copy(u);
    unsigned long long want = 0;
    for (float x : hu)
      want += bucket(x);
    EXPECT_EQ(gpu::reduce(u | view::transform(bucket) |
                              view::transform([](unsigned b) { return 1ull * b; }),
                          0ull),
              want)
        << n;
    const auto low = std::min_element(hu.begin(), hu.end()) - hu.begin();
    const std::vector<float> hn = gpu::copy(gpu::views::random_normal<float>(32, n));
    EXPECT_EQ(gpu::min_element(u), low) << n;
    double sn = 0;
    for (float x : hn)
      sn += x;
    EXPECT_NEAR(gpu::reduce(gpu::views::random_normal<float>(32, n) |
                                view::transform([](float x) { return double(x); }),
                            0.0),
                sn, 1e-5 * double(n) + 1e-3)
        << n;
  }
}

TEST(Views, MonteCarloPiIsOneReduction) {
  const std::size_t n = big;
  auto inside = [](const auto &p) {
    const float x = std::get<0>(p), y = std::get<1>(p);
    return x * x + y * y <= 1.f ? 1u : 0u;
  };
  auto points =
      view::zip(gpu::views::random_uniform<float>(1, n), gpu::views::random_uniform<float>(2, n)) |
      view::transform(inside);
  (void)gpu::reduce(points, 0u); // warm-up: JIT, scratch
  pacxx::reset_stats();
  const unsigned hits = gpu::reduce(points, 0u);
  const auto s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 1u);
  const double pi = 4.0 * hits / n;
  EXPECT_NEAR(pi, 3.14159265, 0.01);
  // The same points on the host: the count may differ only where x^2 + y^2 is 1 within
  // rounding (a contracted multiply-add on the device).
  unsigned host = 0;
  for (unsigned x : points)
    host += x;
  EXPECT_NEAR(double(hits), double(host), 2.0);
}

} // namespace

// End-to-end: gpu::inclusive_scan and gpu::exclusive_scan (issue 9) against std's
// scans on the host.
//   types      int, unsigned, long long, unsigned long long, float, double (integer
//              valued, so every order of additions is exact) and a user struct
//   sizes      0, 1, a tile and one more, a prime, 2^20 + 3 (hundreds of tiles, so the
//              decoupled look-back walks)
//   ops        plus, max, a non-commutative op (affine maps composed), a struct op
//   views      transform on the input (fused), take / reverse on the output, in place
//   contract   accumulator types as std's, out too small is an error and nothing is
//              written, one scan is two launches (the tile-state clear and the pass)
#include "test_support.hpp"

#include <pacxx/algorithm/scan.hpp>
#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <type_traits>
#include <vector>

namespace view = ranges::views;

// x -> a * x + b, composed left to right: associative, not commutative.
struct Affine {
  long long a, b;
};
inline bool operator==(const Affine &x, const Affine &y) { return x.a == y.a && x.b == y.b; }

namespace {

const std::size_t tile = pacxx::policy::scan_for<int>::block * pacxx::policy::scan_for<int>::items;
const std::size_t sizes[] = {
    0, 1, 2, 31, tile, tile + 1, pacxx_test::prime, 3 * tile - 1, pacxx_test::big};

template <class T> std::vector<T> small_values(std::size_t n, std::uint64_t seed) {
  const auto v = pacxx_test::ints(n, seed, std::is_signed<T>::value ? -8 : 0, 8);
  return std::vector<T>(v.begin(), v.end());
}

template <class T> class Scan : public ::testing::Test {};
using Types = ::testing::Types<int, unsigned, long long, unsigned long long, float, double>;
TYPED_TEST_SUITE(Scan, Types);

TYPED_TEST(Scan, InclusiveMatchesStd) {
  using T = TypeParam;
  for (std::size_t n : sizes) {
    const std::vector<T> h = small_values<T>(n, 11 + n);
    gpu::vector<T> x = gpu::copy(h), out(n);
    gpu::inclusive_scan(x, out);
    std::vector<T> expect(n);
    std::partial_sum(h.begin(), h.end(), expect.begin());
    EXPECT_EQ(gpu::copy(out), expect) << "n = " << n;
  }
}

TYPED_TEST(Scan, ExclusiveMatchesStd) {
  using T = TypeParam;
  for (std::size_t n : sizes) {
    const std::vector<T> h = small_values<T>(n, 23 + n);
    gpu::vector<T> x = gpu::copy(h), out(n);
    gpu::exclusive_scan(x, out, T(3));
    std::vector<T> expect(n);
    T run = T(3);
    for (std::size_t i = 0; i < n; ++i) {
      expect[i] = run;
      run = run + h[i];
    }
    EXPECT_EQ(gpu::copy(out), expect) << "n = " << n;
  }
}

TYPED_TEST(Scan, MaxInPlace) {
  using T = TypeParam;
  for (std::size_t n : sizes) {
    std::vector<T> h = small_values<T>(n, 5 + n);
    gpu::vector<T> x = gpu::copy(h);
    auto mx = [](T a, T b) { return a < b ? b : a; };
    gpu::inclusive_scan(x, x, mx);
    for (std::size_t i = 1; i < n; ++i)
      h[i] = mx(h[i - 1], h[i]);
    EXPECT_EQ(gpu::copy(x), h) << "n = " << n;
  }
}

TEST(Scan, NonCommutativeStructOp) {
  // Composing affine maps: the result depends on the order of every application.
  auto compose = [](Affine f, Affine g) { return Affine{g.a * f.a, g.a * f.b + g.b}; };
  for (std::size_t n : sizes) {
    pacxx_test::rng r(n);
    std::vector<Affine> h(n);
    for (auto &f : h)
      f = Affine{r.integer(0, 1) ? 1 : -1, r.integer(-3, 3)};
    gpu::vector<Affine> x = gpu::copy(h), out(n);
    gpu::inclusive_scan(x, out, compose);
    std::vector<Affine> expect(n);
    for (std::size_t i = 0; i < n; ++i)
      expect[i] = i == 0 ? h[0] : compose(expect[i - 1], h[i]);
    ASSERT_EQ(gpu::copy(out), expect) << "n = " << n;
    gpu::exclusive_scan(x, out, Affine{1, 0}, compose);
    Affine run{1, 0};
    for (std::size_t i = 0; i < n; ++i) {
      expect[i] = run;
      run = compose(run, h[i]);
    }
    ASSERT_EQ(gpu::copy(out), expect) << "n = " << n;
  }
}

TEST(Scan, ViewsOnBothSides) {
  const std::size_t n = pacxx_test::big;
  const std::vector<int> h = pacxx_test::ints(n, 7, -100, 100);
  gpu::vector<int> x = gpu::copy(h);
  gpu::vector<long long> out(n + 5, -1);
  // Transform fused into the loads; the output is the first n elements, reversed.
  gpu::inclusive_scan(x | view::transform([](int v) { return 3LL * v; }),
                      out | view::take(n) | view::reverse);
  std::vector<long long> got = gpu::copy(out), expect(n + 5, -1);
  long long run = 0;
  for (std::size_t i = 0; i < n; ++i) {
    run += 3LL * h[i];
    expect[n - 1 - i] = run;
  }
  EXPECT_EQ(got, expect);
}

TEST(Scan, AccumulatorTypesAreStds) {
  // Inclusive: the input's value type (int wraps as int would). Exclusive: init's
  // type, so a long long init over ints sums without overflow.
  const std::size_t n = 4000;
  std::vector<int> h(n, 1 << 20);
  gpu::vector<int> x = gpu::copy(h);
  gpu::vector<long long> wide(n);
  gpu::exclusive_scan(x, wide, 0LL);
  const std::vector<long long> got = gpu::copy(wide);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], static_cast<long long>(i) << 20);
  gpu::vector<double> d(n);
  gpu::exclusive_scan(x | view::transform([](int v) { return v / 4; }), d, 0.5);
  const std::vector<double> gd = gpu::copy(d);
  EXPECT_EQ(gd[n - 1], 0.5 + double(n - 1) * (1 << 18));
}

TEST(Scan, OutputTooSmallIsAnErrorAndWritesNothing) {
  gpu::vector<int> x = gpu::copy(std::vector<int>(100, 1)), out(99, 7);
  EXPECT_THROW(gpu::inclusive_scan(x, out), pacxx::error);
  EXPECT_THROW(gpu::exclusive_scan(x, out, 0), pacxx::error);
  EXPECT_EQ(gpu::copy(out), std::vector<int>(99, 7));
}

TEST(Scan, OnePassAndATinyClear) {
  const std::size_t n = pacxx_test::big;
  gpu::vector<float> x = gpu::copy(std::vector<float>(n, 1.f)), out(n);
  gpu::inclusive_scan(x, out); // warm-up: JIT and scratch
  pacxx::reset_stats();
  gpu::inclusive_scan(x | view::transform([](float v) { return v * 2.f; }), out);
  gpu::exclusive_scan(x, out, 0.f);
  const auto s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 4u); // per scan: the tile-state clear and the single pass
  EXPECT_EQ(s.device_allocations, s.pool_hits);
  EXPECT_EQ(gpu::copy(out)[n - 1], float(n - 1));
}

} // namespace

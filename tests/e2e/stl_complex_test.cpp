// End-to-end: gpu::vector<std::complex<float>> and <double> through the GPU STL (issue 34,
// item 4): products and quotients over a zip, std::abs and std::exp in gpu::transform,
// views on complex data, gpu::reduce with std::plus, a fused complex dot product
// (one launch) and transform_reduce, against the same code on the host. The complex
// arithmetic and functions are the JIT's device library (__mulsc3, __divsc3, cabsf,
// cexpf, ...; math_test checks them one by one).
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <complex>
#include <cstddef>
#include <functional>
#include <limits>
#include <tuple>
#include <vector>

namespace view = ranges::views;

namespace {

using pacxx_test::rng;

const std::size_t n = 10007; // several blocks

template <class T>
std::vector<std::complex<T>> random_complex(std::size_t count, std::uint64_t seed) {
  rng r(seed);
  std::vector<std::complex<T>> v(count);
  for (auto &z : v)
    z = std::complex<T>(static_cast<T>(r.uniform(-4, 4)), static_cast<T>(r.uniform(-4, 4)));
  return v;
}

// |got - expected| <= eps_bound * epsilon * |expected|, part by part where both exist.
template <class T>
void expect_near(const std::vector<std::complex<T>> &got,
                 const std::vector<std::complex<T>> &expected, double eps_bound, const char *what) {
  ASSERT_EQ(got.size(), expected.size()) << what;
  std::size_t failures = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double d = std::abs(std::complex<double>(got[i]) - std::complex<double>(expected[i]));
    const double allowed =
        eps_bound * std::numeric_limits<T>::epsilon() * std::abs(std::complex<double>(expected[i]));
    if (!(d <= allowed) && ++failures <= 5)
      ADD_FAILURE() << what << "[" << i << "]: device " << got[i] << ", host " << expected[i];
  }
  EXPECT_EQ(failures, 0u) << what;
}

template <class T> class Complex : public ::testing::Test {};
using Types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Complex, Types);

TYPED_TEST(Complex, TransformMultiplyDivideAbsExp) {
  using T = TypeParam;
  using C = std::complex<T>;
  const std::vector<C> a = random_complex<T>(n, 1), b = random_complex<T>(n, 2);
  const gpu::vector<C> da = gpu::copy(a), db = gpu::copy(b);
  gpu::vector<C> out(n);
  std::vector<C> expected(n);

  auto multiply = [](auto p) { return std::get<0>(p) * std::get<1>(p); };
  gpu::transform(view::zip(da, db), out, multiply);
  for (std::size_t i = 0; i < n; ++i)
    expected[i] = a[i] * b[i];
  expect_near(gpu::copy(out), expected, 1, "a * b");

  auto divide = [](auto p) { return std::get<0>(p) / std::get<1>(p); };
  gpu::transform(view::zip(da, db), out, divide);
  for (std::size_t i = 0; i < n; ++i)
    expected[i] = a[i] / b[i];
  expect_near(gpu::copy(out), expected, 4, "a / b");

  // std::abs into a vector of T; exp of the reversed input.
  gpu::vector<T> norms(n);
  gpu::transform(da, norms, [](C z) { return std::abs(z); });
  const std::vector<T> got_norms = gpu::copy(norms);
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_NEAR(got_norms[i], std::abs(a[i]),
                4 * std::numeric_limits<T>::epsilon() * std::abs(a[i]))
        << i;
  gpu::transform(da | view::reverse, out, [](C z) { return std::exp(z); });
  for (std::size_t i = 0; i < n; ++i)
    expected[i] = std::exp(a[n - 1 - i]);
  expect_near(gpu::copy(out), expected, 10, "exp(reverse(a))");
}

TYPED_TEST(Complex, ViewsAndInPlaceActions) {
  using T = TypeParam;
  using C = std::complex<T>;
  const std::vector<C> a = random_complex<T>(n, 3);
  gpu::vector<C> v = gpu::copy(a);
  // sqrt in place, then the conjugates of every third element of the first half.
  v |= gpu::action::transform([](C z) { return std::sqrt(z); });
  gpu::vector<C> out(n / 6 + 1);
  gpu::transform(view::take(v, n / 2) | view::stride(3), out, [](C z) { return std::conj(z); });
  std::vector<C> expected;
  for (std::size_t i = 0; i < n / 2; i += 3)
    expected.push_back(std::conj(std::sqrt(a[i])));
  std::vector<C> got = gpu::copy(out);
  got.resize(expected.size());
  expect_near(got, expected, 10, "conj(stride(take(sqrt(a))))");
}

TYPED_TEST(Complex, ReduceWithPlus) {
  using T = TypeParam;
  using C = std::complex<T>;
  const std::vector<C> a = random_complex<T>(n, 4);
  const gpu::vector<C> da = gpu::copy(a);
  std::complex<double> exact(1, -2);
  for (const C &z : a)
    exact += std::complex<double>(z);
  // The order of the additions differs from the host's: a bound on the sum's error.
  const double bound = 4 * n * std::numeric_limits<T>::epsilon() * 4 * std::sqrt(2.0);
  const C sum = gpu::reduce(da, C(1, -2), std::plus<C>());
  EXPECT_LE(std::abs(std::complex<double>(sum) - exact), bound) << sum << " vs " << exact;
  const C piped = da | gpu::reduce(C(1, -2), std::plus<>());
  EXPECT_LE(std::abs(std::complex<double>(piped) - exact), bound) << piped << " vs " << exact;
}

TYPED_TEST(Complex, FusedDotProductIsOneLaunch) {
  using T = TypeParam;
  using C = std::complex<T>;
  const std::vector<C> a = random_complex<T>(n, 5), b = random_complex<T>(n, 6);
  const gpu::vector<C> da = gpu::copy(a), db = gpu::copy(b);
  std::complex<double> exact(0, 0);
  for (std::size_t i = 0; i < n; ++i)
    exact += std::conj(std::complex<double>(a[i])) * std::complex<double>(b[i]);
  const double bound = 64 * n * std::numeric_limits<T>::epsilon() * 16;

  auto conj_mult = [](auto p) { return std::conj(std::get<0>(p)) * std::get<1>(p); };
  const pacxx::runtime_stats before = pacxx::stats();
  const C dot = view::zip(da, db) | view::transform(conj_mult) | gpu::reduce(C(0));
  EXPECT_EQ(pacxx::stats().kernel_launches - before.kernel_launches, 1u);
  EXPECT_LE(std::abs(std::complex<double>(dot) - exact), bound) << dot << " vs " << exact;

  const C tr = gpu::transform_reduce(view::zip(da, db), C(0), std::plus<C>(), conj_mult);
  EXPECT_LE(std::abs(std::complex<double>(tr) - exact), bound) << tr << " vs " << exact;
}

} // namespace

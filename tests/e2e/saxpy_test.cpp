// End-to-end: saxpy (y = a*x + y) as a hand-written pacxx::kernel, in float and double,
// over sizes that are empty, tiny, prime and not multiples of the block size; empty
// grids; and what pacxx::stats() counts for launches, compilations and transfers.
// Built with pacxx++ -std=c++14 (the public headers must compile as C++14).
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

using pacxx_test::random_vector;

// a*x+y may be contracted to an fma on the device (and not on the host): allow a few
// ulps of the magnitudes involved.
template <class T> T saxpy_tolerance(T a, T x, T y) {
  const T eps = std::numeric_limits<T>::epsilon();
  return 4 * eps * (std::fabs(a * x) + std::fabs(y)) + std::numeric_limits<T>::min();
}

// y = a*x + y in place on the device, one element per thread, `block` threads a block.
template <class T> void device_saxpy(T a, gpu::vector<T> &x, gpu::vector<T> &y, std::size_t block) {
  const std::size_t n = x.size();
  auto k = pacxx::kernel(
      [a](const T *x, T *y, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          y[i] = a * x[i] + y[i];
      },
      {{(n + block - 1) / block}, {block}});
  k(x.data(), y.data(), n);
}

template <class T> void check_saxpy(std::size_t n, std::size_t block, std::uint64_t seed) {
  SCOPED_TRACE(testing::Message() << "n = " << n << ", block = " << block);
  const T a = static_cast<T>(-1.75 + 0.001 * static_cast<double>(seed));
  std::vector<T> x = random_vector<T>(n, seed, -100.0, 100.0);
  std::vector<T> y = random_vector<T>(n, seed + 1000, -50.0, 50.0);
  gpu::vector<T> dx = gpu::copy(x), dy = gpu::copy(y);
  ASSERT_EQ(dx.size(), n);
  ASSERT_EQ(dy.size(), n);
  device_saxpy(a, dx, dy, block);
  std::vector<T> r = gpu::copy(dy);
  ASSERT_EQ(r.size(), n);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const T expected = a * x[i] + y[i];
    if (!(std::fabs(r[i] - expected) <= saxpy_tolerance(a, x[i], y[i]))) {
      if (++wrong <= 5)
        ADD_FAILURE() << "element " << i << ": got " << r[i] << ", expected " << expected;
    }
  }
  EXPECT_EQ(wrong, 0u);
  // x was only read.
  EXPECT_EQ(gpu::copy(dx), x);
}

const std::size_t sizes[] = {0, 1, 2, 127, 128, 129, 1009, (std::size_t(1) << 20) + 3};

TEST(Saxpy, FloatAllSizes) {
  std::uint64_t seed = 1;
  for (std::size_t n : sizes)
    check_saxpy<float>(n, 128, seed++);
}

TEST(Saxpy, DoubleAllSizes) {
  std::uint64_t seed = 100;
  for (std::size_t n : sizes)
    check_saxpy<double>(n, 128, seed++);
}

TEST(Saxpy, OtherBlockSizes) {
  // Block sizes that are not powers of two, and a block larger than the input.
  check_saxpy<float>(1009, 1, 7);
  check_saxpy<float>(1009, 96, 8);
  check_saxpy<float>(1009, 255, 9);
  check_saxpy<double>(100, 256, 10);
  check_saxpy<double>(4099, 33, 11);
}

TEST(Saxpy, RepeatedLaunchesAccumulate) {
  // y <- a*x + y, ten times: the kernel sees the previous launch's results.
  const std::size_t n = 1009;
  const float a = 0.5f;
  std::vector<float> x = random_vector<float>(n, 21, -1.0, 1.0);
  std::vector<float> y = random_vector<float>(n, 22, -1.0, 1.0);
  gpu::vector<float> dx = gpu::copy(x), dy = gpu::copy(y);
  std::vector<float> expected = y;
  for (int rep = 0; rep < 10; ++rep) {
    device_saxpy(a, dx, dy, 64);
    for (std::size_t i = 0; i < n; ++i)
      expected[i] = a * x[i] + expected[i];
  }
  std::vector<float> r = gpu::copy(dy);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_NEAR(r[i], expected[i], 1e-5f) << "element " << i;
}

TEST(Saxpy, EmptyGridDoesNothing) {
  const std::size_t n = 1009;
  std::vector<float> x = random_vector<float>(n, 31, -10.0, 10.0);
  std::vector<float> y = random_vector<float>(n, 32, -10.0, 10.0);
  gpu::vector<float> dx = gpu::copy(x), dy = gpu::copy(y);
  auto body = [](const float *x, float *y, std::size_t n) {
    const std::size_t i = pacxx::Thread::get().global.x;
    if (i < n)
      y[i] = 3.0f * x[i] + y[i];
  };
  // Zero blocks in x, in y and in z: no thread may run, and nothing may throw.
  pacxx::kernel(body, {{0}, {128}})(dx.data(), dy.data(), n);
  pacxx::kernel(body, {{8, 0}, {128}})(dx.data(), dy.data(), n);
  pacxx::kernel(body, {{8, 1, 0}, {128}})(dx.data(), dy.data(), n);
  pacxx::synchronize();
  EXPECT_EQ(gpu::copy(dy), y);

  // The same kernel with a real grid afterwards still works.
  pacxx::kernel(body, {{(n + 127) / 128}, {128}})(dx.data(), dy.data(), n);
  std::vector<float> r = gpu::copy(dy);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_NEAR(r[i], 3.0f * x[i] + y[i], saxpy_tolerance(3.0f, x[i], y[i])) << "element " << i;
}

TEST(Saxpy, StatsCountLaunchesAndOneCompilation) {
  // A kernel (its own lambda type) that no other test launches.
  static bool first_run = true; // under --gtest_repeat the kernel is already compiled
  const std::size_t n = 4099;
  std::vector<double> x = random_vector<double>(n, 41, -3.0, 3.0);
  std::vector<double> y = random_vector<double>(n, 42, -3.0, 3.0);
  gpu::vector<double> dx = gpu::copy(x), dy = gpu::copy(y);
  auto k = pacxx::kernel(
      [](double a, const double *x, double *y, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          y[i] = a * x[i] + y[i];
      },
      {{(n + 255) / 256}, {256}});

  const pacxx::runtime_stats s0 = pacxx::stats();
  k(2.0, dx.data(), dy.data(), n);
  pacxx::synchronize();
  const pacxx::runtime_stats s1 = pacxx::stats();
  EXPECT_EQ(s1.kernel_launches - s0.kernel_launches, 1u);
  EXPECT_EQ(s1.jit_compilations - s0.jit_compilations, first_run ? 1u : 0u);

  const int reps = 9;
  for (int rep = 0; rep < reps; ++rep)
    k(-0.25, dx.data(), dy.data(), n);
  pacxx::synchronize();
  const pacxx::runtime_stats s2 = pacxx::stats();
  EXPECT_EQ(s2.kernel_launches - s1.kernel_launches, static_cast<std::size_t>(reps));
  EXPECT_EQ(s2.jit_compilations, s1.jit_compilations) << "repeated launches recompiled";
  EXPECT_EQ(s2.memory_cache_hits - s1.memory_cache_hits, static_cast<std::size_t>(reps));

  // A launcher made anew from an equal closure type is still the same kernel.
  for (int rep = 0; rep < 2; ++rep) {
    auto again = pacxx::kernel(
        [](const double *x, double *y, std::size_t n) {
          const std::size_t i = pacxx::Thread::get().global.x;
          if (i < n)
            y[i] = y[i] - x[i];
        },
        {{(n + 63) / 64}, {64}});
    again(dx.data(), dy.data(), n);
  }
  const pacxx::runtime_stats s3 = pacxx::stats();
  EXPECT_EQ(s3.kernel_launches - s2.kernel_launches, 2u);
  EXPECT_EQ(s3.jit_compilations - s2.jit_compilations, first_run ? 1u : 0u);
  first_run = false;

  std::vector<double> r = gpu::copy(dy);
  for (std::size_t i = 0; i < n; ++i) {
    double e = 2.0 * x[i] + y[i];
    for (int rep = 0; rep < reps; ++rep)
      e = -0.25 * x[i] + e;
    e = e - x[i];
    e = e - x[i];
    ASSERT_NEAR(r[i], e, 1e-12) << "element " << i;
  }
}

TEST(Saxpy, StatsCountTransfers) {
  const std::size_t n = 1009;
  std::vector<float> x = random_vector<float>(n, 51, -1.0, 1.0);
  const pacxx::runtime_stats s0 = pacxx::stats();
  gpu::vector<float> dx = gpu::copy(x);
  const pacxx::runtime_stats s1 = pacxx::stats();
  EXPECT_EQ(s1.bytes_to_device - s0.bytes_to_device, n * sizeof(float));
  EXPECT_EQ(s1.device_allocations - s0.device_allocations, 1u);
  EXPECT_EQ(s1.bytes_to_host, s0.bytes_to_host);

  gpu::vector<float> dy(n);
  device_saxpy(0.0f, dx, dx, 32); // x = 0*x + x: unchanged, in place
  (void)dy;
  const pacxx::runtime_stats s2 = pacxx::stats();
  EXPECT_EQ(s2.bytes_to_device, s1.bytes_to_device) << "a launch copied data to the device";
  EXPECT_EQ(s2.bytes_to_host, s1.bytes_to_host) << "a launch copied data to the host";

  std::vector<float> r = gpu::copy(dx);
  const pacxx::runtime_stats s3 = pacxx::stats();
  EXPECT_EQ(s3.bytes_to_host - s2.bytes_to_host, n * sizeof(float));
  EXPECT_EQ(r, x);
}

} // namespace

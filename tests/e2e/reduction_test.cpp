// End-to-end: block reductions. Each block loads its elements into block-shared memory
// (pacxx::shared_memory<T, 256>, or pacxx::dynamic_shared_memory<T>() sized at launch),
// sums them in a tree with pacxx::barrier() between the steps, and thread 0 adds the
// block's sum to a global result with pacxx::atomic_add. int and float, compared with a
// sum computed on the CPU.
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using pacxx_test::device_scalar;
using pacxx_test::random_vector;
using pacxx_test::rng;

template <class T> std::vector<T> random_input(std::size_t n, std::uint64_t seed);
template <> std::vector<int> random_input<int>(std::size_t n, std::uint64_t seed) {
  rng r(seed);
  std::vector<int> v(n);
  for (auto &x : v)
    x = static_cast<int>(r.integer(-1000, 1000));
  return v;
}
template <> std::vector<float> random_input<float>(std::size_t n, std::uint64_t seed) {
  return random_vector<float>(n, seed, -1.0, 1.0);
}

constexpr std::size_t static_block = 256;

// Static shared memory: 256 threads a block, each thread first sums a grid-stride slice
// of the input (so a small grid covers any n), then the block reduces in a tree.
template <class T>
void reduce_static(const gpu::vector<T> &in, gpu::vector<T> &result, std::size_t blocks) {
  auto k = pacxx::kernel(
      [](const T *in, std::size_t n, T *result) {
        pacxx::shared_memory<T, static_block> partial;
        const auto t = pacxx::Thread::get();
        const auto b = pacxx::Block::get();
        const std::size_t tid = t.local.x;
        const std::size_t stride = b.size.x * pacxx::Grid::get().size.x;
        T sum = 0;
        for (std::size_t i = t.global.x; i < n; i += stride)
          sum += in[i];
        partial[tid] = sum;
        pacxx::barrier();
        for (std::size_t s = static_block / 2; s > 0; s /= 2) {
          if (tid < s)
            partial[tid] += partial[tid + s];
          pacxx::barrier();
        }
        if (tid == 0)
          pacxx::atomic_add(result, partial[0]);
      },
      {{blocks}, {static_block}});
  k(in.data(), in.size(), result.data());
}

// Dynamic shared memory: `block` threads (a power of two chosen at run time), as many
// elements of shared memory, one element per thread (no grid-stride loop).
template <class T>
void reduce_dynamic(const gpu::vector<T> &in, gpu::vector<T> &result, std::size_t block) {
  const std::size_t n = in.size();
  auto k = pacxx::kernel(
      [](const T *in, std::size_t n, T *result) {
        T *partial = pacxx::dynamic_shared_memory<T>();
        const auto t = pacxx::Thread::get();
        const std::size_t tid = t.local.x;
        const std::size_t bs = pacxx::Block::get().size.x;
        partial[tid] = t.global.x < n ? in[t.global.x] : T(0);
        pacxx::barrier();
        for (std::size_t s = bs / 2; s > 0; s /= 2) {
          if (tid < s)
            partial[tid] += partial[tid + s];
          pacxx::barrier();
        }
        if (tid == 0)
          pacxx::atomic_add(result, partial[0]);
      },
      {{(n + block - 1) / block}, {block}, block * sizeof(T)});
  k(in.data(), n, result.data());
}

template <class T> void expect_sum(T got, const std::vector<T> &in);
template <> void expect_sum<int>(int got, const std::vector<int> &in) {
  long long expected = 0;
  for (int x : in)
    expected += x;
  EXPECT_EQ(static_cast<long long>(got), expected);
}
template <> void expect_sum<float>(float got, const std::vector<float> &in) {
  double expected = 0, magnitude = 0;
  for (float x : in) {
    expected += x;
    magnitude += std::fabs(x);
  }
  // Any summation order in float: bounded by n*eps*sum|x|; in practice far less.
  EXPECT_NEAR(static_cast<double>(got), expected, 1e-5 * magnitude + 1e-6);
}

const std::size_t sizes[] = {0, 1, 255, 256, 257, 1009, 65536, (std::size_t(1) << 20) + 3};

template <class T> class Reduction : public testing::Test {};
using Types = testing::Types<int, float>;
TYPED_TEST_SUITE(Reduction, Types);

TYPED_TEST(Reduction, StaticSharedMemory) {
  using T = TypeParam;
  std::uint64_t seed = 1;
  for (std::size_t n : sizes) {
    SCOPED_TRACE(testing::Message() << "n = " << n);
    std::vector<T> h = random_input<T>(n, seed++);
    gpu::vector<T> in = gpu::copy(h);
    // Enough blocks for one element per thread, capped so large inputs use the loop.
    const std::size_t blocks = std::max<std::size_t>(1, std::min<std::size_t>((n + 255) / 256, 64));
    gpu::vector<T> result = device_scalar(T(0));
    reduce_static(in, result, blocks);
    expect_sum(gpu::copy(result)[0], h);
  }
}

TYPED_TEST(Reduction, StaticSharedMemoryOneElementPerThread) {
  using T = TypeParam;
  const std::size_t n = 100003; // prime
  std::vector<T> h = random_input<T>(n, 77);
  gpu::vector<T> in = gpu::copy(h);
  gpu::vector<T> result = device_scalar(T(0));
  reduce_static(in, result, (n + 255) / 256);
  expect_sum(gpu::copy(result)[0], h);
}

TYPED_TEST(Reduction, StaticSharedMemoryAccumulatesAcrossLaunches) {
  // The result is not reset between launches: three launches add three sums.
  using T = TypeParam;
  const std::size_t n = 1009;
  std::vector<T> h = random_input<T>(n, 5);
  gpu::vector<T> in = gpu::copy(h);
  gpu::vector<T> result = device_scalar(T(0));
  for (int rep = 0; rep < 3; ++rep)
    reduce_static(in, result, 3);
  std::vector<T> thrice(h);
  thrice.insert(thrice.end(), h.begin(), h.end());
  thrice.insert(thrice.end(), h.begin(), h.end());
  expect_sum(gpu::copy(result)[0], thrice);
}

TYPED_TEST(Reduction, DynamicSharedMemory) {
  using T = TypeParam;
  std::uint64_t seed = 1000;
  for (std::size_t block : {32, 64, 128, 256, 512}) {
    for (std::size_t n : sizes) {
      if (n > 70000 && block != 256)
        continue; // the largest size once is enough
      SCOPED_TRACE(testing::Message() << "n = " << n << ", block = " << block);
      std::vector<T> h = random_input<T>(n, seed++);
      gpu::vector<T> in = gpu::copy(h);
      gpu::vector<T> result = device_scalar(T(0));
      reduce_dynamic(in, result, block);
      expect_sum(gpu::copy(result)[0], h);
    }
  }
}

TEST(ReductionMixed, TwoSharedArraysInOneKernel) {
  // Two shared_memory objects in one kernel are two distinct blocks of memory: the
  // block sum of x (float) and the block maximum of y (int) are reduced side by side,
  // and each block writes both to its own slot.
  const std::size_t n = 1009, block = 128, blocks = (n + block - 1) / block;
  std::vector<float> hx = random_input<float>(n, 11);
  std::vector<int> hy = random_input<int>(n, 12);
  gpu::vector<float> x = gpu::copy(hx), sums(blocks);
  gpu::vector<int> y = gpu::copy(hy), maxima(blocks);
  auto k = pacxx::kernel(
      [](const float *x, const int *y, std::size_t n, float *sums, int *maxima) {
        pacxx::shared_memory<float, 128> s;
        pacxx::shared_memory<int, 128> m;
        const auto t = pacxx::Thread::get();
        const std::size_t tid = t.local.x, i = t.global.x;
        s[tid] = i < n ? x[i] : 0.0f;
        m[tid] = i < n ? y[i] : -2147483647 - 1;
        pacxx::barrier();
        for (std::size_t st = 64; st > 0; st /= 2) {
          if (tid < st) {
            s[tid] += s[tid + st];
            m[tid] = m[tid] < m[tid + st] ? m[tid + st] : m[tid];
          }
          pacxx::barrier();
        }
        if (tid == 0) {
          sums[pacxx::Block::get().index.x] = s[0];
          maxima[pacxx::Block::get().index.x] = m[0];
        }
      },
      {{blocks}, {block}});
  k(x.data(), y.data(), n, sums.data(), maxima.data());
  std::vector<float> rs = gpu::copy(sums);
  std::vector<int> rm = gpu::copy(maxima);
  for (std::size_t b = 0; b < blocks; ++b) {
    double sum = 0;
    int mx = -2147483647 - 1;
    for (std::size_t i = b * block; i < std::min(n, (b + 1) * block); ++i) {
      sum += hx[i];
      mx = std::max(mx, hy[i]);
    }
    EXPECT_NEAR(rs[b], sum, 1e-4) << "block " << b;
    EXPECT_EQ(rm[b], mx) << "block " << b;
  }
}

// The tree as a function of its own (not inline, templated), with the barriers inside
// it, called from kernels on static and on dynamic shared memory.
template <class T>
__attribute__((noinline)) T block_tree_sum(T *s, std::size_t tid, std::size_t bs) {
  for (std::size_t st = bs / 2; st > 0; st /= 2) {
    if (tid < st)
      s[tid] += s[tid + st];
    pacxx::barrier();
  }
  return s[0];
}

template <class T> T *dynamic_partials() { return pacxx::dynamic_shared_memory<T>(); }

TYPED_TEST(Reduction, TreeInHelperFunction) {
  using T = TypeParam;
  const std::size_t n = 1009 * 7, block = 128, blocks = (n + block - 1) / block;
  std::vector<T> h = random_input<T>(n, 321);
  gpu::vector<T> in = gpu::copy(h);
  gpu::vector<T> r_static = device_scalar(T(0)), r_dynamic = device_scalar(T(0));
  auto ks = pacxx::kernel(
      [](const T *in, std::size_t n, T *result) {
        pacxx::shared_memory<T, 128> s;
        const auto t = pacxx::Thread::get();
        s[t.local.x] = t.global.x < n ? in[t.global.x] : T(0);
        pacxx::barrier();
        const T sum = block_tree_sum(s.data(), t.local.x, 128);
        if (t.local.x == 0)
          pacxx::atomic_add(result, sum);
      },
      {{blocks}, {block}});
  ks(in.data(), n, r_static.data());
  auto kd = pacxx::kernel(
      [](const T *in, std::size_t n, T *result) {
        T *s = dynamic_partials<T>(); // obtained in a helper function too
        const auto t = pacxx::Thread::get();
        const std::size_t bs = pacxx::Block::get().size.x;
        s[t.local.x] = t.global.x < n ? in[t.global.x] : T(0);
        pacxx::barrier();
        const T sum = block_tree_sum(s, t.local.x, bs);
        if (t.local.x == 0)
          pacxx::atomic_add(result, sum);
      },
      {{blocks}, {block}, block * sizeof(T)});
  kd(in.data(), n, r_dynamic.data());
  {
    SCOPED_TRACE("static shared memory");
    expect_sum(gpu::copy(r_static)[0], h);
  }
  {
    SCOPED_TRACE("dynamic shared memory");
    expect_sum(gpu::copy(r_dynamic)[0], h);
  }
}

TEST(ReductionMixed, StaticAndDynamicSharedMemoryInOneKernel) {
  // Static shared memory for the sums, dynamic for the element counts of the block:
  // the two must not overlap.
  const std::size_t n = 5003, block = 64, blocks = (n + block - 1) / block;
  std::vector<int> h = random_input<int>(n, 99);
  gpu::vector<int> in = gpu::copy(h), sums(blocks), counts(blocks);
  auto k = pacxx::kernel(
      [](const int *in, std::size_t n, int *sums, int *counts) {
        pacxx::shared_memory<int, 64> s;
        int *c = pacxx::dynamic_shared_memory<int>();
        const auto t = pacxx::Thread::get();
        const std::size_t tid = t.local.x;
        const bool valid = t.global.x < n;
        s[tid] = valid ? in[t.global.x] : 0;
        c[tid] = valid ? 1 : 0;
        pacxx::barrier();
        for (std::size_t st = 32; st > 0; st /= 2) {
          if (tid < st) {
            s[tid] += s[tid + st];
            c[tid] += c[tid + st];
          }
          pacxx::barrier();
        }
        if (tid == 0) {
          sums[pacxx::Block::get().index.x] = s[0];
          counts[pacxx::Block::get().index.x] = c[0];
        }
      },
      {{blocks}, {block}, block * sizeof(int)});
  k(in.data(), n, sums.data(), counts.data());
  std::vector<int> rs = gpu::copy(sums), rc = gpu::copy(counts);
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t first = b * block, last = std::min(n, first + block);
    int sum = 0;
    for (std::size_t i = first; i < last; ++i)
      sum += h[i];
    EXPECT_EQ(rs[b], sum) << "block " << b;
    EXPECT_EQ(rc[b], static_cast<int>(last - first)) << "block " << b;
  }
}

} // namespace

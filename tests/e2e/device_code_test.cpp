// Device code that users write and that used to crash (issue 34): recursion, std::sort
// of a small local array (introsort recurses, insertion sort moves with memmove) and
// memmove inside a stack array. On CUDA each runs and matches the host; on OpenCL,
// where SPIR forbids recursion, a recursive kernel is a pacxx::error naming the
// function and its line before PoCL sees the module (PoCL's kernel compiler recursed
// without end on it: SIGSEGV).
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <range/v3/view/iota.hpp>

#include "test_support.hpp"

namespace view = ranges::views;

namespace {

bool on_opencl() { return std::string(pacxx::native_handles().backend) == "opencl"; }

// The message names fib and the line of its definition.
constexpr int fib_line = __LINE__ + 1;
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int host_fib(int n) { return n < 2 ? n : host_fib(n - 1) + host_fib(n - 2); }

// Mutual recursion through two functions (kept apart: inlined into each other they
// would be one self-recursive function).
__attribute__((noinline)) int pell_b(int n);
__attribute__((noinline)) int pell_a(int n) {
  return n < 2 ? n : 2 * pell_b(n - 1) + pell_b(n - 2);
}
__attribute__((noinline)) int pell_b(int n) {
  return n < 2 ? n : 2 * pell_a(n - 1) + pell_a(n - 2);
}
int host_pell(int n) { return n < 2 ? n : 2 * host_pell(n - 1) + host_pell(n - 2); }

TEST(DeviceCode, RecursionRunsOnCudaAndIsAClearErrorOnOpenCL) {
  gpu::vector<int> out(20);
  try {
    gpu::transform(view::iota(0, 20), out, [](int i) { return fib(i); });
    std::vector<int> r = gpu::copy(out);
    ASSERT_FALSE(on_opencl()) << "OpenCL cannot run recursive device code";
    for (int i = 0; i < 20; ++i)
      EXPECT_EQ(r[i], host_fib(i)) << i;
  } catch (const pacxx::error &e) {
    ASSERT_TRUE(on_opencl()) << e.what();
    const std::string what = e.what();
    std::printf("the error on OpenCL:\n%s\n", e.what());
    EXPECT_NE(what.find("recursive"), std::string::npos) << what;
    EXPECT_NE(what.find("fib(int)"), std::string::npos) << what;
    EXPECT_NE(what.find("device_code_test.cpp:" + std::to_string(fib_line)), std::string::npos)
        << what;
    EXPECT_NE(what.find("CUDA"), std::string::npos) << what;
  }
  // The runtime stays usable after the error.
  gpu::transform(view::iota(0, 20), out, [](int i) { return 2 * i; });
  std::vector<int> r = gpu::copy(out);
  for (int i = 0; i < 20; ++i)
    ASSERT_EQ(r[i], 2 * i);
}

TEST(DeviceCode, MutualRecursionNamesEveryFunctionOfTheCycle) {
  gpu::vector<int> out(16);
  try {
    gpu::transform(view::iota(0, 16), out, [](int i) { return pell_a(i); });
    std::vector<int> r = gpu::copy(out);
    ASSERT_FALSE(on_opencl()) << "OpenCL cannot run recursive device code";
    for (int i = 0; i < 16; ++i)
      EXPECT_EQ(r[i], host_pell(i)) << i;
  } catch (const pacxx::error &e) {
    ASSERT_TRUE(on_opencl()) << e.what();
    const std::string what = e.what();
    EXPECT_NE(what.find("pell_a(int)"), std::string::npos) << what;
    EXPECT_NE(what.find("pell_b(int)"), std::string::npos) << what;
  }
}

// Tail recursion becomes a loop in the JIT's optimiser: no recursion is left, so it
// runs on both backends.
unsigned gcd(unsigned a, unsigned b) { return b == 0 ? a : gcd(b, a % b); }

TEST(DeviceCode, TailRecursionThatTheOptimiserRemovesRunsEverywhere) {
  const std::size_t n = 1000;
  gpu::vector<unsigned> out(n);
  gpu::transform(view::iota(0u, unsigned(n)), out, [](unsigned i) { return gcd(i * 6u, 84u); });
  std::vector<unsigned> r = gpu::copy(out);
  for (unsigned i = 0; i < n; ++i) {
    unsigned a = i * 6u, b = 84u;
    while (b) {
      unsigned t = a % b;
      a = b;
      b = t;
    }
    ASSERT_EQ(r[i], a) << i;
  }
}

// memmove within one local array, with a length known only at run time: each element
// shifts a window of `len` values by `by` places, both ways, and reports a checksum.
struct shift {
  int len, by;
  unsigned operator()(unsigned seed) const {
    unsigned a[32];
    for (int i = 0; i < 32; ++i)
      a[i] = seed * 2654435761u + static_cast<unsigned>(i);
    const int l = static_cast<int>(seed % static_cast<unsigned>(len)) + 1;
    std::memmove(a + by, a, static_cast<std::size_t>(l) * sizeof(unsigned));     // forwards
    std::memmove(a, a + by / 2, static_cast<std::size_t>(l) * sizeof(unsigned)); // backwards
    unsigned h = 0;
    for (int i = 0; i < 32; ++i)
      h = h * 31u + a[i];
    return h;
  }
};

// On OpenCL a device assert() is compiled out, as under NDEBUG (runtime/jit/spir/spir.cpp
// says why: PoCL 3.1 miscompiled kernels with traps in them, range-v3's bounds checks
// among them): a failing one does not stop the kernel, and the work-items around it
// compute what they would without it. CUDA traps instead (the context is lost), so the
// test runs on OpenCL only.
TEST(DeviceCode, AFailingAssertIsCompiledOutOnOpenCL) {
#ifdef NDEBUG
  GTEST_SKIP() << "built with NDEBUG: no assert reaches the device";
#endif
  if (!on_opencl())
    GTEST_SKIP() << "CUDA traps on a failed device assert (the context is lost)";
  const int n = 1000;
  gpu::vector<int> out(n);
  gpu::transform(view::iota(0, n), out, [](int i) {
    assert(i % 7 != 3);
    return 2 * i;
  });
  const std::vector<int> r = gpu::copy(out);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(r[i], 2 * i) << i;
}

TEST(DeviceCode, MemmoveInAStackArrayMatchesTheHost) {
  const std::size_t n = 4096;
  gpu::vector<unsigned> out(n);
  for (shift s : {shift{1, 1}, shift{8, 3}, shift{16, 16}, shift{24, 7}, shift{30, 2}}) {
    gpu::transform(view::iota(0u, unsigned(n)), out, s);
    std::vector<unsigned> r = gpu::copy(out);
    for (unsigned i = 0; i < n; ++i)
      ASSERT_EQ(r[i], s(i)) << "len " << s.len << " by " << s.by << " element " << i;
  }
}

// Insertion into a sorted local array (std::copy_backward of trivially copyable
// values is a memmove) keeps the smallest k values seen.
TEST(DeviceCode, InsertionIntoALocalArrayMatchesTheHost) {
  const std::size_t n = 2048;
  // Integers (as floats): the weighted sums below are exact on both sides.
  std::vector<float> h = pacxx_test::random_vector<float>(n * 16, 7, -1000, 1000);
  for (float &x : h)
    x = static_cast<float>(static_cast<int>(x));
  gpu::vector<float> d = gpu::copy(h);
  gpu::vector<float> out(n);
  auto smallest4 = [p = d.data()](unsigned i) {
    float best[4] = {1e30f, 1e30f, 1e30f, 1e30f};
    for (unsigned j = 0; j < 16; ++j) {
      float v = p[i * 16 + j];
      float *at = std::upper_bound(best, best + 4, v);
      if (at == best + 4)
        continue;
      std::copy_backward(at, best + 3, best + 4);
      *at = v;
    }
    return best[0] + 2 * best[1] + 3 * best[2] + 4 * best[3];
  };
  gpu::transform(view::iota(0u, unsigned(n)), out, smallest4);
  std::vector<float> r = gpu::copy(out);
  for (unsigned i = 0; i < n; ++i) {
    std::vector<float> s(h.begin() + i * 16, h.begin() + (i + 1) * 16);
    std::sort(s.begin(), s.end());
    ASSERT_EQ(r[i], s[0] + 2 * s[1] + 3 * s[2] + 4 * s[3]) << i;
  }
}

// A 5x5 median filter that sorts the 25 values of each pixel with std::sort
// (introsort: recursive, with an insertion sort that memmoves): correct on CUDA, the
// recursion error on OpenCL.
TEST(DeviceCode, MedianFilterWithStdSort) {
  const std::size_t w = 67, hgt = 41;
  std::vector<float> img = pacxx_test::random_floats(w * hgt, 11, 0.f, 1.f);
  gpu::vector<float> d = gpu::copy(img), out(w * hgt);
  auto median = [](auto nb) {
    float v[25];
    int k = 0;
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx)
        v[k++] = nb.inside(dx, dy) ? nb(dx, dy) : nb(0, 0);
    std::sort(v, v + 25);
    return v[12];
  };
  try {
    gpu::transform(gpu::neighbours(d, w), out, median);
    std::vector<float> r = gpu::copy(out);
    ASSERT_FALSE(on_opencl()) << "std::sort recurses, which OpenCL cannot run";
    for (std::size_t y = 0; y < hgt; ++y)
      for (std::size_t x = 0; x < w; ++x) {
        float v[25];
        int k = 0;
        for (int dy = -2; dy <= 2; ++dy)
          for (int dx = -2; dx <= 2; ++dx) {
            long xx = long(x) + dx, yy = long(y) + dy;
            bool in = xx >= 0 && yy >= 0 && xx < long(w) && yy < long(hgt);
            v[k++] = in ? img[yy * w + xx] : img[y * w + x];
          }
        std::sort(v, v + 25);
        ASSERT_EQ(r[y * w + x], v[12]) << x << "," << y;
      }
  } catch (const pacxx::error &e) {
    ASSERT_TRUE(on_opencl()) << e.what();
    const std::string what = e.what();
    EXPECT_NE(what.find("recursive"), std::string::npos) << what;
    EXPECT_NE(what.find("__introsort_loop"), std::string::npos) << what;
    EXPECT_NE(what.find("std::sort recurses"), std::string::npos) << what;
  }
}

} // namespace

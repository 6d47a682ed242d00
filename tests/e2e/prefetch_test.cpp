// pacxx::prefetch and PACXX_PREFETCH / PACXX_PREFILL (issue 37): every kernel without
// staged values is compiled ahead of its first launch, on several threads, and the
// kernels then run as they would have: results against host references, no compilation
// at their launches. tests/prefill_run.cmake runs this program with PACXX_PREFILL=1 into
// an empty disk cache, then again with the cache, which must find every kernel there.
// Raw pacxx::kernel launches only: no kernel of this program has staged values, so
// all of them are prefetched.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "test_support.hpp"

using namespace pacxx_test;

namespace {

// Six kernels, each run on sizes 0, 1, a prime and an odd size; checked on the host.
void run_kernels_and_check() {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7919), std::size_t(1000)}) {
    const std::vector<int> h = ints(n, n + 3, -100, 100);
    gpu::vector<int> a = gpu::copy(h), b(n);
    pacxx::kernel(
        [](int *a, std::size_t n) {
          auto i = pacxx::Thread::get().global.x;
          if (i < n)
            a[i] = 3 * a[i] + 1;
        },
        cover(n))(a.data(), n);
    pacxx::kernel(
        [](const int *a, int *b, std::size_t n) {
          auto i = pacxx::Thread::get().global.x;
          if (i < n)
            b[i] = a[i] * a[i];
        },
        cover(n, 64))(a.data(), b.data(), n);
    pacxx::kernel(
        [](int *b, std::size_t n) {
          auto i = pacxx::Thread::get().global.x;
          if (i < n)
            b[i] = b[i] % 7 == 0 ? -b[i] : b[i];
        },
        cover(n, 32))(b.data(), n);
    const std::vector<float> hf = random_floats(n, n + 5, -1.f, 1.f);
    gpu::vector<float> x = gpu::copy(hf), y(n, 2.f);
    const float alpha = 0.5f;
    pacxx::kernel(
        [alpha](const float *x, float *y, std::size_t n) {
          auto i = pacxx::Thread::get().global.x;
          if (i < n)
            y[i] = alpha * x[i] + y[i];
        },
        cover(n))(x.data(), y.data(), n);
    pacxx::kernel(
        [](float *y, std::size_t n) {
          auto i = pacxx::Thread::get().global.x;
          if (i < n)
            y[i] = y[i] * y[i];
        },
        cover(n))(y.data(), n);
    // Reversed copy: each thread reads the mirror element.
    gpu::vector<int> r(n);
    pacxx::kernel(
        [](const int *b, int *r, std::size_t n) {
          auto i = pacxx::Thread::get().global.x;
          if (i < n)
            r[i] = b[n - 1 - i];
        },
        cover(n))(b.data(), r.data(), n);

    std::vector<int> ra(n), rb(n), rr(n);
    std::vector<float> ry(n);
    for (std::size_t i = 0; i < n; ++i) {
      ra[i] = 3 * h[i] + 1;
      rb[i] = ra[i] * ra[i];
      rb[i] = rb[i] % 7 == 0 ? -rb[i] : rb[i];
      ry[i] = alpha * hf[i] + 2.f;
      ry[i] = ry[i] * ry[i];
    }
    for (std::size_t i = 0; i < n; ++i)
      rr[i] = rb[n - 1 - i];
    EXPECT_EQ(gpu::copy(a), ra) << n;
    EXPECT_EQ(gpu::copy(b), rb) << n;
    EXPECT_EQ(gpu::copy(r), rr) << n;
    EXPECT_EQ(gpu::copy(y), ry) << n; // the same float operations in the same order
  }
}

// Kernels made ready (from the JIT or the disk cache) since `before`.
std::size_t made_since(const pacxx::runtime_stats &before) {
  const pacxx::runtime_stats now = counts();
  return now.jit_compilations - before.jit_compilations + now.disk_cache_hits -
         before.disk_cache_hits;
}

} // namespace

// Runs first (gtest keeps the order of a file): nothing of this program is loaded yet.
TEST(Prefetch, CompilesEveryKernelAheadOnSeveralThreads) {
  const pacxx::runtime_stats before = counts();
  const std::size_t ready = pacxx::prefetch(2);
  EXPECT_GE(ready, 6u); // the six kernels above, and gpu::copy's if it has any
  EXPECT_EQ(made_since(before), ready) << "each kernel made ready once";
  EXPECT_EQ(counts().kernel_variants_loaded, ready);

  // Launching them compiles nothing more, and they compute what they should.
  const pacxx::runtime_stats launched = counts();
  run_kernels_and_check();
  EXPECT_EQ(made_since(launched), 0u);

  // A second prefetch finds them all in memory.
  const pacxx::runtime_stats again = counts();
  EXPECT_EQ(pacxx::prefetch(), ready);
  EXPECT_EQ(made_since(again), 0u);
}

// What tests/prefill_run.cmake runs after PACXX_PREFILL=1: the kernels, no prefetch.
TEST(Prefetch, KernelsRunAndMatchTheHost) { run_kernels_and_check(); }

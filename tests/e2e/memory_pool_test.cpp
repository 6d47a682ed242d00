// End-to-end: the device memory pool (runtime/memory/pool.*). Freed device memory is
// handed out again to allocations of the same size class, within PACXX_POOL_MB (read
// here too: the test runs with the default, with PACXX_POOL_MB=0 and with =1), a
// reused block never sees writes of its previous owner's kernels, and
// release_cached_memory gives the unused blocks back.
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace view = ranges::views;

namespace {

// Bytes the pool may keep unused, as the runtime reads PACXX_POOL_MB.
std::size_t pool_limit() {
  const char *mb = std::getenv("PACXX_POOL_MB");
  return mb ? std::stoull(mb) << 20 : ~std::size_t(0) >> 1;
}

TEST(MemoryPool, ReusesAFreedBlockForTheSameSizeClass) {
  // 10007 and 9001 floats (40028 and 36004 bytes) share the class of 40960 bytes.
  const float *first;
  {
    gpu::vector<float> a(10007, 1.f);
    first = a.data();
  }
  pacxx::reset_stats();
  gpu::vector<float> b(9001, 2.f);
  pacxx::runtime_stats s = pacxx::stats();
  EXPECT_EQ(s.device_allocations, 1u);
  if (pool_limit() >= 40960) {
    EXPECT_EQ(s.pool_hits, 1u);
    EXPECT_EQ(b.data(), first);
  } else {
    EXPECT_EQ(s.pool_hits, 0u);
  }
  EXPECT_EQ(gpu::copy(b), std::vector<float>(9001, 2.f));
}

// release_cached_memory gives the unused blocks back: the same size class is then a new
// driver allocation; live buffers keep their memory and contents.
TEST(MemoryPool, ReleaseGivesUnusedBlocksBack) {
  gpu::vector<int> live(1000, 7);
  { gpu::vector<float> a(10007, 1.f); }
  pacxx::release_cached_memory();
  pacxx::reset_stats();
  gpu::vector<float> b(10007, 2.f);
  EXPECT_EQ(pacxx::stats().device_allocations, 1u);
  EXPECT_EQ(pacxx::stats().pool_hits, 0u);
  EXPECT_EQ(gpu::copy(live), std::vector<int>(1000, 7));
  EXPECT_EQ(gpu::copy(b), std::vector<float>(10007, 2.f));
  pacxx::release_cached_memory(); // nothing unused: nothing to do
}

TEST(MemoryPool, DoesNotHandOutABlockOfAnotherSizeClass) {
  { gpu::vector<char> a(1 << 20); }
  pacxx::reset_stats();
  gpu::vector<char> b(2 << 20), c(3 << 19);
  EXPECT_EQ(pacxx::stats().pool_hits, 0u);
}

// A kernel still writing into a freed block, then the block reused and filled from the
// host: the new contents win (the copy is ordered after the kernel).
TEST(MemoryPool, ReusedBlockIsNotWrittenByItsPreviousOwner) {
  const std::size_t n = (1 << 20) + 5;
  std::vector<int> host(n);
  for (std::size_t i = 0; i < n; ++i)
    host[i] = static_cast<int>(i * 7 % 1009);
  gpu::vector<int> src(host);
  for (int round = 0; round < 4; ++round) {
    const int *old;
    {
      gpu::vector<int> t(n);
      old = t.data();
      // Slow enough to be still running when t is freed (no wait in between).
      gpu::transform(src, t, [](int x) {
        int r = x;
        for (int k = 0; k < 200; ++k)
          r = (r * 31 + k) % 1000003;
        return r - x * 0 + 1;
      });
    }
    std::vector<int> fresh(n, -round);
    gpu::vector<int> u(fresh);
    if (pool_limit() >= n * sizeof(int) * 5 / 4)
      EXPECT_EQ(u.data(), old) << "the block was not reused; the test shows nothing";
    EXPECT_EQ(gpu::copy(u), fresh) << "round " << round;
  }
}

// gpu::async returns a new gpu::vector per call (the paper's Listing 7); after the first
// calls the pool serves them all, and every result is right.
TEST(MemoryPool, AsyncResultsComeFromThePool) {
  const std::size_t n = 100003;
  std::vector<float> hx(n), hy(n);
  for (std::size_t i = 0; i < n; ++i) {
    hx[i] = static_cast<float>(i % 91);
    hy[i] = static_cast<float>(i % 13) * 0.5f;
  }
  gpu::vector<float> x(hx), y(hy);
  auto saxpy = [](float a, const auto &x, const auto &y) {
    auto ax = view::zip(view::repeat(a), x) | view::transform(pacxx_test::mult);
    return view::zip(ax, y) | view::transform(pacxx_test::plus);
  };
  gpu::async(saxpy, 1.f, x, y).get(); // compiles the kernel
  pacxx::reset_stats();
  const int calls = 20;
  for (int c = 0; c < calls; ++c) {
    const float a = 0.5f * static_cast<float>(c);
    std::vector<float> r = gpu::copy(gpu::async(saxpy, a, x, y).get());
    ASSERT_EQ(r.size(), n);
    for (std::size_t i = 0; i < n; i += 97)
      ASSERT_EQ(r[i], a * hx[i] + hy[i]) << "call " << c << " at " << i;
  }
  pacxx::runtime_stats s = pacxx::stats();
  EXPECT_EQ(s.device_allocations, std::size_t(calls));
  EXPECT_EQ(s.pool_hits, pool_limit() >= n * sizeof(float) * 5 / 4 ? std::size_t(calls) : 0u);
}

} // namespace

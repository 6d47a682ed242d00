// Many distinct staged values for one kernel (issue 34, item 10): every launch is
// right, and at most PACXX_KERNEL_VARIANTS variants of the kernel stay loaded in
// memory; past the bound the least recently used is evicted, and launching it again
// compiles it again (disk cache off) or reloads it from the disk cache (on).
//
// The ctest runs set PACXX_KERNEL_VARIANTS=8 (the OpenCL runs also with the disk cache
// on, in a fresh directory); PACXX_TEST_DISTINCT_VALUES (default: the bound + 16) is
// how many distinct values the first test launches: thousands in the CUDA run with the
// default bound.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

std::size_t env_count(const char *name, std::size_t otherwise) {
  const char *v = std::getenv(name);
  return v && *v ? static_cast<std::size_t>(std::strtoull(v, nullptr, 10)) : otherwise;
}
const std::size_t bound = env_count("PACXX_KERNEL_VARIANTS", 256); // the runtime's default
bool disk_cache_on() {
  const char *v = std::getenv("PACXX_CACHE");
  return !(v && std::strcmp(v, "0") == 0);
}

constexpr std::size_t threads = 64;

// out[t] = sum of t + k for k < m, m = n staged: one variant per distinct n.
void launch_sum(long long *out, long long n) {
  pacxx::kernel(
      [](long long *o, long long n) {
        const long long t = static_cast<long long>(pacxx::Thread::get().global.x);
        const long long m = pacxx::stage(n);
        long long s = 0;
        for (long long k = 0; k < m; ++k)
          s += t + k;
        o[t] = s;
      },
      {{1}, {threads}})(out, n);
}

long long expected(long long n, long long t) { return n * t + n * (n - 1) / 2; }

void expect_row(const std::vector<long long> &h, std::size_t row, long long n) {
  for (std::size_t t = 0; t < threads; ++t)
    ASSERT_EQ(h[row * threads + t], expected(n, static_cast<long long>(t)))
        << "n = " << n << ", thread " << t;
}

// One launch with its own output, checked at once.
void run_checked(long long n) {
  gpu::vector<long long> out(threads);
  launch_sum(out.data(), n);
  std::vector<long long> h = gpu::copy(out);
  expect_row(h, 0, n);
}

// The distinct values of the first test, then the ones the later tests add.
long long value(std::size_t i) { return static_cast<long long>(3 + 7 * i); }

} // namespace

TEST(KernelVariants, ManyStagedValuesAreRightAndAtMostTheBoundStayLoaded) {
  const std::size_t distinct = env_count("PACXX_TEST_DISTINCT_VALUES", bound + 16);
  ASSERT_GT(distinct, bound);
  gpu::vector<long long> out(distinct * threads);
  pacxx::reset_stats();
  const pacxx::runtime_stats s0 = pacxx::stats();
  // Back to back, no wait between them: variants are evicted while kernels of theirs
  // are still queued.
  for (std::size_t i = 0; i < distinct; ++i)
    launch_sum(out.data() + i * threads, value(i));
  std::vector<long long> h = gpu::copy(out);
  for (std::size_t i = 0; i < distinct; ++i)
    expect_row(h, i, value(i));
  const pacxx::runtime_stats s = pacxx::stats();
  EXPECT_EQ(s.kernel_launches, distinct);
  EXPECT_EQ(s.jit_compilations + s.disk_cache_hits, distinct);
  EXPECT_EQ(s.memory_cache_hits, 0u);
  EXPECT_EQ(s.memory_cache_evictions, distinct - bound);
  EXPECT_EQ(s.kernel_variants_loaded, s0.kernel_variants_loaded + bound);
  std::printf("%zu distinct staged values, at most %zu variants loaded: %zu compiled, %zu from "
              "the disk cache, %zu evicted\n",
              distinct, bound, s.jit_compilations, s.disk_cache_hits, s.memory_cache_evictions);
}

// Least recently used goes first; an evicted variant comes back right, from the disk
// cache when it is on, else compiled again.
TEST(KernelVariants, TheLeastRecentlyUsedIsEvictedAndComesBackOnItsNextLaunch) {
  // Fill the kernel's variants with bound values of our own: a, then b, then the rest.
  const long long base = 100000;
  for (std::size_t i = 0; i < bound; ++i)
    run_checked(base + static_cast<long long>(i));
  const long long a = base, b = base + 1;
  pacxx::reset_stats();
  run_checked(a); // used now: b is the least recently used
  pacxx::runtime_stats s = pacxx::stats();
  EXPECT_EQ(s.memory_cache_hits, 1u);
  EXPECT_EQ(s.memory_cache_evictions, 0u);
  run_checked(base - 1); // new: evicts b, not a
  s = pacxx::stats();
  EXPECT_EQ(s.memory_cache_evictions, 1u);
  const std::size_t compiled = s.jit_compilations, from_disk = s.disk_cache_hits;
  run_checked(a);
  s = pacxx::stats();
  EXPECT_EQ(s.memory_cache_hits, 2u) << "a was evicted although b was used longer ago";
  EXPECT_EQ(s.memory_cache_evictions, 1u);
  const std::size_t loads_before = s.jit_compilations + s.disk_cache_hits;
  run_checked(b); // evicted: a miss that loads it again (and evicts another)
  s = pacxx::stats();
  EXPECT_EQ(s.memory_cache_hits, 2u);
  EXPECT_EQ(s.jit_compilations + s.disk_cache_hits, loads_before + 1);
  EXPECT_EQ(s.memory_cache_evictions, 2u);
  if (disk_cache_on()) {
    EXPECT_EQ(s.disk_cache_hits, from_disk + 1);
    EXPECT_EQ(s.jit_compilations, compiled) << "b was compiled again, not read from disk";
  } else {
    EXPECT_EQ(s.jit_compilations, compiled + 1);
  }
}

// Threads launching distinct values of one kernel at once, past the bound: a variant
// evicted by one thread is never unloaded while another launches it.
TEST(KernelVariants, ThreadsLaunchingPastTheBoundAreRight) {
  const std::size_t per_thread = bound / 2 + 2;
  std::vector<std::thread> workers;
  std::vector<int> failures(4, 0);
  for (int w = 0; w < 4; ++w)
    workers.emplace_back([w, per_thread, &failures] {
      gpu::vector<long long> out(threads);
      for (std::size_t i = 0; i < per_thread; ++i) {
        // Each value twice, the second time most likely a memory hit; values shared
        // between threads too.
        const long long n =
            200000 + static_cast<long long>((i + static_cast<std::size_t>(w)) % per_thread);
        for (int twice = 0; twice < 2; ++twice) {
          launch_sum(out.data(), n);
          std::vector<long long> h = gpu::copy(out);
          for (std::size_t t = 0; t < threads; ++t)
            if (h[t] != expected(n, static_cast<long long>(t)))
              failures[static_cast<std::size_t>(w)]++;
        }
      }
    });
  for (std::thread &t : workers)
    t.join();
  for (int w = 0; w < 4; ++w)
    EXPECT_EQ(failures[static_cast<std::size_t>(w)], 0) << "thread " << w;
  EXPECT_LE(pacxx::stats().kernel_variants_loaded, bound + 8) // + the other kernels' few
      << "more variants loaded than the bound allows";
}

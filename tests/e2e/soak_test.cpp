// A soak of mixed calls (issue 34, item 10): transform, reduce, inclusive_scan, sort and
// copy_if at random sizes from 0 to 2^20 (a seeded generator: the same calls every run),
// each result checked against the host's, while
//  - device memory in use returns after every call to what it was after the warm-up
//    (nothing leaks; scratch buffers keep the size the largest call gave them),
//  - the memory pool never keeps more than PACXX_POOL_MB (the ctest runs set 8),
//  - kernel variants in memory stay put (random sizes do not make new ones without end),
//  - the process's resident memory (/proc/self/statm) grows by less than 64 MiB.
// PACXX_TEST_SOAK_CALLS (default 300) sets the number of calls, PACXX_TEST_RSS_GROWTH_MB
// (default 64) the growth allowed; 0 checks none (under ASan, whose quarantine keeps
// freed memory resident and whose LeakSanitizer checks for leaks instead).
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <vector>

#include "test_support.hpp"

namespace view = ranges::views;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

namespace {

constexpr std::size_t max_size = std::size_t(1) << 20;

std::size_t env_count(const char *name, std::size_t otherwise) {
  const char *v = std::getenv(name);
  return v && *v ? static_cast<std::size_t>(std::strtoull(v, nullptr, 10)) : otherwise;
}

// Resident set size of this process in bytes.
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

struct odd_value {
  bool operator()(u32 x) const { return (x & 1) != 0; }
};

// One call of kind `op` on n random values; false (and a test failure) if it is wrong.
bool call(int op, std::size_t n, pacxx_test::rng &r) {
  std::vector<u32> h(n);
  for (u32 &x : h)
    x = static_cast<u32>(r.next() >> 32);
  gpu::vector<u32> d = gpu::copy(h);
  switch (op) {
  case 0: { // transform
    gpu::vector<u32> out(n);
    gpu::transform(d, out, [](u32 x) { return 3 * x + 1; });
    std::vector<u32> got = gpu::copy(out);
    for (std::size_t i = 0; i < n; ++i)
      if (got[i] != 3 * h[i] + 1) {
        ADD_FAILURE() << "transform, n = " << n << ", at " << i;
        return false;
      }
    return true;
  }
  case 1: { // reduce, in 64 bits: exact
    u64 expect = std::accumulate(h.begin(), h.end(), u64(0));
    u64 got = gpu::reduce(d | view::transform([](u32 x) { return u64(x); }), u64(0));
    EXPECT_EQ(got, expect) << "reduce, n = " << n;
    return got == expect;
  }
  case 2: { // inclusive_scan (wrapping u32 sums: exact)
    gpu::vector<u32> out(n);
    gpu::inclusive_scan(d, out);
    std::vector<u32> expect(n);
    std::partial_sum(h.begin(), h.end(), expect.begin());
    bool same = gpu::copy(out) == expect;
    EXPECT_TRUE(same) << "inclusive_scan, n = " << n;
    return same;
  }
  case 3: { // sort
    gpu::sort(d);
    std::sort(h.begin(), h.end());
    bool same = gpu::copy(d) == h;
    EXPECT_TRUE(same) << "sort, n = " << n;
    return same;
  }
  default: { // copy_if
    gpu::vector<u32> out(n);
    std::size_t c = gpu::copy_if(d, out, odd_value{});
    std::vector<u32> expect;
    std::copy_if(h.begin(), h.end(), std::back_inserter(expect), odd_value{});
    std::vector<u32> got = gpu::copy(out);
    got.resize(c);
    bool same = got == expect;
    EXPECT_TRUE(same) << "copy_if, n = " << n;
    return same;
  }
  }
}

const char *op_name(int op) {
  static const char *names[] = {"transform", "reduce", "inclusive_scan", "sort", "copy_if"};
  return names[op];
}

} // namespace

TEST(Soak, MixedCallsAtRandomSizesStayRightAndBounded) {
  const std::size_t calls = env_count("PACXX_TEST_SOAK_CALLS", 300);
  const std::size_t pool_bound = env_count("PACXX_POOL_MB", 0) << 20; // 0: not set here
  pacxx_test::rng r(2026);
  // Warm-up: every kind at the largest size and at 0 (kernels compiled, scratch grown).
  for (int op = 0; op < 5; ++op) {
    ASSERT_TRUE(call(op, max_size, r));
    ASSERT_TRUE(call(op, 0, r));
  }
  const pacxx::runtime_stats warm = pacxx::stats();
  const std::size_t rss0 = resident_bytes();
  std::size_t ops[5] = {}, most_cached = 0;
  for (std::size_t k = 0; k < calls; ++k) {
    const int op = static_cast<int>(r.next() % 5);
    // Sizes spread over every magnitude: 2^e plus a random part, e in [0, 20].
    const unsigned e = static_cast<unsigned>(r.next() % 21);
    const std::size_t n =
        std::min(max_size, (std::size_t(1) << e) - 1 + r.next() % ((std::size_t(1) << e) + 1));
    ops[op]++;
    ASSERT_TRUE(call(op, n, r)) << "call " << k << ": " << op_name(op) << " of " << n;
    const pacxx::runtime_stats s = pacxx::stats();
    ASSERT_EQ(s.device_bytes_in_use, warm.device_bytes_in_use)
        << "device memory in use changed by call " << k << ": " << op_name(op) << " of " << n;
    if (pool_bound)
      ASSERT_LE(s.pool_cached_bytes, pool_bound) << "after call " << k;
    most_cached = std::max(most_cached, s.pool_cached_bytes);
  }
  const pacxx::runtime_stats s = pacxx::stats();
  const std::size_t rss1 = resident_bytes();
  EXPECT_LE(s.kernel_variants_loaded, warm.kernel_variants_loaded + 8)
      << "kernel variants grew with the sizes";
  const std::size_t rss_growth = env_count("PACXX_TEST_RSS_GROWTH_MB", 64) << 20;
  if (rss_growth)
    EXPECT_LT(rss1, rss0 + rss_growth) << "resident memory grew";
  std::printf("%zu calls (transform %zu, reduce %zu, scan %zu, sort %zu, copy_if %zu); "
              "resident memory %zu -> %zu KiB; kernel variants %zu -> %zu; device memory in use "
              "%zu KiB; pool at most %zu KiB (bound %zu KiB); %zu of %zu allocations from the "
              "pool\n",
              calls, ops[0], ops[1], ops[2], ops[3], ops[4], rss0 >> 10, rss1 >> 10,
              warm.kernel_variants_loaded, s.kernel_variants_loaded, s.device_bytes_in_use >> 10,
              most_cached >> 10, pool_bound >> 10, s.pool_hits, s.device_allocations);
}

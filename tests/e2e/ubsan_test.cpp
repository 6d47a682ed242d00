// A program built with -fsanitize=undefined runs its kernels: the sanitizer's checks
// are stripped from device code (its runtime and static data exist only on the host;
// see stripSanitizerChecks in compiler/passes/KernelExtraction.cpp) and stay in host
// code. The kernels use what UBSan instruments: signed arithmetic, shifts, division,
// array indexing, pointer arithmetic and alignment, float-to-int conversion, a
// missing-return check, and a gpu::reduce.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <vector>

namespace {

struct table {
  int values[8];
};

int pick(int i) { // -fsanitize=return checks functions with a value to return
  if (i >= 0)
    return i % 8;
  __builtin_unreachable();
}

TEST(UBSan, InstrumentedKernelsRun) {
  const std::size_t n = 1000;
  std::vector<int> host(n);
  for (std::size_t i = 0; i < n; ++i)
    host[i] = static_cast<int>(i) - 500;
  gpu::vector<int> in = gpu::copy(host), out(n);
  const table t{{1, 2, 3, 4, 5, 6, 7, 8}};
  pacxx::kernel(
      [t](const int *in, int *out, std::size_t n) {
        std::size_t i = pacxx::Thread::get().global.x;
        if (i >= n)
          return;
        int x = in[i];
        int divisor = (x % 7) + 10; // never 0
        float f = static_cast<float>(x) * 0.5f;
        int shifted = (x & 0xff) << (i % 16); // in range
        out[i] = x * 3 + x / divisor + static_cast<int>(f) + shifted +
                 t.values[pick(static_cast<int>(i))] + *(in + (n - 1 - i));
      },
      {{(n + 127) / 128}, {128}})(in.data(), out.data(), n);
  std::vector<int> r = gpu::copy(out);
  for (std::size_t i = 0; i < n; ++i) {
    int x = host[i];
    int expected = x * 3 + x / ((x % 7) + 10) + static_cast<int>(static_cast<float>(x) * 0.5f) +
                   ((x & 0xff) << (i % 16)) + t.values[i % 8] + host[n - 1 - i];
    ASSERT_EQ(r[i], expected) << i;
  }
  long long sum = 0;
  for (int v : host)
    sum += v;
  std::vector<long long> wide(host.begin(), host.end());
  EXPECT_EQ(gpu::reduce(gpu::copy(wide), 0LL), sum);
}

// The host keeps its checks: UBSan still reports (and, recovering, goes on) there.
TEST(UBSan, HostCodeIsStillChecked) {
  volatile int big = INT_MAX;
  testing::internal::CaptureStderr();
  volatile int wrapped = big + 1;
  (void)wrapped;
  std::string report = testing::internal::GetCapturedStderr();
  EXPECT_NE(report.find("signed integer overflow"), std::string::npos) << report;
}

} // namespace

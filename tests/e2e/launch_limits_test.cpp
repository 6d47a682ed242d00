// Launches beyond the device's limits (dynamic shared memory, block, grid) are a
// pacxx::error naming the kernel, the request and the limit, raised before the driver
// sees them (PoCL would assert and end the process), and the runtime keeps working.
// Up to the limit works: on CUDA that needs the opt-in above 48 KiB.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

namespace {

constexpr std::size_t threads = 64;

// Each thread fills its share of the dynamic shared memory, then sums another
// thread's share; out[t] is that sum (shared_floats of memory in use).
void use_shared(float *out, std::size_t shared_bytes) {
  pacxx::kernel(
      [](float *o, std::size_t n) {
        float *s = pacxx::dynamic_shared_memory<float>();
        std::size_t t = pacxx::Thread::get().local.x;
        for (std::size_t i = t; i < n; i += threads)
          s[i] = 1.0f;
        pacxx::barrier();
        float sum = 0;
        for (std::size_t i = (t + 1) % threads; i < n; i += threads)
          sum += s[i];
        o[t] = sum;
      },
      {{1}, {threads}, shared_bytes})(out, shared_bytes / sizeof(float));
}

void expect_shared_works(std::size_t bytes) {
  gpu::vector<float> out(threads);
  use_shared(out.data(), bytes);
  std::vector<float> r = gpu::copy(out);
  const std::size_t n = bytes / sizeof(float);
  for (std::size_t t = 0; t < threads; ++t) {
    std::size_t first = (t + 1) % threads,
                expected = first < n ? (n - first + threads - 1) / threads : 0;
    ASSERT_EQ(r[t], float(expected)) << "thread " << t << ", " << bytes << " bytes";
  }
}

void fill(float *out, std::size_t n, pacxx::launch_config cfg) {
  pacxx::kernel(
      [](float *o, std::size_t n) {
        auto i = pacxx::Thread::get().global.x;
        if (i < n)
          o[i] = static_cast<float>(i);
      },
      cfg)(out, n);
}

void expect_fill_works() {
  gpu::vector<float> v(256);
  fill(v.data(), v.size(), {{2}, {128}});
  std::vector<float> r = gpu::copy(v);
  for (std::size_t i = 0; i < r.size(); ++i)
    ASSERT_EQ(r[i], float(i));
}

std::string device() {
  const char *d = std::getenv("PACXX_DEVICE");
  std::string s = d ? d : "";
  return s.find(':') == std::string::npos ? s + ":0" : s;
}

// The message of the pacxx::error that f throws ("" and a failure if none).
template <class F> std::string error_of(F f) {
  try {
    f();
    pacxx::synchronize();
  } catch (const pacxx::error &e) {
    return e.what();
  }
  ADD_FAILURE() << "no pacxx::error";
  return "";
}

TEST(LaunchLimits, TooMuchDynamicSharedMemory) {
  gpu::vector<float> out(threads);
  std::string what = error_of([&] { use_shared(out.data(), 8u << 20); });
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      what, m,
      std::regex("pacxx: kernel '\\(lambda at [^)]*launch_limits_test.cpp:[0-9]+:[0-9]+\\)' asks "
                 "for 8388608 bytes of dynamic shared memory; " +
                 device() + " allows at most ([0-9]+) per block")))
      << what;
  const std::size_t limit = std::stoull(m[1]);
  EXPECT_LT(limit, 8u << 20);
  // One byte more than the limit is refused, the limit itself works, and so does an
  // ordinary launch afterwards.
  std::string over = error_of([&] { use_shared(out.data(), limit + 1); });
  EXPECT_NE(over.find("asks for " + std::to_string(limit + 1) + " bytes"), std::string::npos)
      << over;
  expect_shared_works(limit / sizeof(float) * sizeof(float));
  expect_fill_works();
}

// 64 KiB is above CUDA's default of 48 KiB per block: the runtime must opt in.
TEST(LaunchLimits, SixtyFourKiBOfDynamicSharedMemory) {
  expect_shared_works(64 * 1024);
  expect_shared_works(1024); // and a smaller request after the opt-in
}

TEST(LaunchLimits, BlockOverTheLimit) {
  gpu::vector<float> v(16);
  std::string what = error_of([&] { fill(v.data(), v.size(), {{1}, {1 << 16}}); });
  EXPECT_TRUE(std::regex_search(
      what, std::regex("pacxx: kernel '\\(lambda at [^)]*launch_limits_test.cpp:[0-9]+:[0-9]+\\)' "
                       "launched with block \\(65536,1,1\\); " +
                       device() +
                       " allows at most [0-9]+ threads per block for this kernel and "
                       "\\([0-9]+,[0-9]+,[0-9]+\\) per dimension")))
      << what;
  expect_fill_works();
}

// pacxx::launch_bounds(64, 2): on CUDA the kernel is built for blocks of at most 64
// threads (the driver reports 64 for it), so 64 work and 128 are refused before the
// driver sees them; on OpenCL it changes nothing.
void bounded_fill(float *out, std::size_t n, pacxx::launch_config cfg) {
  pacxx::kernel(
      [](float *o, std::size_t n) {
        pacxx::launch_bounds(64, 2);
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          o[i] = float(i);
      },
      cfg)(out, n);
}
TEST(LaunchLimits, LaunchBounds) {
  gpu::vector<float> v(256);
  bounded_fill(v.data(), v.size(), {{4}, {64}});
  std::vector<float> r = gpu::copy(v);
  for (std::size_t i = 0; i < r.size(); ++i)
    ASSERT_EQ(r[i], float(i));
  if (device().compare(0, 4, "cuda") != 0)
    return;
  std::string what = error_of([&] { bounded_fill(v.data(), v.size(), {{2}, {128}}); });
  EXPECT_TRUE(std::regex_search(what, std::regex("launched with block \\(128,1,1\\); " + device() +
                                                 " allows at most 64 threads per block for "
                                                 "this kernel")))
      << what;
  expect_fill_works();
}

TEST(LaunchLimits, GridOverTheLimit) {
  gpu::vector<float> v(16);
  // Beyond every device: CUDA allows 2^31 - 1 blocks in x, and with 128 threads per block
  // the threads in x no longer fit in size_t (OpenCL's global size).
  const std::size_t blocks = SIZE_MAX / 64;
  std::string what = error_of([&] { fill(v.data(), v.size(), {{blocks}, {128}}); });
  EXPECT_TRUE(std::regex_search(
      what, std::regex("pacxx: kernel '\\(lambda at [^)]*launch_limits_test.cpp:[0-9]+:[0-9]+\\)' "
                       "launched with grid \\(" +
                       std::to_string(blocks) + ",1,1\\)")))
      << what;
  EXPECT_NE(what.find(device()), std::string::npos) << what;
  expect_fill_works();
}

} // namespace

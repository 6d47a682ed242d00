// Device and launch failures reach the user as pacxx::error naming the kernel, and
// leave the runtime usable.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

void fill(float *out, std::size_t n, pacxx::launch_config cfg) {
  pacxx::kernel(
      [](float *o, std::size_t n) {
        auto i = pacxx::Thread::get().global.x;
        if (i < n)
          o[i] = static_cast<float>(i);
      },
      cfg)(out, n);
}

TEST(Errors, OversizedBlockIsAnErrorNamingTheKernel) {
  gpu::vector<float> v(16);
  try {
    fill(v.data(), v.size(), {{1}, {1 << 16}});
    pacxx::synchronize();
    FAIL() << "a block of 65536 threads must be refused";
  } catch (const pacxx::error &e) {
    std::string what = e.what();
    EXPECT_NE(what.find("lambda at"), std::string::npos) << what;
    EXPECT_NE(what.find("errors_test.cpp"), std::string::npos) << what;
  }
  // The runtime stays usable after the failure.
  fill(v.data(), v.size(), {{1}, {16}});
  std::vector<float> r = gpu::copy(v);
  for (std::size_t i = 0; i < r.size(); ++i)
    ASSERT_EQ(r[i], float(i));
}

TEST(Errors, EmptyBlockIsAnError) {
  gpu::vector<float> v(4);
  EXPECT_THROW(fill(v.data(), v.size(), {{1}, {0}}), pacxx::error);
}

TEST(Errors, ImpossibleAllocationIsAnError) {
  EXPECT_THROW(gpu::vector<float> huge(std::size_t(1) << 50), pacxx::error);
  gpu::vector<float> fine(8); // and allocation still works afterwards
  EXPECT_EQ(fine.size(), 8u);
}

TEST(Errors, ErrorIsARuntimeError) {
  gpu::vector<float> v(4);
  try {
    fill(v.data(), v.size(), {{1}, {0}});
  } catch (const std::runtime_error &e) {
    SUCCEED() << e.what();
    return;
  }
  FAIL() << "expected a std::runtime_error";
}

} // namespace

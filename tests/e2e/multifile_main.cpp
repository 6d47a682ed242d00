// End-to-end: kernels across translation units (with multifile_helper.cpp and
// multifile.hpp). A kernel here calls helper_scale/helper_lookup, whose bodies exist
// only in the other unit; kernels defined in the header are instantiated with the same
// types in both units and launched from each, giving correct results, and the shared
// instantiation is JIT-compiled once for both units.
#include "multifile.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using pacxx_test::random_vector;
using pacxx_test::rng;

const std::size_t sizes[] = {1, 1009, 65539};

TEST(MultiFile, KernelCallsFunctionDefinedInOtherUnit) {
  for (std::size_t n : sizes) {
    SCOPED_TRACE(testing::Message() << "n = " << n);
    std::vector<float> x = random_vector<float>(n, n, -100.0, 100.0);
    std::vector<int> idx(n);
    rng r(n + 1);
    for (auto &v : idx)
      v = static_cast<int>(r.next() % 20001) - 10000;
    gpu::vector<float> dx = gpu::copy(x), dy(n);
    gpu::vector<int> di = gpu::copy(idx), dl(n);
    auto k = pacxx::kernel(
        [](const float *x, float *y, const int *idx, int *looked_up, std::size_t n) {
          const std::size_t i = pacxx::Thread::get().global.x;
          if (i < n) {
            y[i] = helper_scale(x[i]) * helper_scale(1.0f); // defined in the other unit
            looked_up[i] = helper_lookup(idx[i]);           // which calls its statics
          }
        },
        {{(n + 127) / 128}, {128}});
    k(dx.data(), dy.data(), di.data(), dl.data(), n);
    std::vector<float> ry = gpu::copy(dy);
    std::vector<int> rl = gpu::copy(dl);
    for (std::size_t i = 0; i < n; ++i) {
      const float e = helper_scale(x[i]) * helper_scale(1.0f); // the host runs the same code
      ASSERT_NEAR(ry[i], e, 1e-5f * (1 + std::fabs(e))) << i;
      ASSERT_EQ(rl[i], helper_lookup(idx[i])) << i;
    }
  }
}

TEST(MultiFile, OtherUnitsOwnKernelCallsItsFunction) {
  const std::size_t n = 1009;
  std::vector<float> x = random_vector<float>(n, 5, -10.0, 10.0);
  gpu::vector<float> dx = gpu::copy(x), dy(n);
  helper_unit_apply_scale(dx.data(), dy.data(), n);
  std::vector<float> r = gpu::copy(dy);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_NEAR(r[i], helper_scale(x[i]) + 1.0f, 1e-5f * (1 + std::fabs(r[i]))) << i;
}

// Each kernel below is launched in this test only; under --gtest_repeat it is compiled
// already on later rounds.
bool first_round = true;

TEST(MultiFile, HeaderKernelFromBothUnitsCompiledOnce) {
  const std::size_t n = 1009;
  std::vector<float> x = random_vector<float>(n, 11, -10.0, 10.0);
  std::vector<float> y = random_vector<float>(n, 12, -10.0, 10.0);
  gpu::vector<float> dx = gpu::copy(x), dy = gpu::copy(y);
  const std::size_t expected_new = first_round ? 1 : 0;

  // scale_add<float>: this unit first, then the helper unit.
  const pacxx::runtime_stats s0 = pacxx::stats();
  multifile::launch_scale_add<float>(2.0f, dx.data(), dy.data(), n); // unit A
  pacxx::synchronize();
  const pacxx::runtime_stats s1 = pacxx::stats();
  helper_unit_scale_add(-0.5f, dx.data(), dy.data(), n); // unit B
  pacxx::synchronize();
  const pacxx::runtime_stats s2 = pacxx::stats();
  EXPECT_EQ(s1.jit_compilations - s0.jit_compilations, expected_new);
  EXPECT_EQ(s2.jit_compilations - s1.jit_compilations, 0u)
      << "the helper unit's instantiation of the same kernel was compiled again";
  EXPECT_EQ(s2.kernel_launches - s0.kernel_launches, 2u);
  std::vector<float> ry = gpu::copy(dy);
  for (std::size_t i = 0; i < n; ++i) {
    const float e = -0.5f * x[i] + (2.0f * x[i] + y[i]);
    ASSERT_NEAR(ry[i], e, 1e-5f * (1 + std::fabs(e))) << i;
  }

  // launch_square_minus<double> (a lambda in a header function template): helper unit
  // first, then this unit.
  std::vector<double> p = random_vector<double>(n, 13, -3.0, 3.0);
  gpu::vector<double> dp = gpu::copy(p);
  const pacxx::runtime_stats s3 = pacxx::stats();
  helper_unit_square_minus(dp.data(), n); // unit B
  pacxx::synchronize();
  const pacxx::runtime_stats s4 = pacxx::stats();
  multifile::launch_square_minus<double>(dp.data(), n); // unit A
  pacxx::synchronize();
  const pacxx::runtime_stats s5 = pacxx::stats();
  EXPECT_EQ(s4.jit_compilations - s3.jit_compilations, expected_new);
  EXPECT_EQ(s5.jit_compilations - s4.jit_compilations, 0u)
      << "this unit's instantiation of the same kernel was compiled again";
  std::vector<double> rp = gpu::copy(dp);
  for (std::size_t i = 0; i < n; ++i) {
    const double once = p[i] * p[i] - 1.0;
    const double e = once * once - 1.0;
    ASSERT_NEAR(rp[i], e, 1e-12 * (1 + std::fabs(e))) << i;
  }

  // scale_add<int>, alternating units several times: still one compilation.
  std::vector<int> xi(n), yi(n);
  for (std::size_t i = 0; i < n; ++i) {
    xi[i] = static_cast<int>(i % 101) - 50;
    yi[i] = static_cast<int>(i * 37 % 1009);
  }
  gpu::vector<int> dxi = gpu::copy(xi), dyi = gpu::copy(yi);
  const pacxx::runtime_stats s6 = pacxx::stats();
  helper_unit_scale_add_int(3, dxi.data(), dyi.data(), n);
  multifile::launch_scale_add<int>(-2, dxi.data(), dyi.data(), n);
  helper_unit_scale_add_int(5, dxi.data(), dyi.data(), n);
  multifile::launch_scale_add<int>(7, dxi.data(), dyi.data(), n);
  pacxx::synchronize();
  const pacxx::runtime_stats s7 = pacxx::stats();
  EXPECT_EQ(s7.jit_compilations - s6.jit_compilations, expected_new);
  EXPECT_EQ(s7.kernel_launches - s6.kernel_launches, 4u);
  std::vector<int> ryi = gpu::copy(dyi);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(ryi[i], yi[i] + (3 - 2 + 5 + 7) * xi[i]) << i;
  first_round = false;
}

} // namespace

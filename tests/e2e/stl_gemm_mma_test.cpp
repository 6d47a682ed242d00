// gpu::gemm and gpu::gemm_batched with gpu::math::tf32 and gpu::math::bf16 (issue 36):
// A's and B's elements rounded to TF32 / BF16 (nearest, ties to even), products exact,
// sums in FP32. On OpenCL (PoCL in CI) this is the SIMT kernel on rounded inputs; on a
// CUDA device of sm_80 or newer (the `gpu`-labelled run of this program) it is warp
// mma.sync on tensor cores. Both are checked against one host reference that rounds
// the inputs with the same functions (pacxx::round_tf32 / round_bf16) and sums the
// exact products in double. What remains is the FP32 summation: a result may differ by
// at most 2 (k + 2) 2^-24 (|alpha| sum |a b| + |beta c|) (twice the classical bound
// k u sum |a b|: the tensor cores' internal sum order and rounding are not IEEE's
// sequential ones). That bound is far below the rounding of the inputs themselves
// (2^-12 relative for TF32, 2^-9 for BF16), so an unrounded or wrongly rounded input
// fails it; exact cases check the rounding directly (ties to even).
#include "test_support.hpp"

#include <pacxx/algorithm/gemm.hpp>
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace {

using pacxx_test::random_vector;

template <bool Tr, class V> auto matrix(V &v, std::size_t rows, std::size_t cols) {
  if constexpr (Tr)
    return gpu::transposed(gpu::md(v, rows, cols));
  else
    return gpu::md(v, cols, rows);
}
float at(const std::vector<float> &h, bool tr, std::size_t rows, std::size_t cols, std::size_t i,
         std::size_t j) {
  return tr ? h[j * rows + i] : h[i * cols + j];
}

struct shape {
  std::size_t m, n, k;
};

float rounded(gpu::math::tf32_t, float x) { return pacxx::round_tf32(x); }
float rounded(gpu::math::bf16_t, float x) { return pacxx::round_bf16(x); }

// got (m x n, row-major) against alpha * round(A) * round(B) + beta * C0 in double.
template <class Math>
void expect_close(Math math, const std::vector<float> &got, const std::vector<float> &a, bool ta,
                  const std::vector<float> &b, bool tb, const std::vector<float> &c0, shape s,
                  double alpha, double beta) {
  const double u = std::ldexp(1.0, -24);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < s.m; ++i)
    for (std::size_t j = 0; j < s.n; ++j) {
      double sum = 0, mag = 0;
      for (std::size_t p = 0; p < s.k; ++p) {
        const double x = double(rounded(math, at(a, ta, s.m, s.k, i, p))) *
                         double(rounded(math, at(b, tb, s.k, s.n, p, j)));
        sum += x;
        mag += std::fabs(x);
      }
      double ref = alpha * sum, bound = std::fabs(alpha) * mag;
      if (beta != 0) {
        ref += beta * double(c0[i * s.n + j]);
        bound += std::fabs(beta * double(c0[i * s.n + j]));
      }
      bound = 2 * u * double(s.k + 2) * bound + std::numeric_limits<float>::min();
      const double g = double(got[i * s.n + j]);
      if (!(std::fabs(g - ref) <= bound) && ++wrong <= 5)
        ADD_FAILURE() << "C(" << i << ", " << j << ") = " << g << ", expected " << ref << " within "
                      << bound;
    }
  EXPECT_EQ(wrong, 0u);
}

template <class Math, bool TA, bool TB>
void check_gemm(shape s, double alpha, double beta, std::uint64_t seed, bool nan_c = false) {
  SCOPED_TRACE(
      testing::Message() << (std::is_same<Math, gpu::math::tf32_t>::value ? "tf32 " : "bf16 ")
                         << s.m << " x " << s.n << " x " << s.k << (TA ? " A^T" : "")
                         << (TB ? " B^T" : "") << " alpha " << alpha << " beta " << beta);
  const std::vector<float> ha = random_vector<float>(s.m * s.k, seed, -1, 1);
  const std::vector<float> hb = random_vector<float>(s.k * s.n, seed + 1, -1, 1);
  std::vector<float> hc = random_vector<float>(s.m * s.n, seed + 2, -1, 1);
  if (nan_c)
    for (auto &x : hc)
      x = std::numeric_limits<float>::quiet_NaN();
  gpu::vector<float> a = gpu::copy(ha), b = gpu::copy(hb), c = gpu::copy(hc);
  gpu::gemm(matrix<TA>(a, s.m, s.k), matrix<TB>(b, s.k, s.n), gpu::md(c, s.n, s.m), float(alpha),
            float(beta), Math());
  expect_close(Math(), gpu::copy(c), ha, TA, hb, TB, hc, s, alpha, beta);
}

// Below, at and above the tiles (64 x 64 small, 128 x 128 large; k in steps of 16 on
// tensor cores, 8 otherwise), primes; 1500 x 1420 takes the large policy.
// (The large policy costs a kernel of its own per layout: AlphaBeta runs it once.)
const shape shapes[] = {{1, 1, 1},     {1, 37, 300},    {37, 1, 5}, {37, 41, 43},
                        {65, 129, 17}, {128, 128, 128}, {3, 5, 7}};

template <class Math, bool TA, bool TB> void all_shapes(std::uint64_t seed) {
  for (const shape &s : shapes)
    check_gemm<Math, TA, TB>(s, 1.0, 0.0, seed++);
}

TEST(RoundTf32, NearestTiesToEven) {
  const float one = 1.f, ulp = std::ldexp(1.f, -10); // TF32's ulp at 1
  EXPECT_EQ(pacxx::round_tf32(one + ulp / 4), one);
  EXPECT_EQ(pacxx::round_tf32(one + ulp / 2), one);               // tie, even stays
  EXPECT_EQ(pacxx::round_tf32(one + 3 * ulp / 2), one + 2 * ulp); // tie, odd goes up
  EXPECT_EQ(pacxx::round_tf32(one + ulp / 2 + std::ldexp(1.f, -23)), one + ulp);
  EXPECT_EQ(pacxx::round_tf32(-(one + 3 * ulp / 4)), -(one + ulp));
  EXPECT_EQ(pacxx::round_tf32(std::numeric_limits<float>::max()),
            std::numeric_limits<float>::infinity());
  EXPECT_EQ(pacxx::round_tf32(-std::numeric_limits<float>::infinity()),
            -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(pacxx::round_tf32(std::numeric_limits<float>::quiet_NaN())));
  const float tiny_nan = pacxx::detail::float_of_word(0x7f800001u); // payload in dropped bits
  EXPECT_TRUE(std::isnan(pacxx::round_tf32(tiny_nan)));
  EXPECT_EQ(pacxx::round_tf32(0.f), 0.f);
  EXPECT_EQ(pacxx::round_tf32(0.1f), 0.0999755859375f); // 0x3dcccccd -> 0x3dccc000
}

TEST(RoundBf16, NearestTiesToEven) {
  const float one = 1.f, ulp = std::ldexp(1.f, -7); // BF16's ulp at 1
  EXPECT_EQ(pacxx::round_bf16(one + ulp / 2), one);
  EXPECT_EQ(pacxx::round_bf16(one + 3 * ulp / 2), one + 2 * ulp);
  EXPECT_EQ(pacxx::round_bf16(one + 3 * ulp / 4), one + ulp);
  EXPECT_EQ(pacxx::round_bf16(std::numeric_limits<float>::max()),
            std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(pacxx::round_bf16(pacxx::detail::float_of_word(0x7f800001u))));
  EXPECT_EQ(pacxx::round_bf16(0.1f), 0.10009765625f); // 0x3dcccccd -> 0x3dcd0000
}

// The rounding is applied: 1 x 1 x 2 products whose exact FP32 value differs.
TEST(GemmTf32, RoundsInputsToNearestEven) {
  const float ulp = std::ldexp(1.f, -10);
  // a = (1 + ulp/2, 1 + 3ulp/2), b = (1, -1): in TF32 a is (1, 1 + 2 ulp) (ties to
  // even), so A B = -2 ulp; exact FP32 gives -ulp, BF16 0 (both round to 1).
  gpu::vector<float> a = gpu::copy(std::vector<float>{1 + ulp / 2, 1 + 3 * ulp / 2}),
                     b = gpu::copy(std::vector<float>{1, -1}), c(1), d(1);
  gpu::gemm(gpu::md(a, 2, 1), gpu::md(b, 1, 2), gpu::md(c, 1, 1), 1.f, 0.f, gpu::math::tf32);
  gpu::gemm(gpu::md(a, 2, 1), gpu::md(b, 1, 2), gpu::md(d, 1, 1), 1.f, 0.f); // exact FP32
  EXPECT_EQ(gpu::copy(c)[0], -2 * ulp);
  EXPECT_EQ(gpu::copy(d)[0], -ulp);
  gpu::vector<float> e(1);
  gpu::gemm(gpu::md(a, 2, 1), gpu::md(b, 1, 2), gpu::md(e, 1, 1), 1.f, 0.f, gpu::math::bf16);
  EXPECT_EQ(gpu::copy(e)[0], 0.f);
  gpu::vector<float> f = gpu::copy(std::vector<float>{1 + ulp / 4}), g(1),
                     one = gpu::copy(std::vector<float>{1});
  gpu::gemm(gpu::md(f, 1, 1), gpu::md(one, 1, 1), gpu::md(g, 1, 1), 1.f, 0.f, gpu::math::tf32);
  EXPECT_EQ(gpu::copy(g)[0], 1.f);
}

TEST(GemmTf32, Shapes) { all_shapes<gpu::math::tf32_t, false, false>(1); }
TEST(GemmTf32, TransposedAOrB) {
  check_gemm<gpu::math::tf32_t, true, false>({37, 41, 43}, 1.0, 0.0, 101);
  check_gemm<gpu::math::tf32_t, false, true>({65, 129, 17}, 1.0, 0.0, 201);
}
TEST(GemmTf32, ShapesTransposedAB) { all_shapes<gpu::math::tf32_t, true, true>(301); }
TEST(GemmBf16, Shapes) { all_shapes<gpu::math::bf16_t, false, false>(401); }
TEST(GemmBf16, ShapesTransposedAB) { all_shapes<gpu::math::bf16_t, true, true>(501); }

TEST(GemmTf32, AlphaBeta) {
  check_gemm<gpu::math::tf32_t, false, false>({37, 41, 43}, 2.0, 1.0, 11);
  check_gemm<gpu::math::bf16_t, true, true>({37, 41, 43}, -0.5, 3.0, 12);
  check_gemm<gpu::math::tf32_t, false, false>({1500, 1420, 33}, 2.0, -1.0, 15); // large tiles
}

TEST(GemmTf32, BetaZeroDoesNotReadC) {
  check_gemm<gpu::math::tf32_t, false, false>({37, 41, 43}, 1.0, 0.0, 21, true);
  check_gemm<gpu::math::bf16_t, false, false>({65, 129, 17}, -2.0, 0.0, 22, true);
}

TEST(GemmTf32, ShapeMismatchIsAnErrorAndCIsUnchanged) {
  const std::vector<float> hc(6 * 4, 7.f);
  gpu::vector<float> a(6 * 5), b(3 * 4), c = gpu::copy(hc);
  EXPECT_THROW(
      gpu::gemm(gpu::md(a, 5, 6), gpu::md(b, 4, 3), gpu::md(c, 4, 6), 1.f, 0.f, gpu::math::tf32),
      pacxx::error);
  EXPECT_EQ(gpu::copy(c), hc);
}

TEST(GemmBatchedTf32, PlanesAreIndependentProducts) {
  // 64 x 64 x 64 planes: the shape of the batched benchmark.
  const std::size_t m = 64, n = 64, k = 64, batch = 3;
  const std::vector<float> ha = random_vector<float>(batch * m * k, 61, -1, 1);
  const std::vector<float> hb = random_vector<float>(batch * k * n, 62, -1, 1);
  const std::vector<float> hc = random_vector<float>(batch * m * n, 63, -1, 1);
  gpu::vector<float> a = gpu::copy(ha), b = gpu::copy(hb), c = gpu::copy(hc);
  gpu::gemm_batched(gpu::md(a, k, m, batch), gpu::md(b, n, k, batch), gpu::md(c, n, m, batch), 1.5f,
                    0.5f, gpu::math::tf32);
  const std::vector<float> got = gpu::copy(c);
  for (std::size_t z = 0; z < batch; ++z) {
    SCOPED_TRACE(testing::Message() << "plane " << z);
    auto plane = [&](const std::vector<float> &v, std::size_t size) {
      return std::vector<float>(v.begin() + z * size, v.begin() + (z + 1) * size);
    };
    expect_close(gpu::math::tf32, plane(got, m * n), plane(ha, m * k), false, plane(hb, k * n),
                 false, plane(hc, m * n), {m, n, k}, 1.5, 0.5);
  }
}

} // namespace

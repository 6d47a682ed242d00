// gpu::gemm, gpu::gemm_batched and gpu::gemv (issue 36) against a host reference that
// accumulates in double: odd shapes (1 x 1 x 1, single rows and columns, primes, sizes
// that are not multiples of the tiles, shapes that take the large tile policy), all
// four combinations of transposed operands (read in place through gpu::transposed),
// alpha and beta cases including beta == 0 over NaN in C and alpha == 0 over NaN in A,
// float and double. A result may differ from the reference by rounding only: the bound
// grows with k and with the magnitudes summed (|alpha| sum |a||b| + |beta c|).
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

// The rows x cols matrix stored in v: row-major (gpu::md(v, cols, rows)), or, with Tr,
// as the transposed view of its row-major transpose (v holds cols x rows).
template <bool Tr, class V> auto matrix(V &v, std::size_t rows, std::size_t cols) {
  if constexpr (Tr)
    return gpu::transposed(gpu::md(v, rows, cols));
  else
    return gpu::md(v, cols, rows);
}
// Element (i, j) of the same matrix in the host copy h.
template <class T>
T at(const std::vector<T> &h, bool tr, std::size_t rows, std::size_t cols, std::size_t i,
     std::size_t j) {
  return tr ? h[j * rows + i] : h[i * cols + j];
}

struct shape {
  std::size_t m, n, k;
};

// Compares got (m x n, row-major) with alpha * A * B + beta * C0 in double; the reference
// reads C0 only where beta != 0.
template <class T>
void expect_close(const std::vector<T> &got, const std::vector<T> &a, bool ta,
                  const std::vector<T> &b, bool tb, const std::vector<T> &c0, shape s, double alpha,
                  double beta) {
  const double eps = std::numeric_limits<T>::epsilon();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < s.m; ++i)
    for (std::size_t j = 0; j < s.n; ++j) {
      double sum = 0, mag = 0;
      for (std::size_t p = 0; p < s.k; ++p) {
        const double x = double(at(a, ta, s.m, s.k, i, p)) * double(at(b, tb, s.k, s.n, p, j));
        sum += x;
        mag += std::fabs(x);
      }
      double ref = alpha * sum, bound = std::fabs(alpha) * mag;
      if (beta != 0) {
        ref += beta * double(c0[i * s.n + j]);
        bound += std::fabs(beta * double(c0[i * s.n + j]));
      }
      bound = 2 * eps * double(s.k + 2) * bound + std::numeric_limits<T>::min();
      const double g = double(got[i * s.n + j]);
      if (!(std::fabs(g - ref) <= bound) && ++wrong <= 5)
        ADD_FAILURE() << "C(" << i << ", " << j << ") = " << g << ", expected " << ref << " within "
                      << bound;
    }
  EXPECT_EQ(wrong, 0u);
}

template <class T, bool TA, bool TB>
void check_gemm(shape s, double alpha, double beta, std::uint64_t seed, bool nan_c = false) {
  SCOPED_TRACE(testing::Message() << (sizeof(T) == 4 ? "float " : "double ") << s.m << " x " << s.n
                                  << " x " << s.k << (TA ? " A^T" : "") << (TB ? " B^T" : "")
                                  << " alpha " << alpha << " beta " << beta);
  const std::vector<T> ha = random_vector<T>(s.m * s.k, seed, -1, 1);
  const std::vector<T> hb = random_vector<T>(s.k * s.n, seed + 1, -1, 1);
  std::vector<T> hc = random_vector<T>(s.m * s.n, seed + 2, -1, 1);
  if (nan_c)
    for (auto &x : hc)
      x = std::numeric_limits<T>::quiet_NaN();
  gpu::vector<T> a = gpu::copy(ha), b = gpu::copy(hb), c = gpu::copy(hc);
  gpu::gemm(matrix<TA>(a, s.m, s.k), matrix<TB>(b, s.k, s.n), gpu::md(c, s.n, s.m), T(alpha),
            T(beta));
  expect_close(gpu::copy(c), ha, TA, hb, TB, hc, s, alpha, beta);
}

// Shapes below and above a tile in every dimension; 1500 x 1420 x 9 has 144 tiles of
// 128 x 128, so it takes the large policy (policy::gemm::large_min_tiles).
const shape shapes[] = {{1, 1, 1},     {1, 37, 1},      {37, 1, 1},    {1, 1, 300},
                        {37, 41, 43},  {128, 128, 128}, {200, 1, 300}, {1, 200, 300},
                        {65, 129, 17}, {64, 64, 8},     {3, 5, 7},     {1500, 1420, 9}};

template <class T, bool TA, bool TB> void all_shapes(std::uint64_t seed) {
  for (const shape &s : shapes)
    check_gemm<T, TA, TB>(s, 1.0, 0.0, seed++);
}

TEST(Gemm, FloatShapes) { all_shapes<float, false, false>(1); }
TEST(Gemm, FloatShapesTransposedA) { all_shapes<float, true, false>(101); }
TEST(Gemm, FloatShapesTransposedB) { all_shapes<float, false, true>(201); }
TEST(Gemm, FloatShapesTransposedAB) { all_shapes<float, true, true>(301); }
TEST(Gemm, DoubleShapes) { all_shapes<double, false, false>(401); }
TEST(Gemm, DoubleShapesTransposedA) { all_shapes<double, true, false>(501); }
TEST(Gemm, DoubleShapesTransposedB) { all_shapes<double, false, true>(601); }
TEST(Gemm, DoubleShapesTransposedAB) { all_shapes<double, true, true>(701); }

TEST(Gemm, AlphaBeta) {
  const shape s{37, 41, 43};
  check_gemm<float, false, false>(s, 2.0, 1.0, 11);
  check_gemm<float, true, true>(s, -0.5, 3.0, 12);
  check_gemm<double, false, true>(s, 1.5, -2.0, 13);
  check_gemm<double, true, false>(s, 0.25, 0.5, 14);
  check_gemm<float, false, false>({1500, 1420, 9}, 2.0, -1.0, 15); // large policy
}

TEST(Gemm, BetaZeroDoesNotReadC) {
  // C is all NaN: with beta == 0 it must not show through (BLAS).
  check_gemm<float, false, false>({37, 41, 43}, 1.0, 0.0, 21, true);
  check_gemm<double, true, false>({65, 129, 17}, -2.0, 0.0, 22, true);
  check_gemm<float, false, true>({1500, 1420, 9}, 1.0, 0.0, 23, true);
}

TEST(Gemm, AlphaZeroDoesNotReadAB) {
  // alpha == 0: C = beta * C even where A and B hold NaN.
  const std::size_t m = 33, n = 17, k = 9;
  std::vector<float> ha(m * k, std::numeric_limits<float>::quiet_NaN()), hb(k * n, 1.f);
  const std::vector<float> hc = random_vector<float>(m * n, 31, -1, 1);
  gpu::vector<float> a = gpu::copy(ha), b = gpu::copy(hb), c = gpu::copy(hc);
  gpu::gemm(gpu::md(a, k, m), gpu::md(b, n, k), gpu::md(c, n, m), 0.f, 2.f);
  const std::vector<float> got = gpu::copy(c);
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(got[i], 2.f * hc[i]) << i;
}

TEST(Gemm, EmptyK) {
  // k == 0: A * B is the zero matrix, so C = beta * C.
  const std::size_t m = 5, n = 7;
  gpu::vector<float> a(0), b(0);
  const std::vector<float> hc = random_vector<float>(m * n, 41, -1, 1);
  gpu::vector<float> c = gpu::copy(hc);
  gpu::gemm(gpu::md(a, 0, m), gpu::md(b, n, 0), gpu::md(c, n, m), 1.f, -1.f);
  const std::vector<float> got = gpu::copy(c);
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(got[i], -hc[i]) << i;
}

TEST(Gemm, TransposedOutput) {
  // C given as a transposed view: C^T = A * B lands in c as (A * B)^T, row-major.
  const shape s{19, 23, 29};
  const std::vector<float> ha = random_vector<float>(s.m * s.k, 51, -1, 1);
  const std::vector<float> hb = random_vector<float>(s.k * s.n, 52, -1, 1);
  gpu::vector<float> a = gpu::copy(ha), b = gpu::copy(hb), c(s.m * s.n), r(s.m * s.n);
  gpu::gemm(gpu::md(a, s.k, s.m), gpu::md(b, s.n, s.k), gpu::transposed(gpu::md(c, s.m, s.n)), 1.f,
            0.f);
  gpu::gemm(gpu::md(a, s.k, s.m), gpu::md(b, s.n, s.k), gpu::md(r, s.n, s.m), 1.f, 0.f);
  const std::vector<float> hcT = gpu::copy(c), hr = gpu::copy(r);
  for (std::size_t i = 0; i < s.m; ++i)
    for (std::size_t j = 0; j < s.n; ++j)
      ASSERT_EQ(hcT[j * s.m + i], hr[i * s.n + j]) << i << ", " << j;
}

TEST(Gemm, FusedViewOperands) {
  // A is a transform view (fused into the tile loads), B a transposed view over one.
  const shape s{45, 39, 70};
  const std::vector<float> ha = random_vector<float>(s.m * s.k, 81, -1, 1);
  const std::vector<float> hb = random_vector<float>(s.k * s.n, 82, -1, 1);
  gpu::vector<float> a = gpu::copy(ha), b = gpu::copy(hb), c(s.m * s.n);
  auto twice = [](float x) { return 2.f * x; };
  gpu::gemm(gpu::md(a | ranges::views::transform(twice), s.k, s.m),
            gpu::transposed(gpu::md(b | ranges::views::transform(twice), s.k, s.n)),
            gpu::md(c, s.n, s.m), 0.25f, 0.f);
  // 0.25 * (2 A) * (2 B) = A * B, with B stored transposed.
  expect_close(gpu::copy(c), ha, false, hb, true, std::vector<float>(s.m * s.n), s, 1.0, 0.0);
}

TEST(Gemm, ShapeMismatchIsAnErrorAndCIsUnchanged) {
  const std::vector<float> hc(6 * 4, 7.f);
  gpu::vector<float> a(6 * 5), b(3 * 4), c = gpu::copy(hc);
  try {
    gpu::gemm(gpu::md(a, 5, 6), gpu::md(b, 4, 3), gpu::md(c, 4, 6), 1.f, 0.f); // k: 5 vs 3
    ADD_FAILURE() << "no error";
  } catch (const pacxx::error &e) {
    EXPECT_NE(std::string(e.what()).find("gpu::gemm"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("6 x 5"), std::string::npos) << e.what();
  }
  gpu::vector<float> b2(5 * 4);
  EXPECT_THROW(gpu::gemm(gpu::md(a, 5, 6), gpu::md(b2, 4, 5), gpu::md(c, 6, 4), 1.f, 0.f),
               pacxx::error); // C is 4 x 6, not 6 x 4
  EXPECT_EQ(gpu::copy(c), hc);
}

TEST(GemmBatched, PlanesAreIndependentProducts) {
  const std::size_t m = 21, n = 13, k = 17, batch = 5;
  const std::vector<float> ha = random_vector<float>(batch * m * k, 61, -1, 1);
  const std::vector<float> hb = random_vector<float>(batch * k * n, 62, -1, 1);
  const std::vector<float> hc = random_vector<float>(batch * m * n, 63, -1, 1);
  gpu::vector<float> a = gpu::copy(ha), b = gpu::copy(hb), c = gpu::copy(hc), ct = gpu::copy(hc);
  gpu::gemm_batched(gpu::md(a, k, m, batch), gpu::md(b, n, k, batch), gpu::md(c, n, m, batch), 1.5f,
                    0.5f);
  // The same with A given as transposed planes of a k x m x batch array (a strided view).
  std::vector<float> hat(ha.size());
  for (std::size_t z = 0; z < batch; ++z)
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t p = 0; p < k; ++p)
        hat[z * m * k + p * m + i] = ha[z * m * k + i * k + p];
  gpu::vector<float> at_ = gpu::copy(hat);
  gpu::gemm_batched(gpu::transposed(gpu::md(at_, m, k, batch)), gpu::md(b, n, k, batch),
                    gpu::md(ct, n, m, batch), 1.5f, 0.5f);
  const std::vector<float> got = gpu::copy(c), got_t = gpu::copy(ct);
  for (std::size_t z = 0; z < batch; ++z) {
    SCOPED_TRACE(testing::Message() << "plane " << z);
    auto plane = [&](const std::vector<float> &v, std::size_t size) {
      return std::vector<float>(v.begin() + z * size, v.begin() + (z + 1) * size);
    };
    expect_close(plane(got, m * n), plane(ha, m * k), false, plane(hb, k * n), false,
                 plane(hc, m * n), {m, n, k}, 1.5, 0.5);
    expect_close(plane(got_t, m * n), plane(ha, m * k), false, plane(hb, k * n), false,
                 plane(hc, m * n), {m, n, k}, 1.5, 0.5);
  }
  gpu::vector<float> c2(2 * m * n);
  EXPECT_THROW(gpu::gemm_batched(gpu::md(a, k, m, batch), gpu::md(b, n, k, batch),
                                 gpu::md(c2, n, m, 2), 1.f, 0.f),
               pacxx::error);
}

template <class T, bool TA>
void check_gemv(std::size_t m, std::size_t n, double alpha, double beta, std::uint64_t seed,
                bool nan_y = false) {
  SCOPED_TRACE(testing::Message() << (sizeof(T) == 4 ? "float " : "double ") << m << " x " << n
                                  << (TA ? " A^T" : "") << " alpha " << alpha << " beta " << beta);
  const std::vector<T> ha = random_vector<T>(m * n, seed, -1, 1);
  const std::vector<T> hx = random_vector<T>(n, seed + 1, -1, 1);
  std::vector<T> hy = random_vector<T>(m, seed + 2, -1, 1);
  if (nan_y)
    for (auto &v : hy)
      v = std::numeric_limits<T>::quiet_NaN();
  gpu::vector<T> a = gpu::copy(ha), x = gpu::copy(hx), y = gpu::copy(hy);
  gpu::gemv(matrix<TA>(a, m, n), x, y, T(alpha), T(beta));
  // y as an m x 1 product: B = x as an n x 1 matrix.
  expect_close(gpu::copy(y), ha, TA, hx, false, hy, {m, 1, n}, alpha, beta);
}

template <class T, bool TA> void gemv_shapes(std::uint64_t seed) {
  const std::size_t s[][2] = {{1, 1}, {37, 41}, {300, 1}, {1, 300}, {1000, 77}, {33, 1029}};
  for (const auto &mn : s)
    check_gemv<T, TA>(mn[0], mn[1], 1.0, 0.0, seed++);
  check_gemv<T, TA>(37, 41, 2.0, -1.5, seed++);
  check_gemv<T, TA>(129, 65, -1.0, 0.0, seed++, true); // beta 0 over NaN in y
}

TEST(Gemv, Float) { gemv_shapes<float, false>(71); }
TEST(Gemv, FloatTransposed) { gemv_shapes<float, true>(81); }
TEST(Gemv, Double) { gemv_shapes<double, false>(91); }
TEST(Gemv, DoubleTransposed) { gemv_shapes<double, true>(111); }

TEST(Gemv, ShapeMismatchIsAnErrorAndYIsUnchanged) {
  const std::vector<float> hy(6, 3.f);
  gpu::vector<float> a(6 * 5), x(4), y = gpu::copy(hy);
  try {
    gpu::gemv(gpu::md(a, 5, 6), x, y, 1.f, 0.f);
    ADD_FAILURE() << "no error";
  } catch (const pacxx::error &e) {
    EXPECT_NE(std::string(e.what()).find("gpu::gemv"), std::string::npos) << e.what();
  }
  EXPECT_EQ(gpu::copy(y), hy);
}

} // namespace

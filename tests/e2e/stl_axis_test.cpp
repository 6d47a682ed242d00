// Folds along an axis and transposes (issue 35 item 3): gpu::reduce_rows,
// reduce_columns and reduce_axis over row-major and transposed md views (both agents:
// a warp or block per row, a thread per column with the folded axis split over blocks),
// 3D views along every axis, views fused on input and output; gpu::transpose of 2D and
// 3D views into vectors and md views. Exact integer folds against host loops.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <range/v3/view/transform.hpp>

#include "test_support.hpp"

namespace view = ranges::views;

namespace {

struct Dims {
  std::size_t w, h;
};
std::string name(const testing::TestParamInfo<Dims> &p) {
  return std::to_string(p.param.w) + "x" + std::to_string(p.param.h);
}

class Axis2D : public ::testing::TestWithParam<Dims> {};

TEST_P(Axis2D, RowsAndColumnsOfARowMajorViewMatchTheHost) {
  const Dims s = GetParam();
  const std::vector<int> host = pacxx_test::ints(s.w * s.h, 17);
  gpu::vector<int> v = gpu::copy(host);
  gpu::vector<long long> rows(s.h), cols(s.w);
  // A fused view on the input: the md view over a transform view (int -> long long).
  auto a = gpu::md(v | view::transform([](int x) { return 3ll * x; }), s.w, s.h);
  gpu::reduce_rows(a, rows, 5ll);
  gpu::reduce_columns(a, cols, -5ll);
  std::vector<long long> wr(s.h, 5), wc(s.w, -5);
  for (std::size_t y = 0; y < s.h; ++y)
    for (std::size_t x = 0; x < s.w; ++x) {
      wr[y] += 3ll * host[x + s.w * y];
      wc[x] += 3ll * host[x + s.w * y];
    }
  EXPECT_EQ(gpu::copy(rows), wr);
  EXPECT_EQ(gpu::copy(cols), wc);
  // Twice: the tickets of the split column fold are reset for the next call.
  gpu::reduce_columns(a, cols, -5ll);
  EXPECT_EQ(gpu::copy(cols), wc);
  // The same through the transposed view: rows of it are columns of a.
  gpu::vector<long long> trows(s.w), tcols(s.h);
  gpu::reduce_rows(gpu::transposed(a), trows, -5ll);
  gpu::reduce_columns(gpu::transposed(a), tcols, 5ll);
  EXPECT_EQ(gpu::copy(trows), wc);
  EXPECT_EQ(gpu::copy(tcols), wr);
}

TEST_P(Axis2D, MaxAlongRowsIntoAnOutputView) {
  const Dims s = GetParam();
  const std::vector<int> host = pacxx_test::ints(s.w * s.h, 23);
  gpu::vector<int> v = gpu::copy(host), out(s.h);
  // init below every value; the output written through transform_output (+1).
  gpu::reduce_rows(gpu::md(v, s.w, s.h),
                   out | gpu::views::transform_output([](int x) { return x + 1; }), -100000,
                   [](int a, int b) { return a > b ? a : b; });
  const std::vector<int> got = gpu::copy(out);
  for (std::size_t y = 0; y < s.h; ++y) {
    const int want = *std::max_element(host.begin() + static_cast<long>(s.w * y),
                                       host.begin() + static_cast<long>(s.w * (y + 1)));
    ASSERT_EQ(got[y], want + 1) << y;
  }
}

TEST_P(Axis2D, TransposeMatchesTheHost) {
  const Dims s = GetParam();
  const std::vector<int> host = pacxx_test::ints(s.w * s.h, 29);
  gpu::vector<int> v = gpu::copy(host), t(s.w * s.h), back(s.w * s.h);
  gpu::transpose(gpu::md(v, s.w, s.h), t);
  const std::vector<int> ht = gpu::copy(t);
  for (std::size_t y = 0; y < s.h; ++y)
    for (std::size_t x = 0; x < s.w; ++x)
      ASSERT_EQ(ht[y + s.h * x], host[x + s.w * y]) << x << "," << y;
  // Back again, into an md view with the transposed extents.
  gpu::transpose(gpu::md(t, s.h, s.w), gpu::md(back, s.w, s.h));
  EXPECT_EQ(gpu::copy(back), host);
}

INSTANTIATE_TEST_SUITE_P(Extents, Axis2D,
                         // 8200 x 37: columns folded by policy::reduce_axis_wide's blocks
                         // (from 8192 outputs), the transposed view's rows too.
                         ::testing::Values(Dims{1, 1}, Dims{1, 300}, Dims{300, 1}, Dims{33, 65},
                                           Dims{3, 2000}, Dims{2500, 5}, Dims{100, 1031},
                                           Dims{8200, 37}),
                         name);

TEST(Axis3D, EveryAxisAndEachPlaneTransposed) {
  const std::size_t w = 19, h = 11, d = 7;
  const std::vector<int> host = pacxx_test::ints(w * h * d, 31);
  gpu::vector<int> v = gpu::copy(host);
  const auto a = gpu::md(v, w, h, d);
  gpu::vector<int> r0(h * d), r1(w * d), r2(w * h);
  gpu::reduce_axis(a, 0, r0, 0);
  gpu::reduce_axis(a, 1, r1, 0);
  gpu::reduce_axis(a, 2, r2, 0);
  std::vector<int> w0(h * d, 0), w1(w * d, 0), w2(w * h, 0);
  for (std::size_t z = 0; z < d; ++z)
    for (std::size_t y = 0; y < h; ++y)
      for (std::size_t x = 0; x < w; ++x) {
        const int e = host[x + w * (y + h * z)];
        w0[y + h * z] += e;
        w1[x + w * z] += e;
        w2[x + w * y] += e;
      }
  EXPECT_EQ(gpu::copy(r0), w0);
  EXPECT_EQ(gpu::copy(r1), w1);
  EXPECT_EQ(gpu::copy(r2), w2);
  gpu::vector<int> t(w * h * d);
  gpu::transpose(a, t);
  const std::vector<int> ht = gpu::copy(t);
  for (std::size_t z = 0; z < d; ++z)
    for (std::size_t y = 0; y < h; ++y)
      for (std::size_t x = 0; x < w; ++x)
        ASSERT_EQ(ht[y + h * (x + w * z)], host[x + w * (y + h * z)]);
}

TEST(Axis, FloatSumsOfLongColumnsSplitOverBlocks) {
  // Few columns, many rows: the folded axis is split over blocks and the partials
  // folded by the last block, in order: the result is the same on every run.
  const std::size_t w = 3, h = 100000;
  const std::vector<float> host = pacxx_test::random_floats(w * h, 37, -1.f, 1.f);
  gpu::vector<float> v = gpu::copy(host), c1(w), c2(w);
  gpu::reduce_columns(gpu::md(v, w, h), c1, 0.f);
  gpu::reduce_columns(gpu::md(v, w, h), c2, 0.f);
  const std::vector<float> g1 = gpu::copy(c1), g2 = gpu::copy(c2);
  for (std::size_t x = 0; x < w; ++x) {
    double want = 0;
    for (std::size_t y = 0; y < h; ++y)
      want += host[x + w * y];
    EXPECT_NEAR(g1[x], want, 1e-2) << x;
    EXPECT_EQ(g1[x], g2[x]) << x; // deterministic
  }
}

TEST(Axis, EmptyFoldsGiveInitAndBadCallsAreErrors) {
  gpu::vector<int> v(0), out(4);
  gpu::reduce_rows(gpu::md(v, 0, 4), out, 9);
  EXPECT_EQ(gpu::copy(out), std::vector<int>(4, 9));
  gpu::vector<int> a(12), small(2);
  gpu::fill(a, 1);
  gpu::fill(small, 0);
  try {
    gpu::reduce_rows(gpu::md(a, 4, 3), small, 0);
    FAIL() << "no error";
  } catch (const pacxx::error &e) {
    EXPECT_NE(
        std::string(e.what()).find("gpu::reduce_rows: the output has 2 elements, there are 3"),
        std::string::npos)
        << e.what();
  }
  EXPECT_THROW(gpu::reduce_axis(gpu::md(a, 4, 3), 2, small, 0), pacxx::error);
  EXPECT_EQ(gpu::copy(small), std::vector<int>(2, 0)); // unchanged
  gpu::vector<int> t(12);
  EXPECT_THROW(gpu::transpose(gpu::md(a, 4, 3), gpu::md(t, 4, 3)), pacxx::error);
  pacxx::reset_stats();
  gpu::vector<int> r(3), c(4);
  gpu::reduce_rows(gpu::md(a, 4, 3), r, 0);
  gpu::reduce_columns(gpu::md(a, 4, 3), c, 0);
  gpu::transpose(gpu::md(a, 4, 3), t);
  EXPECT_EQ(pacxx::stats().kernel_launches, 3u); // one kernel each
}

} // namespace

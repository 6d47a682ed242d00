// Arrays with a shape (issue 35): gpu::md views (element access, rows, columns, planes,
// transposed, replicated, reshaped; as ranges in every algorithm; captured in element
// functions), gpu::views::indices in 1, 2 and 3 dimensions, and the 2D/3D launches of
// gpu::for_each and gpu::transform over them, against host loops. Extents of 1, primes
// and shapes that are not multiples of a block; bad shapes are errors naming the call.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <range/v3/view/transform.hpp>

#include "test_support.hpp"

namespace view = ranges::views;

namespace {

struct Shape {
  std::size_t w, h, d;
};
std::string name(const testing::TestParamInfo<Shape> &p) {
  return std::to_string(p.param.w) + "x" + std::to_string(p.param.h) + "x" +
         std::to_string(p.param.d);
}
std::vector<int> iota_vector(std::size_t n) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<int>(i * 7 % 1000) - 300;
  return v;
}

class Shapes2D : public ::testing::TestWithParam<Shape> {};

TEST_P(Shapes2D, ElementAccessRowsColumnsAndTransposedMatchTheHost) {
  const Shape s = GetParam();
  const std::vector<int> host = iota_vector(s.w * s.h);
  gpu::vector<int> v = gpu::copy(host);
  auto a = gpu::md(v, s.w, s.h);
  EXPECT_EQ(a.width(), s.w);
  EXPECT_EQ(a.height(), s.h);
  EXPECT_EQ(a.size(), s.w * s.h);
  // As a range: its elements in row-major order.
  long long sum = 0;
  for (int x : host)
    sum += x;
  EXPECT_EQ(gpu::reduce(a, 0ll), sum);
  // A row and a column as 1D views.
  const std::size_t y = s.h / 2, x = s.w - 1;
  gpu::vector<int> row(s.w), col(s.h);
  gpu::copy(a.row(y), row);
  gpu::copy(a.column(x), col);
  const std::vector<int> hr = gpu::copy(row), hc = gpu::copy(col);
  for (std::size_t i = 0; i < s.w; ++i)
    ASSERT_EQ(hr[i], host[i + s.w * y]) << i;
  for (std::size_t j = 0; j < s.h; ++j)
    ASSERT_EQ(hc[j], host[x + s.w * j]) << j;
  // The transposed view: a range in its own row-major order (h wide, w high).
  auto t = gpu::transposed(a);
  EXPECT_EQ(t.width(), s.h);
  EXPECT_EQ(t.height(), s.w);
  gpu::vector<int> tt(s.w * s.h);
  gpu::copy(t, tt); // a shaped input: read by coordinates
  const std::vector<int> ht = gpu::copy(tt);
  for (std::size_t j = 0; j < s.w; ++j)
    for (std::size_t i = 0; i < s.h; ++i)
      ASSERT_EQ(ht[i + s.h * j], host[j + s.w * i]) << i << "," << j;
  // A column of the transposed view is a row of a: contiguous again.
  gpu::vector<int> trow(s.w);
  gpu::copy(t.column(y), trow);
  EXPECT_EQ(gpu::copy(trow), hr);
}

TEST_P(Shapes2D, ForEachOverIndicesWritesThroughACapturedMdView) {
  const Shape s = GetParam();
  gpu::vector<long long> out(s.w * s.h);
  gpu::fill(out, -1ll);
  // The example: a mutable lambda capturing an md view over the output.
  gpu::for_each(gpu::views::indices(s.w, s.h),
                [o = gpu::md(out, s.w, s.h)](pacxx::index2 i) mutable {
                  o(i.x, i.y) = static_cast<long long>(i.x) * 100000 + static_cast<long long>(i.y);
                });
  const std::vector<long long> h = gpu::copy(out);
  for (std::size_t y = 0; y < s.h; ++y)
    for (std::size_t x = 0; x < s.w; ++x)
      ASSERT_EQ(h[x + s.w * y], static_cast<long long>(x) * 100000 + static_cast<long long>(y));
}

TEST_P(Shapes2D, TransformOverAnMdViewOfAViewAndIntoATransposedOutput) {
  const Shape s = GetParam();
  const std::vector<int> host = iota_vector(s.w * s.h);
  gpu::vector<int> v = gpu::copy(host);
  gpu::vector<float> out(s.w * s.h);
  // An md view over a transform view, read by coordinates in a 2D launch.
  auto a = gpu::md(v | view::transform([](int x) { return 2 * x; }), s.w, s.h);
  gpu::transform(a, out, [](int x) { return static_cast<float>(x) + 0.5f; });
  std::vector<float> h = gpu::copy(out);
  for (std::size_t i = 0; i < host.size(); ++i)
    ASSERT_EQ(h[i], static_cast<float>(2 * host[i]) + 0.5f) << i;
  // Into a transposed md view: out becomes a's transpose.
  gpu::vector<int> tr(s.w * s.h);
  gpu::transform(gpu::md(v, s.w, s.h), gpu::transposed(gpu::md(tr, s.h, s.w)),
                 [](int x) { return x; });
  const std::vector<int> ht = gpu::copy(tr);
  for (std::size_t y = 0; y < s.h; ++y)
    for (std::size_t x = 0; x < s.w; ++x)
      ASSERT_EQ(ht[y + s.h * x], host[x + s.w * y]);
  // Transform over indices (Mandelbrot's shape): element (x, y) into out[x + w * y].
  gpu::vector<long long> idx(s.w * s.h);
  gpu::transform(gpu::views::indices(s.w, s.h), idx, [](pacxx::index2 i) {
    return static_cast<long long>(i.y) * 1000 + static_cast<long long>(i.x);
  });
  const std::vector<long long> hi = gpu::copy(idx);
  for (std::size_t y = 0; y < s.h; ++y)
    for (std::size_t x = 0; x < s.w; ++x)
      ASSERT_EQ(hi[x + s.w * y], static_cast<long long>(y) * 1000 + static_cast<long long>(x));
}

TEST_P(Shapes2D, IndicesUnderAViewAreAnOrdinaryRange) {
  const Shape s = GetParam();
  // A reduction over indices under view::transform: the 1D path (a division each).
  const long long got =
      gpu::reduce(gpu::views::indices(s.w, s.h) | view::transform([](pacxx::index2 i) {
                    return static_cast<long long>(i.x * 3 + i.y);
                  }),
                  0ll);
  long long want = 0;
  for (std::size_t y = 0; y < s.h; ++y)
    for (std::size_t x = 0; x < s.w; ++x)
      want += static_cast<long long>(x * 3 + y);
  EXPECT_EQ(got, want);
}

TEST_P(Shapes2D, ReplicatedRowsAndColumnsBroadcast) {
  const Shape s = GetParam();
  std::vector<float> r(s.w), c(s.h);
  for (std::size_t i = 0; i < s.w; ++i)
    r[i] = static_cast<float>(i);
  for (std::size_t j = 0; j < s.h; ++j)
    c[j] = static_cast<float>(j) * 1000.f;
  gpu::vector<float> dr = gpu::copy(r), dc = gpu::copy(c), out(s.w * s.h);
  // out(x, y) = r[x] + c[y], Accelerate's replicate on both sides of a zip.
  gpu::transform(view::zip(gpu::replicate_rows(dr, s.h), gpu::replicate_columns(dc, s.w)), out,
                 [](auto p) { return std::get<0>(p) + std::get<1>(p); });
  const std::vector<float> h = gpu::copy(out);
  for (std::size_t y = 0; y < s.h; ++y)
    for (std::size_t x = 0; x < s.w; ++x)
      ASSERT_EQ(h[x + s.w * y], r[x] + c[y]);
}

INSTANTIATE_TEST_SUITE_P(Extents, Shapes2D,
                         ::testing::Values(Shape{1, 1, 1}, Shape{1, 37, 1}, Shape{37, 1, 1},
                                           Shape{31, 17, 1}, Shape{257, 129, 1}, Shape{1000, 3, 1}),
                         name);

TEST(Shapes3D, PlanesIndicesAndATransformMatchTheHost) {
  const std::size_t w = 13, h = 7, d = 5;
  const std::vector<int> host = iota_vector(w * h * d);
  gpu::vector<int> v = gpu::copy(host);
  auto a = gpu::md(v, w, h, d);
  EXPECT_EQ(a.depth(), d);
  gpu::vector<int> p(w * h);
  gpu::copy(a.plane(3), p);
  const std::vector<int> hp = gpu::copy(p);
  for (std::size_t i = 0; i < w * h; ++i)
    ASSERT_EQ(hp[i], host[i + w * h * 3]);
  gpu::vector<long long> idx(w * h * d);
  gpu::transform(gpu::views::indices(w, h, d), idx, [](pacxx::index3 i) {
    return static_cast<long long>(i.x + 100 * i.y + 10000 * i.z);
  });
  const std::vector<long long> hi = gpu::copy(idx);
  for (std::size_t z = 0; z < d; ++z)
    for (std::size_t y = 0; y < h; ++y)
      for (std::size_t x = 0; x < w; ++x)
        ASSERT_EQ(hi[x + w * (y + h * z)], static_cast<long long>(x + 100 * y + 10000 * z));
  // A 3D view read element by element in a for_each over 3D indices.
  gpu::vector<int> out(w * h * d);
  gpu::for_each(gpu::views::indices(w, h, d), [a, o = gpu::md(out, w, h, d)](pacxx::index3 i) {
    o(i.x, i.y, i.z) = a(i.x, i.y, i.z) + a(0, 0, i.z);
  });
  const std::vector<int> ho = gpu::copy(out);
  for (std::size_t z = 0; z < d; ++z)
    for (std::size_t i = 0; i < w * h; ++i)
      ASSERT_EQ(ho[i + w * h * z], host[i + w * h * z] + host[w * h * z]);
  // 1D indices are plain integers, like iota.
  gpu::vector<long long> one(11);
  gpu::transform(gpu::views::indices(11), one,
                 [](std::size_t i) { return static_cast<long long>(i * i); });
  const std::vector<long long> h1 = gpu::copy(one);
  for (std::size_t i = 0; i < 11; ++i)
    ASSERT_EQ(h1[i], static_cast<long long>(i * i));
}

TEST(Shapes, ReshapeKeepsTheElements) {
  const std::vector<int> host = iota_vector(60);
  gpu::vector<int> v = gpu::copy(host);
  auto a = gpu::md(v, 6, 10);
  auto b = gpu::reshape(a, 12, 5);
  EXPECT_EQ(b.width(), 12u);
  EXPECT_EQ(b.height(), 5u);
  gpu::vector<int> out(60);
  gpu::for_each(gpu::views::indices(12, 5),
                [b, o = gpu::md(out, 12, 5)](pacxx::index2 i) { o(i.x, i.y) = b(i.x, i.y); });
  EXPECT_EQ(gpu::copy(out), host);
  // A row of a reshaped row of a 3D view: offsets compose.
  auto c = gpu::md(v, 3, 4, 5);
  auto row = c.plane(2).row(3);
  gpu::vector<int> r(3);
  gpu::copy(row, r);
  const std::vector<int> hr = gpu::copy(r);
  for (std::size_t i = 0; i < 3; ++i)
    ASSERT_EQ(hr[i], host[i + 3 * 3 + 12 * 2]);
}

TEST(Shapes, BadShapesAreErrorsNamingTheCall) {
  gpu::vector<int> v(60);
  try {
    (void)gpu::md(v, 7, 9);
    FAIL() << "no error";
  } catch (const pacxx::error &e) {
    EXPECT_NE(std::string(e.what()).find("gpu::md: a range of 60 elements is not 7 x 9"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)gpu::md(v, 0, 60), pacxx::error);
  EXPECT_THROW((void)gpu::reshape(gpu::md(v, 6, 10), 7, 7), pacxx::error);
  EXPECT_THROW((void)gpu::md(v, std::size_t(1) << 40, std::size_t(1) << 40),
               pacxx::error); // more than 2^64 elements
  // A shaped output must have the input's extents.
  gpu::vector<int> o(60);
  EXPECT_THROW(gpu::transform(gpu::md(v, 6, 10), gpu::md(o, 10, 6), [](int x) { return x; }),
               pacxx::error);
  // Empty arrays are fine and launch nothing.
  gpu::vector<int> e;
  pacxx::reset_stats();
  gpu::for_each(gpu::md(e, 0, 5), [](int &x) { x = 1; });
  EXPECT_EQ(pacxx::stats().kernel_launches, 0u);
}

TEST(Shapes, EveryShapedAlgorithmIsOneLaunch) {
  gpu::vector<int> v(64 * 32), out(64 * 32);
  pacxx::reset_stats();
  gpu::for_each(gpu::md(v, 64, 32), [](int &x) { x = 3; });
  gpu::transform(gpu::views::indices(64, 32), out,
                 [](pacxx::index2 i) { return static_cast<int>(i.x + i.y); });
  EXPECT_EQ(pacxx::stats().kernel_launches, 2u);
}

} // namespace

namespace {
// The division indices and gpu::neighbours use (pacxx/detail/fast_divmod.hpp), on the
// host: every divisor below 5000 and some large ones, random and extreme numerators
// below 2^31; beyond 2^31 it divides plainly.
TEST(FastDivmod, AgreesWithDivision) {
  pacxx_test::rng r(99);
  auto check = [&](std::size_t d) {
    const pacxx::detail::fast_divmod f(d, std::size_t(1) << 31);
    const std::size_t top = (std::size_t(1) << 31) - 1;
    for (std::size_t n :
         {std::size_t(0), d - 1, d < top ? d : top, top, top - 1, d <= top ? top - d : 0})
      ASSERT_EQ(f.div(n), n / d) << n << " / " << d;
    for (int k = 0; k < 50; ++k) {
      const std::size_t n = static_cast<std::size_t>(r.next() >> 33);
      std::size_t q, m;
      f.divmod(n, q, m);
      ASSERT_EQ(q, n / d) << n << " / " << d;
      ASSERT_EQ(m, n % d) << n << " % " << d;
    }
  };
  for (std::size_t d = 1; d < 5000; ++d)
    check(d);
  for (std::size_t d : {8191ul, 8192ul, 65537ul, 1ul << 20, (1ul << 31) - 1, 1ul << 31})
    check(d);
  const pacxx::detail::fast_divmod big(7, std::size_t(1) << 40); // plain division
  EXPECT_EQ(big.div((std::size_t(1) << 39) + 5), ((std::size_t(1) << 39) + 5) / 7);
}
} // namespace

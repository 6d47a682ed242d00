// Segmented algorithms by CSR offsets (issue 35): gpu::segmented_reduce against a host
// fold, for short segments (a warp each), long ones (a block each) and mixed lengths with
// empty segments, views fused on values, offsets and output; bad offsets are errors
// that leave the output unchanged.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>

#include "test_support.hpp"

namespace view = ranges::views;

namespace {

// Offsets of segments with lengths drawn from [lo, hi] (0 allowed), `count` of them.
std::vector<int> random_offsets(std::size_t count, int lo, int hi, std::uint64_t seed) {
  pacxx_test::rng r(seed);
  std::vector<int> o(1, 0);
  for (std::size_t s = 0; s < count; ++s)
    o.push_back(o.back() + static_cast<int>(r.integer(lo, hi)));
  return o;
}

template <class T, class Op>
std::vector<T> host_segmented(const std::vector<T> &v, const std::vector<int> &o, T init, Op op) {
  std::vector<T> r(o.size() - 1);
  for (std::size_t s = 0; s + 1 < o.size(); ++s) {
    T acc = init;
    for (int i = o[s]; i < o[s + 1]; ++i)
      acc = op(acc, v[static_cast<std::size_t>(i)]);
    r[s] = acc;
  }
  return r;
}

struct SegmentShape {
  std::size_t count;
  int lo, hi;
};

class SegmentedReduce : public ::testing::TestWithParam<SegmentShape> {};

TEST_P(SegmentedReduce, SumOfIntsMatchesTheHost) {
  const SegmentShape sh = GetParam();
  const std::vector<int> o = random_offsets(sh.count, sh.lo, sh.hi, 3);
  const std::vector<long long> v =
      pacxx_test::random_vector<long long>(static_cast<std::size_t>(o.back()), 5, -1000, 1000);
  gpu::vector<long long> dv = gpu::copy(v), out(sh.count);
  gpu::vector<int> doff = gpu::copy(o);
  gpu::segmented_reduce(dv, doff, out, 7ll);
  std::vector<long long> r = gpu::copy(out);
  EXPECT_EQ(r, host_segmented(v, o, 7ll, std::plus<long long>()));
}

TEST_P(SegmentedReduce, MaxOfATransformViewMatchesTheHost) {
  const SegmentShape sh = GetParam();
  const std::vector<int> o = random_offsets(sh.count, sh.lo, sh.hi, 9);
  const std::vector<float> v =
      pacxx_test::random_floats(static_cast<std::size_t>(o.back()), 11, -5.f, 5.f);
  gpu::vector<float> dv = gpu::copy(v), out(sh.count);
  gpu::vector<int> doff = gpu::copy(o);
  auto sq = [](float x) { return 2.f * x - 3.f; }; // exact, contracted or not
  auto mx = [](float a, float b) { return a < b ? b : a; };
  const float lowest = std::numeric_limits<float>::lowest();
  gpu::segmented_reduce(dv | view::transform(sq), doff, out, lowest, mx);
  std::vector<float> r = gpu::copy(out);
  std::vector<float> sv(v.size());
  std::transform(v.begin(), v.end(), sv.begin(), sq);
  EXPECT_EQ(r, host_segmented(sv, o, lowest, mx));
}

INSTANTIATE_TEST_SUITE_P(Shapes, SegmentedReduce,
                         ::testing::Values(SegmentShape{1, 0, 0}, SegmentShape{1, 1, 1},
                                           SegmentShape{1000, 0, 3},    // many tiny, empties
                                           SegmentShape{997, 30, 130},  // around a warp
                                           SegmentShape{37, 0, 9000},   // mixed
                                           SegmentShape{11, 3000, 5000} // a block each
                                           ));

TEST(SegmentedReduceViews, OffsetsAsAViewAndOutputAsAView) {
  // Segments of 5: offsets 0, 5, 10, ... generated on the device.
  const std::size_t segments = 301, len = 5;
  std::vector<int> v(segments * len);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<int>(i % 13);
  gpu::vector<int> dv = gpu::copy(v), out(segments);
  auto offsets =
      view::iota(0, static_cast<int>(segments) + 1) | view::transform([](int s) { return s * 5; });
  gpu::segmented_reduce(dv, offsets, out | gpu::views::transform_output([](int x) { return -x; }),
                        0);
  std::vector<int> r = gpu::copy(out);
  for (std::size_t s = 0; s < segments; ++s) {
    int sum = 0;
    for (std::size_t i = 0; i < len; ++i)
      sum += v[s * len + i];
    ASSERT_EQ(r[s], -sum) << s;
  }
}

TEST(SegmentedReduceViews, NoSegmentsWritesNothing) {
  gpu::vector<int> dv(10, 1), out(1, 42);
  gpu::vector<int> doff(1, 0);
  gpu::segmented_reduce(dv, doff, out, 0);
  EXPECT_EQ(gpu::copy(out), std::vector<int>{42});
}

void expect_error_and_unchanged(const std::vector<int> &o, std::size_t values,
                                const std::string &what) {
  gpu::vector<int> dv(values, 1), out(o.size() > 1 ? o.size() - 1 : 1, 42);
  gpu::vector<int> doff = gpu::copy(o);
  try {
    gpu::segmented_reduce(dv, doff, out, 0);
    FAIL() << "no error for " << what;
  } catch (const pacxx::error &e) {
    EXPECT_NE(std::string(e.what()).find("gpu::segmented_reduce"), std::string::npos) << e.what();
  }
  for (int x : gpu::copy(out))
    ASSERT_EQ(x, 42) << what;
}

TEST(SegmentedReduceErrors, BadOffsetsAreErrorsAndTheOutputIsUnchanged) {
  expect_error_and_unchanged({0, 5, 3, 8}, 10, "a decreasing pair");
  expect_error_and_unchanged({0, 5, 11}, 10, "an offset past the end");
  expect_error_and_unchanged({-1, 5}, 10, "a negative offset");
  try {
    gpu::vector<int> dv(10, 1), out(1);
    gpu::vector<int> doff = gpu::copy(std::vector<int>{0, 2, 4});
    gpu::segmented_reduce(dv, doff, out, 0);
    FAIL() << "an output of 1 for 2 segments";
  } catch (const pacxx::error &e) {
    EXPECT_NE(std::string(e.what()).find("2 segments"), std::string::npos) << e.what();
  }
  try {
    gpu::vector<int> dv(10, 1), out(1), doff;
    gpu::segmented_reduce(dv, doff, out, 0);
    FAIL() << "empty offsets";
  } catch (const pacxx::error &e) {
    EXPECT_NE(std::string(e.what()).find("segments + 1"), std::string::npos) << e.what();
  }
}

} // namespace

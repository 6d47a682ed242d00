// Segmented algorithms by CSR offsets (issue 35): gpu::segmented_reduce against a host
// fold, for short segments (a warp each), long ones (tiles of blocks, a segment split
// over many) and mixed lengths with empty segments, views fused on values, offsets and
// output; bad offsets are errors that leave the output unchanged. Policies of the tests'
// own force each path (and tiles of 512 elements) at small sizes.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <cmath>

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

// Every segment through the tiles' path, tiles of 512 elements (256 threads x 2); in the
// second pass a thread a segment, and a segment of more than 2 parts folded by a warp.
// (The default policy's tests take the second pass's warp a segment.)
struct tiny_tiles : pacxx::policy::segmented_reduce {
  static constexpr std::size_t split_min_mean = 0;
  static constexpr std::size_t split_items = 2;
  static constexpr std::size_t split_tiles = std::size_t(1) << 40; // tiles of one round
  static constexpr std::size_t split_min_rounds = 1;
  static constexpr std::size_t finish_by_warp_max = 0;
  static constexpr std::size_t finish_alone = 2;
};
// The same with the second pass's warp a segment.
struct tiny_tiles_warp_finish : tiny_tiles {
  static constexpr std::size_t finish_by_warp_max = std::size_t(1) << 40;
};
// Every segment through the warp path.
struct warps_only : pacxx::policy::segmented_reduce {
  static constexpr std::size_t split_min_mean = std::size_t(1) << 40;
};

template <class P>
void expect_sums(const std::vector<int> &o, std::size_t values, const std::string &what) {
  const std::vector<long long> v = pacxx_test::random_vector<long long>(values, 17, -1000, 1000);
  gpu::vector<long long> dv = gpu::copy(v), out(o.size() - 1, -5);
  gpu::vector<int> doff = gpu::copy(o);
  gpu::detail::segmented_reduce_with<P>(dv, doff, out, 3ll, std::plus<>{});
  std::vector<long long> r = gpu::copy(out);
  EXPECT_EQ(r, host_segmented(v, o, 3ll, std::plus<long long>())) << what;
}

template <class P> void expect_all_shapes() {
  expect_sums<P>(random_offsets(2000, 0, 3, 21), 2000 * 3, "tiny with empties");
  expect_sums<P>(std::vector<int>{0, 1, 2, 3, 3, 4}, 4, "one element each");
  expect_sums<P>(random_offsets(40, 0, 9000, 22), 40 * 9000, "mixed");
  expect_sums<P>(std::vector<int>{0, 1, 50001, 50001, 50003}, 50003, "one long, split");
  expect_sums<P>(std::vector<int>{0, 512, 1024, 1536, 3072, 3073}, 3073, "on tile bounds");
  // Elements before the first offset and after the last are in no segment.
  expect_sums<P>(std::vector<int>{700, 700, 1900, 1901, 5000}, 6000, "values outside");
  expect_sums<P>(std::vector<int>{0, 0, 0}, 0, "no values, empty segments");
  expect_sums<P>(std::vector<int>{0, 0, 4000, 4000}, 4000, "one segment between empties");
}

TEST(SegmentedReducePaths, TilesMatchTheHost) { expect_all_shapes<tiny_tiles>(); }
TEST(SegmentedReducePaths, TilesWithAWarpASegmentAfterMatchTheHost) {
  expect_all_shapes<tiny_tiles_warp_finish>();
}
TEST(SegmentedReducePaths, WarpsMatchTheHost) { expect_all_shapes<warps_only>(); }
TEST(SegmentedReducePaths, DefaultPolicyMatchesTheHost) {
  expect_all_shapes<pacxx::policy::segmented_reduce>();
}

TEST(SegmentedReducePaths, TilesOfATransformViewMatchTheHost) {
  const std::vector<int> o = random_offsets(60, 0, 3000, 31);
  const std::vector<int> v =
      pacxx_test::random_vector<int>(static_cast<std::size_t>(o.back()), 33, -100, 100);
  gpu::vector<int> dv = gpu::copy(v);
  gpu::vector<long long> out(o.size() - 1);
  gpu::vector<int> doff = gpu::copy(o);
  auto sq = [](int x) { return static_cast<long long>(x) * x - 7; };
  gpu::detail::segmented_reduce_with<tiny_tiles>(dv | view::transform(sq), doff, out, 0ll,
                                                 std::plus<>{});
  std::vector<long long> sv(v.size());
  std::transform(v.begin(), v.end(), sv.begin(), sq);
  EXPECT_EQ(gpu::copy(out), host_segmented(sv, o, 0ll, std::plus<long long>()));
}

// Float sums through the default policy: a segment of 100000 spans 49 tiles of 2048
// (more parts than finish_alone: its warp folds them). Within a tolerance of the host's
// sum in double; the same bits on a second call (a fixed order of folds).
TEST(SegmentedReducePaths, FloatSumsAreCloseAndTheSameEveryCall) {
  const std::vector<int> o{0, 100000, 100001, 103000, 103000, 250000};
  const std::vector<float> v = pacxx_test::random_floats(250000, 41, -1.f, 1.f);
  gpu::vector<float> dv = gpu::copy(v), out(o.size() - 1), again(o.size() - 1);
  gpu::vector<int> doff = gpu::copy(o);
  gpu::segmented_reduce(dv, doff, out, 0.5f);
  gpu::segmented_reduce(dv, doff, again, 0.5f);
  const std::vector<float> r = gpu::copy(out), r2 = gpu::copy(again);
  for (std::size_t s = 0; s + 1 < o.size(); ++s) {
    double sum = 0.5, mag = 0.5;
    for (int i = o[s]; i < o[s + 1]; ++i) {
      sum += v[static_cast<std::size_t>(i)];
      mag += std::fabs(v[static_cast<std::size_t>(i)]);
    }
    EXPECT_NEAR(r[s], sum, 1e-5 * mag) << s;
    EXPECT_EQ(std::memcmp(&r[s], &r2[s], sizeof(float)), 0) << s;
  }
}

// A user struct as the accumulator: count, minimum and maximum of a segment, built by a
// transform view from each value.
struct span_stats {
  int count;
  int lo, hi;
};
struct merge_stats {
  span_stats operator()(const span_stats &a, const span_stats &b) const {
    return {a.count + b.count, a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? b.hi : a.hi};
  }
};

template <class P> void expect_stats(const std::vector<int> &o, const std::string &what) {
  const std::vector<int> v =
      pacxx_test::random_vector<int>(static_cast<std::size_t>(o.back()), 51, -100000, 100000);
  gpu::vector<int> dv = gpu::copy(v);
  gpu::vector<span_stats> out(o.size() - 1);
  gpu::vector<int> doff = gpu::copy(o);
  const span_stats init{0, 1 << 30, -(1 << 30)};
  gpu::detail::segmented_reduce_with<P>(dv | view::transform([](int x) {
                                          return span_stats{1, x, x};
                                        }),
                                        doff, out, init, merge_stats{});
  const std::vector<span_stats> r = gpu::copy(out);
  for (std::size_t s = 0; s + 1 < o.size(); ++s) {
    span_stats e = init;
    for (int i = o[s]; i < o[s + 1]; ++i)
      e = merge_stats{}(
          e, span_stats{1, v[static_cast<std::size_t>(i)], v[static_cast<std::size_t>(i)]});
    ASSERT_EQ(r[s].count, e.count) << what << " " << s;
    ASSERT_EQ(r[s].lo, e.lo) << what << " " << s;
    ASSERT_EQ(r[s].hi, e.hi) << what << " " << s;
  }
}

TEST(SegmentedReducePaths, AUserStructMatchesTheHost) {
  const std::vector<int> o = random_offsets(50, 0, 2500, 53);
  expect_stats<tiny_tiles>(o, "tiles");
  expect_stats<warps_only>(o, "warps");
}

// Two launches (the fold with the offsets' check, then the writes) and 8 bytes back on
// either path, nothing allocated once the scratch memory has grown (the first call).
template <class P> void expect_two_launches(const std::vector<int> &o, const char *what) {
  SCOPED_TRACE(what);
  gpu::vector<float> dv(static_cast<std::size_t>(o.back()), 1.f), out(o.size() - 1);
  gpu::vector<int> doff = gpu::copy(o);
  gpu::detail::segmented_reduce_with<P>(dv, doff, out, 0.f, std::plus<>{});
  pacxx::reset_stats();
  gpu::detail::segmented_reduce_with<P>(dv, doff, out, 0.f, std::plus<>{});
  const pacxx::runtime_stats s = pacxx::stats();
  EXPECT_EQ(s.kernel_launches, 2u);
  EXPECT_EQ(s.bytes_to_host, 8u);
  EXPECT_EQ(s.bytes_to_device, 0u);
  EXPECT_EQ(s.device_allocations, 0u);
}

TEST(SegmentedReducePaths, TwoLaunchesAndEightBytesBack) {
  expect_two_launches<tiny_tiles>(random_offsets(30, 0, 3000, 71), "tiles");
  expect_two_launches<warps_only>(random_offsets(30, 0, 3000, 71), "warps");
}

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

template <class P = pacxx::policy::segmented_reduce>
void expect_error_and_unchanged(const std::vector<int> &o, std::size_t values,
                                const std::string &what) {
  gpu::vector<int> dv(values, 1), out(o.size() > 1 ? o.size() - 1 : 1, 42);
  gpu::vector<int> doff = gpu::copy(o);
  try {
    gpu::detail::segmented_reduce_with<P>(dv, doff, out, 0, std::plus<>{});
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
  expect_error_and_unchanged({7}, 5, "a lone offset past the end");
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

// Both paths, with bad offsets anywhere (the first, the last, in a tile's middle) and
// ones that send the tiles' search astray; a good call after each error still works
// (the check's word is all ones again).
template <class P> void expect_errors_then_a_good_call() {
  expect_error_and_unchanged<P>({0, 5, 3, 8}, 10, "a decreasing pair");
  expect_error_and_unchanged<P>({0, 5, 11}, 10, "an offset past the end");
  expect_error_and_unchanged<P>({-1, 5}, 10, "a negative offset");
  expect_error_and_unchanged<P>({3000, 10, 2000, 1, 3000}, 3000, "zigzag");
  expect_error_and_unchanged<P>({0, 2000, 100000, 2500, 3000}, 3000, "far past the end");
  expect_error_and_unchanged<P>({0, 1000, -3, 2000, 3000}, 3000, "negative in the middle");
  expect_sums<P>(random_offsets(30, 0, 300, 61), 30 * 300, "after the errors");
}

TEST(SegmentedReduceErrors, BadOffsetsOnEveryPath) {
  expect_errors_then_a_good_call<tiny_tiles>();
  expect_errors_then_a_good_call<warps_only>();
}

} // namespace

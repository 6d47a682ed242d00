// Segmented scans and sorts by CSR offsets (issue 35 item 4) against host loops:
// gpu::segmented_inclusive_scan / segmented_exclusive_scan per segment (elements outside
// every segment untouched), gpu::segmented_sort / segmented_sort_by_key against
// std::stable_sort per segment (values carry the input positions, so stability is
// checked). Short segments (a warp or a small block each), long ones (a block each;
// sorts: the global path) and mixed lengths with empty segments; int, unsigned, 64-bit,
// float and double; views on inputs and outputs; bad offsets are errors naming the call
// that leave the data unchanged.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>

#include "test_support.hpp"

namespace view = ranges::views;

namespace {

// A CSR layout over `count` segments with lengths in [lo, hi], starting at `lead` and
// followed by `tail` elements in no segment.
struct Layout {
  std::vector<int> offsets;
  std::size_t size;
};
Layout layout(std::size_t count, int lo, int hi, int lead, int tail, std::uint64_t seed) {
  pacxx_test::rng r(seed);
  Layout l{std::vector<int>(1, lead), 0};
  for (std::size_t s = 0; s < count; ++s)
    l.offsets.push_back(l.offsets.back() + static_cast<int>(r.integer(lo, hi)));
  l.size = static_cast<std::size_t>(l.offsets.back() + tail);
  return l;
}

struct Shape {
  std::size_t count;
  int lo, hi;
};
// Each path of the scans and the sorts: single segments, many tiny ones with empties,
// around a warp, the sorts' warp groups (one lane of 8 or 16 items a segment, as on
// OpenCL; on CUDA groups of 2 .. 32 lanes up to 256 and 512 elements), up to each sort
// tile (128, 512, 2048), mixed (some past the largest tile: the global sort), long (a
// block per scan segment; the global sort).
const Shape shapes[] = {{1, 0, 0},     {1, 1, 1},       {1000, 0, 3},  {500, 9, 16},
                        {200, 5, 60},  {397, 30, 128},  {101, 0, 512}, {23, 600, 2048},
                        {37, 0, 9000}, {11, 3000, 5000}};

template <class T> std::vector<T> random_keys(std::size_t n, std::uint64_t seed) {
  // Few distinct keys, so equal keys are common and stability shows; negative ones where
  // T has them.
  pacxx_test::rng r(seed);
  std::vector<T> v(n);
  const long long lo = std::is_signed<T>::value ? -20 : 0;
  for (auto &x : v)
    x = static_cast<T>(r.integer(lo, lo + 40));
  return v;
}

template <class T> class SegmentedScanSortTyped : public ::testing::Test {};
using Types = ::testing::Types<int, unsigned, long long, unsigned long long, float, double>;
TYPED_TEST_SUITE(SegmentedScanSortTyped, Types);

TYPED_TEST(SegmentedScanSortTyped, ScansMatchTheHost) {
  using T = TypeParam;
  for (const Shape &sh : shapes) {
    const Layout l = layout(sh.count, sh.lo, sh.hi, 3, 5, sh.count);
    const std::vector<T> v = random_keys<T>(l.size, 7); // small integers: exact sums
    const T sentinel = T(99);
    gpu::vector<T> dv = gpu::copy(v), inc(l.size, sentinel), exc(l.size, sentinel);
    gpu::vector<int> doff = gpu::copy(l.offsets);
    gpu::segmented_inclusive_scan(dv, doff, inc);
    gpu::segmented_exclusive_scan(dv, doff, exc, T(2));
    std::vector<T> hinc(l.size, sentinel), hexc(l.size, sentinel);
    for (std::size_t s = 0; s + 1 < l.offsets.size(); ++s) {
      T acc = T(2), sum = T(0);
      for (int i = l.offsets[s]; i < l.offsets[s + 1]; ++i) {
        hexc[i] = acc;
        acc = static_cast<T>(acc + v[i]);
        hinc[i] = sum = static_cast<T>(sum + v[i]);
      }
    }
    ASSERT_EQ(gpu::copy(inc), hinc) << sh.count << " segments of " << sh.lo << ".." << sh.hi;
    ASSERT_EQ(gpu::copy(exc), hexc) << sh.count << " segments of " << sh.lo << ".." << sh.hi;
    // The deterministic forms (the ordered look-back) give the same.
    gpu::vector<T> dinc(l.size, sentinel), dexc(l.size, sentinel);
    gpu::segmented_inclusive_scan(gpu::deterministic, dv, doff, dinc);
    gpu::segmented_exclusive_scan(gpu::deterministic, dv, doff, dexc, T(2));
    ASSERT_EQ(gpu::copy(dinc), hinc) << sh.count << " segments of " << sh.lo << ".." << sh.hi;
    ASSERT_EQ(gpu::copy(dexc), hexc) << sh.count << " segments of " << sh.lo << ".." << sh.hi;
  }
}

TYPED_TEST(SegmentedScanSortTyped, SortByKeyIsAStableSortPerSegment) {
  using T = TypeParam;
  for (const Shape &sh : shapes) {
    const Layout l = layout(sh.count, sh.lo, sh.hi, 2, 3, sh.count + 1);
    std::vector<T> k = random_keys<T>(l.size, 11);
    std::vector<unsigned> pos(l.size);
    std::iota(pos.begin(), pos.end(), 0u);
    gpu::vector<T> dk = gpu::copy(k);
    gpu::vector<unsigned> dp = gpu::copy(pos);
    gpu::vector<int> doff = gpu::copy(l.offsets);
    gpu::segmented_sort_by_key(dk, dp, doff);
    for (std::size_t s = 0; s + 1 < l.offsets.size(); ++s)
      std::stable_sort(pos.begin() + l.offsets[s], pos.begin() + l.offsets[s + 1],
                       [&](unsigned a, unsigned b) { return k[a] < k[b]; });
    std::vector<T> sorted(l.size);
    for (std::size_t i = 0; i < l.size; ++i)
      sorted[i] = k[pos[i]];
    ASSERT_EQ(gpu::copy(dp), pos) << sh.count << " segments of " << sh.lo << ".." << sh.hi;
    ASSERT_EQ(gpu::copy(dk), sorted) << sh.count << " segments of " << sh.lo << ".." << sh.hi;
  }
}

TYPED_TEST(SegmentedScanSortTyped, SortDescendingMatchesTheHost) {
  using T = TypeParam;
  for (const Shape &sh : shapes) {
    const Layout l = layout(sh.count, sh.lo, sh.hi, 0, 0, sh.count + 2);
    std::vector<T> k = random_keys<T>(l.size, 13);
    gpu::vector<T> dk = gpu::copy(k);
    gpu::vector<int> doff = gpu::copy(l.offsets);
    gpu::segmented_sort(dk, doff, std::greater<>{});
    for (std::size_t s = 0; s + 1 < l.offsets.size(); ++s)
      std::sort(k.begin() + l.offsets[s], k.begin() + l.offsets[s + 1], std::greater<T>());
    ASSERT_EQ(gpu::copy(dk), k) << sh.count << " segments of " << sh.lo << ".." << sh.hi;
  }
}

struct Payload { // 24 bytes: tiles of 2048 keys and payloads exceed the shared memory
  double a, b, c;
};

TEST(SegmentedSortViews, LargeValuesTakeSmallerTilesOrTheGlobalSort) {
  for (const Shape &sh : {Shape{101, 0, 512}, Shape{23, 600, 2048}}) {
    const Layout l = layout(sh.count, sh.lo, sh.hi, 0, 0, sh.count + 3);
    const std::vector<int> k = random_keys<int>(l.size, 41);
    std::vector<Payload> p(l.size);
    for (std::size_t i = 0; i < l.size; ++i)
      p[i] = Payload{double(i), -double(i), 0.5 * double(i)};
    gpu::vector<int> dk = gpu::copy(k), doff = gpu::copy(l.offsets);
    gpu::vector<Payload> dp = gpu::copy(p);
    gpu::segmented_sort_by_key(dk, dp, doff);
    std::vector<unsigned> pos(l.size);
    std::iota(pos.begin(), pos.end(), 0u);
    for (std::size_t s = 0; s + 1 < l.offsets.size(); ++s)
      std::stable_sort(pos.begin() + l.offsets[s], pos.begin() + l.offsets[s + 1],
                       [&](unsigned a, unsigned b) { return k[a] < k[b]; });
    const std::vector<Payload> r = gpu::copy(dp);
    for (std::size_t i = 0; i < l.size; ++i) {
      ASSERT_EQ(r[i].a, double(pos[i])) << i;
      ASSERT_EQ(r[i].c, 0.5 * double(pos[i])) << i;
    }
  }
}

TEST(SegmentedScanViews, ATransformViewInAnOutputViewOutAndANonCommutativeOp) {
  // Segments of 5 from an iota view of offsets; values through a transform view; the
  // output through transform_output; op keeps the first element (associative, not
  // commutative) for the inclusive scan.
  const std::size_t segments = 301, len = 5;
  const std::vector<int> v = pacxx_test::ints(segments * len, 3, -50, 50);
  gpu::vector<int> dv = gpu::copy(v), out(v.size(), 0);
  auto offsets =
      view::iota(0, static_cast<int>(segments) + 1) | view::transform([](int s) { return s * 5; });
  auto twice = [](int x) { return 2 * x; };
  gpu::segmented_exclusive_scan(dv | view::transform(twice), offsets,
                                out | gpu::views::transform_output([](int x) { return x + 1; }),
                                10);
  std::vector<int> r = gpu::copy(out);
  for (std::size_t s = 0; s < segments; ++s) {
    int acc = 10;
    for (std::size_t i = s * len; i < (s + 1) * len; ++i) {
      ASSERT_EQ(r[i], acc + 1) << i;
      acc += 2 * v[i];
    }
  }
  gpu::segmented_inclusive_scan(dv, offsets, out, [](int a, int) { return a; });
  r = gpu::copy(out);
  for (std::size_t i = 0; i < v.size(); ++i)
    ASSERT_EQ(r[i], v[i - i % len]) << i;
}

TEST(SegmentedScanViews, InPlaceLongSegments) {
  const Layout l = layout(5, 4000, 6000, 0, 0, 17);
  const std::vector<long long> v = pacxx_test::random_vector<long long>(l.size, 19, -1e6, 1e6);
  gpu::vector<long long> dv = gpu::copy(v);
  gpu::vector<int> doff = gpu::copy(l.offsets);
  gpu::segmented_inclusive_scan(dv, doff, dv);
  std::vector<long long> h = v;
  for (std::size_t s = 0; s + 1 < l.offsets.size(); ++s)
    std::partial_sum(h.begin() + l.offsets[s], h.begin() + l.offsets[s + 1],
                     h.begin() + l.offsets[s]);
  EXPECT_EQ(gpu::copy(dv), h);
}

TEST(SegmentedSortViews, AUserComparatorOnFloatsAndNoSegments) {
  // By absolute value, stable: -1 and 1 keep their order.
  const Layout l = layout(200, 0, 300, 0, 0, 23);
  const std::vector<float> k = pacxx_test::random_floats(l.size, 29, -8.f, 8.f);
  std::vector<float> rounded(k.size());
  std::transform(k.begin(), k.end(), rounded.begin(), [](float x) { return float(int(x)); });
  gpu::vector<float> dk = gpu::copy(rounded);
  gpu::vector<int> doff = gpu::copy(l.offsets);
  auto by_abs = [](float a, float b) { return (a < 0 ? -a : a) < (b < 0 ? -b : b); };
  gpu::segmented_sort(dk, doff, by_abs);
  std::vector<float> h = rounded;
  for (std::size_t s = 0; s + 1 < l.offsets.size(); ++s)
    std::stable_sort(h.begin() + l.offsets[s], h.begin() + l.offsets[s + 1], by_abs);
  EXPECT_EQ(gpu::copy(dk), h);

  // Long segments with a comparator that is no radix order: the global merge sort, by
  // key with values, and elements before the first and after the last segment.
  const Layout ll = layout(4, 1500, 6000, 7, 9, 31);
  const std::vector<float> lk = pacxx_test::random_floats(ll.size, 37, -8.f, 8.f);
  std::vector<unsigned> pos(ll.size);
  std::iota(pos.begin(), pos.end(), 0u);
  rounded.resize(ll.size);
  std::transform(lk.begin(), lk.end(), rounded.begin(), [](float x) { return float(int(x)); });
  dk = gpu::copy(rounded);
  gpu::vector<unsigned> dp = gpu::copy(pos);
  doff = gpu::copy(ll.offsets);
  gpu::segmented_sort_by_key(dk, dp, doff, by_abs);
  for (std::size_t s = 0; s + 1 < ll.offsets.size(); ++s)
    std::stable_sort(pos.begin() + ll.offsets[s], pos.begin() + ll.offsets[s + 1],
                     [&](unsigned a, unsigned b) { return by_abs(rounded[a], rounded[b]); });
  EXPECT_EQ(gpu::copy(dp), pos);

  gpu::vector<int> none(1, 0), keys = gpu::copy(std::vector<int>{3, 2, 1});
  gpu::segmented_sort(keys, none);
  gpu::segmented_inclusive_scan(keys, none, keys);
  EXPECT_EQ(gpu::copy(keys), (std::vector<int>{3, 2, 1}));
}

// Every call with bad offsets throws a pacxx::error naming it and changes nothing.
template <class Call>
void expect_error_and_unchanged(const char *name, const std::vector<int> &o, Call call) {
  gpu::vector<int> keys = gpu::copy(std::vector<int>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  gpu::vector<int> out(10, 42), doff = gpu::copy(o);
  try {
    call(keys, doff, out);
    FAIL() << "no error from " << name;
  } catch (const pacxx::error &e) {
    EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
  }
  EXPECT_EQ(gpu::copy(keys), (std::vector<int>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0})) << name;
  EXPECT_EQ(gpu::copy(out), std::vector<int>(10, 42)) << name;
}

TEST(SegmentedScanSortErrors, BadOffsetsAreErrorsAndTheDataIsUnchanged) {
  for (const std::vector<int> &o : {std::vector<int>{0, 5, 3, 8}, std::vector<int>{0, 5, 11},
                                    std::vector<int>{-1, 5}, std::vector<int>{}}) {
    expect_error_and_unchanged(
        "gpu::segmented_inclusive_scan", o,
        [](gpu::vector<int> &k, gpu::vector<int> &off, gpu::vector<int> &out) {
          gpu::segmented_inclusive_scan(k, off, out);
        });
    expect_error_and_unchanged(
        "gpu::segmented_exclusive_scan", o,
        [](gpu::vector<int> &k, gpu::vector<int> &off, gpu::vector<int> &out) {
          gpu::segmented_exclusive_scan(k, off, out, 0);
        });
    expect_error_and_unchanged("gpu::segmented_sort", o,
                               [](gpu::vector<int> &k, gpu::vector<int> &off, gpu::vector<int> &) {
                                 gpu::segmented_sort(k, off);
                               });
    expect_error_and_unchanged(
        "gpu::segmented_sort_by_key", o,
        [](gpu::vector<int> &k, gpu::vector<int> &off, gpu::vector<int> &out) {
          gpu::segmented_sort_by_key(k, out, off);
        });
  }
  gpu::vector<int> k(10), small(9), off = gpu::copy(std::vector<int>{0, 10});
  EXPECT_THROW(gpu::segmented_inclusive_scan(k, off, small), pacxx::error);
  EXPECT_THROW(gpu::segmented_sort_by_key(k, small, off), pacxx::error);
}

} // namespace

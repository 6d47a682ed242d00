// End-to-end: the Thrust-parity algorithms on neighbours, partitions and elements (issue
// 38, items 3 and 4) against the host STL.
//   neighbours  gpu::adjacent_difference(in, out[, op]) out of place and in place,
//               views on input and output; gpu::is_sorted_until; gpu::mismatch
//   partitions  gpu::partition_copy / stable_partition_copy (both counts; outputs exactly
//               sized, too small: pacxx::error, outputs unchanged), gpu::partition,
//               gpu::is_partitioned, gpu::partition_point
//   elements    gpu::transform_if (with and without stencil), gpu::scatter_if,
//               gpu::gather_if, gpu::replace / replace_if / replace_copy /
//               replace_copy_if, gpu::equal_range, gpu::tabulate, gpu::sequence
//   types       int, unsigned, long long, float, double and a user struct where the
//               operation allows; sizes 0, 1, a prime, 2^20 + 3
//   contract    launch counts with pacxx::stats()
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <numeric>
#include <utility>
#include <vector>

namespace view = ranges::views;

// A user POD, selected and compared by its key.
struct Rec {
  int key;
  float weight;
};
inline bool operator==(const Rec &a, const Rec &b) {
  return a.key == b.key && a.weight == b.weight;
}

namespace {

using pacxx_test::big;
using pacxx_test::prime;
const std::size_t sizes[] = {0, 1, prime, big};

template <class T> T make(int v) { return static_cast<T>(v); }
template <> Rec make<Rec>(int v) { return Rec{v, 0.25f * static_cast<float>(v)}; }
inline long long key(const Rec &r) { return r.key; }
template <class T> long long key(const T &x) { return static_cast<long long>(x); }

template <class T> std::vector<T> values(std::size_t n, std::uint64_t seed, int lo, int hi) {
  pacxx_test::rng r(seed);
  std::vector<T> v(n);
  for (auto &x : v)
    x = make<T>(static_cast<int>(r.integer(lo, hi)));
  return v;
}

struct even {
  template <class T> bool operator()(const T &x) const { return key(x) % 2 == 0; }
};
struct small {
  template <class T> bool operator()(const T &x) const { return key(x) < 10; }
};
struct plus_op {
  template <class T> T operator()(const T &a, const T &b) const { return a + b; }
};
struct twice {
  template <class T> T operator()(const T &x) const { return x + x; }
};

// ---- adjacent_difference ---------------------------------------------------------------

template <class T> class AdjacentDifference : public ::testing::Test {};
using Arithmetic = ::testing::Types<int, unsigned, long long, float, double>;
TYPED_TEST_SUITE(AdjacentDifference, Arithmetic);

TYPED_TEST(AdjacentDifference, MatchesStdOutOfPlaceAndInPlace) {
  using T = TypeParam;
  for (std::size_t n : sizes) {
    const std::vector<T> h = values<T>(n, n + 1, 0, 1000);
    std::vector<T> want(n);
    std::adjacent_difference(h.begin(), h.end(), want.begin());
    gpu::vector<T> x = gpu::copy(h), out(n + 3, make<T>(7));
    gpu::adjacent_difference(x, out);
    std::vector<T> got = gpu::copy(out), expect = want;
    expect.resize(n + 3, make<T>(7));
    ASSERT_EQ(got, expect) << "n = " << n;
    // In place, as Thrust allows: the element before each tile is saved first.
    gpu::adjacent_difference(x, x);
    ASSERT_EQ(gpu::copy(x), want) << "in place, n = " << n;
  }
}

TEST(AdjacentDifference, ViewsAndOperation) {
  for (std::size_t n : sizes) {
    const std::vector<int> h = values<int>(n, n + 2, -500, 500);
    gpu::vector<int> x = gpu::copy(h);
    // A view in, a custom operation, a view out (the odd slots of a larger vector).
    std::vector<int> doubled(n);
    std::transform(h.begin(), h.end(), doubled.begin(), twice{});
    std::vector<int> want(n);
    std::adjacent_difference(doubled.begin(), doubled.end(), want.begin(), plus_op{});
    gpu::vector<int> out(2 * n, -1);
    gpu::adjacent_difference(x | view::transform(twice{}), out | view::stride(2), plus_op{});
    const std::vector<int> got = gpu::copy(out);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[2 * i], want[i]) << "n = " << n << " i = " << i;
      ASSERT_EQ(got[2 * i + 1], -1);
    }
    // In place through a view over the vector (a contiguous view of the same memory).
    std::vector<int> want2(n);
    std::adjacent_difference(h.begin(), h.end(), want2.begin());
    gpu::adjacent_difference(x, view::all(x));
    ASSERT_EQ(gpu::copy(x), want2) << "n = " << n;
  }
  gpu::vector<int> a(10), b(9);
  EXPECT_THROW(gpu::adjacent_difference(a, b), pacxx::error);
  // Overlapping the input shifted: an error before anything is written.
  gpu::vector<int> c = gpu::copy(std::vector<int>{1, 2, 3, 4, 5, 6});
  EXPECT_THROW(gpu::adjacent_difference(c | view::take(5), c | view::drop(1)), pacxx::error);
  EXPECT_EQ(gpu::copy(c), (std::vector<int>{1, 2, 3, 4, 5, 6}));
}

// ---- partitions ------------------------------------------------------------------------

template <class T> class PartitionCopy : public ::testing::Test {};
using PartitionTypes = ::testing::Types<int, unsigned long long, double, Rec>;
TYPED_TEST_SUITE(PartitionCopy, PartitionTypes);

TYPED_TEST(PartitionCopy, MatchesStd) {
  using T = TypeParam;
  for (std::size_t n : sizes) {
    const std::vector<T> h = values<T>(n, n + 3, 0, 100);
    std::vector<T> wt, wf;
    std::partition_copy(h.begin(), h.end(), std::back_inserter(wt), std::back_inserter(wf), even{});
    gpu::vector<T> x = gpu::copy(h);
    // Outputs as large as the input: the clear and one pass.
    gpu::vector<T> yes(n, make<T>(-1)), no(n + 1, make<T>(-1));
    const auto c = gpu::partition_copy(x, yes, no, even{});
    ASSERT_EQ(c.first, wt.size());
    ASSERT_EQ(c.second, wf.size());
    std::vector<T> gy = gpu::copy(yes), gn = gpu::copy(no);
    gy.resize(wt.size());
    gn.resize(wf.size());
    ASSERT_EQ(gy, wt) << "n = " << n;
    ASSERT_EQ(gn, wf) << "n = " << n;
    // Exactly sized outputs: counted first.
    gpu::vector<T> ey(wt.size()), en(wf.size());
    ASSERT_EQ(gpu::stable_partition_copy(x, ey, en, even{}), c);
    ASSERT_EQ(gpu::copy(ey), wt);
    ASSERT_EQ(gpu::copy(en), wf);
    // Too small for the false part: an error, both outputs unchanged.
    if (!wf.empty()) {
      gpu::vector<T> ty(n, make<T>(3)), tn(wf.size() - 1, make<T>(3));
      EXPECT_THROW(gpu::partition_copy(x, ty, tn, even{}), pacxx::error);
      ASSERT_EQ(gpu::copy(ty), std::vector<T>(n, make<T>(3)));
      ASSERT_EQ(gpu::copy(tn), std::vector<T>(wf.size() - 1, make<T>(3)));
    }
  }
}

TEST(Partition, ViewsInAndOut) {
  for (std::size_t n : sizes) {
    const std::vector<int> h = values<int>(n, n + 4, 0, 100);
    std::vector<int> doubled(n), wt, wf;
    std::transform(h.begin(), h.end(), doubled.begin(), [](int v) { return v + 1; });
    std::partition_copy(doubled.begin(), doubled.end(), std::back_inserter(wt),
                        std::back_inserter(wf), even{});
    gpu::vector<int> x = gpu::copy(h), yes(n, 0), no(n, 0);
    auto inc = [](int v) { return v + 1; };
    const auto c = gpu::partition_copy(x | view::transform(inc), yes | view::reverse,
                                       no | view::take(n), even{});
    ASSERT_EQ(c.first, wt.size());
    std::vector<int> gy = gpu::copy(yes), gn = gpu::copy(no);
    std::reverse(gy.begin(), gy.end());
    gy.resize(wt.size());
    gn.resize(wf.size());
    ASSERT_EQ(gy, wt);
    ASSERT_EQ(gn, wf);
  }
}

TEST(Partition, InPlaceIsPartitionedAndPartitionPoint) {
  for (std::size_t n : sizes) {
    std::vector<int> h = values<int>(n, n + 5, 0, 100);
    gpu::vector<int> x = gpu::copy(h);
    EXPECT_EQ(gpu::is_partitioned(x, small{}), std::is_partitioned(h.begin(), h.end(), small{}));
    const std::size_t t = gpu::partition(x, small{});
    const std::vector<int> got = gpu::copy(x);
    const auto mid = std::partition(h.begin(), h.end(), small{});
    ASSERT_EQ(t, static_cast<std::size_t>(mid - h.begin())) << "n = " << n;
    EXPECT_TRUE(std::all_of(got.begin(), got.begin() + t, small{}));
    EXPECT_TRUE(std::none_of(got.begin() + t, got.end(), small{}));
    std::vector<int> a = got, b = h;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    ASSERT_EQ(a, b);
    EXPECT_TRUE(gpu::is_partitioned(x, small{}));
    EXPECT_EQ(gpu::partition_point(x, small{}), t);
    // A view of the partitioned data: its reverse is partitioned the other way.
    auto not_small = [](int v) { return v >= 10; };
    EXPECT_EQ(gpu::partition_point(x | view::reverse, not_small), n - t);
    if (t > 0 && t < n) {
      EXPECT_FALSE(gpu::is_partitioned(x | view::reverse, small{}));
    }
  }
}

// ---- neighbours: is_sorted_until, mismatch ---------------------------------------------

TEST(Neighbours, IsSortedUntilAndMismatch) {
  for (std::size_t n : sizes) {
    std::vector<int> h = values<int>(n, n + 6, -1000, 1000);
    std::sort(h.begin(), h.end());
    gpu::vector<int> x = gpu::copy(h);
    EXPECT_EQ(gpu::is_sorted_until(x), n);
    EXPECT_EQ(gpu::mismatch(x, x), std::make_pair(n, n));
    if (n < 2)
      continue;
    for (std::size_t at : {std::size_t(1), n / 2, n - 1}) {
      std::vector<int> g = h;
      g[at] = h[at - 1] - 1; // out of order at `at`
      gpu::vector<int> y = gpu::copy(g);
      EXPECT_EQ(gpu::is_sorted_until(y),
                static_cast<std::size_t>(std::is_sorted_until(g.begin(), g.end()) - g.begin()));
      EXPECT_EQ(gpu::is_sorted_until(y | view::reverse, std::greater<>{}),
                static_cast<std::size_t>(
                    std::is_sorted_until(g.rbegin(), g.rend(), std::greater<>{}) - g.rbegin()));
      const auto m = std::mismatch(h.begin(), h.end(), g.begin(), g.end());
      const std::size_t i = static_cast<std::size_t>(m.first - h.begin());
      EXPECT_EQ(gpu::mismatch(x, y), std::make_pair(i, i));
    }
    // Different lengths: the shorter ends the search.
    EXPECT_EQ(gpu::mismatch(x, x | view::take(n / 2)), std::make_pair(n / 2, n / 2));
  }
  const std::vector<Rec> a = values<Rec>(prime, 7, 0, 9);
  std::vector<Rec> b = a;
  b[500].weight += 1.0f;
  gpu::vector<Rec> da = gpu::copy(a), db = gpu::copy(b);
  EXPECT_EQ(gpu::mismatch(da, db), std::make_pair(std::size_t(500), std::size_t(500)));
  auto same_key = [](const Rec &p, const Rec &q) { return p.key == q.key; };
  EXPECT_EQ(gpu::mismatch(da, db, same_key), std::make_pair(prime, prime));
}

// ---- conditional element-wise ----------------------------------------------------------

TEST(Elements, TransformIf) {
  for (std::size_t n : sizes) {
    const std::vector<int> h = values<int>(n, n + 8, 0, 100);
    const std::vector<float> s = values<float>(n, n + 9, 0, 1);
    std::vector<float> want(n, -1.f), want_s(n, -1.f);
    for (std::size_t i = 0; i < n; ++i) {
      if (even{}(h[i]))
        want[i] = 0.5f * static_cast<float>(h[i]);
      if (s[i] > 0.5f)
        want_s[i] = 0.5f * static_cast<float>(h[i]);
    }
    auto half = [](int v) { return 0.5f * static_cast<float>(v); };
    auto on = [](float v) { return v > 0.5f; };
    gpu::vector<int> x = gpu::copy(h);
    gpu::vector<float> st = gpu::copy(s), out(n, -1.f), out_s(n, -1.f);
    gpu::transform_if(x, out, half, even{});
    ASSERT_EQ(gpu::copy(out), want) << "n = " << n;
    gpu::transform_if(x, st, out_s, half, on);
    ASSERT_EQ(gpu::copy(out_s), want_s) << "n = " << n;
  }
  gpu::vector<int> a(10), b(9);
  EXPECT_THROW(gpu::transform_if(a, b, twice{}, even{}), pacxx::error);
}

TEST(Elements, ScatterIfAndGatherIf) {
  for (std::size_t n : sizes) {
    const std::vector<Rec> h = values<Rec>(n, n + 10, -100, 100);
    std::vector<int> map(n), stencil(n);
    std::iota(map.begin(), map.end(), 0);
    std::reverse(map.begin(), map.end());
    pacxx_test::rng r(n + 11);
    for (auto &s : stencil)
      s = static_cast<int>(r.integer(0, 1));
    const Rec fill{-7, 0.f};
    std::vector<Rec> want_s(n, fill), want_g(n, fill);
    for (std::size_t i = 0; i < n; ++i)
      if (stencil[i]) {
        want_s[map[i]] = h[i];
        want_g[i] = h[map[i]];
      }
    gpu::vector<Rec> x = gpu::copy(h), out(n, fill), out_g(n, fill);
    gpu::vector<int> m = gpu::copy(map), st = gpu::copy(stencil);
    gpu::scatter_if(x, m, st, out);
    ASSERT_EQ(gpu::copy(out), want_s) << "n = " << n;
    gpu::gather_if(m, st, x, out_g);
    ASSERT_EQ(gpu::copy(out_g), want_g) << "n = " << n;
    // A predicate on the stencil, a view as map: the inverted stencil, every slot once.
    auto off = [](int s) { return s == 0; };
    gpu::scatter_if(x, m | view::transform([](int v) { return v; }), st, out, off);
    for (std::size_t i = 0; i < n; ++i)
      if (!stencil[i])
        want_s[map[i]] = h[i];
    ASSERT_EQ(gpu::copy(out), want_s);
  }
  gpu::vector<int> v(10), m(9), s(10), o(10);
  EXPECT_THROW(gpu::scatter_if(v, m, s, o), pacxx::error);
  EXPECT_THROW(gpu::gather_if(v, m, s, o), pacxx::error);
}

template <class T> class Replace : public ::testing::Test {};
using ReplaceTypes = ::testing::Types<int, double, Rec>;
TYPED_TEST_SUITE(Replace, ReplaceTypes);

TYPED_TEST(Replace, MatchesStd) {
  using T = TypeParam;
  for (std::size_t n : sizes) {
    const std::vector<T> h = values<T>(n, n + 12, 0, 20);
    const T old_value = make<T>(4), new_value = make<T>(-1);
    std::vector<T> w1 = h, w2 = h, w3(n), w4(n);
    std::replace(w1.begin(), w1.end(), old_value, new_value);
    std::replace_if(w2.begin(), w2.end(), even{}, new_value);
    std::replace_copy(h.begin(), h.end(), w3.begin(), old_value, new_value);
    std::replace_copy_if(h.begin(), h.end(), w4.begin(), small{}, new_value);
    gpu::vector<T> a = gpu::copy(h), b = gpu::copy(h), c(n), d(n);
    gpu::replace(a, old_value, new_value);
    gpu::replace_if(b, even{}, new_value);
    gpu::replace_copy(a, c, old_value, new_value); // a: already replaced, as w1
    gpu::vector<T> x = gpu::copy(h);
    gpu::replace_copy(x, c, old_value, new_value);
    gpu::replace_copy_if(x, d, small{}, new_value);
    ASSERT_EQ(gpu::copy(a), w1) << "n = " << n;
    ASSERT_EQ(gpu::copy(b), w2) << "n = " << n;
    ASSERT_EQ(gpu::copy(c), w3) << "n = " << n;
    ASSERT_EQ(gpu::copy(d), w4) << "n = " << n;
  }
}

TEST(Elements, ReplaceThroughViews) {
  const std::vector<int> h = values<int>(prime, 13, 0, 9);
  gpu::vector<int> x = gpu::copy(h);
  gpu::replace(x | view::drop(10), 3, 100); // the first 10 elements keep their 3s
  std::vector<int> want = h;
  std::replace(want.begin() + 10, want.end(), 3, 100);
  ASSERT_EQ(gpu::copy(x), want);
  gpu::vector<int> out(prime);
  gpu::replace_copy(x | view::transform(twice{}), out, 200, -5);
  std::vector<int> want2(prime);
  std::transform(want.begin(), want.end(), want2.begin(), twice{});
  std::replace(want2.begin(), want2.end(), 200, -5);
  ASSERT_EQ(gpu::copy(out), want2);
}

TEST(Elements, EqualRange) {
  for (std::size_t n : sizes) {
    std::vector<int> h = values<int>(n, n + 14, 0, 50);
    std::sort(h.begin(), h.end());
    gpu::vector<int> x = gpu::copy(h);
    for (int v : {-1, 0, 7, 25, 50, 51}) {
      const auto r = std::equal_range(h.begin(), h.end(), v);
      const auto want = std::make_pair(static_cast<std::size_t>(r.first - h.begin()),
                                       static_cast<std::size_t>(r.second - h.begin()));
      EXPECT_EQ(gpu::equal_range(x, v), want) << "n = " << n << " v = " << v;
      // Descending through a reversed view, with the matching comparison.
      const auto rr = std::equal_range(h.rbegin(), h.rend(), v, std::greater<>{});
      EXPECT_EQ(gpu::equal_range(x | view::reverse, v, std::greater<>{}),
                std::make_pair(static_cast<std::size_t>(rr.first - h.rbegin()),
                               static_cast<std::size_t>(rr.second - h.rbegin())));
    }
  }
}

TEST(Elements, TabulateAndSequence) {
  for (std::size_t n : sizes) {
    gpu::vector<long long> t(n);
    gpu::tabulate(t, [](std::size_t i) { return static_cast<long long>(i * i) - 5; });
    std::vector<long long> want(n);
    for (std::size_t i = 0; i < n; ++i)
      want[i] = static_cast<long long>(i * i) - 5;
    ASSERT_EQ(gpu::copy(t), want);
    gpu::vector<float> s(n);
    gpu::sequence(s);
    std::vector<float> ws(n);
    std::iota(ws.begin(), ws.end(), 0.f);
    ASSERT_EQ(gpu::copy(s), ws);
    gpu::vector<int> q(2 * n, 0);
    gpu::sequence(q | view::stride(2), 10, -3);
    const std::vector<int> gq = gpu::copy(q);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(gq[2 * i], 10 - 3 * static_cast<int>(i));
  }
}

// ---- launches --------------------------------------------------------------------------

TEST(Launches, Counts) {
  const std::size_t n = big;
  const std::vector<int> h = values<int>(n, 15, 0, 100);
  std::vector<int> sorted = h;
  std::sort(sorted.begin(), sorted.end());
  gpu::vector<int> x = gpu::copy(h), y = gpu::copy(h), out(n), no(n), s = gpu::copy(sorted);
  gpu::vector<int> map(n), st(n, 1);
  gpu::sequence(map);
  const std::size_t c = static_cast<std::size_t>(std::count_if(h.begin(), h.end(), even{}));
  gpu::vector<int> ey(c), en(n - c);
  auto run_all = [&] {
    gpu::adjacent_difference(x, out);           // 1
    gpu::adjacent_difference(y, y);             // 2: the saved tile boundaries, the pass
    gpu::partition_copy(x, out, no, even{});    // 2: clear, pass
    gpu::partition_copy(x, ey, en, even{});     // 2: count, pass
    (void)gpu::is_partitioned(x, even{});       // 1
    (void)gpu::partition_point(s, small{});     // 1
    (void)gpu::is_sorted_until(s);              // 1
    (void)gpu::mismatch(x, s);                  // 1
    (void)gpu::equal_range(s, 42);              // 1
    gpu::transform_if(x, out, twice{}, even{}); // 1
    gpu::scatter_if(x, map, st, out);           // 1
    gpu::gather_if(map, st, x, out);            // 1
    gpu::replace(y, 3, 4);                      // 1
    gpu::replace_copy_if(x, out, even{}, 0);    // 1
    gpu::tabulate(out, [](std::size_t i) { return int(i); }); // 1
  };
  run_all(); // warm-up: JIT, scratch, pool
  pacxx::reset_stats();
  run_all();
  const auto stats = pacxx_test::counts();
  EXPECT_EQ(stats.kernel_launches, 1u + 2 + 2 + 2 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1);
  EXPECT_EQ(stats.device_allocations, stats.pool_hits);
}

} // namespace

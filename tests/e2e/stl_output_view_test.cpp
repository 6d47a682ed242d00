// End-to-end: gpu::views::transform_output, the output view that applies g on store
// (Thrust's transform_output_iterator), against host references. Built as C++14, so
// that the view's header is checked as C++14 too.
//   algorithms  inclusive_scan, exclusive_scan, transform, copy (device range or
//               filtered view into a view), copy_if, gather, scatter, merge,
//               inclusive/exclusive_scan_by_key, reduce_by_key, lower_bound,
//               upper_bound, binary_search, fill, for_each; on a queue: transform,
//               copy
//   types       int and float (integer valued, so every order of additions is exact),
//               a user struct; g changing the type (float -> int, struct -> pair
//               written into a zip of two vectors, int -> struct, int -> tuple into a
//               zip of three)
//   sizes       0, 1, a prime, 2^20 + 3 (hundreds of scan tiles)
//   views       input views fused into the loads; the output view over a zip, a slice,
//               a gather view, another transform_output, and reversed itself; in place
//               (out's base is the input)
//   contract    g gets what the algorithm stores (the accumulator types are std's);
//               sizes checked; the fused scan is the plain scan's two launches (the
//               tile clear and the pass), transform and copy one
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <tuple>
#include <type_traits>
#include <vector>

namespace view = ranges::views;
namespace gv = gpu::views;

// A value type of the user's.
struct Pt {
  int a;
  float b;
};
inline bool operator==(const Pt &x, const Pt &y) { return x.a == y.a && x.b == y.b; }

namespace {

const std::size_t sizes[] = {0, 1, pacxx_test::prime, pacxx_test::big};

// What the view is.
using IntOut =
    decltype(std::declval<gpu::vector<int> &>() | gv::transform_output(pacxx_test::twice));
static_assert(ranges::random_access_range<IntOut>, "random access");
static_assert(ranges::sized_range<IntOut>, "sized");
static_assert(ranges::view_<IntOut>, "a view");
static_assert(pacxx::is_device_copyable<IntOut>::value, "device copyable");
static_assert(pacxx::is_device_range<IntOut>::value, "a device range");
static_assert(pacxx::detail::is_write_only<IntOut>::value, "write-only");
static_assert(pacxx::detail::is_write_only<decltype(std::declval<IntOut>() | view::reverse)>::value,
              "write-only, reversed");
static_assert(!pacxx::detail::is_write_only<gpu::vector<int>>::value, "a vector is readable");

// Values in [-2, 2] as T: squares summed over 2^20 elements stay below 2^24.
template <class T> std::vector<T> small_values(std::size_t n, std::uint64_t seed) {
  const auto v = pacxx_test::ints(n, seed, -2, 2);
  return std::vector<T>(v.begin(), v.end());
}

// ---- scans -----------------------------------------------------------------------------

template <class T> class OutputScan : public ::testing::Test {};
using Types = ::testing::Types<int, float>;
TYPED_TEST_SUITE(OutputScan, Types);

TYPED_TEST(OutputScan, InclusiveWithViewsOnBothSides) {
  using T = TypeParam;
  auto f = [](T v) { return v * v; };
  auto g = [](T v) { return T(2) * v + T(1); };
  for (std::size_t n : sizes) {
    const std::vector<T> h = small_values<T>(n, 3 + n);
    gpu::vector<T> x = gpu::copy(h), out(n, T(-7));
    gpu::inclusive_scan(x | view::transform(f), out | gv::transform_output(g));
    std::vector<T> expect(n);
    T run = T(0);
    for (std::size_t i = 0; i < n; ++i) {
      run += f(h[i]);
      expect[i] = g(run);
    }
    EXPECT_EQ(gpu::copy(out), expect) << "n = " << n;
  }
}

TYPED_TEST(OutputScan, ExclusiveWithInit) {
  using T = TypeParam;
  auto g = [](T v) { return v - T(3); };
  for (std::size_t n : sizes) {
    const std::vector<T> h = small_values<T>(n, 5 + n);
    gpu::vector<T> x = gpu::copy(h), out(n);
    gpu::exclusive_scan(x, gv::transform_output(out, g), T(5));
    std::vector<T> expect(n);
    T run = T(5);
    for (std::size_t i = 0; i < n; ++i) {
      expect[i] = g(run);
      run += h[i];
    }
    EXPECT_EQ(gpu::copy(out), expect) << "n = " << n;
  }
}

TYPED_TEST(OutputScan, InPlace) {
  // out's base is the input: a scan never reads what it has stored.
  using T = TypeParam;
  auto mx = [](T a, T b) { return a < b ? b : a; };
  auto g = [](T v) { return T(10) * v; };
  for (std::size_t n : sizes) {
    std::vector<T> h = small_values<T>(n, 7 + n);
    gpu::vector<T> x = gpu::copy(h);
    gpu::inclusive_scan(x, x | gv::transform_output(g), mx);
    T run = n ? h[0] : T(0);
    for (std::size_t i = 0; i < n; ++i) {
      run = mx(run, h[i]);
      h[i] = g(run);
    }
    EXPECT_EQ(gpu::copy(x), h) << "n = " << n;
  }
}

TEST(OutputScan, FloatScanStoredAsInt) {
  for (std::size_t n : sizes) {
    const std::vector<float> h = small_values<float>(n, 11 + n);
    gpu::vector<float> x = gpu::copy(h);
    gpu::vector<int> out(n);
    gpu::inclusive_scan(x, out | gv::transform_output([](float v) { return int(v) * 3; }));
    std::vector<int> expect(n);
    float run = 0.f;
    for (std::size_t i = 0; i < n; ++i) {
      run += h[i];
      expect[i] = int(run) * 3;
    }
    EXPECT_EQ(gpu::copy(out), expect) << "n = " << n;
  }
}

TEST(OutputScan, UserStructIntoAZipOfTwoVectors) {
  auto add = [](Pt p, Pt q) { return Pt{p.a + q.a, p.b + q.b}; };
  auto split = [](Pt p) { return std::make_pair(p.a, 2.f * p.b); }; // a zip of two: pairs
  for (std::size_t n : sizes) {
    const std::vector<int> ia = pacxx_test::ints(n, 13 + n, -5, 5);
    const std::vector<int> ib = pacxx_test::ints(n, 17 + n, -2, 2);
    std::vector<Pt> h(n);
    for (std::size_t i = 0; i < n; ++i)
      h[i] = Pt{ia[i], float(ib[i])};
    gpu::vector<Pt> x = gpu::copy(h);
    gpu::vector<int> a(n);
    gpu::vector<float> b(n);
    gpu::inclusive_scan(x, view::zip(a, b) | gv::transform_output(split), add);
    std::vector<int> ea(n);
    std::vector<float> eb(n);
    Pt run{0, 0.f};
    for (std::size_t i = 0; i < n; ++i) {
      run = add(run, h[i]);
      ea[i] = run.a;
      eb[i] = 2.f * run.b;
    }
    EXPECT_EQ(gpu::copy(a), ea) << "n = " << n;
    EXPECT_EQ(gpu::copy(b), eb) << "n = " << n;
  }
}

TEST(OutputScan, IntIntoUserStruct) {
  const std::size_t n = pacxx_test::big;
  const std::vector<int> h = pacxx_test::ints(n, 19, -3, 3);
  gpu::vector<int> x = gpu::copy(h);
  gpu::vector<Pt> out(n);
  gpu::exclusive_scan(x, out | gv::transform_output([](int v) {
                           return Pt{v, 0.5f * float(v)};
                         }),
                      0);
  const std::vector<Pt> got = gpu::copy(out);
  int run = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(got[i], (Pt{run, 0.5f * float(run)})) << "i = " << i;
    run += h[i];
  }
}

TEST(OutputScan, AccumulatorTypesAreStds) {
  // g gets the algorithm's value: the input's value type for the inclusive scan,
  // init's for the exclusive one, never out's element type.
  const std::size_t n = 4000;
  const std::vector<int> h = pacxx_test::ints(n, 23, -100, 100);
  gpu::vector<int> x = gpu::copy(h);
  gpu::vector<long long> out(n);
  gpu::inclusive_scan(x, out | gv::transform_output([](auto v) {
                           return std::is_same<decltype(v), int>::value ? 3LL * v : -1LL;
                         }));
  std::vector<long long> got = gpu::copy(out);
  long long run = 0;
  for (std::size_t i = 0; i < n; ++i) {
    run += h[i];
    ASSERT_EQ(got[i], 3 * run) << "i = " << i;
  }
  gpu::vector<int> narrow(n);
  gpu::exclusive_scan(x, narrow | gv::transform_output([](auto v) {
                           return std::is_same<decltype(v), double>::value ? int(v * 2.0) : -1;
                         }),
                      0.25);
  const std::vector<int> gn = gpu::copy(narrow);
  double drun = 0.25;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(gn[i], int(drun * 2.0)) << "i = " << i;
    drun += h[i];
  }
  // gpu::transform hands g f's result (a float), not out's value type.
  gpu::transform(x, narrow | gv::transform_output([](auto v) {
                      return std::is_same<decltype(v), float>::value ? int(v * 2.f) : -1;
                    }),
                 [](int v) { return float(v) + 0.5f; });
  const std::vector<int> gt = gpu::copy(narrow);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(gt[i], 2 * h[i] + 1) << "i = " << i;
}

TEST(OutputScan, OutputViewsComposed) {
  const std::size_t n = pacxx_test::big;
  const std::vector<int> h = pacxx_test::ints(n, 29, -50, 50);
  gpu::vector<int> x = gpu::copy(h);
  std::vector<long long> scan(n);
  long long run = 0;
  for (std::size_t i = 0; i < n; ++i)
    scan[i] = run += h[i];
  auto g1 = [](int v) { return 2LL * v; };
  auto g2 = [](long long v) { return v + 1; };
  gpu::vector<long long> out(n + 4, -1);
  // Over a slice, itself reversed: out[2 + n - 1 - i] = g1(scan[i]).
  gpu::inclusive_scan(x, out | view::slice(std::size_t(2), n + 2) | gv::transform_output(g1) |
                             view::reverse);
  std::vector<long long> expect(n + 4, -1);
  for (std::size_t i = 0; i < n; ++i)
    expect[2 + n - 1 - i] = g1(int(scan[i]));
  EXPECT_EQ(gpu::copy(out), expect);
  // Nested: the outer function first, then the inner one.
  gpu::inclusive_scan(x, out | gv::transform_output(g2) | gv::transform_output(g1));
  for (std::size_t i = 0; i < n; ++i) // beyond n: as the first scan left them
    expect[i] = g2(g1(int(scan[i])));
  EXPECT_EQ(gpu::copy(out), expect);
  // Over a gather view: a scan scattered through a permutation.
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  pacxx_test::rng r(31);
  for (std::size_t i = n - 1; i > 0; --i)
    std::swap(perm[i], perm[std::size_t(r.integer(0, static_cast<long long>(i)))]);
  gpu::vector<int> p = gpu::copy(perm);
  gpu::vector<long long> scattered(n);
  gpu::inclusive_scan(x, gv::gather(scattered, p) | gv::transform_output(g1));
  std::vector<long long> es(n);
  for (std::size_t i = 0; i < n; ++i)
    es[std::size_t(perm[i])] = g1(int(scan[i]));
  EXPECT_EQ(gpu::copy(scattered), es);
}

TEST(OutputScan, OutputTooSmallIsAnErrorAndWritesNothing) {
  gpu::vector<int> x = gpu::copy(std::vector<int>(100, 1)), out(99, 7);
  EXPECT_THROW(gpu::inclusive_scan(x, out | gv::transform_output(pacxx_test::twice)), pacxx::error);
  EXPECT_THROW(gpu::copy(x, out | gv::transform_output(pacxx_test::twice)), pacxx::error);
  EXPECT_THROW(gpu::transform(x, out | gv::transform_output(pacxx_test::twice), pacxx_test::twice),
               pacxx::error);
  EXPECT_EQ(gpu::copy(out), std::vector<int>(99, 7));
}

TEST(OutputScan, FusedScanIsThePlainScansLaunches) {
  const std::size_t n = pacxx_test::big;
  gpu::vector<float> x = gpu::copy(std::vector<float>(n, 1.f)), out(n);
  auto sq = [](float v) { return v * v; };
  auto half = [](float v) { return 0.5f * v; };
  gpu::inclusive_scan(x | view::transform(sq), out); // warm-up: JIT and scratch
  gpu::inclusive_scan(x | view::transform(sq), out | gv::transform_output(half));
  gpu::transform(x, out | gv::transform_output(half), sq);
  gpu::copy(x, out | gv::transform_output(half));
  pacxx::reset_stats();
  gpu::inclusive_scan(x | view::transform(sq), out);
  auto s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 2u); // the plain scan: the tile-state clear and the pass
  pacxx::reset_stats();
  gpu::inclusive_scan(x | view::transform(sq), out | gv::transform_output(half));
  s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 2u); // the same with g fused into the stores
  EXPECT_EQ(s.device_allocations, s.pool_hits);
  EXPECT_EQ(gpu::copy(out)[n - 1], 0.5f * float(n));
  pacxx::reset_stats();
  gpu::transform(x, out | gv::transform_output(half), sq);
  EXPECT_EQ(gpu::copy(x, out | gv::transform_output(half)), n);
  s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 2u); // one each
  EXPECT_EQ(gpu::copy(out), std::vector<float>(n, 0.5f));
}

// ---- the other algorithms that write an output ----------------------------------------

TEST(OutputAlgorithms, TransformAndCopy) {
  auto g = [](int v) { return float(v) * 0.5f; };
  auto f = [](int v) { return v * 3 + 1; };
  for (std::size_t n : sizes) {
    const std::vector<int> h = pacxx_test::ints(n, 37 + n);
    gpu::vector<int> x = gpu::copy(h);
    gpu::vector<float> out(n);
    std::vector<float> expect(n);
    gpu::transform(x, out | gv::transform_output(g), f);
    for (std::size_t i = 0; i < n; ++i)
      expect[i] = g(f(h[i]));
    EXPECT_EQ(gpu::copy(out), expect) << "n = " << n;
    // A device vector, and a view over one, copied into the output view.
    EXPECT_EQ(gpu::copy(x, out | gv::transform_output(g)), n);
    for (std::size_t i = 0; i < n; ++i)
      expect[i] = g(h[i]);
    EXPECT_EQ(gpu::copy(out), expect) << "n = " << n;
    EXPECT_EQ(gpu::copy(x | view::reverse, out | gv::transform_output(g)), n);
    for (std::size_t i = 0; i < n; ++i)
      expect[i] = g(h[n - 1 - i]);
    EXPECT_EQ(gpu::copy(out), expect) << "n = " << n;
    // In place.
    gpu::transform(x, x | gv::transform_output([](int v) { return v - 1; }), f);
    std::vector<int> ex(n);
    for (std::size_t i = 0; i < n; ++i)
      ex[i] = f(h[i]) - 1;
    EXPECT_EQ(gpu::copy(x), ex) << "n = " << n;
  }
}

TEST(OutputAlgorithms, CopyIfAndFilteredCopy) {
  auto even = [](int v) { return v % 2 == 0; };
  auto g = [](int v) { return 10LL * v; };
  for (std::size_t n : sizes) {
    const std::vector<int> h = pacxx_test::ints(n, 41 + n);
    gpu::vector<int> x = gpu::copy(h);
    std::vector<long long> expect(n, -1);
    std::size_t c = 0;
    for (int v : h)
      if (even(v))
        expect[c++] = g(v);
    gpu::vector<long long> out(n, -1);
    EXPECT_EQ(gpu::copy_if(x, out | gv::transform_output(g), even), c) << "n = " << n;
    EXPECT_EQ(gpu::copy(out), expect) << "n = " << n;
    gpu::vector<long long> out2(n, -1);
    EXPECT_EQ(gpu::copy(x | view::filter(even), out2 | gv::transform_output(g)), c);
    EXPECT_EQ(gpu::copy(out2), expect) << "n = " << n;
    // Into exactly as many as are selected (a count first), and one fewer: an error.
    gpu::vector<long long> exact(c);
    EXPECT_EQ(gpu::copy(x | view::filter(even), exact | gv::transform_output(g)), c);
    EXPECT_EQ(gpu::copy(exact), std::vector<long long>(expect.begin(), expect.begin() + c));
    if (c > 0) {
      gpu::vector<long long> fewer(c - 1, -1);
      EXPECT_THROW(gpu::copy(x | view::filter(even), fewer | gv::transform_output(g)),
                   pacxx::error);
      EXPECT_EQ(gpu::copy(fewer), std::vector<long long>(c - 1, -1));
    }
    // In place: the selected elements, g applied, at the front of the input.
    gpu::vector<int> y = gpu::copy(h);
    EXPECT_EQ(gpu::copy_if(y, y | gv::transform_output([](int v) { return v / 2; }), even), c);
    std::vector<int> ey = h;
    for (std::size_t i = 0, j = 0; i < n; ++i)
      if (even(h[i]))
        ey[j++] = h[i] / 2;
    EXPECT_EQ(gpu::copy(y), ey) << "n = " << n;
  }
}

TEST(OutputAlgorithms, OnAQueue) {
  const std::size_t n = pacxx_test::prime;
  const std::vector<int> h = pacxx_test::ints(n, 61);
  gpu::vector<int> x = gpu::copy(h), out(n), out2(n);
  pacxx::queue q;
  auto g = [](int v) { return v + 100; };
  gpu::transform(q, x, out | gv::transform_output(g), pacxx_test::twice);
  EXPECT_EQ(gpu::copy(q, x | view::reverse, out2 | gv::transform_output(g)), n);
  q.wait();
  std::vector<int> e(n), e2(n);
  for (std::size_t i = 0; i < n; ++i) {
    e[i] = 2 * h[i] + 100;
    e2[i] = h[n - 1 - i] + 100;
  }
  EXPECT_EQ(gpu::copy(out), e);
  EXPECT_EQ(gpu::copy(out2), e2);
}

TEST(OutputAlgorithms, GatherScatterAndMerge) {
  auto g = [](int v) { return v * 2 + 1; };
  for (std::size_t n : sizes) {
    const std::vector<int> h = pacxx_test::ints(n, 43 + n);
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    pacxx_test::rng r(47 + n);
    for (std::size_t i = n; i > 1; --i)
      std::swap(perm[i - 1], perm[std::size_t(r.integer(0, static_cast<long long>(i - 1)))]);
    gpu::vector<int> x = gpu::copy(h), p = gpu::copy(perm), out(n);
    std::vector<int> expect(n);
    gpu::gather(p, x, out | gv::transform_output(g));
    for (std::size_t i = 0; i < n; ++i)
      expect[i] = g(h[std::size_t(perm[i])]);
    EXPECT_EQ(gpu::copy(out), expect) << "gather, n = " << n;
    gpu::scatter(x, p, out | gv::transform_output(g));
    for (std::size_t i = 0; i < n; ++i)
      expect[std::size_t(perm[i])] = g(h[i]);
    EXPECT_EQ(gpu::copy(out), expect) << "scatter, n = " << n;

    std::vector<int> a = h, b = pacxx_test::ints(n / 3, 53 + n);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    gpu::vector<int> da = gpu::copy(a), db = gpu::copy(b);
    gpu::vector<long long> merged(a.size() + b.size());
    gpu::merge(da, db, merged | gv::transform_output([](int v) { return -2LL * v; }));
    std::vector<int> em(a.size() + b.size());
    std::merge(a.begin(), a.end(), b.begin(), b.end(), em.begin());
    std::vector<long long> expect_merged(em.size());
    for (std::size_t i = 0; i < em.size(); ++i)
      expect_merged[i] = -2LL * em[i];
    EXPECT_EQ(gpu::copy(merged), expect_merged) << "merge, n = " << n;
  }
}

TEST(OutputAlgorithms, ByKeyAndSearches) {
  auto g = [](int v) { return double(v) + 0.5; };
  for (std::size_t n : sizes) {
    std::vector<int> keys(n);
    for (std::size_t i = 0; i < n; ++i)
      keys[i] = int(i / 7);
    const std::vector<int> h = pacxx_test::ints(n, 59 + n, -9, 9);
    gpu::vector<int> k = gpu::copy(keys), x = gpu::copy(h);
    gpu::vector<double> out(n);
    std::vector<double> expect(n);
    gpu::inclusive_scan_by_key(k, x, out | gv::transform_output(g));
    int run = 0;
    for (std::size_t i = 0; i < n; ++i) {
      run = (i == 0 || keys[i] != keys[i - 1]) ? h[i] : run + h[i];
      expect[i] = g(run);
    }
    EXPECT_EQ(gpu::copy(out), expect) << "inclusive_scan_by_key, n = " << n;
    gpu::exclusive_scan_by_key(k, x, out | gv::transform_output(g), 4);
    for (std::size_t i = 0; i < n; ++i) {
      run = (i == 0 || keys[i] != keys[i - 1]) ? 4 : run + h[i - 1];
      expect[i] = g(run);
    }
    EXPECT_EQ(gpu::copy(out), expect) << "exclusive_scan_by_key, n = " << n;

    const std::size_t runs = n == 0 ? 0 : std::size_t(keys.back()) + 1;
    gpu::vector<long long> ok(runs);
    gpu::vector<double> ov(runs);
    EXPECT_EQ(gpu::reduce_by_key(k, x, ok | gv::transform_output([](int v) { return -1LL * v; }),
                                 ov | gv::transform_output(g)),
              runs);
    std::vector<long long> ek(runs);
    std::vector<double> ev(runs);
    for (std::size_t j = 0; j < runs; ++j) {
      ek[j] = -1LL * int(j);
      int sum = 0;
      for (std::size_t i = 7 * j; i < std::min(n, 7 * j + 7); ++i)
        sum += h[i];
      ev[j] = g(sum);
    }
    EXPECT_EQ(gpu::copy(ok), ek) << "reduce_by_key keys, n = " << n;
    EXPECT_EQ(gpu::copy(ov), ev) << "reduce_by_key values, n = " << n;

    // lower_bound of each key in the sorted keys: the first index of its run.
    gpu::vector<int> first(n);
    gpu::lower_bound(k, x | view::transform([](int v) { return v < 0 ? -v : v; }),
                     first | gv::transform_output([](std::size_t i) { return int(i) - 1; }));
    std::vector<int> ef(n);
    for (std::size_t i = 0; i < n; ++i) {
      const int q = h[i] < 0 ? -h[i] : h[i];
      ef[i] = int(std::lower_bound(keys.begin(), keys.end(), q) - keys.begin()) - 1;
    }
    EXPECT_EQ(gpu::copy(first), ef) << "lower_bound, n = " << n;
    gpu::upper_bound(k, x, first | gv::transform_output([](std::size_t i) { return 2 * int(i); }));
    gpu::vector<long long> found(n);
    gpu::binary_search(k, x, found | gv::transform_output([](bool b) { return b ? 5LL : -5LL; }));
    std::vector<long long> eb(n);
    for (std::size_t i = 0; i < n; ++i) {
      ef[i] = 2 * int(std::upper_bound(keys.begin(), keys.end(), h[i]) - keys.begin());
      eb[i] = std::binary_search(keys.begin(), keys.end(), h[i]) ? 5 : -5;
    }
    EXPECT_EQ(gpu::copy(first), ef) << "upper_bound, n = " << n;
    EXPECT_EQ(gpu::copy(found), eb) << "binary_search, n = " << n;
  }
}

TEST(OutputAlgorithms, FillAndForEach) {
  for (std::size_t n : sizes) {
    gpu::vector<int> a(n, 0);
    gpu::vector<float> b(n, 0.f);
    gpu::vector<long long> c(n, 0);
    gpu::fill(a | gv::transform_output([](int v) { return v * 3; }), 7);
    EXPECT_EQ(gpu::copy(a), std::vector<int>(n, 21)) << "n = " << n;
    // A zip of three: tuples.
    gpu::for_each(view::zip(a, b, c) | gv::transform_output([](int v) {
                    return std::make_tuple(v, 0.25f * float(v), -1LL * v);
                  }),
                  [](auto &&e) { e = 8; });
    EXPECT_EQ(gpu::copy(a), std::vector<int>(n, 8)) << "n = " << n;
    EXPECT_EQ(gpu::copy(b), std::vector<float>(n, 2.f)) << "n = " << n;
    EXPECT_EQ(gpu::copy(c), std::vector<long long>(n, -8)) << "n = " << n;
  }
}

} // namespace

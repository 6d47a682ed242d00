// End-to-end: the by-key algorithms, histograms and permutations (issue 9, items 3 and
// 6) against host references.
//   scans by key   gpu::inclusive_scan_by_key / exclusive_scan_by_key: Thrust's
//                  semantics (runs of consecutive equal keys; the exclusive one restarts
//                  at init in every run)
//   reduce_by_key  the first key of each run, the run's fold, the number of runs
//   histogram      gpu::histogram_even: uniform and skewed samples, the bounds, NaN
//   permutations   gpu::gather, gpu::scatter, gpu::views::gather fused into pipelines
//   types          int, unsigned, long long, unsigned long long, float, double
//                  (integer valued, so every order of additions is exact) and a user
//                  struct with its own op
//   sizes          0, 1, a prime, 2^20 + 3; runs of length 1, long runs, one run over
//                  everything, runs crossing tile boundaries; a custom eq; for
//                  reduce_by_key runs at its own thread, warp and tile boundaries
//   contract       outputs too small are errors, exact launch counts, every temporary
//                  from the pool after a warm-up
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

namespace view = ranges::views;

// A value type of the user's: a sum and a maximum folded together.
struct SumMax {
  long long sum;
  int max;
};
inline bool operator==(const SumMax &a, const SumMax &b) {
  return a.sum == b.sum && a.max == b.max;
}

namespace {

const std::size_t tile = pacxx::policy::scan_for<gpu::detail::flagged<int>>::block *
                         pacxx::policy::scan_for<gpu::detail::flagged<int>>::items;
const std::size_t sizes[] = {0, 1, pacxx_test::prime, pacxx_test::big};

// Keys whose runs have lengths in [1, max_run]; max_run 0: every key equal (one run).
std::vector<int> run_keys(std::size_t n, std::uint64_t seed, int max_run) {
  pacxx_test::rng r(seed);
  std::vector<int> k(n);
  int key = 0;
  for (std::size_t i = 0; i < n;) {
    const std::size_t len = max_run == 0 ? n : std::size_t(r.integer(1, max_run));
    key += int(r.integer(1, 3)); // consecutive runs differ
    for (std::size_t j = 0; j < len && i < n; ++j, ++i)
      k[i] = key;
  }
  return k;
}

// Keys whose runs end exactly at, one before and one after tile boundaries.
std::vector<int> boundary_keys(std::size_t n) {
  std::vector<int> k(n);
  int key = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = i % tile;
    if (i == 0 || r == 0 || r == tile - 1 || r == 1 || r == tile / 2)
      ++key;
    k[i] = key;
  }
  return k;
}

template <class T> std::vector<T> small_values(std::size_t n, std::uint64_t seed) {
  const auto v = pacxx_test::ints(n, seed, std::is_signed<T>::value ? -8 : 0, 8);
  return std::vector<T>(v.begin(), v.end());
}

// Host references.
template <class K, class T, class Eq, class Op>
std::vector<T> inclusive_ref(const std::vector<K> &k, const std::vector<T> &v, Eq eq, Op op) {
  std::vector<T> out(k.size());
  for (std::size_t i = 0; i < k.size(); ++i)
    out[i] = i > 0 && eq(k[i - 1], k[i]) ? op(out[i - 1], v[i]) : v[i];
  return out;
}
template <class K, class V, class T, class Eq, class Op>
std::vector<T> exclusive_ref(const std::vector<K> &k, const std::vector<V> &v, T init, Eq eq,
                             Op op) {
  std::vector<T> out(k.size());
  T run = init;
  for (std::size_t i = 0; i < k.size(); ++i) {
    if (i == 0 || !eq(k[i - 1], k[i]))
      run = init;
    out[i] = run;
    run = op(run, T(v[i]));
  }
  return out;
}
template <class K, class T, class Eq, class Op>
std::size_t reduce_ref(const std::vector<K> &k, const std::vector<T> &v, std::vector<K> &ok,
                       std::vector<T> &ov, Eq eq, Op op) {
  ok.clear();
  ov.clear();
  for (std::size_t i = 0; i < k.size(); ++i) {
    if (i == 0 || !eq(k[i - 1], k[i])) {
      ok.push_back(k[i]);
      ov.push_back(v[i]);
    } else {
      ov.back() = op(ov.back(), v[i]);
    }
  }
  return ok.size();
}

// The key sets every by-key test runs over: for each size, short runs; for the big
// size also long runs, one run, runs of length 1 and runs at tile boundaries.
std::vector<std::vector<int>> key_sets() {
  std::vector<std::vector<int>> sets;
  for (std::size_t n : sizes)
    sets.push_back(run_keys(n, 3 + n, 8));
  const std::size_t n = pacxx_test::big;
  sets.push_back(run_keys(n, 5, 5000)); // long runs, many crossing tiles
  sets.push_back(run_keys(n, 6, 0));    // one run over everything
  sets.push_back(run_keys(n, 7, 1));    // every run one element
  sets.push_back(boundary_keys(n));
  return sets;
}

template <class T> class ByKey : public ::testing::Test {};
using Types = ::testing::Types<int, unsigned, long long, unsigned long long, float, double>;
TYPED_TEST_SUITE(ByKey, Types);

// One test per type, so that the three kernels of a type are compiled once.
TYPED_TEST(ByKey, ScansAndReduceMatchTheHost) {
  using T = TypeParam;
  const std::equal_to<> eq;
  const std::plus<> op;
  for (const std::vector<int> &hk : key_sets()) {
    const std::size_t n = hk.size();
    const std::vector<T> hv = small_values<T>(n, 11 + n);
    gpu::vector<int> k = gpu::copy(hk);
    gpu::vector<T> v = gpu::copy(hv), out(n);

    gpu::inclusive_scan_by_key(k, v, out);
    ASSERT_EQ(gpu::copy(out), inclusive_ref(hk, hv, eq, op)) << "inclusive, n = " << n;

    gpu::exclusive_scan_by_key(k, v, out, T(3));
    ASSERT_EQ(gpu::copy(out), exclusive_ref(hk, hv, T(3), eq, op)) << "exclusive, n = " << n;

    std::vector<int> rk;
    std::vector<T> rv;
    const std::size_t runs = reduce_ref(hk, hv, rk, rv, eq, op);
    // Filled from the host (a fill is a kernel of its own per type: JIT time on PoCL).
    gpu::vector<int> ok = gpu::copy(std::vector<int>(n + 2, -7));
    gpu::vector<T> ov = gpu::copy(std::vector<T>(n + 2, T(7)));
    ASSERT_EQ(gpu::reduce_by_key(k, v, ok, ov), runs) << "n = " << n;
    std::vector<int> gk = gpu::copy(ok);
    std::vector<T> gv = gpu::copy(ov);
    rk.resize(n + 2, -7); // nothing written past the runs
    rv.resize(n + 2, T(7));
    ASSERT_EQ(gk, rk) << "reduce_by_key keys, n = " << n;
    ASSERT_EQ(gv, rv) << "reduce_by_key values, n = " << n;
  }
}

TEST(ByKey, UserStructWithItsOwnOpAndEq) {
  // Keys equal modulo 10 belong to one run (the first key of the run is the one kept);
  // values are folded by a struct op that is not plus.
  auto eq = [](long long a, long long b) { return a % 10 == b % 10; };
  auto op = [](SumMax a, SumMax b) { return SumMax{a.sum + b.sum, a.max > b.max ? a.max : b.max}; };
  for (std::size_t n : {std::size_t(1), pacxx_test::prime, pacxx_test::big}) {
    pacxx_test::rng r(n);
    std::vector<long long> hk(n);
    std::vector<SumMax> hv(n);
    long long digit = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (r.integer(0, 9) == 0)
        digit = (digit + r.integer(1, 9)) % 10;
      hk[i] = digit + 10 * r.integer(0, 1000); // equal modulo 10 within a run, not equal
      hv[i] = SumMax{r.integer(-50, 50), int(r.integer(-1000, 1000))};
    }
    gpu::vector<long long> k = gpu::copy(hk);
    gpu::vector<SumMax> v = gpu::copy(hv), out(n);

    gpu::inclusive_scan_by_key(k, v, out, eq, op);
    ASSERT_EQ(gpu::copy(out), inclusive_ref(hk, hv, eq, op)) << "n = " << n;
    const SumMax init{100, -5000};
    gpu::exclusive_scan_by_key(k, v, out, init, eq, op);
    ASSERT_EQ(gpu::copy(out), exclusive_ref(hk, hv, init, eq, op)) << "n = " << n;

    std::vector<long long> rk;
    std::vector<SumMax> rv;
    const std::size_t runs = reduce_ref(hk, hv, rk, rv, eq, op);
    gpu::vector<long long> ok(runs);
    gpu::vector<SumMax> ov(runs);
    ASSERT_EQ(gpu::reduce_by_key(k, v, ok, ov, eq, op), runs);
    EXPECT_EQ(gpu::copy(ok), rk);
    EXPECT_EQ(gpu::copy(ov), rv);
  }
}

TEST(ByKey, ViewsOnTheInputsAndTheOutput) {
  const std::size_t n = pacxx_test::big;
  const std::vector<int> hk = run_keys(n, 9, 40), hv = pacxx_test::ints(n, 10, -100, 100);
  gpu::vector<int> k = gpu::copy(hk), v = gpu::copy(hv);
  // Keys divided by 2 (a transform on the keys), values tripled in 64 bits, the output
  // reversed.
  auto keys = k | view::transform([](int x) { return x / 2; });
  auto values = v | view::transform([](int x) { return 3LL * x; });
  std::vector<int> hk2(n);
  std::vector<long long> hv3(n);
  for (std::size_t i = 0; i < n; ++i) {
    hk2[i] = hk[i] / 2;
    hv3[i] = 3LL * hv[i];
  }
  gpu::vector<long long> out(n);
  gpu::inclusive_scan_by_key(keys, values, out | view::reverse);
  std::vector<long long> expect = inclusive_ref(hk2, hv3, std::equal_to<>{}, std::plus<>{});
  std::reverse(expect.begin(), expect.end());
  EXPECT_EQ(gpu::copy(out), expect);

  std::vector<int> rk;
  std::vector<long long> rv;
  const std::size_t runs = reduce_ref(hk2, hv3, rk, rv, std::equal_to<>{}, std::plus<>{});
  gpu::vector<int> ok(runs);
  gpu::vector<long long> ov(runs);
  EXPECT_EQ(gpu::reduce_by_key(keys, values, ok, ov), runs);
  EXPECT_EQ(gpu::copy(ok), rk);
  EXPECT_EQ(gpu::copy(ov), rv);
}

TEST(ByKey, InPlaceOnTheValues) {
  const std::size_t n = pacxx_test::big;
  const std::vector<int> hk = run_keys(n, 12, 3000), hv = pacxx_test::ints(n, 13, -9, 9);
  gpu::vector<int> k = gpu::copy(hk), v = gpu::copy(hv);
  gpu::inclusive_scan_by_key(k, v, v);
  EXPECT_EQ(gpu::copy(v), inclusive_ref(hk, hv, std::equal_to<>{}, std::plus<>{}));
  v = gpu::copy(hv);
  gpu::exclusive_scan_by_key(k, v, v, 3);
  EXPECT_EQ(gpu::copy(v), exclusive_ref(hk, hv, 3, std::equal_to<>{}, std::plus<>{}));
}

// reduce_by_key's own tile (it has a policy of its own) and the stretches its loads
// move: a thread's `items` consecutive elements, a warp's 32 threads, the tile. Keys
// whose runs start at, one before and one after each such boundary, runs of items - 1
// and items + 1 elements (drifting across thread boundaries) and runs of one thread
// each, on inputs of whole tiles and one off.
template <class T> void reduce_by_key_at_boundaries() {
  using P = pacxx::policy::reduce_by_key_for<gpu::detail::run_fold<T>, int>;
  const std::size_t items = P::items, warp = 32 * items, rtile = P::block * items;
  using Head = bool (*)(std::size_t, std::size_t, std::size_t, std::size_t);
  const Head heads[] = {
      [](std::size_t i, std::size_t, std::size_t w, std::size_t t) {
        const std::size_t r = i % w;
        return r == 0 || r == 1 || r == w - 1 || i % t == t - 1 || i % t == 1;
      },
      [](std::size_t i, std::size_t it, std::size_t, std::size_t) { return i % (it - 1) == 0; },
      [](std::size_t i, std::size_t it, std::size_t, std::size_t) { return i % (it + 1) == 0; },
      [](std::size_t i, std::size_t it, std::size_t, std::size_t) { return i % it == 0; },
      [](std::size_t i, std::size_t it, std::size_t, std::size_t) { return i % it == it - 1; },
  };
  for (std::size_t n : {rtile, rtile + 1, 3 * rtile - 1, 3 * rtile}) {
    for (std::size_t h = 0; h < sizeof heads / sizeof heads[0]; ++h) {
      std::vector<int> hk(n);
      int key = 0;
      for (std::size_t i = 0; i < n; ++i)
        hk[i] = key += i == 0 || heads[h](i, items < 2 ? 2 : items, warp, rtile) ? 1 : 0;
      const std::vector<T> hv = small_values<T>(n, 31 + n + h);
      std::vector<int> rk;
      std::vector<T> rv;
      const std::size_t runs = reduce_ref(hk, hv, rk, rv, std::equal_to<>{}, std::plus<>{});
      gpu::vector<int> k = gpu::copy(hk);
      gpu::vector<T> v = gpu::copy(hv);
      gpu::vector<int> ok = gpu::copy(std::vector<int>(runs + 1, -7));
      gpu::vector<T> ov = gpu::copy(std::vector<T>(runs + 1, T(7)));
      ASSERT_EQ(gpu::reduce_by_key(k, v, ok, ov), runs) << "n = " << n << ", pattern " << h;
      rk.push_back(-7);
      rv.push_back(T(7));
      ASSERT_EQ(gpu::copy(ok), rk) << "keys, n = " << n << ", pattern " << h;
      ASSERT_EQ(gpu::copy(ov), rv) << "values, n = " << n << ", pattern " << h;

      // The same through a view of the keys (keys * 3, equal where the keys are).
      gpu::vector<int> ok3(runs);
      ASSERT_EQ(gpu::reduce_by_key(k | view::transform([](int x) { return 3 * x; }), v, ok3, ov),
                runs);
      std::vector<int> rk3(rk.begin(), rk.end() - 1);
      for (int &x : rk3)
        x *= 3;
      ASSERT_EQ(gpu::copy(ok3), rk3) << "key view, n = " << n << ", pattern " << h;
    }
  }
}

TEST(ByKey, ReduceByKeyRunsAtThreadWarpAndTileBoundaries) {
  reduce_by_key_at_boundaries<int>();    // 8-byte folds: 8 items per thread
  reduce_by_key_at_boundaries<double>(); // 16-byte folds: 4 items per thread
}

// Outputs too small by a lot, at a size of many tiles (their ends mid-tile): the error
// leaves them unchanged (the runs are counted before the pass; before issue 34 the runs
// that fit had been written).
TEST(ByKey, ReduceByKeyCapacityEndsMidTile) {
  const std::size_t n = pacxx_test::big;
  const std::vector<int> hk = run_keys(n, 21, 6), hv = pacxx_test::ints(n, 22, -9, 9);
  std::vector<int> rk, rv;
  const std::size_t runs = reduce_ref(hk, hv, rk, rv, std::equal_to<>{}, std::plus<>{});
  gpu::vector<int> k = gpu::copy(hk), v = gpu::copy(hv);
  for (bool keys_short : {true, false}) {
    const std::size_t fit = runs / 3 + 5; // the outputs' slots: fit, plus guards
    gpu::vector<int> ok = gpu::copy(std::vector<int>(keys_short ? fit + 1 : runs + 1, -7));
    gpu::vector<int> ov = gpu::copy(std::vector<int>(keys_short ? runs + 1 : fit + 1, -7));
    auto ok_fit = ok | view::take(keys_short ? fit : runs);
    auto ov_fit = ov | view::take(keys_short ? runs : fit);
    EXPECT_THROW(gpu::reduce_by_key(k, v, ok_fit, ov_fit), pacxx::error);
    EXPECT_EQ(gpu::copy(ok), std::vector<int>(ok.size(), -7))
        << (keys_short ? "keys short" : "values short");
    EXPECT_EQ(gpu::copy(ov), std::vector<int>(ov.size(), -7))
        << (keys_short ? "keys short" : "values short");
  }
}

TEST(ByKey, SizesAreChecked) {
  gpu::vector<int> k = gpu::copy(std::vector<int>{1, 1, 2, 3, 3, 3}),
                   v = gpu::copy(std::vector<int>(6, 1)), shorter(5);
  EXPECT_THROW(gpu::inclusive_scan_by_key(k, shorter, v), pacxx::error);
  EXPECT_THROW(gpu::exclusive_scan_by_key(k, v, shorter, 0), pacxx::error);
  EXPECT_THROW(gpu::reduce_by_key(k, shorter, v, v), pacxx::error);
  // Three runs: two slots are too few; the error leaves both outputs unchanged.
  gpu::vector<int> ok = gpu::copy(std::vector<int>(2, -1)), ov = gpu::copy(std::vector<int>(3, -2));
  EXPECT_THROW(gpu::reduce_by_key(k, v, ok, ov), pacxx::error);
  EXPECT_EQ(gpu::copy(ok), (std::vector<int>{-1, -1}));
  EXPECT_EQ(gpu::copy(ov), (std::vector<int>{-2, -2, -2}));
  // Outputs smaller than the input but large enough: counted, then written.
  gpu::vector<int> ok4(4, -1), ov4(4, -1);
  EXPECT_EQ(gpu::reduce_by_key(k, v, ok4, ov4), 3u);
  EXPECT_EQ(gpu::copy(ok4), (std::vector<int>{1, 2, 3, -1}));
  EXPECT_EQ(gpu::copy(ov4), (std::vector<int>{2, 1, 3, -1}));
  gpu::vector<int> ok3(3), ov3(3);
  EXPECT_EQ(gpu::reduce_by_key(k, v, ok3, ov3), 3u);
  EXPECT_EQ(gpu::copy(ov3), (std::vector<int>{2, 1, 3}));
}

TEST(ByKey, LaunchesAndAllocations) {
  const std::size_t n = pacxx_test::big;
  gpu::vector<int> k = gpu::copy(run_keys(n, 14, 8)), v = gpu::copy(std::vector<int>(n, 1)), out(n),
                   ok(n), ov(n);
  gpu::inclusive_scan_by_key(k, v, out); // warm-up: JIT and scratch
  gpu::exclusive_scan_by_key(k, v, out, 0);
  const std::size_t runs = gpu::reduce_by_key(k, v, ok, ov);
  pacxx::reset_stats();
  gpu::inclusive_scan_by_key(k, v, out);
  gpu::exclusive_scan_by_key(k, v, out, 0);
  EXPECT_EQ(gpu::reduce_by_key(k, v, ok, ov), runs);
  const auto s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 6u); // each: the tile-state clear and the single pass
  EXPECT_EQ(s.device_allocations, s.pool_hits);
}

// ---- histogram_even ------------------------------------------------------------------

template <class T>
std::vector<unsigned long long> histogram_ref(const std::vector<T> &x, std::size_t bins, T lower,
                                              T upper) {
  std::vector<unsigned long long> h(bins, 0);
  const auto map = gpu::detail::even_bins<T>::make(bins, lower, upper);
  for (const T &v : x) {
    const std::size_t b = map(v, bins);
    if (b < bins)
      ++h[b];
  }
  return h;
}

// Samples: uniform over [lo - 10% of the range, hi + 10%) or (skewed) 90% of them in
// three bins; plus the edge cases appended.
template <class T>
std::vector<T> samples(std::size_t n, std::uint64_t seed, double lo, double hi, bool skewed) {
  pacxx_test::rng r(seed);
  std::vector<T> x(n);
  const double w = hi - lo;
  for (auto &v : x) {
    if (skewed && r.integer(0, 9) != 0)
      v = T(lo + w * (r.integer(0, 2) == 0 ? 0.5 : 0.01));
    else
      v = T(r.uniform(lo - 0.1 * w, hi + 0.1 * w));
  }
  return x;
}

template <class T> class Histogram : public ::testing::Test {};
using HistogramTypes = ::testing::Types<int, float, double>;
TYPED_TEST_SUITE(Histogram, HistogramTypes);

TYPED_TEST(Histogram, MatchesTheHost) {
  using T = TypeParam;
  const T lower = T(-100), upper = T(156);
  const std::size_t bins = 256;
  for (std::size_t n : sizes) {
    for (bool skewed : {false, true}) {
      std::vector<T> x = samples<T>(n, 17 + n, -100, 156, skewed);
      const std::vector<unsigned long long> expect = histogram_ref(x, bins, lower, upper);
      EXPECT_EQ(gpu::copy(gpu::histogram_even(gpu::copy(x), bins, lower, upper)), expect)
          << "n = " << n << (skewed ? ", skewed" : ", uniform");
    }
  }
}

TYPED_TEST(Histogram, Bounds) {
  using T = TypeParam;
  const T lower = T(-100), upper = T(156);
  const std::size_t bins = 256;
  const bool floating = std::is_floating_point<T>::value;
  // Exactly lower: bin 0. Just below upper: the last bin. upper and beyond, below lower:
  // ignored, as NaN.
  std::vector<T> x = {lower, lower, upper, T(upper + 1), T(lower - 1), T(0)};
  x.push_back(floating ? std::nextafter(upper, lower) : T(upper - 1));
  if (floating) {
    x.push_back(std::numeric_limits<T>::quiet_NaN());
    x.push_back(std::numeric_limits<T>::infinity());
    x.push_back(-std::numeric_limits<T>::infinity());
    x.push_back(std::nextafter(lower, upper));
    x.push_back(std::nextafter(lower, T(-1000)));
  }
  const std::vector<unsigned long long> got =
      gpu::copy(gpu::histogram_even(gpu::copy(x), bins, lower, upper));
  std::vector<unsigned long long> expect(bins, 0);
  expect[0] = floating ? 3 : 2;
  expect[100] = 1; // 0
  expect[bins - 1] = 1;
  EXPECT_EQ(got, expect);
  EXPECT_EQ(got, histogram_ref(x, bins, lower, upper));
}

TEST(Histogram, FloatRoundingJustBelowUpperStaysInTheLastBin) {
  // bins / (upper - lower) rounds so that the largest float below upper maps to `bins`
  // before the clamp.
  const float lower = 0.1f, upper = 0.7f;
  const std::size_t bins = 3;
  const float below = std::nextafter(upper, lower);
  ASSERT_GE(std::size_t((below - lower) * (float(bins) / (upper - lower))), bins - 1);
  const std::vector<float> x = {below, lower, upper};
  const std::vector<unsigned long long> got =
      gpu::copy(gpu::histogram_even(gpu::copy(x), bins, lower, upper));
  EXPECT_EQ(got, (std::vector<unsigned long long>{1, 0, 1}));
}

TEST(Histogram, ManyBinsUseGlobalAtomicsAndViewsAreFused) {
  // More bins than fit in shared memory, the samples a view (a transform of an iota).
  const std::size_t n = pacxx_test::big, bins = 100000;
  auto x = view::iota(std::size_t(0), n) | view::transform([](std::size_t i) {
             return static_cast<long long>(i * 2654435761u % 300007) - 7;
           });
  std::vector<long long> hx(n);
  for (std::size_t i = 0; i < n; ++i)
    hx[i] = (long long)(i * 2654435761u % 300007) - 7;
  const long long lower = 0, upper = 300000;
  EXPECT_EQ(gpu::copy(gpu::histogram_even(x, bins, lower, upper)),
            histogram_ref(hx, bins, lower, upper));
}

TEST(Histogram, BlocksThatCountSeveralTilesMatchTheHost) {
  // Above policy::histogram::shared_min_blocks tiles, and from shared_cut_min_bins bins,
  // each block of the shared-memory kernel counts two or more tiles (the grid is cut so
  // that fewer blocks flush into the result): the tiles a block strides over, a partial
  // last tile, the fewest bins cut and the largest number of shared bins; with fewer bins
  // one block a tile.
  using P = pacxx::policy::histogram;
  const std::size_t tile = P::block * P::items, cut = P::shared_cut_min_bins;
  EXPECT_EQ(gpu::detail::shared_histogram_blocks(1, cut), 1u);
  EXPECT_EQ(gpu::detail::shared_histogram_blocks(P::shared_min_blocks, cut), P::shared_min_blocks);
  EXPECT_EQ(gpu::detail::shared_histogram_blocks(P::shared_min_blocks + 1, cut),
            P::shared_min_blocks);
  EXPECT_EQ(gpu::detail::shared_histogram_blocks(P::shared_min_blocks + 1, cut - 1),
            P::shared_min_blocks + 1);
  EXPECT_EQ(
      gpu::detail::shared_histogram_blocks(P::max_blocks * P::shared_tiles_per_block + 1, cut),
      P::max_blocks);
  EXPECT_EQ(gpu::detail::shared_histogram_blocks(P::max_blocks + 1, 1), P::max_blocks);
  const std::size_t tiles = P::shared_min_blocks * P::shared_tiles_per_block + 3;
  ASSERT_LT(gpu::detail::shared_histogram_blocks(tiles, cut), tiles);
  const std::size_t n = tiles * tile - tile / 3;
  for (std::size_t bins : {cut - 1, cut, P::shared_bins}) {
    const std::vector<float> x = samples<float>(n, 41 + bins, -100, 156, true);
    EXPECT_EQ(gpu::copy(gpu::histogram_even(gpu::copy(x), bins, -100.f, 156.f)),
              histogram_ref(x, bins, -100.f, 156.f))
        << bins << " bins";
  }
}

TEST(Histogram, LaunchesAndAllocations) {
  const std::size_t n = pacxx_test::big;
  gpu::vector<float> x = gpu::copy(samples<float>(n, 3, -100, 156, false));
  // Warm-up (JIT); its result freed, so that the next one's memory comes from the pool.
  const std::vector<unsigned long long> warm =
      gpu::copy(gpu::histogram_even(x, 256, -100.f, 156.f));
  pacxx::reset_stats();
  gpu::vector<unsigned long long> h = gpu::histogram_even(x, 256, -100.f, 156.f);
  const auto s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 2u); // the zero fill and the pass
  EXPECT_EQ(s.device_allocations, s.pool_hits);
  EXPECT_EQ(gpu::copy(h), warm);
  EXPECT_THROW(gpu::histogram_even(x, 0, -100.f, 156.f), pacxx::error); // as CUB: no bins
  EXPECT_EQ(gpu::copy(gpu::histogram_even(x, 4, 1.f, 1.f)),
            (std::vector<unsigned long long>(4, 0))); // empty interval: nothing counted
}

// ---- gather, scatter, views::gather ---------------------------------------------------

std::vector<int> permutation(std::size_t n, std::uint64_t seed) {
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  pacxx_test::rng r(seed);
  for (std::size_t i = n; i > 1; --i)
    std::swap(p[i - 1], p[std::size_t(r.integer(0, (long long)i - 1))]);
  return p;
}

TEST(Permutation, GatherAndScatter) {
  for (std::size_t n : sizes) {
    const std::vector<int> hp = permutation(n, n + 1);
    const std::vector<double> hs = pacxx_test::random_vector<double>(n, n + 2, -1, 1);
    gpu::vector<int> p = gpu::copy(hp);
    gpu::vector<double> s = gpu::copy(hs), out(n), back(n);
    gpu::gather(p, s, out);
    std::vector<double> expect(n);
    for (std::size_t i = 0; i < n; ++i)
      expect[i] = hs[hp[i]];
    ASSERT_EQ(gpu::copy(out), expect) << "n = " << n;
    gpu::scatter(out, p, back); // the inverse permutation
    ASSERT_EQ(gpu::copy(back), hs) << "n = " << n;
  }
  gpu::vector<int> p(3);
  gpu::vector<double> s(3), small(2);
  EXPECT_THROW(gpu::gather(p, s, small), pacxx::error);
  EXPECT_THROW(gpu::scatter(s, small, s), pacxx::error);
}

TEST(Permutation, GatherViewFusesIntoPipelines) {
  const std::size_t n = pacxx_test::big;
  const std::vector<int> hp = permutation(n, 21), ha = pacxx_test::ints(n, 22, -50, 50);
  gpu::vector<int> p = gpu::copy(hp), a = gpu::copy(ha);
  long long dot = 0, sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    dot += (long long)ha[hp[i]] * ha[i];
    sum += 2LL * ha[n - 1 - hp[i]];
  }
  // A permuted operand in a zip, reduced: one kernel, no temporary.
  pacxx::reset_stats();
  const long long got_dot =
      view::zip(gpu::views::gather(a, p), a) |
      view::transform([](const auto &t) { return (long long)std::get<0>(t) * std::get<1>(t); }) |
      gpu::reduce(0LL);
  EXPECT_EQ(pacxx_test::counts().kernel_launches, 1u);
  EXPECT_EQ(got_dot, dot);
  // The gathered source is itself a view (reversed, doubled); the map an rvalue.
  auto src = a | view::reverse | view::transform([](int x) { return 2LL * x; });
  EXPECT_EQ(gpu::reduce(gpu::views::gather(src, gpu::copy(hp)), 0LL), sum);
  // Writable: a transform into a gather view is a scatter.
  gpu::vector<int> out(n);
  gpu::transform(a, gpu::views::gather(out, p), [](int x) { return x + 1; });
  std::vector<int> expect(n);
  for (std::size_t i = 0; i < n; ++i)
    expect[hp[i]] = ha[i] + 1;
  EXPECT_EQ(gpu::copy(out), expect);
}

} // namespace

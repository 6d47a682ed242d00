// End-to-end: Thrust parity, the rest of issue 38 against the host STL.
//   discard     gpu::views::discard(n) as the output of transform, copy_if, partition_copy,
//               reduce_by_key's keys, unique_by_key_copy's keys
//   elements    host element access on gpu::vector: v[i] read and write, front, back,
//               compound assignment, bounds (pacxx::error), one transfer each
//   three-way   gpu::partition_copy with two predicates (CUB's DevicePartition::If)
//   selection   gpu::top_k (with and without indices, largest and smallest, a user
//               order), gpu::nth_element, gpu::partial_sort, gpu::shuffle
//   types       int, unsigned, long long, float, double and a user struct where the
//               operation allows; sizes 0, 1, a prime, 2^20 + 3
//   contract    launch counts with pacxx::stats()
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

namespace view = ranges::views;

// A user POD, selected and ordered by its key.
struct Item {
  int key;
  float weight;
};
inline bool operator==(const Item &a, const Item &b) {
  return a.key == b.key && a.weight == b.weight;
}

namespace {

using pacxx_test::big;
using pacxx_test::prime;
const std::size_t sizes[] = {0, 1, prime, big};
// 2^20 + 3 costs seconds per algorithm and type on PoCL: the typed tests run it for one
// type (int; float in TopK.SmallestViewsUserOrderErrorsAndLaunches).
template <class T> bool skip_big(std::size_t n) { return n == big && !std::is_same<T, int>::value; }

template <class T> T make(int v) { return static_cast<T>(v); }
template <> Item make<Item>(int v) { return Item{v, 0.5f * static_cast<float>(v)}; }
inline long long key(const Item &r) { return r.key; }
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
struct below_20 {
  template <class T> bool operator()(const T &x) const { return key(x) < 20; }
};
struct by_key_greater {
  bool operator()(const Item &a, const Item &b) const { return a.key > b.key; }
};

// ---- discard ---------------------------------------------------------------------------

TEST(Discard, DropsWhatIsWrittenWhereverAnOutputIs) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), prime}) {
    const std::vector<int> h = values<int>(n, n + 1, 0, 9);
    gpu::vector<int> x = gpu::copy(h);
    // transform and copy_if: nothing to see, counts still right
    gpu::transform(x, gpu::views::discard(n), [](int v) { return v * 2; });
    const std::size_t evens = static_cast<std::size_t>(std::count_if(h.begin(), h.end(), even{}));
    EXPECT_EQ(gpu::copy_if(x, gpu::views::discard(n), even{}), evens);
    // partition_copy keeping the true part only
    gpu::vector<int> yes(n, -1);
    const auto c = gpu::partition_copy(x, yes, gpu::views::discard(n), even{});
    ASSERT_EQ(c.first, evens);
    std::vector<int> want;
    std::copy_if(h.begin(), h.end(), std::back_inserter(want), even{});
    std::vector<int> got = gpu::copy(yes);
    got.resize(evens);
    ASSERT_EQ(got, want);
    // reduce_by_key keeping the sums, unique_by_key_copy keeping the values
    std::vector<int> keys(n);
    for (std::size_t i = 0; i < n; ++i)
      keys[i] = static_cast<int>(i / 3);
    std::vector<long long> sums;
    std::vector<int> firsts;
    for (std::size_t i = 0; i < n; ++i) {
      if (i % 3 == 0) {
        sums.push_back(0);
        firsts.push_back(h[i]);
      }
      sums.back() += h[i];
    }
    gpu::vector<int> dk = gpu::copy(keys);
    gpu::vector<long long> ds(n, 0);
    const std::size_t runs =
        gpu::reduce_by_key(dk, x | view::transform([](int v) { return static_cast<long long>(v); }),
                           gpu::views::discard(n), ds);
    ASSERT_EQ(runs, sums.size());
    std::vector<long long> gs = gpu::copy(ds);
    gs.resize(runs);
    ASSERT_EQ(gs, sums);
    gpu::vector<int> dv(n, 0);
    ASSERT_EQ(gpu::unique_by_key_copy(dk, x, gpu::views::discard(n), dv), firsts.size());
    std::vector<int> gv = gpu::copy(dv);
    gv.resize(firsts.size());
    ASSERT_EQ(gv, firsts);
  }
  // A discard too small is still too small.
  gpu::vector<int> x(10, 2);
  EXPECT_THROW(gpu::copy_if(x, gpu::views::discard(3), even{}), pacxx::error);
  static_assert(pacxx::detail::is_write_only<gpu::views::discard_view>::value, "write-only");
  static_assert(pacxx::is_device_copyable<gpu::views::discard_view>::value, "device copyable");
}

// ---- host element access ---------------------------------------------------------------

TEST(ElementAccess, ReadWriteFrontBackOneTransferEach) {
  const std::vector<double> h = values<double>(prime, 3, -100, 100);
  gpu::vector<double> v = gpu::copy(h);
  EXPECT_EQ(static_cast<double>(v[0]), h[0]);
  EXPECT_EQ(v.front(), h.front());
  EXPECT_EQ(v.back(), h.back());
  pacxx::synchronize();
  pacxx::reset_stats();
  const double a = v[500];
  v[7] = 1.5;
  const auto s = pacxx_test::counts();
  EXPECT_EQ(a, h[500]);
  EXPECT_EQ(s.bytes_to_host, sizeof(double));
  EXPECT_EQ(s.bytes_to_device, sizeof(double));
  EXPECT_EQ(s.kernel_launches, 0u);
  v[8] = v[7];
  v[9] += 2;
  ++v[10];
  v.front() = -1;
  v.back() = -2;
  std::vector<double> want = h;
  want[7] = want[8] = 1.5;
  want[9] += 2;
  want[10] += 1;
  want.front() = -1;
  want.back() = -2;
  ASSERT_EQ(gpu::copy(v), want);
  const gpu::vector<double> &c = v;
  EXPECT_EQ(c[9], want[9]);
  EXPECT_EQ(c.front(), -1.0);
  EXPECT_EQ(c.back(), -2.0);
  // After a kernel: the read waits for it.
  gpu::transform(v, v, [](double d) { return d * 2; });
  EXPECT_EQ(static_cast<double>(v[9]), 2 * want[9]);
  // Structures too.
  gpu::vector<Item> items(3, Item{1, 2.0f});
  items[1] = Item{5, 6.0f};
  const Item got = items[1];
  EXPECT_EQ(got, (Item{5, 6.0f}));
  // Bounds.
  EXPECT_THROW((void)v[prime], pacxx::error);
  gpu::vector<int> empty;
  EXPECT_THROW((void)empty.front(), pacxx::error);
  EXPECT_THROW((void)empty.back(), pacxx::error);
}

// ---- three-way partition ---------------------------------------------------------------

template <class T> class ThreeWay : public ::testing::Test {};
using Types = ::testing::Types<int, unsigned, long long, float, double, Item>;
TYPED_TEST_SUITE(ThreeWay, Types);

TYPED_TEST(ThreeWay, MatchesStdOrderKeptEachPart) {
  using T = TypeParam;
  for (std::size_t n : sizes) {
    if (skip_big<T>(n))
      continue;
    const std::vector<T> h = values<T>(n, n + 11, 0, 99);
    std::vector<T> w1, w2, w3;
    for (const T &x : h)
      (below_20{}(x) ? w1 : even{}(x) ? w2 : w3).push_back(x);
    gpu::vector<T> x = gpu::copy(h), a(n), b(n), c(n);
    const gpu::partition_counts k = gpu::partition_copy(x, a, b, c, below_20{}, even{});
    ASSERT_EQ(k.first, w1.size());
    ASSERT_EQ(k.second, w2.size());
    ASSERT_EQ(k.unselected, w3.size());
    std::vector<T> g1 = gpu::copy(a), g2 = gpu::copy(b), g3 = gpu::copy(c);
    g1.resize(k.first);
    g2.resize(k.second);
    g3.resize(k.unselected);
    ASSERT_EQ(g1, w1);
    ASSERT_EQ(g2, w2);
    ASSERT_EQ(g3, w3);
  }
}

TEST(ThreeWayPartition, ViewsExactOutputsErrorsAndLaunches) {
  const std::size_t n = prime;
  const std::vector<int> h = values<int>(n, 5, 0, 99);
  auto inc = [](int v) { return v + 1; };
  std::vector<int> w1, w2, w3;
  for (int v : h)
    (below_20{}(v + 1) ? w1 : even{}(v + 1) ? w2 : w3).push_back(v + 1);
  gpu::vector<int> x = gpu::copy(h), a(w1.size()), b(w2.size()), c(w3.size(), 0);
  pacxx::synchronize();
  pacxx::reset_stats();
  const auto k = gpu::partition_copy(x | view::transform(inc), a, b | view::reverse,
                                     gpu::views::discard(w3.size()), below_20{}, even{});
  EXPECT_EQ(pacxx_test::counts().kernel_launches, 5u); // two counts, two passes, one clear
  ASSERT_EQ(k.first, w1.size());
  ASSERT_EQ(k.second, w2.size());
  ASSERT_EQ(k.unselected, w3.size());
  ASSERT_EQ(gpu::copy(a), w1);
  std::vector<int> g2 = gpu::copy(b);
  std::reverse(g2.begin(), g2.end());
  ASSERT_EQ(g2, w2);
  // Large enough outputs: two clears and two passes.
  gpu::vector<int> a2(n), b2(n), c2(n);
  pacxx::reset_stats();
  gpu::partition_copy(x, a2, b2, c2, below_20{}, even{});
  EXPECT_EQ(pacxx_test::counts().kernel_launches, 4u);
  // Too small: an error, nothing written.
  gpu::vector<int> small(w2.size() - 1, 7);
  EXPECT_THROW(gpu::partition_copy(x | view::transform(inc), a, small, c, below_20{}, even{}),
               pacxx::error);
  EXPECT_EQ(gpu::copy(small), std::vector<int>(w2.size() - 1, 7));
  ASSERT_EQ(gpu::copy(a), w1);
}

// ---- top_k -----------------------------------------------------------------------------

// The first k of a stable sort by comp, with positions.
template <class T, class Comp>
std::pair<std::vector<T>, std::vector<std::size_t>> host_top_k(const std::vector<T> &h,
                                                               std::size_t k, Comp comp) {
  std::vector<std::size_t> idx(h.size());
  std::iota(idx.begin(), idx.end(), std::size_t(0));
  std::stable_sort(idx.begin(), idx.end(),
                   [&](std::size_t a, std::size_t b) { return comp(h[a], h[b]); });
  idx.resize(k);
  std::vector<T> vals;
  for (std::size_t i : idx)
    vals.push_back(h[i]);
  return {vals, idx};
}

template <class T> class TopK : public ::testing::Test {};
using Arithmetic = ::testing::Types<int, unsigned, long long, float, double>;
TYPED_TEST_SUITE(TopK, Arithmetic);

TYPED_TEST(TopK, LargestKWithIndicesMatchesStableSort) {
  using T = TypeParam;
  for (std::size_t n : {std::size_t(0), std::size_t(1), prime}) {
    // Many ties (values in [-500, 500]) and, for signed types, negatives.
    const std::vector<T> h = values<T>(n, n + 21, std::is_signed<T>::value ? -500 : 0, 500);
    gpu::vector<T> x = gpu::copy(h);
    for (std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(7), n}) {
      if (k > n)
        continue;
      const auto want = host_top_k(h, k, std::greater<>{});
      gpu::vector<T> vals(k);
      gpu::vector<long long> idx(k);
      gpu::top_k(x, k, vals, idx);
      ASSERT_EQ(gpu::copy(vals), want.first) << "n = " << n << ", k = " << k;
      const std::vector<long long> gi = gpu::copy(idx);
      ASSERT_EQ(std::vector<std::size_t>(gi.begin(), gi.end()), want.second)
          << "n = " << n << ", k = " << k;
    }
  }
}

TEST(TopK, SmallestViewsUserOrderErrorsAndLaunches) {
  // The smallest 100 of a view, written through a view, no indices.
  const std::vector<float> hs = pacxx_test::random_floats(prime * 7, 9, -1000.0f, 1000.0f);
  gpu::vector<float> xs = gpu::copy(hs);
  auto neg = [](float v) { return -v; };
  std::vector<float> hn(hs.size());
  std::transform(hs.begin(), hs.end(), hn.begin(), neg);
  const auto want = host_top_k(hn, 100, std::less<>{});
  gpu::vector<float> out(100, 0.0f);
  gpu::top_k(xs | view::transform(neg), 100, out | view::reverse, std::less<>{});
  std::vector<float> got = gpu::copy(out);
  std::reverse(got.begin(), got.end());
  ASSERT_EQ(got, want.first);
  // k = 1 is gpu::min_element over the keys' bits (one launch), the element and its
  // position taken by a transform of one (one), and the copy to out (one): no select.
  const std::size_t n = big;
  const std::vector<float> h = pacxx_test::random_floats(n, 10, -1000.0f, 1000.0f);
  gpu::vector<float> x = gpu::copy(h);
  gpu::vector<float> v1(1);
  pacxx::synchronize();
  pacxx::reset_stats();
  gpu::top_k(x, 1, v1);
  EXPECT_EQ(pacxx_test::counts().kernel_launches, 3u);
  EXPECT_EQ(static_cast<float>(v1[0]), *std::max_element(h.begin(), h.end()));
  // k > 1, 32-bit keys: the state's counters zeroed (a fill), 3 digits of (histogram,
  // pick), one compaction (clear, pass) of the keys up to the selected one, their sort
  // and the copy to out.
  gpu::vector<float> v100(100);
  pacxx::synchronize();
  pacxx::reset_stats();
  gpu::top_k(x, 100, v100);
  const std::size_t select_launches = 1 + 3 * 2 + 2;
  EXPECT_GT(pacxx_test::counts().kernel_launches, select_launches);
  const auto want100 = host_top_k(h, 100, std::greater<>{});
  ASSERT_EQ(gpu::copy(v100), want100.first);
  // A user order: sorted whole, cut.
  const std::vector<Item> hi = values<Item>(prime, 4, 0, 50);
  gpu::vector<Item> xi = gpu::copy(hi), oi(10);
  gpu::vector<int> ii(10);
  gpu::top_k(xi, 10, oi, ii, by_key_greater{});
  const auto wi = host_top_k(hi, 10, by_key_greater{});
  ASSERT_EQ(gpu::copy(oi), wi.first);
  const std::vector<int> gi = gpu::copy(ii);
  ASSERT_EQ(std::vector<std::size_t>(gi.begin(), gi.end()), wi.second);
  // Errors.
  EXPECT_THROW(gpu::top_k(x, n + 1, v1), pacxx::error);
  EXPECT_THROW(gpu::top_k(x, 2, v1), pacxx::error);
}

// The k-th key with far more copies than k (values 0..3 over 2^20 + 3 keys): the keys
// before it and its first copies in input order, by two compactions (selection.hpp's
// select_tie_slack), as the stable sort gives them.
TEST(TopK, ManyCopiesOfTheKthKeyKeepInputOrder) {
  const std::size_t n = big;
  const std::vector<int> h = values<int>(n, 77, 0, 3);
  gpu::vector<int> x = gpu::copy(h);
  for (std::size_t k : {std::size_t(2), std::size_t(1000)}) {
    gpu::vector<int> vals(k);
    gpu::vector<std::size_t> idx(k);
    gpu::top_k(x, k, vals, idx);
    const auto want = host_top_k(h, k, std::greater<>{});
    ASSERT_EQ(gpu::copy(vals), want.first) << "k = " << k;
    ASSERT_EQ(gpu::copy(idx), want.second) << "k = " << k;
    gpu::top_k(x, k, vals, idx, std::less<>{});
    const auto least = host_top_k(h, k, std::less<>{});
    ASSERT_EQ(gpu::copy(vals), least.first) << "k = " << k;
    ASSERT_EQ(gpu::copy(idx), least.second) << "k = " << k;
  }
}

// ---- nth_element, partial_sort -----------------------------------------------------------

template <class T> class Select : public ::testing::Test {};
using SelectTypes = ::testing::Types<int, float, double>;
TYPED_TEST_SUITE(Select, SelectTypes);

TYPED_TEST(Select, NthElementAndPartialSortMatchStd) {
  using T = TypeParam;
  // (2^20 + 3: the radix select and three-way partition under nth_element run at that size
  // in TopK's and ThreeWay's tests; here it cost 30 s on PoCL.)
  for (std::size_t n : {std::size_t(0), std::size_t(1), prime}) {
    const std::vector<T> h = values<T>(n, n + 31, -300, 300);
    std::vector<T> sorted = h;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t nth : {n / 3, n ? n - 1 : 0}) {
      if (nth >= n)
        continue;
      gpu::vector<T> v = gpu::copy(h);
      gpu::nth_element(v, nth);
      const std::vector<T> g = gpu::copy(v);
      ASSERT_EQ(g[nth], sorted[nth]) << "n = " << n << ", nth = " << nth;
      ASSERT_TRUE(std::all_of(g.begin(), g.begin() + nth, [&](T e) { return !(g[nth] < e); }));
      ASSERT_TRUE(std::all_of(g.begin() + nth, g.end(), [&](T e) { return !(e < g[nth]); }));
      std::vector<T> gs = g;
      std::sort(gs.begin(), gs.end());
      ASSERT_EQ(gs, sorted);
      // partial_sort descending: the k largest, sorted, at the front.
      const std::size_t k = nth + 1;
      gpu::vector<T> p = gpu::copy(h);
      gpu::partial_sort(p, k, std::greater<>{});
      std::vector<T> gp = gpu::copy(p);
      std::vector<T> want(sorted.rbegin(), sorted.rbegin() + k);
      gp.resize(k);
      ASSERT_EQ(gp, want) << "n = " << n << ", k = " << k;
    }
  }
}

TEST(Select, UserOrderAndErrors) {
  const std::vector<Item> h = values<Item>(prime, 8, 0, 100);
  gpu::vector<Item> v = gpu::copy(h);
  gpu::nth_element(v, 17, by_key_greater{});
  std::vector<Item> sorted = h;
  std::stable_sort(sorted.begin(), sorted.end(), by_key_greater{});
  EXPECT_EQ(static_cast<Item>(v[17]).key, sorted[17].key);
  gpu::vector<int> x = gpu::copy(values<int>(10, 1, 0, 5));
  EXPECT_THROW(gpu::nth_element(x, 11), pacxx::error);
  EXPECT_THROW(gpu::partial_sort(x, 11), pacxx::error);
  gpu::nth_element(x, 10); // nth == size: nothing to do
}

// nth_element's radix path against the keys' radix order (pacxx/agent/radix_sort.hpp:
// -0.0 as +0.0, NaNs after +inf and negative NaNs before -inf), which std's comparators
// cannot express for NaNs: the element at nth has the bits a sort puts there, none before
// it after it and none after it before it, and the multiset of the elements' own bytes is
// unchanged (a -0.0 stays a -0.0: the equal part is filled with the selected key only
// where every equal key has its bytes).
template <class T, class Comp>
void check_nth(const std::vector<T> &h, const std::vector<T> &g, std::size_t nth, Comp,
               const char *what) {
  using R = pacxx::agent::radix_key<T>;
  using B = typename R::bits_type;
  const bool desc = std::is_same<Comp, std::greater<>>::value;
  auto rb = [&](T x) { return desc ? B(~R::bits(x)) : R::bits(x); };
  auto raw = [](T x) {
    B b;
    std::memcpy(&b, &x, sizeof b);
    return b;
  };
  ASSERT_EQ(g.size(), h.size()) << what;
  std::vector<B> want(h.size());
  std::transform(h.begin(), h.end(), want.begin(), rb);
  std::sort(want.begin(), want.end());
  const B at = rb(g[nth]);
  ASSERT_EQ(at, want[nth]) << what << ": n = " << h.size() << ", nth = " << nth;
  for (std::size_t i = 0; i < g.size(); ++i)
    ASSERT_TRUE(i < nth ? rb(g[i]) <= at : rb(g[i]) >= at)
        << what << ": n = " << h.size() << ", nth = " << nth << ", at " << i;
  std::vector<B> a(h.size()), b(h.size());
  std::transform(h.begin(), h.end(), a.begin(), raw);
  std::transform(g.begin(), g.end(), b.begin(), raw);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  ASSERT_TRUE(a == b) << what << ": the multiset changed, n = " << h.size();
}

template <class T> class NthRadix : public ::testing::Test {};
using NthRadixTypes = ::testing::Types<int, unsigned, long long, unsigned long long, float, double>;
TYPED_TEST_SUITE(NthRadix, NthRadixTypes);

template <class T> std::vector<T> special_values(std::size_t n, int kind) {
  std::vector<T> h = values<T>(n, n + 7 * kind, std::is_signed<T>::value ? -300 : 0, 300);
  pacxx_test::rng r(n + 13 * kind);
  for (std::size_t i = 0; i < n; ++i) {
    if (kind == 1) // all equal
      h[i] = make<T>(42);
    else if (kind == 2 && r.integer(0, 3) != 0) // most are copies of one key
      h[i] = make<T>(5);
    else if (kind == 3 && std::is_floating_point<T>::value && r.integer(0, 2) == 0)
      h[i] = r.integer(0, 1) ? T(0) : -T(0); // a third are zeros of either sign
    else if (kind == 4 && std::is_floating_point<T>::value && r.integer(0, 9) == 0)
      h[i] = r.integer(0, 1) ? std::numeric_limits<T>::quiet_NaN()
                             : -std::numeric_limits<T>::quiet_NaN();
  }
  return h;
}

TYPED_TEST(NthRadix, EdgeInputsBothOrdersAgainstRadixOrder) {
  using T = TypeParam;
  for (std::size_t n : {std::size_t(1), std::size_t(2), prime, std::size_t(4099)}) {
    for (int kind = 0; kind < 5; ++kind) {
      const std::vector<T> h = special_values<T>(n, kind);
      std::vector<std::size_t> nths = {0, n / 2, n - 1};
      if (kind == 3) { // the zeros' range: a selected zero of either sign
        std::vector<T> s = h;
        std::sort(s.begin(), s.end());
        const auto z = std::lower_bound(s.begin(), s.end(), T(0)) - s.begin();
        if (std::size_t(z) < n)
          nths.push_back(std::size_t(z));
      }
      for (std::size_t nth : nths) {
        gpu::vector<T> v = gpu::copy(h);
        gpu::nth_element(v, nth);
        check_nth(h, gpu::copy(v), nth, std::less<>{}, "less");
        gpu::vector<T> w = gpu::copy(h);
        gpu::nth_element(w, nth, std::greater<>{});
        check_nth(h, gpu::copy(w), nth, std::greater<>{}, "greater");
      }
    }
  }
}

// partial_sort and top_k at k = 1, 100, 10000 over 2^20 + 3 floats, and nth_element there
// (the candidates of the last digits compacted by the second digit's pass), with the
// launches counted.
TEST(NthRadix, BigFloatsPartialSortTopKAndLaunches) {
  const std::size_t n = big;
  std::vector<float> h = pacxx_test::random_floats(n, 71, 0.0f, 1.0f);
  std::vector<float> desc = h;
  std::sort(desc.begin(), desc.end(), std::greater<float>());
  gpu::vector<float> x = gpu::copy(h);
  for (std::size_t k : {std::size_t(1), std::size_t(100), std::size_t(10000)}) {
    gpu::vector<float> out(k);
    gpu::top_k(x, k, out);
    ASSERT_TRUE(gpu::copy(out) == std::vector<float>(desc.begin(), desc.begin() + k)) << k;
    gpu::vector<float> p = gpu::copy(h);
    gpu::partial_sort(p, k, std::greater<>{});
    std::vector<float> gp = gpu::copy(p);
    gp.resize(k);
    ASSERT_TRUE(gp == std::vector<float>(desc.begin(), desc.begin() + k)) << k;
  }
  gpu::vector<float> v = gpu::copy(h);
  pacxx::synchronize();
  pacxx::reset_stats();
  gpu::nth_element(v, n / 2, std::greater<>{});
  // The select's histogram zeroed (a fill), 3 digits of (histogram, pick), the counters
  // zeroed (a fill) and the partition.
  EXPECT_EQ(pacxx_test::counts().kernel_launches, 1u + 3u * 2u + 1u + 1u);
  check_nth(h, gpu::copy(v), n / 2, std::greater<>{}, "big");
  // Many copies of the nth key among 2^20 + 3 ints.
  const std::vector<int> hi = values<int>(n, 5, 0, 3);
  gpu::vector<int> vi = gpu::copy(hi);
  gpu::nth_element(vi, n / 3);
  check_nth(hi, gpu::copy(vi), n / 3, std::less<>{}, "big ints");
}

// ---- shuffle ---------------------------------------------------------------------------

TEST(Shuffle, APermutationThatDependsOnTheEngine) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), prime, big}) {
    std::vector<long long> h(n);
    std::iota(h.begin(), h.end(), 0LL);
    gpu::vector<long long> v = gpu::copy(h);
    gpu::random::default_random_engine g(7);
    gpu::shuffle(v, g);
    std::vector<long long> a = gpu::copy(v), s = a;
    std::sort(s.begin(), s.end());
    ASSERT_EQ(s, h) << "n = " << n;
    if (n < 100)
      continue;
    EXPECT_NE(a, h);
    // Few fixed points (a random permutation has about one).
    std::size_t fixed = 0;
    for (std::size_t i = 0; i < n; ++i)
      fixed += a[i] == h[i] ? 1 : 0;
    EXPECT_LT(fixed, 20u);
    // The same engine state gives the same permutation; the advanced engine another.
    gpu::vector<long long> w = gpu::copy(h), u = gpu::copy(h);
    gpu::shuffle(w, gpu::random::default_random_engine(7));
    ASSERT_EQ(gpu::copy(w), a);
    gpu::shuffle(u, g);
    EXPECT_NE(gpu::copy(u), a);
  }
  // Any uniform random bit generator, and a user struct.
  std::vector<Item> hi = values<Item>(prime, 2, 0, 1000);
  gpu::vector<Item> vi = gpu::copy(hi);
  std::mt19937 mt(3);
  gpu::shuffle(vi, mt);
  std::vector<Item> gi = gpu::copy(vi);
  auto by = [](const Item &a, const Item &b) {
    return a.key != b.key ? a.key < b.key : a.weight < b.weight;
  };
  std::sort(gi.begin(), gi.end(), by);
  std::sort(hi.begin(), hi.end(), by);
  ASSERT_EQ(gi, hi);
}

} // namespace

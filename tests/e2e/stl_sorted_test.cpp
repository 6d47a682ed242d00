// End-to-end: sort actions and the algorithms on sorted data (issue 10, items 3 and 4)
// against the host STL.
//   actions    v |= action::sort / sort(comp) / stable_sort; composed with action::unique
//              and action::transform, on lvalues (`v |= a | b`) and rvalues
//              (`std::move(v) | a | b`)
//   searching  gpu::is_sorted(rng[, comp]) (views fused), gpu::lower_bound / upper_bound
//              (out: gpu::vector<std::size_t>), gpu::binary_search (out:
//              gpu::vector<bool>), queries as views
//   merging    gpu::merge(a, b, out[, comp]): sizes 0, 1, primes, 2^20 + 3; stable (user
//              structs compared by key carry their origin); views in; with unsorted
//              inputs every output is one of their elements (no read outside them)
//   contract   launches: is_sorted and the searches one, merge two
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace view = ranges::views;

// A record merged by its key only: its origin shows stability.
struct Tagged {
  int key;
  int origin;
};
inline bool operator==(const Tagged &a, const Tagged &b) {
  return a.key == b.key && a.origin == b.origin;
}

namespace {

using pacxx_test::rng;

struct by_key {
  bool operator()(const Tagged &a, const Tagged &b) const { return a.key < b.key; }
};
const auto negate = [](int x) { return -x; };
const auto halve = [](int x) { return x / 2; };

std::vector<int> random_ints(std::size_t n, std::uint64_t seed, int lo, int hi) {
  return pacxx_test::ints(n, seed, lo, hi);
}

TEST(SortActions, SortSortCompAndStableSort) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1009)}) {
    std::vector<int> h = random_ints(n, n + 1, -50, 50);
    gpu::vector<int> v = gpu::copy(h);
    v |= gpu::action::sort;
    std::vector<int> want = h;
    std::sort(want.begin(), want.end());
    ASSERT_EQ(gpu::copy(v), want);
    v |= gpu::action::sort(std::greater<>{});
    std::sort(want.begin(), want.end(), std::greater<int>());
    ASSERT_EQ(gpu::copy(v), want);
    v |= gpu::action::stable_sort;
    std::sort(want.begin(), want.end());
    ASSERT_EQ(gpu::copy(v), want);
  }
}

TEST(SortActions, ComposeWithUniqueAndTransform) {
  const std::size_t n = 7919;
  const std::vector<int> h = random_ints(n, 2, -300, 300);
  // v |= sort | unique (an action made of two)
  gpu::vector<int> v = gpu::copy(h);
  v |= gpu::action::sort | gpu::action::unique;
  std::vector<int> want = h;
  std::sort(want.begin(), want.end());
  want.erase(std::unique(want.begin(), want.end()), want.end());
  ASSERT_EQ(gpu::copy(v), want);
  // An rvalue through transform, sort (descending), unique.
  gpu::vector<int> r = gpu::copy(h) | gpu::action::transform(halve) |
                       gpu::action::sort(std::greater<>{}) | gpu::action::unique;
  std::vector<int> want2 = h;
  for (int &x : want2)
    x = halve(x);
  std::sort(want2.begin(), want2.end(), std::greater<int>());
  want2.erase(std::unique(want2.begin(), want2.end()), want2.end());
  ASSERT_EQ(gpu::copy(r), want2);
  // Three actions composed before they meet the vector.
  gpu::vector<int> w = gpu::copy(h);
  const auto pipeline =
      gpu::action::transform(negate) | gpu::action::stable_sort | gpu::action::unique;
  w |= pipeline;
  std::vector<int> want3 = h;
  for (int &x : want3)
    x = -x;
  std::sort(want3.begin(), want3.end());
  want3.erase(std::unique(want3.begin(), want3.end()), want3.end());
  ASSERT_EQ(gpu::copy(w), want3);
}

TEST(IsSorted, MatchesStd) {
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(1009), pacxx_test::big}) {
    std::vector<int> h = random_ints(n, n, -1000, 1000);
    std::sort(h.begin(), h.end());
    gpu::vector<int> v = gpu::copy(h);
    ASSERT_TRUE(gpu::is_sorted(v)) << n;
    ASSERT_EQ(gpu::is_sorted(v, std::greater<>{}),
              std::is_sorted(h.begin(), h.end(), std::greater<int>()));
    // Descending through a view: negated, it is sorted the other way.
    ASSERT_EQ(gpu::is_sorted(v | view::transform(negate)), n < 2 || h.front() == h.back());
    ASSERT_TRUE(gpu::is_sorted(v | view::transform(negate), std::greater<>{}));
    if (n >= 2) {
      // One pair out of order, at the start, the middle and the end.
      for (std::size_t at : {std::size_t(0), n / 2, n - 2}) {
        std::vector<int> g = h;
        g[at] = g[at + 1] + 1;
        gpu::vector<int> u = gpu::copy(g);
        ASSERT_EQ(gpu::is_sorted(u), std::is_sorted(g.begin(), g.end())) << n << " at " << at;
      }
    }
  }
  gpu::vector<int> v = gpu::copy(std::vector<int>{1, 2, 3, 4});
  const auto before = pacxx_test::counts();
  EXPECT_TRUE(gpu::is_sorted(v));
  EXPECT_EQ(pacxx_test::counts().kernel_launches - before.kernel_launches, 1u);
}

TEST(Searches, LowerUpperBoundAndBinarySearchMatchStd) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1009), std::size_t(100003)}) {
    std::vector<int> h = random_ints(n, n + 3, -5000, 5000);
    std::sort(h.begin(), h.end());
    const std::vector<int> q = random_ints(4099, n + 4, -5100, 5100);
    gpu::vector<int> sorted = gpu::copy(h), queries = gpu::copy(q);
    gpu::vector<std::size_t> lo(q.size()), hi(q.size());
    gpu::vector<bool> found(q.size());
    gpu::lower_bound(sorted, queries, lo);
    gpu::upper_bound(sorted, queries, hi);
    gpu::binary_search(sorted, queries, found);
    const std::vector<std::size_t> glo = gpu::copy(lo), ghi = gpu::copy(hi);
    const std::vector<bool> gfound = gpu::copy(found);
    for (std::size_t i = 0; i < q.size(); ++i) {
      ASSERT_EQ(glo[i], std::size_t(std::lower_bound(h.begin(), h.end(), q[i]) - h.begin())) << i;
      ASSERT_EQ(ghi[i], std::size_t(std::upper_bound(h.begin(), h.end(), q[i]) - h.begin())) << i;
      ASSERT_EQ(gfound[i], std::binary_search(h.begin(), h.end(), q[i])) << i;
    }
    // Descending data and queries through a view: the same indices with std::greater.
    gpu::vector<std::size_t> lo2(q.size());
    std::vector<int> d = h;
    std::reverse(d.begin(), d.end());
    gpu::vector<int> desc = gpu::copy(d);
    gpu::lower_bound(desc, queries | view::transform(negate), lo2, std::greater<>{});
    const std::vector<std::size_t> glo2 = gpu::copy(lo2);
    for (std::size_t i = 0; i < q.size(); ++i)
      ASSERT_EQ(
          glo2[i],
          std::size_t(std::lower_bound(d.begin(), d.end(), -q[i], std::greater<int>()) - d.begin()))
          << i;
  }
  gpu::vector<int> s = gpu::copy(std::vector<int>{1, 3, 5}), qs = gpu::copy(std::vector<int>{0, 3});
  gpu::vector<std::size_t> small(1);
  EXPECT_THROW(gpu::lower_bound(s, qs, small), pacxx::error);
  gpu::vector<std::size_t> out(2);
  const auto before = pacxx_test::counts();
  gpu::upper_bound(s, qs, out);
  EXPECT_EQ(pacxx_test::counts().kernel_launches - before.kernel_launches, 1u);
  EXPECT_EQ(gpu::copy(out), (std::vector<std::size_t>{0, 2}));
}

TEST(Merge, MatchesStdMergeAndIsStable) {
  const std::pair<std::size_t, std::size_t> sizes[] = {
      {0, 0}, {0, 5}, {5, 0}, {1, 1}, {1009, 1013}, {7919, 3}, {pacxx_test::big, 100003}};
  for (const auto &s : sizes) {
    rng r(s.first + 7 * s.second);
    std::vector<Tagged> a(s.first), b(s.second);
    for (std::size_t i = 0; i < a.size(); ++i)
      a[i] = Tagged{int(r.integer(0, 500)), int(i)};
    for (std::size_t i = 0; i < b.size(); ++i)
      b[i] = Tagged{int(r.integer(0, 500)), -1 - int(i)};
    std::stable_sort(a.begin(), a.end(), by_key{});
    std::stable_sort(b.begin(), b.end(), by_key{});
    std::vector<Tagged> want(a.size() + b.size());
    std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), by_key{});
    gpu::vector<Tagged> da = gpu::copy(a), db = gpu::copy(b), out(want.size() + 1);
    gpu::merge(da, db, out, by_key{});
    std::vector<Tagged> got = gpu::copy(out);
    got.pop_back();
    ASSERT_EQ(got, want) << s.first << " + " << s.second;
  }
}

TEST(Merge, ViewsInAndLaunches) {
  std::vector<int> a = random_ints(5003, 1, -100, 100), b = random_ints(3001, 2, -100, 100);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end(), std::greater<int>());
  gpu::vector<int> da = gpu::copy(a), db = gpu::copy(b), out(a.size() + b.size());
  // b negated is ascending.
  const auto before = pacxx_test::counts();
  gpu::merge(da, db | view::transform(negate), out);
  EXPECT_EQ(pacxx_test::counts().kernel_launches - before.kernel_launches, 2u);
  std::vector<int> nb = b, want(a.size() + b.size());
  for (int &x : nb)
    x = -x;
  std::merge(a.begin(), a.end(), nb.begin(), nb.end(), want.begin());
  EXPECT_EQ(gpu::copy(out), want);
  // Descending inputs with std::greater.
  std::vector<int> ad = a;
  std::reverse(ad.begin(), ad.end());
  gpu::vector<int> dad = gpu::copy(ad);
  gpu::merge(dad, db, out, std::greater<>{});
  std::merge(ad.begin(), ad.end(), b.begin(), b.end(), want.begin(), std::greater<int>());
  EXPECT_EQ(gpu::copy(out), want);
  gpu::vector<int> tiny(3);
  EXPECT_THROW(gpu::merge(da, db, tiny), pacxx::error);
}

// Inputs that are not sorted break std::merge's precondition: what out holds is
// unspecified (not even a permutation), but the merge must not read outside a and b (the
// tiles' cuts are clamped), so every output is one of the inputs' elements.
TEST(Merge, UnsortedInputsStayInBounds) {
  for (std::size_t n : {std::size_t(7919), pacxx_test::big}) {
    std::vector<int> a = random_ints(n, 3, 1000, 1999), b = random_ints(n / 3 + 1, 4, 2000, 2999);
    gpu::vector<int> da = gpu::copy(a), db = gpu::copy(b), out(a.size() + b.size());
    gpu::merge(da, db, out);
    for (int v : gpu::copy(out))
      ASSERT_TRUE(v >= 1000 && v <= 2999) << v << " at n = " << n;
  }
}

} // namespace

// End-to-end (issue 34, items 7 and 8b): sorting writable views that are not zips, and
// values that are not trivially copyable.
//
//   views      gpu::sort (radix: arithmetic keys with std::less / std::greater; merge: a
//              user comparator), gpu::stable_sort and gpu::sort_by_key over view::reverse,
//              view::slice, view::stride and view::zip of gpu::vectors, as keys and as
//              values; before, a non-zip view stopped in sort.hpp at
//              std::tuple_size<unsigned int>. Compared with std::stable_sort on the host
//              (every pacxx sort is stable), including the elements the view does not
//              reach, which must stay as they were.
//   pairs      gpu::sort of a gpu::vector<std::pair<int, int>> and gpu::merge of zips
//              (value type std::pair): std::pair is not trivially copyable (its assignment
//              is not trivial), the warp shuffles and selects now move its bytes.
// Built as C++14.
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/algorithm/stable_sort.hpp>
#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace view = ranges::views;

namespace {

constexpr std::size_t n = 5000; // several merge-sort tiles and radix tiles

std::vector<unsigned> keys(std::size_t count, std::uint64_t seed, unsigned range = 1000) {
  pacxx_test::rng r(seed);
  std::vector<unsigned> v(count);
  for (auto &x : v)
    x = unsigned(r.integer(0, range - 1));
  return v;
}

struct ByLastDigit { // a user comparator: merge sort, stability visible
  bool operator()(unsigned a, unsigned b) const { return a % 10 < b % 10; }
};

TEST(SortViews, ReverseRadixAndMerge) {
  const std::vector<unsigned> h = keys(n, 1);
  gpu::vector<unsigned> g = gpu::copy(h);
  gpu::sort(g | view::reverse);
  std::vector<unsigned> want = h;
  std::stable_sort(want.rbegin(), want.rend());
  EXPECT_EQ(gpu::copy(g), want);

  gpu::vector<unsigned> m = gpu::copy(h);
  gpu::sort(m | view::reverse, ByLastDigit{});
  want = h;
  std::stable_sort(want.rbegin(), want.rend(), ByLastDigit{});
  EXPECT_EQ(gpu::copy(m), want);
}

TEST(SortViews, SliceRadixDescendingAndStableFloats) {
  const std::vector<unsigned> h = keys(n, 2);
  gpu::vector<unsigned> g = gpu::copy(h);
  gpu::sort(g | view::slice(100, 4100), std::greater<>{});
  std::vector<unsigned> want = h;
  std::stable_sort(want.begin() + 100, want.begin() + 4100, std::greater<>{});
  EXPECT_EQ(gpu::copy(g), want);

  const std::vector<float> hf = pacxx_test::random_floats(n, 3, -10.f, 10.f);
  gpu::vector<float> f = gpu::copy(hf);
  gpu::stable_sort(f | view::slice(7, 3007));
  std::vector<float> wantf = hf;
  std::stable_sort(wantf.begin() + 7, wantf.begin() + 3007);
  EXPECT_EQ(gpu::copy(f), wantf);
}

TEST(SortViews, StrideRadixAndComparator) {
  const std::vector<unsigned> h = keys(n, 4);
  gpu::vector<unsigned> g = gpu::copy(h);
  gpu::sort(g | view::stride(3));
  std::vector<unsigned> want = h;
  ranges::stable_sort(want | view::stride(3));
  EXPECT_EQ(gpu::copy(g), want);

  gpu::vector<unsigned> m = gpu::copy(h);
  gpu::stable_sort(m | view::stride(2), ByLastDigit{});
  want = h;
  ranges::stable_sort(want | view::stride(2), ByLastDigit{});
  EXPECT_EQ(gpu::copy(m), want);
}

TEST(SortViews, ZipStable) {
  const std::vector<unsigned> ha = keys(n, 5, 50), hb = keys(n, 6);
  gpu::vector<unsigned> a = gpu::copy(ha), b = gpu::copy(hb);
  auto by_first = [](const auto &x, const auto &y) { return std::get<0>(x) < std::get<0>(y); };
  gpu::stable_sort(view::zip(a, b), by_first);
  std::vector<std::pair<unsigned, unsigned>> want;
  for (std::size_t i = 0; i < n; ++i)
    want.emplace_back(ha[i], hb[i]);
  std::stable_sort(want.begin(), want.end(), by_first);
  const std::vector<unsigned> ga = gpu::copy(a), gb = gpu::copy(b);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(ga[i], want[i].first) << i;
    ASSERT_EQ(gb[i], want[i].second) << i;
  }
}

// Reference: values follow their keys, stably.
template <class K, class V, class Comp>
void sort_pairs_on_host(std::vector<K> &k, std::vector<V> &v, Comp comp) {
  std::vector<std::pair<K, V>> p;
  for (std::size_t i = 0; i < k.size(); ++i)
    p.emplace_back(k[i], v[i]);
  std::stable_sort(p.begin(), p.end(), [comp](const std::pair<K, V> &a, const std::pair<K, V> &b) {
    return comp(a.first, b.first);
  });
  for (std::size_t i = 0; i < k.size(); ++i) {
    k[i] = p[i].first;
    v[i] = p[i].second;
  }
}

TEST(SortViews, ByKeyOverViews) {
  const std::vector<unsigned> hk = keys(n, 7), hv = keys(n, 8, 1u << 30);
  // Keys a reverse view, values a gpu::vector.
  {
    gpu::vector<unsigned> k = gpu::copy(hk), v = gpu::copy(hv);
    gpu::sort_by_key(k | view::reverse, v);
    std::vector<unsigned> rk(hk.rbegin(), hk.rend()), rv = hv;
    sort_pairs_on_host(rk, rv, std::less<>{});
    std::vector<unsigned> wk(rk.rbegin(), rk.rend());
    EXPECT_EQ(gpu::copy(k), wk);
    EXPECT_EQ(gpu::copy(v), rv);
  }
  // Keys a slice, values a stride, descending (radix).
  {
    gpu::vector<unsigned> k = gpu::copy(hk), v = gpu::copy(hv);
    gpu::sort_by_key(k | view::slice(10, 2010), v | view::stride(2), std::greater<>{});
    std::vector<unsigned> sk(hk.begin() + 10, hk.begin() + 2010), sv;
    for (std::size_t i = 0; i < 2000; ++i)
      sv.push_back(hv[2 * i]);
    sort_pairs_on_host(sk, sv, std::greater<>{});
    std::vector<unsigned> wk = hk, wv = hv;
    std::copy(sk.begin(), sk.end(), wk.begin() + 10);
    for (std::size_t i = 0; i < 2000; ++i)
      wv[2 * i] = sv[i];
    EXPECT_EQ(gpu::copy(k), wk);
    EXPECT_EQ(gpu::copy(v), wv);
  }
  // Keys a gpu::vector, values a reverse view (merge: a user comparator).
  {
    gpu::vector<unsigned> k = gpu::copy(hk), v = gpu::copy(hv);
    gpu::sort_by_key(k, v | view::reverse, ByLastDigit{});
    std::vector<unsigned> rk = hk, rv(hv.rbegin(), hv.rend());
    sort_pairs_on_host(rk, rv, ByLastDigit{});
    EXPECT_EQ(gpu::copy(k), rk);
    EXPECT_EQ(gpu::copy(v), std::vector<unsigned>(rv.rbegin(), rv.rend()));
  }
  // Keys a zip (compared by their first part), values a gpu::vector.
  {
    gpu::vector<unsigned> k1 = gpu::copy(hk), k2 = gpu::copy(hv), v = gpu::copy(hv);
    gpu::sort_by_key(view::zip(k1, k2), v,
                     [](const auto &x, const auto &y) { return std::get<0>(x) < std::get<0>(y); });
    std::vector<unsigned> rk = hk, rv = hv;
    sort_pairs_on_host(rk, rv, std::less<>{});
    EXPECT_EQ(gpu::copy(k1), rk);
    EXPECT_EQ(gpu::copy(k2), rv);
    EXPECT_EQ(gpu::copy(v), rv);
  }
}

// ---- std::pair: not trivially copyable, moved as bytes ---------------------------------

TEST(SortPairs, VectorOfStdPair) {
  const std::vector<unsigned> a = keys(n, 9, 20), b = keys(n, 10);
  std::vector<std::pair<int, int>> h;
  for (std::size_t i = 0; i < n; ++i)
    h.emplace_back(int(a[i]), int(b[i]));
  gpu::vector<std::pair<int, int>> g = gpu::copy(h);
  gpu::sort(g);
  std::stable_sort(h.begin(), h.end());
  EXPECT_EQ(gpu::copy(g), h);
}

TEST(SortPairs, MergeOfZips) {
  std::vector<unsigned> a1 = keys(3000, 11), a2 = keys(3000, 12), b1 = keys(2000, 13),
                        b2 = keys(2000, 14);
  std::vector<std::pair<unsigned, unsigned>> ha, hb, want(5000);
  for (std::size_t i = 0; i < a1.size(); ++i)
    ha.emplace_back(a1[i], a2[i]);
  for (std::size_t i = 0; i < b1.size(); ++i)
    hb.emplace_back(b1[i], b2[i]);
  std::sort(ha.begin(), ha.end());
  std::sort(hb.begin(), hb.end());
  std::merge(ha.begin(), ha.end(), hb.begin(), hb.end(), want.begin());
  for (std::size_t i = 0; i < ha.size(); ++i)
    std::tie(a1[i], a2[i]) = ha[i];
  for (std::size_t i = 0; i < hb.size(); ++i)
    std::tie(b1[i], b2[i]) = hb[i];
  gpu::vector<unsigned> ga1 = gpu::copy(a1), ga2 = gpu::copy(a2), gb1 = gpu::copy(b1),
                        gb2 = gpu::copy(b2), o1(5000), o2(5000);
  gpu::merge(view::zip(ga1, ga2), view::zip(gb1, gb2), view::zip(o1, o2));
  const std::vector<unsigned> r1 = gpu::copy(o1), r2 = gpu::copy(o2);
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(r1[i], want[i].first) << i;
    ASSERT_EQ(r2[i], want[i].second) << i;
  }
}

} // namespace

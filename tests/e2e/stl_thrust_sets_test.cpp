// End-to-end: set operations on sorted ranges (issue 38, item 1) against the host STL.
//   gpu::set_intersection, set_difference, set_union, set_symmetric_difference
//   (a, b, out[, comp]) and their _by_key forms with multiset semantics (runs of equal elements on
//   both sides)
//   types      int, unsigned, unsigned long long, float, double, and a user struct ordered by its
//              key (which side, and which of equivalent elements, an output comes from shows)
//   sizes      0, 1, a prime, 2^20 + 3 on either side; long runs of equal elements that cross
//              the pass's tiles (a few thousand elements) and its threads' parts
//   contract   out too small: pacxx::error, out unchanged; outputs that hold the largest
//              possible result (one pass) and smaller ones (counted first); views on inputs
//              and outputs; launch counts with pacxx::stats()
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <utility>
#include <vector>

namespace view = ranges::views;

// Ordered by key; origin tells the side (and position) an element came from.
struct Tagged {
  int key;
  int origin;
};
inline bool operator==(const Tagged &a, const Tagged &b) {
  return a.key == b.key && a.origin == b.origin;
}

namespace {

using pacxx_test::big;
using pacxx_test::prime;
const std::size_t sizes[] = {0, 1, prime, big};

struct by_key {
  bool operator()(const Tagged &a, const Tagged &b) const { return a.key < b.key; }
};

template <class T> T make(int v, int) { return static_cast<T>(v); }
template <> Tagged make<Tagged>(int v, int origin) { return Tagged{v, origin}; }

// n sorted values in [0, range), so that runs of equal values meet across a and b.
template <class T> std::vector<T> sorted(std::size_t n, std::uint64_t seed, int range, int side) {
  pacxx_test::rng r(seed);
  std::vector<int> k(n);
  for (auto &x : k)
    x = static_cast<int>(r.integer(0, range - 1));
  std::sort(k.begin(), k.end());
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = make<T>(k[i], side * 10000000 + static_cast<int>(i));
  return v;
}

enum class op { intersection, difference, union_, symmetric };
const op ops[] = {op::intersection, op::difference, op::union_, op::symmetric};

template <class T, class Comp>
std::vector<T> host(op o, const std::vector<T> &a, const std::vector<T> &b, Comp comp) {
  std::vector<T> r;
  auto out = std::back_inserter(r);
  switch (o) {
  case op::intersection:
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), out, comp);
    break;
  case op::difference:
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), out, comp);
    break;
  case op::union_:
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), out, comp);
    break;
  case op::symmetric:
    std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), out, comp);
    break;
  }
  return r;
}
template <class A, class B, class Out, class Comp>
std::size_t device(op o, A &&a, B &&b, Out &&out, Comp comp) {
  switch (o) {
  case op::intersection:
    return gpu::set_intersection(a, b, out, comp);
  case op::difference:
    return gpu::set_difference(a, b, out, comp);
  case op::union_:
    return gpu::set_union(a, b, out, comp);
  default:
    return gpu::set_symmetric_difference(a, b, out, comp);
  }
}

// The largest possible result: what an output must hold for the single pass.
std::size_t bound(op o, std::size_t na, std::size_t nb) {
  switch (o) {
  case op::intersection:
    return std::min(na, nb);
  case op::difference:
    return na;
  default:
    return na + nb;
  }
}

template <class T> struct comp_for {
  using type = std::less<>;
};
template <> struct comp_for<Tagged> {
  using type = by_key;
};

template <class T> class SetOps : public ::testing::Test {};
using Types = ::testing::Types<int, unsigned, unsigned long long, float, double, Tagged>;
TYPED_TEST_SUITE(SetOps, Types);

TYPED_TEST(SetOps, MatchStd) {
  using T = TypeParam;
  using Comp = typename comp_for<T>::type;
  for (std::size_t na : sizes)
    for (std::size_t nb : sizes) {
      if (na == big && nb == big)
        continue; // PoCL's time; the big sizes meet the small ones
      // Few distinct values: long runs on both sides.
      const int range = static_cast<int>(std::max<std::size_t>(1, (na + nb) / 4));
      const std::vector<T> ha = sorted<T>(na, na * 7 + nb, range, 1);
      const std::vector<T> hb = sorted<T>(nb, nb * 13 + na + 1, range, 2);
      gpu::vector<T> a = gpu::copy(ha), b = gpu::copy(hb);
      for (op o : ops) {
        const std::vector<T> want = host(o, ha, hb, Comp{});
        // Just above the result (counted first unless that holds the largest possible
        // result), and room for the largest possible result (one pass).
        for (std::size_t room : {want.size() + 2, bound(o, na, nb) + 1}) {
          gpu::vector<T> out(room, make<T>(-1, -1));
          const std::size_t c = device(o, a, b, out, Comp{});
          ASSERT_EQ(c, want.size()) << "op " << int(o) << " na " << na << " nb " << nb;
          std::vector<T> got = gpu::copy(out);
          ASSERT_EQ(got[want.size()], make<T>(-1, -1));
          got.resize(want.size());
          ASSERT_EQ(got, want) << "op " << int(o) << " na " << na << " nb " << nb << " room "
                               << room;
        }
        if (!want.empty()) {
          gpu::vector<T> tight(want.size() - 1, make<T>(-3, -3));
          EXPECT_THROW(device(o, a, b, tight, Comp{}), pacxx::error);
          ASSERT_EQ(gpu::copy(tight), std::vector<T>(want.size() - 1, make<T>(-3, -3)));
        }
      }
    }
}

TEST(SetOps, ViewsInAndOut) {
  const std::vector<int> ha = sorted<int>(prime, 1, 300, 1), hb = sorted<int>(2 * prime, 2, 300, 2);
  gpu::vector<int> a = gpu::copy(ha), b = gpu::copy(hb);
  // Reversed (descending) and transformed into 64-bit values, ascending again: -2 v; a
  // strided output.
  const auto neg2 = [](int v) { return -2 * static_cast<long long>(v); };
  std::vector<long long> ta(ha.rbegin(), ha.rend()), tb(hb.rbegin(), hb.rend());
  std::transform(ta.begin(), ta.end(), ta.begin(), neg2);
  std::transform(tb.begin(), tb.end(), tb.begin(), neg2);
  for (op o : ops) {
    const std::vector<long long> want = host(o, ta, tb, std::less<>{});
    gpu::vector<long long> out(2 * want.size(), 0);
    ASSERT_EQ(device(o, a | view::reverse | view::transform(neg2),
                     b | view::reverse | view::transform(neg2), out | view::stride(2),
                     std::less<>{}),
              want.size());
    const std::vector<long long> got = gpu::copy(out);
    for (std::size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(got[2 * i], want[i]) << "op " << int(o);
  }
}

// The _by_key forms: keys decide, each output key carries its own side's value.
TEST(SetOps, ByKeyMatchStd) {
  for (std::size_t na : {std::size_t(0), std::size_t(1), prime, big})
    for (std::size_t nb : {std::size_t(1), prime}) {
      const int range = static_cast<int>(std::max<std::size_t>(1, (na + nb) / 4));
      const std::vector<Tagged> ha = sorted<Tagged>(na, na + 5 * nb, range, 1);
      const std::vector<Tagged> hb = sorted<Tagged>(nb, nb + 3 * na + 2, range, 2);
      std::vector<int> ka(na), kb(nb), va(na), vb(nb);
      for (std::size_t i = 0; i < na; ++i) {
        ka[i] = ha[i].key;
        va[i] = ha[i].origin;
      }
      for (std::size_t i = 0; i < nb; ++i) {
        kb[i] = hb[i].key;
        vb[i] = hb[i].origin;
      }
      gpu::vector<int> dka = gpu::copy(ka), dkb = gpu::copy(kb), dva = gpu::copy(va),
                       dvb = gpu::copy(vb);
      for (op o : ops) {
        const std::vector<Tagged> want = host(o, ha, hb, by_key{});
        gpu::vector<int> ok(want.size()), ov(want.size());
        std::size_t c = 0;
        switch (o) {
        case op::intersection:
          c = gpu::set_intersection_by_key(dka, dkb, dva, ok, ov);
          break;
        case op::difference:
          c = gpu::set_difference_by_key(dka, dkb, dva, dvb, ok, ov);
          break;
        case op::union_:
          c = gpu::set_union_by_key(dka, dkb, dva, dvb, ok, ov);
          break;
        case op::symmetric:
          c = gpu::set_symmetric_difference_by_key(dka, dkb, dva, dvb, ok, ov);
          break;
        }
        ASSERT_EQ(c, want.size()) << "op " << int(o) << " na " << na << " nb " << nb;
        const std::vector<int> gk = gpu::copy(ok), gv = gpu::copy(ov);
        for (std::size_t i = 0; i < c; ++i) {
          ASSERT_EQ(gk[i], want[i].key) << "op " << int(o) << " i " << i;
          ASSERT_EQ(gv[i], want[i].origin) << "op " << int(o) << " i " << i;
        }
      }
    }
  gpu::vector<int> k(10), v(9), out(20);
  EXPECT_THROW(gpu::set_union_by_key(k, k, v, k, out, out), pacxx::error);
}

// Long runs of equivalent elements across the pass's tiles (3840 ints) and its threads'
// parts (15): std pairs a's k-th equivalent with b's k-th, and the pass must not cut
// such a pair. The user struct shows which equivalents come out, from which side.
TEST(SetOps, LongRunsAcrossTiles) {
  struct shape {
    std::size_t na, nb;
    int range;
  };
  const shape shapes[] = {{50000, 30000, 5}, {30000, 50000, 3}, {100003, 7, 2},
                          {7, 100003, 2},    {65536, 65536, 1}, {40000, 40000, 4000},
                          {20011, 20011, 2}, {3840, 3841, 1},   {131071, 65537, 17},
                          {7681, 7679, 3}};
  for (const shape &sh : shapes) {
    const std::vector<Tagged> ha = sorted<Tagged>(sh.na, sh.na + 11, sh.range, 1);
    const std::vector<Tagged> hb = sorted<Tagged>(sh.nb, sh.nb + 29, sh.range, 2);
    gpu::vector<Tagged> a = gpu::copy(ha), b = gpu::copy(hb);
    for (op o : ops) {
      const std::vector<Tagged> want = host(o, ha, hb, by_key{});
      gpu::vector<Tagged> out(bound(o, sh.na, sh.nb), Tagged{-1, -1});
      const std::size_t c = device(o, a, b, out, by_key{});
      ASSERT_EQ(c, want.size()) << "op " << int(o) << " na " << sh.na << " nb " << sh.nb;
      std::vector<Tagged> got = gpu::copy(out);
      got.resize(c);
      ASSERT_EQ(got, want) << "op " << int(o) << " na " << sh.na << " nb " << sh.nb;
    }
  }
  // Runs that alternate between the sides: a's values even, b's odd, then both equal.
  std::vector<int> ha, hb;
  for (int v = 0; v < 4000; ++v)
    for (int k = 0; k < 1 + v % 7; ++k)
      (v % 2 ? hb : ha).push_back(v);
  for (int k = 0; k < 9000; ++k) {
    ha.push_back(5000);
    if (k % 3 == 0)
      hb.push_back(5000);
  }
  gpu::vector<int> a = gpu::copy(ha), b = gpu::copy(hb);
  for (op o : ops) {
    const std::vector<int> want = host(o, ha, hb, std::less<>{});
    gpu::vector<int> out(want.size());
    ASSERT_EQ(device(o, a, b, out, std::less<>{}), want.size()) << "op " << int(o);
    ASSERT_EQ(gpu::copy(out), want) << "op " << int(o);
  }
}

TEST(SetOps, LaunchCounts) {
  const std::vector<int> ha = sorted<int>(big, 3, 100000, 1), hb = sorted<int>(big, 4, 100000, 2);
  gpu::vector<int> a = gpu::copy(ha), b = gpu::copy(hb), out(2 * big), empty;
  std::size_t results[4];
  auto run_all = [&] {
    // Outputs that hold the largest possible result: the cuts (with the tile state's
    // clear) and the pass, two launches each.
    results[0] = gpu::set_intersection(a, b, out);
    results[1] = gpu::set_difference(a, b, out);
    results[2] = gpu::set_union(a, b, out);
    results[3] = gpu::set_symmetric_difference(a, b, out);
  };
  run_all(); // warm-up: JIT, scratch, pool
  pacxx::reset_stats();
  run_all();
  auto s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 4u * 2);
  EXPECT_EQ(s.device_allocations, s.pool_hits);
  // Outputs of exactly the result: the cuts, the count and the pass.
  gpu::vector<int> tight[4] = {gpu::vector<int>(results[0]), gpu::vector<int>(results[1]),
                               gpu::vector<int>(results[2]), gpu::vector<int>(results[3])};
  gpu::set_intersection(a, b, tight[0]);
  gpu::set_difference(a, b, tight[1]);
  gpu::set_union(a, b, tight[2]);
  gpu::set_symmetric_difference(a, b, tight[3]);
  pacxx::reset_stats();
  EXPECT_EQ(gpu::set_intersection(a, b, tight[0]), results[0]);
  EXPECT_EQ(gpu::set_difference(a, b, tight[1]), results[1]);
  EXPECT_EQ(gpu::set_union(a, b, tight[2]), results[2]);
  EXPECT_EQ(gpu::set_symmetric_difference(a, b, tight[3]), results[3]);
  s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 4u * 3);
  // Nothing to do where the largest possible result is empty.
  pacxx::reset_stats();
  EXPECT_EQ(gpu::set_intersection(a, empty, out), 0u);
  EXPECT_EQ(gpu::set_difference(empty, b, out), 0u);
  EXPECT_EQ(gpu::set_union(empty, empty, out), 0u);
  s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 0u);
}

} // namespace

// End-to-end: set operations on sorted ranges (issue 38, item 1) against the host STL.
//   gpu::set_intersection, set_difference, set_union, set_symmetric_difference
//   (a, b, out[, comp]) and their _by_key forms with multiset semantics (runs of equal elements on
//   both sides) types      int, unsigned long long, double, and a user struct ordered by its key
//              (which side an element comes from shows)
//   sizes      0, 1, a prime, 2^20 + 3 on either side
//   contract   out too small: pacxx::error, out unchanged; views on inputs and outputs;
//              launch counts with pacxx::stats()
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

template <class T> struct comp_for {
  using type = std::less<>;
};
template <> struct comp_for<Tagged> {
  using type = by_key;
};

template <class T> class SetOps : public ::testing::Test {};
using Types = ::testing::Types<int, unsigned long long, double, Tagged>;
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
        gpu::vector<T> out(want.size() + 2, make<T>(-1, -1));
        const std::size_t c = device(o, a, b, out, Comp{});
        ASSERT_EQ(c, want.size()) << "op " << int(o) << " na " << na << " nb " << nb;
        std::vector<T> got = gpu::copy(out);
        ASSERT_EQ(got[want.size()], make<T>(-1, -1));
        got.resize(want.size());
        ASSERT_EQ(got, want) << "op " << int(o) << " na " << na << " nb " << nb;
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
  // Descending through reversed views, with the matching comparison; a strided output.
  std::vector<int> ra(ha.rbegin(), ha.rend()), rb(hb.rbegin(), hb.rend());
  for (op o : ops) {
    const std::vector<int> want = host(o, ra, rb, std::greater<>{});
    gpu::vector<int> out(2 * want.size(), 0);
    ASSERT_EQ(
        device(o, a | view::reverse, b | view::reverse, out | view::stride(2), std::greater<>{}),
        want.size());
    const std::vector<int> got = gpu::copy(out);
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

TEST(SetOps, LaunchCounts) {
  const std::vector<int> ha = sorted<int>(big, 3, 100000, 1), hb = sorted<int>(big, 4, 100000, 2);
  gpu::vector<int> a = gpu::copy(ha), b = gpu::copy(hb), out(2 * big);
  auto run_all = [&] {
    gpu::set_intersection(a, b, out);         // 2: clear, pass
    gpu::set_difference(a, b, out);           // 2
    gpu::set_union(a, b, out);                // 4: clear, pass, merge (2)
    gpu::set_symmetric_difference(a, b, out); // 6: 2 x (clear, pass), merge (2)
  };
  run_all(); // warm-up: JIT, scratch, pool
  pacxx::reset_stats();
  run_all();
  const auto s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 2u + 2 + 4 + 6);
  EXPECT_EQ(s.device_allocations, s.pool_hits);
}

} // namespace

// End-to-end: the merge sort (issue 10, items 1, 2 and 5): any strict weak ordering,
// against std::stable_sort on the host.
//   orderings  a user struct with a user comparator (8, 12, 16 and 24 bytes; 8 and 16
//              also merged), a struct's operator<, projections (gpu::sort(v, comp,
//              proj)), arithmetic keys with
//              a comparator that is not std::less / std::greater (by magnitude, also
//              with zipped values),
//              action::sort(comp), a zip of gpu::vectors (structures of arrays)
//   sizes      0, 1, 2, primes (one tile, several, a partial last tile), 2^20 + 3 once
//   data       random, all equal, sorted, reversed; stability shown by an origin field
//   contract   1 + 2 * ceil(log2(tiles)) launches; sort_by_key with a comparator: two more
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

// A user record, ordered by a user comparator on (group, score descending).
struct Item {
  int group;
  float score;
  unsigned origin; // the input position: shows stability
};
inline bool operator==(const Item &a, const Item &b) {
  return a.group == b.group && a.score == b.score && a.origin == b.origin;
}
// Ordered by its operator< (on group alone).
struct Ranked {
  int group;
  unsigned origin;
};
inline bool operator<(const Ranked &a, const Ranked &b) { return a.group < b.group; }
inline bool operator==(const Ranked &a, const Ranked &b) {
  return a.group == b.group && a.origin == b.origin;
}

// Records of 16 and 24 bytes (the merge sort sizes its items and moves them by size).
struct Point {
  float x, y, z;
  unsigned origin;
};
inline bool operator==(const Point &a, const Point &b) {
  return a.x == b.x && a.y == b.y && a.z == b.z && a.origin == b.origin;
}
struct Wide {
  double key;
  long long tag;
  unsigned origin;
  int pad;
};
inline bool operator==(const Wide &a, const Wide &b) {
  return a.key == b.key && a.tag == b.tag && a.origin == b.origin;
}

// 8- and 16-byte records move through shared memory as one 64/128-bit access
// (agent/merge.hpp, item_tile): one of 4-byte alignment, one with a double.
struct Score {
  float score;
  unsigned origin;
};
inline bool operator==(const Score &a, const Score &b) {
  return a.score == b.score && a.origin == b.origin;
}
struct Reading {
  double value;
  unsigned origin;
  int channel;
};
inline bool operator==(const Reading &a, const Reading &b) {
  return a.value == b.value && a.origin == b.origin && a.channel == b.channel;
}

namespace {

using pacxx_test::rng;

struct by_group_then_score {
  bool operator()(const Item &a, const Item &b) const {
    return a.group < b.group || (a.group == b.group && a.score > b.score);
  }
};
struct by_magnitude {
  bool operator()(int a, int b) const { return (a < 0 ? -a : a) < (b < 0 ? -b : b); }
};
struct score_of {
  float operator()(const Item &x) const { return x.score; }
};

enum class shape { random, equal, sorted, reversed };

std::vector<Item> items(std::size_t n, shape s, std::uint64_t seed) {
  rng r(seed);
  std::vector<Item> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = Item{s == shape::equal ? 3 : int(r.integer(0, 40)),
                s == shape::equal ? 1.f : float(r.integer(0, 8)) * 0.5f, unsigned(i)};
  if (s == shape::sorted)
    std::stable_sort(v.begin(), v.end(), by_group_then_score{});
  if (s == shape::reversed) {
    std::stable_sort(v.begin(), v.end(), by_group_then_score{});
    std::reverse(v.begin(), v.end());
  }
  return v;
}

TEST(MergeSort, UserStructWithUserComparator) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(1009),
                        std::size_t(2048), std::size_t(40009)})
    for (shape s : {shape::random, shape::equal, shape::sorted, shape::reversed}) {
      std::vector<Item> h = items(n, s, n + int(s));
      gpu::vector<Item> v = gpu::copy(h);
      gpu::sort(v, by_group_then_score{});
      std::stable_sort(h.begin(), h.end(), by_group_then_score{});
      ASSERT_EQ(gpu::copy(v), h) << "n = " << n << " shape " << int(s);
    }
}

struct by_z_then_x {
  bool operator()(const Point &a, const Point &b) const {
    return a.z < b.z || (a.z == b.z && a.x < b.x);
  }
};
struct by_key_descending {
  bool operator()(const Wide &a, const Wide &b) const { return a.key > b.key; }
};

struct gpu_sort {
  template <class T, class Comp> void operator()(gpu::vector<T> &v, Comp comp) const {
    gpu::sort(v, comp);
  }
};
struct gpu_stable_sort {
  template <class T, class Comp> void operator()(gpu::vector<T> &v, Comp comp) const {
    gpu::stable_sort(v, comp);
  }
};
// sort(v, comp) on the GPU gives std::stable_sort's order (the merge sort is stable);
// leaves h sorted.
template <class T, class Comp, class Sort>
void expect_as_stable_sort(std::vector<T> &h, Comp comp, Sort sort, std::size_t n) {
  gpu::vector<T> v = gpu::copy(h);
  sort(v, comp);
  std::stable_sort(h.begin(), h.end(), comp);
  EXPECT_EQ(gpu::copy(v), h) << n;
}

// 16- and 24-byte records with many equal keys: stable, as std::stable_sort.
TEST(MergeSort, RecordsOf16And24Bytes) {
  for (std::size_t n : {std::size_t(1009), std::size_t(40009)}) {
    rng r(n);
    std::vector<Point> p(n);
    std::vector<Wide> w(n);
    for (std::size_t i = 0; i < n; ++i) {
      p[i] =
          Point{float(r.integer(0, 15)), float(i % 7), float(r.integer(0, 30)) * 0.5f, unsigned(i)};
      w[i] = Wide{double(r.integer(-20, 20)) * 0.25, (long long)(i)*3, unsigned(i), 0};
    }
    expect_as_stable_sort(p, by_z_then_x{}, gpu_sort{}, n);
    expect_as_stable_sort(w, by_key_descending{}, gpu_stable_sort{}, n);
  }
}

struct by_score_descending {
  bool operator()(const Score &a, const Score &b) const { return a.score > b.score; }
};
struct by_channel_then_value {
  bool operator()(const Reading &a, const Reading &b) const {
    return a.channel < b.channel || (a.channel == b.channel && a.value < b.value);
  }
};

// The records that take the wide shared-memory path, sorted and merged, with ties.
TEST(MergeSort, RecordsOf8And16BytesMovedWide) {
  for (std::size_t n : {std::size_t(2), std::size_t(1009), std::size_t(40009)}) {
    rng r(n + 5);
    std::vector<Score> s(n);
    std::vector<Reading> d(n);
    for (std::size_t i = 0; i < n; ++i) {
      s[i] = Score{float(r.integer(0, 50)) * 0.5f, unsigned(i)};
      d[i] = Reading{double(r.integer(-30, 30)) / 3.0, unsigned(i), int(r.integer(0, 3))};
    }
    expect_as_stable_sort(s, by_score_descending{}, gpu_sort{}, n);
    expect_as_stable_sort(d, by_channel_then_value{}, gpu_sort{}, n);
    // Merged with a second sorted run whose ties come after the first's (stable).
    std::vector<Reading> e(n / 2 + 1);
    for (std::size_t i = 0; i < e.size(); ++i)
      e[i] = Reading{double(r.integer(-30, 30)) / 3.0, unsigned(n + i), int(r.integer(0, 3))};
    std::stable_sort(e.begin(), e.end(), by_channel_then_value{});
    std::vector<Reading> want(d.size() + e.size());
    std::merge(d.begin(), d.end(), e.begin(), e.end(), want.begin(), by_channel_then_value{});
    gpu::vector<Reading> gd = gpu::copy(d), ge = gpu::copy(e), out(want.size());
    gpu::merge(gd, ge, out, by_channel_then_value{});
    EXPECT_EQ(gpu::copy(out), want) << n;
  }
}

TEST(MergeSort, LargeAndLaunches) {
  const std::size_t n = pacxx_test::big;
  std::vector<Item> h = items(n, shape::random, 77);
  gpu::vector<Item> v = gpu::copy(h);
  gpu::stable_sort(v, by_group_then_score{});
  std::stable_sort(h.begin(), h.end(), by_group_then_score{});
  ASSERT_EQ(gpu::copy(v), h);
  // One block sort of the tiles, then a partition and a merge per pass, ceil(log2(tiles))
  // passes: 40009 items are 16 tiles of 512 * 5 (12-byte items), 4 passes.
  std::vector<Item> g = items(40009, shape::random, 78);
  gpu::vector<Item> w = gpu::copy(g);
  const auto before = pacxx_test::counts();
  gpu::sort(w, by_group_then_score{});
  EXPECT_EQ(pacxx_test::counts().kernel_launches - before.kernel_launches, 1u + 2 * 4);
  std::stable_sort(g.begin(), g.end(), by_group_then_score{});
  EXPECT_EQ(gpu::copy(w), g);
}

// An odd number of passes starts from a block sort into the buffer, an even one in place;
// both must end in the data: 2^p tiles (p passes) and 2^p tiles plus one element (p + 1
// passes, the last tile partial).
TEST(MergeSort, EveryNumberOfPassesEndsInTheData) {
  using S = pacxx::policy::merge_sort_for<Item>::block_sort;
  const std::size_t tile = S::block * S::items;
  for (unsigned p = 0; p <= 4; ++p)
    for (std::size_t n : {tile << p, (tile << p) + 1}) {
      std::vector<Item> h = items(n, shape::random, 1000 + n);
      gpu::vector<Item> v = gpu::copy(h);
      const auto before = pacxx_test::counts();
      gpu::sort(v, by_group_then_score{});
      const std::size_t passes = n == tile << p ? p : p + 1;
      EXPECT_EQ(pacxx_test::counts().kernel_launches - before.kernel_launches, 1 + 2 * passes)
          << "n = " << n;
      std::stable_sort(h.begin(), h.end(), by_group_then_score{});
      ASSERT_EQ(gpu::copy(v), h) << "n = " << n;
    }
}

TEST(MergeSort, OperatorLessAndProjections) {
  for (std::size_t n : {std::size_t(3), std::size_t(7919)}) {
    rng r(n);
    std::vector<Ranked> h(n);
    for (std::size_t i = 0; i < n; ++i)
      h[i] = Ranked{int(r.integer(-9, 9)), unsigned(i)};
    gpu::vector<Ranked> v = gpu::copy(h);
    gpu::sort(v); // operator<
    std::stable_sort(h.begin(), h.end());
    ASSERT_EQ(gpu::copy(v), h);

    std::vector<Item> hi = items(n, shape::random, n + 5);
    gpu::vector<Item> vi = gpu::copy(hi);
    gpu::sort(vi, std::greater<>{}, score_of{}); // by score, descending
    std::stable_sort(hi.begin(), hi.end(),
                     [](const Item &a, const Item &b) { return a.score > b.score; });
    ASSERT_EQ(gpu::copy(vi), hi);
    vi |= gpu::action::sort(by_group_then_score{});
    std::stable_sort(hi.begin(), hi.end(), by_group_then_score{});
    ASSERT_EQ(gpu::copy(vi), hi);
  }
}

TEST(MergeSort, ArithmeticKeysWithOtherComparators) {
  for (std::size_t n : {std::size_t(2), std::size_t(1009), std::size_t(40009)}) {
    std::vector<int> h = pacxx_test::ints(n, n, -500, 500);
    std::vector<unsigned> idx(n);
    std::iota(idx.begin(), idx.end(), 0u);
    gpu::vector<int> v = gpu::copy(h), k = gpu::copy(h);
    gpu::vector<unsigned> values = gpu::copy(idx);
    gpu::sort(v, by_magnitude{});
    gpu::sort_by_key(k, values, by_magnitude{});
    std::vector<unsigned> want = idx;
    std::stable_sort(want.begin(), want.end(),
                     [&](unsigned a, unsigned b) { return by_magnitude{}(h[a], h[b]); });
    std::stable_sort(h.begin(), h.end(), by_magnitude{});
    ASSERT_EQ(gpu::copy(v), h) << n;
    ASSERT_EQ(gpu::copy(k), h) << n;
    ASSERT_EQ(gpu::copy(values), want) << n;
    // Values as a zip of gpu::vectors.
    gpu::vector<int> k2 = gpu::copy(pacxx_test::ints(n, n, -500, 500));
    gpu::vector<unsigned> ia = gpu::copy(idx), ib = gpu::copy(idx);
    gpu::sort_by_key(k2, ranges::views::zip(ia, ib), by_magnitude{});
    ASSERT_EQ(gpu::copy(ia), want) << n;
    ASSERT_EQ(gpu::copy(ib), want) << n;
  }
}

// Structures of arrays: a zip of gpu::vectors sorted as one, by a comparator on its first
// part (descending) and lexicographically (std::less<> over the tuples).
struct first_descending {
  template <class P> bool operator()(const P &x, const P &y) const {
    return std::get<0>(x) > std::get<0>(y);
  }
};

TEST(MergeSort, ZipOfVectors) {
  for (std::size_t n : {std::size_t(1), std::size_t(1009), std::size_t(40009)}) {
    rng r(n + 1);
    std::vector<std::pair<int, unsigned>> h(n);
    std::vector<int> ha(n);
    std::vector<unsigned> hb(n);
    for (std::size_t i = 0; i < n; ++i) {
      ha[i] = int(r.integer(-30, 30));
      hb[i] = unsigned(r.integer(0, 3));
      h[i] = {ha[i], hb[i]};
    }
    gpu::vector<int> a = gpu::copy(ha);
    gpu::vector<unsigned> b = gpu::copy(hb);
    gpu::sort(ranges::views::zip(a, b), first_descending{});
    std::vector<std::pair<int, unsigned>> want = h;
    std::stable_sort(want.begin(), want.end(), first_descending{});
    std::vector<int> wa(n);
    std::vector<unsigned> wb(n);
    for (std::size_t i = 0; i < n; ++i) {
      wa[i] = want[i].first;
      wb[i] = want[i].second;
    }
    ASSERT_EQ(gpu::copy(a), wa) << n;
    ASSERT_EQ(gpu::copy(b), wb) << n;
    gpu::stable_sort(ranges::views::zip(a, b), std::less<>{});
    std::sort(want.begin(), want.end());
    for (std::size_t i = 0; i < n; ++i) {
      wa[i] = want[i].first;
      wb[i] = want[i].second;
    }
    ASSERT_EQ(gpu::copy(a), wa) << n;
    ASSERT_EQ(gpu::copy(b), wb) << n;
  }
}

} // namespace

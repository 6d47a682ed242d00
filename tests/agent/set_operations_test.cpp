// The balanced merge-path cuts and the serial walk of the set operations
// (pacxx/agent/set_operations.hpp) on the host, with tiles far smaller than the device's
// (1-5 threads of 2-5 items, where the device's are 3840 ints): the tiles and threads of
// the pass are emulated as set_op_tile lays them out, and the results must be std's for
// random sorted inputs with long runs of equivalent elements. Also checks the bound the
// pass relies on: no thread's part takes more than `items` steps of std's walk.
#include <pacxx/agent/set_operations.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <random>
#include <vector>

namespace {

using pacxx::agent::set_op;

// Ordered by key; origin tells which element (and side) an output is.
struct E {
  int key, origin;
};
bool operator==(const E &a, const E &b) { return a.key == b.key && a.origin == b.origin; }
struct by_key {
  bool operator()(const E &a, const E &b) const { return a.key < b.key; }
};

// std's walk over a[ia, ae) and b[ib, be): its number of steps.
unsigned walk_steps(const std::vector<E> &s, unsigned ia, unsigned ae, unsigned ib, unsigned be) {
  unsigned steps = 0;
  while (ia < ae || ib < be) {
    const bool a_in = ia < ae, b_in = ib < be;
    if (a_in && (!b_in || by_key{}(s[ia], s[ib])))
      ++ia;
    else if (b_in && (!a_in || by_key{}(s[ib], s[ia])))
      ++ib;
    else
      ++ia, ++ib;
    ++steps;
  }
  return steps;
}

// The pass with tiles of B threads of I items, on the host.
template <set_op Op, unsigned I>
std::vector<E> emulate(const std::vector<E> &a, const std::vector<E> &b, unsigned B) {
  const std::size_t na = a.size(), nb = b.size(), n = na + nb, tile = B * I;
  const std::size_t tiles = (n + tile - 1) / tile;
  std::vector<std::size_t> ci(tiles + 1), cj(tiles + 1);
  for (std::size_t t = 0; t <= tiles; ++t)
    pacxx::agent::balanced_path([&](std::size_t x) { return a[x]; }, na,
                                [&](std::size_t x) { return b[x]; }, nb, std::min(t * tile, n),
                                by_key{}, ci[t], cj[t]);
  std::vector<E> result;
  for (std::size_t t = 0; t < tiles; ++t) {
    std::vector<E> sh(a.begin() + ci[t], a.begin() + ci[t + 1]);
    const unsigned la = unsigned(sh.size());
    sh.insert(sh.end(), b.begin() + cj[t], b.begin() + cj[t + 1]);
    const unsigned len = unsigned(sh.size());
    EXPECT_LE(len, tile + 1);
    sh.resize(tile + 2, E{-1, -1}); // the tile's shared memory, with its spare elements
    std::vector<unsigned> cut_a(B), cut_b(B);
    for (unsigned l = 0; l < B; ++l)
      pacxx::agent::balanced_path([&](unsigned i) { return sh[i]; }, la,
                                  [&](unsigned j) { return sh[la + j]; }, len - la,
                                  std::min(l * I, len), by_key{}, cut_a[l], cut_b[l]);
    for (unsigned l = 0; l < B; ++l) {
      const unsigned ae = l + 1 < B ? cut_a[l + 1] : la;
      const unsigned be = l + 1 < B ? cut_b[l + 1] : len - la;
      EXPECT_LE(walk_steps(sh, cut_a[l], ae, la + cut_b[l], la + be), I);
      E out[I];
      bool keep[I];
      pacxx::agent::serial_set_op<Op>([&](unsigned x) { return sh[x]; }, cut_a[l], ae,
                                      la + cut_b[l], la + be, out, keep, by_key{});
      for (unsigned k = 0; k < I; ++k)
        if (keep[k])
          result.push_back(out[k]);
    }
  }
  return result;
}

std::vector<E> sorted(std::mt19937 &r, std::size_t n, int range, int side) {
  std::vector<int> k(n);
  for (auto &x : k)
    x = int(r() % unsigned(range));
  std::sort(k.begin(), k.end());
  std::vector<E> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = E{k[i], side * 100000 + int(i)};
  return v;
}

template <unsigned I> void check(std::mt19937 &r, std::size_t max_n, int cases) {
  for (int c = 0; c < cases; ++c) {
    const std::size_t na = r() % max_n, nb = c % 5 == 0 ? r() % 20 : r() % max_n;
    const int range = 1 + int(r() % (c % 3 == 0 ? 3u : 40u)); // few values: long runs
    const std::vector<E> a = sorted(r, na, range, 1), b = sorted(r, nb, range, 2);
    const unsigned B = 1 + unsigned(r() % 5);
    std::vector<E> want;
    auto o = std::back_inserter(want);
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), o, by_key{});
    ASSERT_EQ((emulate<set_op::intersection, I>(a, b, B)), want) << na << " " << nb << " " << B;
    want.clear();
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), o, by_key{});
    ASSERT_EQ((emulate<set_op::difference, I>(a, b, B)), want) << na << " " << nb << " " << B;
    want.clear();
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), o, by_key{});
    ASSERT_EQ((emulate<set_op::union_, I>(a, b, B)), want) << na << " " << nb << " " << B;
    want.clear();
    std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), o, by_key{});
    ASSERT_EQ((emulate<set_op::symmetric, I>(a, b, B)), want) << na << " " << nb << " " << B;
  }
}

TEST(SetOperationsAgent, SmallTilesMatchStd) {
  std::mt19937 r(38);
  check<2>(r, 200, 2000);
  check<3>(r, 200, 2000);
  check<5>(r, 1000, 500);
}

// All elements equivalent: every cut lands inside one run.
TEST(SetOperationsAgent, OneRun) {
  for (std::size_t na : {0, 1, 7, 30})
    for (std::size_t nb : {0, 1, 8, 29}) {
      std::vector<E> a(na), b(nb), want;
      for (std::size_t i = 0; i < na; ++i)
        a[i] = E{0, int(i)};
      for (std::size_t i = 0; i < nb; ++i)
        b[i] = E{0, 1000 + int(i)};
      std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(want), by_key{});
      for (unsigned B = 1; B <= 4; ++B)
        ASSERT_EQ((emulate<set_op::union_, 2>(a, b, B)), want) << na << " " << nb << " " << B;
    }
}

} // namespace

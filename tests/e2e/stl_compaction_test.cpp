// End-to-end: compaction and filtered pipelines (issue 9, items 4 and 5) against the
// host STL and range-v3 on the host.
//   functions  gpu::copy_if(in, out, pred), gpu::copy_if(in, pred),
//              gpu::stable_partition(v, pred), v |= gpu::action::remove_if(pred),
//              v |= gpu::action::unique / unique(eq), chained actions on rvalues;
//              view::filter / view::remove_if pipelines (under transforms, nested)
//              consumed by gpu::reduce, gpu::for_each, gpu::copy and gpu::copy_if
//   types      int, unsigned, long long, unsigned long long, float, double, a user struct
//   sizes      0, 1, a prime, 2^20 + 3 (hundreds of tiles: the look-back walks, and in
//              place the tiles overlap their predecessors' output)
//   selection  none, all, alternating, pseudo-random
//   contract   out too small is a pacxx::error and out is unchanged; exact launch counts;
//              after a warm-up every temporary comes from the pool
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/numeric/accumulate.hpp>
#include <range/v3/range/conversion.hpp>
#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <type_traits>
#include <vector>

namespace view = ranges::views;

// A user POD: selected and compared by its key.
struct Rec {
  int key;
  float weight;
};
inline bool operator==(const Rec &a, const Rec &b) {
  return a.key == b.key && a.weight == b.weight;
}

namespace {

template <class T> T make(int v) { return static_cast<T>(v); }
template <> Rec make<Rec>(int v) { return Rec{v, 0.5f * static_cast<float>(v)}; }
inline long long key(const Rec &r) { return r.key; }
template <class T> long long key(const T &x) { return static_cast<long long>(x); }

// Selects even keys. One functor type, so each element type compiles one pass kernel.
struct even {
  template <class T> bool operator()(const T &x) const { return key(x) % 2 == 0; }
};
// Equal by key / 4 (unique with a comparison that is not ==).
struct same_quarter {
  template <class T> bool operator()(const T &a, const T &b) const {
    return key(a) / 4 == key(b) / 4;
  }
};

enum class pattern { none, all, alternating, random };
const pattern patterns[] = {pattern::none, pattern::all, pattern::alternating, pattern::random};
#define FOR_SIZES_AND_PATTERNS                                                                     \
  for (std::size_t n : sizes)                                                                      \
    for (pattern p : patterns)                                                                     \
      if (!skip(n, int(p)))
const std::size_t sizes[] = {0, 1, pacxx_test::prime, pacxx_test::big};
// Every pattern at the small sizes, the random one at 2^20 + 3 (PoCL's time).
bool skip(std::size_t n, int p) { return n == pacxx_test::big && p != 3; }

// Non-negative values (unsigned types) whose parity follows the pattern; small, so that
// neighbours are often equal (unique).
template <class T> std::vector<T> values(std::size_t n, pattern p, std::uint64_t seed) {
  pacxx_test::rng r(seed);
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    int x = static_cast<int>(r.integer(0, 20)) * 2;
    if (p == pattern::none || (p == pattern::alternating && i % 2 == 1) ||
        (p == pattern::random && r.integer(0, 1)))
      x += 1;
    v[i] = make<T>(x);
  }
  return v;
}

template <class T> class Compaction : public ::testing::Test {};
using Types = ::testing::Types<int, unsigned, long long, unsigned long long, float, double, Rec>;
TYPED_TEST_SUITE(Compaction, Types);
// remove_if, stable_partition and unique (the same pass with other selectors and in
// place): one type of each size and kind, since each type is a kernel of its own (~2 s
// of JIT on PoCL).
template <class T> class Reorder : public ::testing::Test {};
using ReorderTypes = ::testing::Types<int, unsigned long long, double, Rec>;
TYPED_TEST_SUITE(Reorder, ReorderTypes);

TYPED_TEST(Compaction, CopyIfMatchesStd) {
  using T = TypeParam;
  FOR_SIZES_AND_PATTERNS {
    const std::vector<T> h = values<T>(n, p, n + 3);
    std::vector<T> expect;
    std::copy_if(h.begin(), h.end(), std::back_inserter(expect), even{});
    gpu::vector<T> x = gpu::copy(h);
    // Out as large as the input: written directly; the rest is untouched.
    gpu::vector<T> out(n + 2, make<T>(-7));
    const std::size_t c = gpu::copy_if(x, out, even{});
    ASSERT_EQ(c, expect.size()) << "n = " << n;
    std::vector<T> got = gpu::copy(out), want = expect;
    want.resize(n + 2, make<T>(-7));
    ASSERT_EQ(got, want) << "n = " << n << " pattern " << int(p);
    // Exactly sized.
    ASSERT_EQ(gpu::copy(gpu::copy_if(x, even{})), expect) << "n = " << n;
    // Out smaller than the input but large enough: counted first, then written.
    if (n > expect.size()) {
      gpu::vector<T> tight(expect.size(), make<T>(-7));
      ASSERT_EQ(gpu::copy_if(x, tight, even{}), expect.size());
      ASSERT_EQ(gpu::copy(tight), expect);
    }
  }
}

TYPED_TEST(Reorder, RemoveIfMatchesStd) {
  using T = TypeParam;
  FOR_SIZES_AND_PATTERNS {
    std::vector<T> h = values<T>(n, p, n + 5);
    gpu::vector<T> x = gpu::copy(h);
    x |= gpu::action::remove_if(even{});
    h.erase(std::remove_if(h.begin(), h.end(), even{}), h.end());
    ASSERT_EQ(x.size(), h.size());
    ASSERT_EQ(gpu::copy(x), h) << "n = " << n << " pattern " << int(p);
  }
}

TYPED_TEST(Reorder, StablePartitionMatchesStd) {
  using T = TypeParam;
  FOR_SIZES_AND_PATTERNS {
    std::vector<T> h = values<T>(n, p, n + 7);
    gpu::vector<T> x = gpu::copy(h);
    const std::size_t t = gpu::stable_partition(x, even{});
    const auto mid = std::stable_partition(h.begin(), h.end(), even{});
    ASSERT_EQ(t, static_cast<std::size_t>(mid - h.begin()));
    ASSERT_EQ(gpu::copy(x), h) << "n = " << n << " pattern " << int(p);
  }
}

TYPED_TEST(Reorder, UniqueMatchesStd) {
  using T = TypeParam;
  for (std::size_t n : sizes) {
    std::vector<T> h = values<T>(n, pattern::random, n + 9);
    // Runs of equal neighbours, longer than a thread's items and than a tile.
    for (std::size_t i = 0; i < n; ++i)
      if ((i / 3) % 5 != 0 || (i >= 3000 && i < 9000))
        h[i] = h[i - i % 3];
    gpu::vector<T> x = gpu::copy(h);
    x |= gpu::action::unique;
    std::vector<T> expect = h;
    expect.erase(std::unique(expect.begin(), expect.end()), expect.end());
    ASSERT_EQ(gpu::copy(x), expect) << "n = " << n;
  }
}

TEST(Reorder, UniqueWithAComparison) {
  for (std::size_t n : sizes) {
    const std::vector<int> h = values<int>(n, pattern::random, n + 11);
    gpu::vector<int> y = gpu::copy(h);
    y |= gpu::action::unique(same_quarter{});
    std::vector<int> expect = h;
    expect.erase(std::unique(expect.begin(), expect.end(), same_quarter{}), expect.end());
    ASSERT_EQ(gpu::copy(y), expect) << "n = " << n;
  }
}

TEST(Compaction, OutputTooSmallIsAnErrorAndWritesNothing) {
  const std::vector<int> h = values<int>(pacxx_test::big, pattern::random, 1);
  const std::size_t c = static_cast<std::size_t>(std::count_if(h.begin(), h.end(), even{}));
  gpu::vector<int> x = gpu::copy(h), out(c - 1, -3);
  EXPECT_THROW(gpu::copy_if(x, out, even{}), pacxx::error);
  EXPECT_EQ(gpu::copy(out), std::vector<int>(c - 1, -3));
  gpu::vector<int> none;
  EXPECT_THROW(gpu::copy_if(x, none, even{}), pacxx::error);
  // Nothing selected fits anywhere.
  gpu::vector<int> odd = gpu::copy(values<int>(100, pattern::none, 2));
  EXPECT_EQ(gpu::copy_if(odd, none, even{}), 0u);
}

TEST(Compaction, ViewsOnInputAndOutput) {
  const std::size_t n = pacxx_test::big;
  const std::vector<int> a = pacxx_test::ints(n, 3), b = pacxx_test::ints(n, 4);
  gpu::vector<int> da = gpu::copy(a), db = gpu::copy(b);
  auto sum = [](const auto &p) { return std::get<0>(p) + std::get<1>(p); };
  std::vector<long long> expect;
  for (std::size_t i = 0; i < n; ++i)
    if ((a[i] + b[i]) % 2 == 0)
      expect.push_back(a[i] + b[i]);
  // Input: a zip transformed (fused); output: the first n elements, reversed.
  gpu::vector<long long> out(n + 4, -1);
  const std::size_t c = gpu::copy_if(view::zip(da, db) | view::transform(sum),
                                     out | view::take(n) | view::reverse, even{});
  ASSERT_EQ(c, expect.size());
  const std::vector<long long> got = gpu::copy(out);
  for (std::size_t j = 0; j < c; ++j)
    ASSERT_EQ(got[n - 1 - j], expect[j]) << j;
  EXPECT_EQ(got[0], -1); // n - c > 0 elements before the reversed output stay
  EXPECT_EQ(got[n + 3], -1);
  // Exactly sized from a view.
  EXPECT_EQ(gpu::copy(gpu::copy_if(view::zip(da, db) | view::transform(sum), even{})),
            std::vector<int>(expect.begin(), expect.end()));
}

TEST(Filter, ReduceForEachCopyMatchRangeV3) {
  for (std::size_t n : sizes) {
    const std::vector<float> h = pacxx_test::random_floats(n, n + 1, -4.f, 4.f);
    const std::vector<float> h2 = pacxx_test::random_floats(n, n + 2, -4.f, 4.f);
    gpu::vector<float> x = gpu::copy(h), y = gpu::copy(h2);
    auto pos = [](float v) { return v > 0.f; };
    auto sq = [](float v) { return v * v; };
    auto small = [](float v) { return v < 4.f; };
    auto hv = view::all(h);
    // reduce over filter | transform (integer-valued sums are exact in any order: use
    // the float count and compare the sum loosely)
    const double s = x | view::filter(pos) | view::transform(sq) | gpu::reduce(0.);
    const double hs = ranges::accumulate(hv | view::filter(pos) | view::transform(sq), 0.);
    EXPECT_NEAR(s, hs, 1e-6 * (hs + 1)) << n;
    // count through reduce; remove_if; nested filters under a transform
    auto one = [](float) { return 1LL; };
    EXPECT_EQ(x | view::remove_if(pos) | view::transform(one) | gpu::reduce(0LL),
              ranges::distance(hv | view::remove_if(pos)));
    EXPECT_EQ(x | view::filter(pos) | view::transform(sq) | view::filter(small) |
                  view::transform(one) | gpu::reduce(0LL),
              ranges::distance(hv | view::filter(pos) | view::transform(sq) | view::filter(small)));
    // gpu::count_if and gpu::count over filtered pipelines (one kernel each)
    auto is_zero = [](float v) { return v == 0.f; };
    EXPECT_EQ(gpu::count_if(x | view::filter(pos), small),
              std::size_t(ranges::distance(hv | view::filter(pos) | view::filter(small))));
    EXPECT_EQ(x | view::remove_if(pos) | gpu::count(0.f),
              std::size_t(ranges::distance(hv | view::remove_if(pos) | view::filter(is_zero))));
    // a filter over a zip: elements of both vectors
    auto first_pos = [](const auto &p) { return std::get<0>(p) > 0.f; };
    auto second = [](const auto &p) { return double(std::get<1>(p)); };
    const double zs =
        view::zip(x, y) | view::filter(first_pos) | view::transform(second) | gpu::reduce(0.);
    const double hzs = ranges::accumulate(
        view::zip(h, h2) | view::filter(first_pos) | view::transform(second), 0.);
    EXPECT_NEAR(zs, hzs, 1e-6 * (std::abs(hzs) + n + 1)) << n;
    // gpu::copy to a std::vector and to a gpu::vector, in order
    const std::vector<float> expect =
        hv | view::filter(pos) | view::transform(sq) | ranges::to<std::vector>();
    EXPECT_EQ(gpu::copy(x | view::filter(pos) | view::transform(sq)), expect) << n;
    gpu::vector<float> out(3);
    gpu::copy(x | view::filter(pos) | view::transform(sq), out);
    EXPECT_EQ(gpu::copy(out), expect) << n;
    EXPECT_EQ(gpu::copy(gpu::materialize(x | view::filter(pos) | view::transform(sq))), expect);
    // copy_if over a filtered pipeline
    gpu::vector<float> sel(n);
    const std::size_t c = gpu::copy_if(x | view::filter(pos) | view::transform(sq), sel, small);
    std::vector<float> want = hv | view::filter(pos) | view::transform(sq) | view::filter(small) |
                              ranges::to<std::vector>();
    ASSERT_EQ(c, want.size());
    std::vector<float> got = gpu::copy(sel);
    got.resize(c);
    EXPECT_EQ(got, want);
    // for_each writes through the filter
    gpu::for_each(x | view::filter(pos), [](float &v) { v = -v; });
    std::vector<float> negated = h;
    for (float &v : negated)
      if (v > 0.f)
        v = -v;
    EXPECT_EQ(gpu::copy(x), negated) << n;
  }
}

TEST(Actions, ChainOnRvalues) {
  const std::size_t n = pacxx_test::big;
  std::vector<int> h = values<int>(n, pattern::random, 17);
  gpu::vector<int> v = gpu::copy(h);
  auto half = [](int x) { return x / 4; };
  gpu::vector<int> r = std::move(v) | gpu::action::remove_if(even{}) |
                       gpu::action::transform(half) | gpu::action::unique;
  h.erase(std::remove_if(h.begin(), h.end(), even{}), h.end());
  std::transform(h.begin(), h.end(), h.begin(), half);
  h.erase(std::unique(h.begin(), h.end()), h.end());
  EXPECT_EQ(gpu::copy(r), h);
}

TEST(Compaction, LaunchAndAllocationCounts) {
  const std::size_t n = pacxx_test::big;
  const std::vector<int> h = values<int>(n, pattern::random, 5);
  const std::size_t c = static_cast<std::size_t>(std::count_if(h.begin(), h.end(), even{}));
  gpu::vector<int> x = gpu::copy(h), out(n), tight(c);
  auto pos = [](int v) { return v % 3 == 0; };
  auto run_all = [&] {
    gpu::copy_if(x, out, even{});                 // clear + pass
    gpu::copy_if(x, tight, even{});               // count (clears) + pass
    gpu::vector<int> e = gpu::copy_if(x, even{}); // count + pass
    gpu::vector<int> y = x;
    gpu::stable_partition(y, even{});                   // clear + pass (+ a device copy)
    y |= gpu::action::remove_if(even{});                // clear + pass
    y |= gpu::action::unique;                           // clear + pass
    (void)(x | view::filter(pos) | gpu::reduce(0));     // 1
    gpu::for_each(x | view::filter(pos), [](int &) {}); // 1
    (void)gpu::copy(x | view::filter(pos));             // clear + pass
  };
  run_all(); // warm-up: JIT, scratch, pool
  pacxx::reset_stats();
  run_all();
  const auto s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 6u * 2 + 1 + 1 + 2);
  EXPECT_EQ(s.device_allocations, s.pool_hits);
}

} // namespace

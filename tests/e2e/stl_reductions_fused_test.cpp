// End-to-end: the reductions of issue 9 against the host STL, over a user struct, with
// predicates, views fused into the inputs, and counted. The arithmetic types are in
// stl_reductions_test.cpp.
//   struct      min_element, max_element, minmax_element with a comparator on one field
//               (the ids tell which of equal keys was chosen), count, find
//   predicates  count_if, find_if, any_of, all_of, none_of, called and piped
//   views       zip | transform and transform on the inputs (fused into the loads)
//   equal       equal, differing in the first or the last element, sizes that differ,
//               a view against a vector
//   folds       transform_reduce (called and piped), inner_product (3 and 5 arguments;
//               a second range shorter than the first is an error)
//   sizes       0, 1, 1009, 10007, 2^20 + 3 (every block takes a full round of tiles
//               and some one more: the staged multi-round path)
//   grids       1 to 528 blocks, several rounds of tiles, extremes in several blocks
//   contract    one launch per call, no allocation after a warm-up beyond pool hits
// Predicates are named function objects, so that tests share their kernels (each costs
// a JIT compilation on PoCL).
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

namespace view = ranges::views;

// A user's struct (external linkage, as from a user's header): ordered by key alone, so
// that equal keys with different ids show which element an algorithm picked.
struct Item {
  int key;
  int id;
};
inline bool operator==(const Item &a, const Item &b) { return a.key == b.key && a.id == b.id; }

namespace {

using pacxx_test::big;
using pacxx_test::counts;
using pacxx_test::prime;

const std::size_t sizes[] = {0, 1, prime, 10007, big};

std::size_t index_of(std::size_t n, std::ptrdiff_t d) { return n == 0 ? 0 : std::size_t(d); }

struct Above {
  int bound;
  bool operator()(int v) const { return v > bound; }
};
struct ByKey {
  bool operator()(const Item &a, const Item &b) const { return a.key < b.key; }
};

TEST(Reductions, UserStructWithAComparator) {
  for (std::size_t n : sizes) {
    SCOPED_TRACE(n);
    pacxx_test::rng r(n);
    std::vector<Item> h(n);
    for (std::size_t i = 0; i < n; ++i)
      h[i] = Item{int(r.integer(-30, 30)), int(i)};
    gpu::vector<Item> x = gpu::copy(h);
    EXPECT_EQ(gpu::min_element(x, ByKey{}),
              index_of(n, std::min_element(h.begin(), h.end(), ByKey{}) - h.begin()));
    EXPECT_EQ(x | gpu::max_element(ByKey{}),
              index_of(n, std::max_element(h.begin(), h.end(), ByKey{}) - h.begin()));
    const auto mm = std::minmax_element(h.begin(), h.end(), ByKey{});
    EXPECT_EQ(gpu::minmax_element(x, ByKey{}), std::make_pair(index_of(n, mm.first - h.begin()),
                                                              index_of(n, mm.second - h.begin())));
    if (n > 0) {
      const Item last = h[n - 1];
      EXPECT_EQ(gpu::count(x, last), 1u);
      EXPECT_EQ(gpu::find(x, last), n - 1);
      EXPECT_EQ(gpu::find(x, Item{0, -1}), n);
    }
  }
}

TEST(Reductions, PredicatesAreStds) {
  for (std::size_t n : sizes) {
    SCOPED_TRACE(n);
    const std::vector<int> h = pacxx_test::ints(n, 11 + n, -1000, 1000);
    gpu::vector<int> x = gpu::copy(h);
    for (int bound : {-2000, 990, 2000}) {
      const Above above{bound};
      const std::size_t first = std::find_if(h.begin(), h.end(), above) - h.begin();
      const std::size_t count = std::count_if(h.begin(), h.end(), above);
      EXPECT_EQ(gpu::count_if(x, above), count);
      EXPECT_EQ(gpu::find_if(x, above), first);
      EXPECT_EQ(gpu::any_of(x, above), std::any_of(h.begin(), h.end(), above));
      EXPECT_EQ(gpu::all_of(x, above), std::all_of(h.begin(), h.end(), above));
      EXPECT_EQ(gpu::none_of(x, above), std::none_of(h.begin(), h.end(), above));
      // Piped forms (the same kernels).
      EXPECT_EQ(x | gpu::count_if(above), count);
      EXPECT_EQ(x | gpu::find_if(above), first);
      EXPECT_EQ(x | gpu::any_of(above), std::any_of(h.begin(), h.end(), above));
      EXPECT_EQ(x | gpu::all_of(above), std::all_of(h.begin(), h.end(), above));
      EXPECT_EQ(x | gpu::none_of(above), std::none_of(h.begin(), h.end(), above));
    }
  }
}

TEST(Reductions, ViewsOnTheInputs) {
  const std::size_t n = big;
  const std::vector<float> a = pacxx_test::random_floats(n, 1, -1.f, 1.f);
  const std::vector<float> b = pacxx_test::random_floats(n, 2, -1.f, 1.f);
  gpu::vector<float> ga = gpu::copy(a), gb = gpu::copy(b);
  auto sums = view::zip(ga, gb) | view::transform(pacxx_test::plus);
  std::vector<float> hs(n);
  for (std::size_t i = 0; i < n; ++i)
    hs[i] = a[i] + b[i];
  auto positive = [](float v) { return v > 0.f; };
  EXPECT_EQ(gpu::count_if(sums, positive),
            std::size_t(std::count_if(hs.begin(), hs.end(), positive)));
  const auto mm = std::minmax_element(hs.begin(), hs.end());
  EXPECT_EQ(sums | gpu::minmax_element(), std::make_pair(std::size_t(mm.first - hs.begin()),
                                                         std::size_t(mm.second - hs.begin())));
  auto near_two = [](float v) { return v > 1.99f; };
  EXPECT_EQ(gpu::find_if(sums, near_two),
            std::size_t(std::find_if(hs.begin(), hs.end(), near_two) - hs.begin()));
  // A transform of one vector.
  auto doubled = ga | view::transform(pacxx_test::twice);
  EXPECT_EQ(doubled | gpu::max_element(),
            std::size_t(std::max_element(a.begin(), a.end()) - a.begin()));
}

TEST(Reductions, Equal) {
  for (std::size_t n : sizes) {
    SCOPED_TRACE(n);
    const std::vector<int> h = pacxx_test::ints(n, 17 + n);
    gpu::vector<int> x = gpu::copy(h);
    EXPECT_TRUE(gpu::equal(x, gpu::copy(h)));
    if (n == 0)
      continue;
    std::vector<int> y = h;
    y[n - 1] += 1;
    EXPECT_FALSE(gpu::equal(x, gpu::copy(y))); // differs in the last element
    y = h;
    y[0] += 1;
    EXPECT_FALSE(gpu::equal(x, gpu::copy(y)));          // in the first
    EXPECT_FALSE(gpu::equal(x, x | view::take(n - 1))); // sizes differ
    // A view against a vector: 2 h.
    for (std::size_t i = 0; i < n; ++i)
      y[i] = 2 * h[i];
    EXPECT_TRUE(gpu::equal(x | view::transform(pacxx_test::twice), gpu::copy(y)));
    y[n / 2] += 1;
    EXPECT_FALSE(gpu::equal(x | view::transform(pacxx_test::twice), gpu::copy(y)));
  }
}

TEST(Reductions, TransformReduceAndInnerProduct) {
  auto square = [](int v) { return static_cast<long long>(v) * v; };
  auto max_ll = [](long long x, long long y) { return x > y ? x : y; };
  auto absdiff = [](int x, int y) { return static_cast<long long>(x > y ? x - y : y - x); };
  for (std::size_t n : sizes) {
    SCOPED_TRACE(n);
    const std::vector<int> a = pacxx_test::ints(n, 21 + n), b = pacxx_test::ints(n, 22 + n);
    gpu::vector<int> ga = gpu::copy(a), gb = gpu::copy(b);
    long long squares = 7, dot = 3, maxdiff = 0;
    for (std::size_t i = 0; i < n; ++i) {
      squares += static_cast<long long>(a[i]) * a[i];
      dot += static_cast<long long>(a[i]) * b[i];
      maxdiff = std::max(maxdiff, static_cast<long long>(std::abs(a[i] - b[i])));
    }
    EXPECT_EQ(gpu::transform_reduce(ga, 7LL, std::plus<>(), square), squares);
    EXPECT_EQ(ga | gpu::transform_reduce(7LL, std::plus<>(), square), squares);
    EXPECT_EQ(gpu::inner_product(ga, gb, 3LL), dot);
    EXPECT_EQ(gpu::inner_product(ga, gb, 0LL, max_ll, absdiff), maxdiff);
  }
  gpu::vector<int> a(10), b(9);
  EXPECT_THROW(gpu::inner_product(a, b, 0LL), pacxx::error);
}

TEST(Reductions, OneLaunchPerCallAndNoAllocationsAfterWarmUp) {
  const std::size_t n = big;
  std::vector<int> h(n, 1);
  h[n / 2] = 2;
  gpu::vector<int> x = gpu::copy(h), y = gpu::copy(h);
  const Above above{1};
  auto calls = [&] {
    EXPECT_EQ(gpu::count_if(x, above), 1u);
    EXPECT_EQ(gpu::count(x, 1), n - 1);
    EXPECT_EQ(gpu::min_element(x), 0u);
    EXPECT_EQ(gpu::max_element(x), n / 2);
    EXPECT_EQ(gpu::minmax_element(x), std::make_pair(std::size_t(0), n / 2));
    EXPECT_EQ(gpu::find_if(x, above), n / 2);
    EXPECT_EQ(gpu::find(x, 2), n / 2);
    EXPECT_TRUE(gpu::any_of(x, above));
    EXPECT_FALSE(gpu::all_of(x, above));
    EXPECT_FALSE(gpu::none_of(x, above));
    EXPECT_TRUE(gpu::equal(x, y));
    EXPECT_EQ(gpu::inner_product(x, y, 3LL), static_cast<long long>(n) + 6);
    EXPECT_EQ(gpu::reduce(x, 0LL), static_cast<long long>(n) + 1);
  };
  calls(); // warm-up: JIT and the scratch buffer
  pacxx::reset_stats();
  calls();
  const auto s = counts();
  EXPECT_EQ(s.kernel_launches, 13u);
  EXPECT_EQ(s.device_allocations, s.pool_hits);
}

// Whatever the grid (one block, fewer blocks than a warp has lanes, more, and the whole
// grid with several rounds of tiles), the partials are folded into std's answer: the
// extremes sit in several blocks, so the order of the blocks decides nothing, and
// searches between the reductions share nothing with them.
TEST(Reductions, EveryGridFoldsToStdsAnswer) {
  for (std::size_t n : {std::size_t(1), std::size_t(2047), std::size_t(2049),
                        std::size_t(33 * 2048 + 5), std::size_t(3 * 528 * 2048 + 4097)}) {
    SCOPED_TRACE(n);
    std::vector<int> h(n, 5);
    for (std::size_t i : {n - 1, n / 2, n / 3})
      h[i] = 1;
    for (std::size_t i : {n - 2, std::size_t(7)})
      if (i < n && h[i] == 5)
        h[i] = 9;
    const auto mm = std::minmax_element(h.begin(), h.end());
    const std::size_t lo = std::size_t(mm.first - h.begin()),
                      hi = std::size_t(mm.second - h.begin());
    const long long sum = std::accumulate(h.begin(), h.end(), 0LL);
    const std::size_t above = std::size_t(std::count_if(h.begin(), h.end(), Above{5}));
    gpu::vector<int> x = gpu::copy(h);
    for (int round = 0; round < 2; ++round) {
      EXPECT_EQ(gpu::reduce(x, 0LL), sum);
      EXPECT_EQ(gpu::count_if(x, Above{5}), above);
      EXPECT_EQ(gpu::min_element(x), lo);
      EXPECT_EQ(gpu::max_element(x), std::size_t(std::max_element(h.begin(), h.end()) - h.begin()));
      EXPECT_EQ(gpu::minmax_element(x), std::make_pair(lo, hi));
      EXPECT_EQ(gpu::find_if(x, Above{5}),
                std::size_t(std::find_if(h.begin(), h.end(), Above{5}) - h.begin()));
    }
  }
}

// The searches keep their early-stop word on the device, where each search sets the
// next one's (no fill, no copy from the host), so a search moves its blocks' results
// back (one word each) and nothing to the device; a search that finds nothing still
// answers n, whatever an earlier search found.
TEST(Reductions, SearchesCopyOnlyTheirResultBack) {
  const std::size_t n = big;
  std::vector<int> h(n, 1);
  h[n - 1] = 2;
  gpu::vector<int> x = gpu::copy(h);
  const Above above{1}, none{5};
  EXPECT_EQ(gpu::find_if(x, above), n - 1); // warm-up: JIT and the scratch buffer
  EXPECT_EQ(gpu::find_if(x, none), n);
  pacxx::reset_stats();
  EXPECT_EQ(gpu::find_if(x, above), n - 1);
  EXPECT_EQ(gpu::find_if(x, none), n);
  EXPECT_FALSE(gpu::any_of(x, none));
  EXPECT_TRUE(gpu::all_of(x, Above{0}));
  const auto s = counts();
  EXPECT_EQ(s.kernel_launches, 4u);
  EXPECT_EQ(s.bytes_to_device, 0u);
  using P = pacxx::policy::find;
  const pacxx::launch_config grid =
      pacxx::detail::grid_for(pacxx::detail::ceil_div(n, P::items), P::block, P::max_blocks);
  EXPECT_EQ(s.bytes_to_host, 4 * grid.grid.x * sizeof(std::size_t));
}

// What a search leaves for the next is its own: algorithms in between that use scratch
// memory (reduce's partials, a scan's tile states), searches with other grids, and
// searches on a queue of their own (a scratch of their own) each answer as std does.
TEST(Reductions, SearchesInterleavedWithOtherAlgorithmsAndQueues) {
  const std::size_t n = big;
  std::vector<int> h(n, 1);
  h[n / 3] = 2;
  gpu::vector<int> x = gpu::copy(h), out(n);
  const std::vector<int> small_h(prime, 1);
  gpu::vector<int> small = gpu::copy(small_h);
  const Above above{1}, none{5};
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    EXPECT_EQ(gpu::find_if(x, above), n / 3);
    EXPECT_EQ(gpu::reduce(x, 0LL), static_cast<long long>(n) + 1);
    EXPECT_EQ(gpu::find_if(small, above), std::size_t(prime));
    gpu::inclusive_scan(x, out);
    EXPECT_EQ(gpu::find_if(x, none), n);
    EXPECT_TRUE(gpu::any_of(small, Above{0}));
    {
      pacxx::queue q;
      pacxx::queue_scope on(q);
      EXPECT_EQ(gpu::find_if(x, none), n);
      EXPECT_EQ(gpu::find(x, 2), n / 3);
      EXPECT_FALSE(gpu::none_of(x, above));
    }
    EXPECT_EQ(gpu::find(x, 2), n / 3);
    EXPECT_FALSE(gpu::all_of(small, none));
  }
  EXPECT_EQ(gpu::copy(out).back(), static_cast<int>(n) + 1);
}

} // namespace

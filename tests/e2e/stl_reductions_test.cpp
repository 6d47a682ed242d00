// End-to-end: the reductions of issue 9 against the host STL, for every arithmetic type
// (int, unsigned, long long, unsigned long long, float, double). The user struct, the
// predicates, views on the inputs, equal, transform_reduce, inner_product and the
// launch and allocation counts are in stl_reductions_fused_test.cpp (the two programs
// split the JIT time on PoCL: one kernel per algorithm, type and staged round count).
//   algorithms  min_element, max_element, minmax_element, count, find
//   sizes       0, 1, 1009 (one block), 10007 (several blocks); find also 2^20 + 3
//   ties        values from a small range: min_element and max_element give the first
//               smallest / largest, minmax_element the first smallest and the last
//               largest; also distinct values and all elements equal
//   find        the value in the first, the last and no element
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace view = ranges::views;

namespace {

using pacxx_test::big;
using pacxx_test::counts;
using pacxx_test::prime;

// Sizes below 2^20 share one staged kernel per algorithm and type (no block takes a
// full round of tiles); 2^20 + 3 is in stl_reductions_fused_test.cpp for the staged
// reductions (and below for find, which is not staged).
const std::size_t sizes[] = {0, 1, prime, 10007};

// Values in [lo, lo + 20]: many ties.
template <class T> std::vector<T> small_values(std::size_t n, std::uint64_t seed) {
  const int lo = std::is_signed<T>::value ? -10 : 0;
  const auto v = pacxx_test::ints(n, seed, lo, lo + 20);
  return std::vector<T>(v.begin(), v.end());
}

std::size_t index_of(std::size_t n, std::ptrdiff_t d) { return n == 0 ? 0 : std::size_t(d); }

template <class T> class Reductions : public ::testing::Test {};
using Types = ::testing::Types<int, unsigned, long long, unsigned long long, float, double>;
TYPED_TEST_SUITE(Reductions, Types);

TYPED_TEST(Reductions, MinMaxElementsAreStds) {
  using T = TypeParam;
  for (std::size_t n : sizes) {
    SCOPED_TRACE(n);
    const std::vector<T> h = small_values<T>(n, 3 + n);
    gpu::vector<T> x = gpu::copy(h);
    EXPECT_EQ(gpu::min_element(x), index_of(n, std::min_element(h.begin(), h.end()) - h.begin()));
    EXPECT_EQ(gpu::max_element(x), index_of(n, std::max_element(h.begin(), h.end()) - h.begin()));
    const auto mm = std::minmax_element(h.begin(), h.end());
    EXPECT_EQ(gpu::minmax_element(x), std::make_pair(index_of(n, mm.first - h.begin()),
                                                     index_of(n, mm.second - h.begin())));
  }
}

// One smallest and one largest per warp and block (distinct values: the warp fold of
// min_element takes the one lane that holds the smallest), and every element equal (all
// lanes hold it: the lowest index wins).
TYPED_TEST(Reductions, MinMaxElementsOfDistinctAndEqualValues) {
  using T = TypeParam;
  for (std::size_t n : {prime, std::size_t(10007)}) {
    SCOPED_TRACE(n);
    std::vector<T> h(n);
    for (std::size_t i = 0; i < n; ++i)
      h[i] = T((i * 7919 + 11) % n); // a permutation of [0, n): n is prime
    gpu::vector<T> x = gpu::copy(h);
    EXPECT_EQ(gpu::min_element(x), std::size_t(std::min_element(h.begin(), h.end()) - h.begin()));
    EXPECT_EQ(gpu::max_element(x), std::size_t(std::max_element(h.begin(), h.end()) - h.begin()));
    gpu::vector<T> same = gpu::copy(std::vector<T>(n, T(7)));
    EXPECT_EQ(gpu::min_element(same), 0u);
    EXPECT_EQ(gpu::max_element(same), 0u);
  }
}

// Above policy::arg_reduce::index32_max elements the kernel carries 64-bit indices.
TEST(ReductionsLarge, MinMaxElementsWith64BitIndices) {
  const std::size_t n = pacxx::policy::arg_reduce::index32_max + 3;
  std::vector<float> h(n);
  for (std::size_t i = 0; i < n; ++i)
    h[i] = float(i % 1000);
  h[n - 2] = h[n - 1] = -1.f; // the first smallest is past 2^24
  h[7] = h[n - 3] = 2000.f;   // the first largest is near the front
  gpu::vector<float> x = gpu::copy(h);
  EXPECT_EQ(gpu::min_element(x), n - 2);
  EXPECT_EQ(gpu::max_element(x), 7u);
}

TYPED_TEST(Reductions, CountAndFindAreStds) {
  using T = TypeParam;
  for (std::size_t n : sizes) {
    SCOPED_TRACE(n);
    const std::vector<T> h = small_values<T>(n, 5 + n);
    gpu::vector<T> x = gpu::copy(h);
    for (T v : {T(3), T(25)}) { // 25 is never there
      EXPECT_EQ(gpu::count(x, v), std::size_t(std::count(h.begin(), h.end(), v)));
      EXPECT_EQ(gpu::find(x, v), std::size_t(std::find(h.begin(), h.end(), v) - h.begin()));
    }
  }
}

TYPED_TEST(Reductions, FindInTheFirstTheLastAndNoElement) {
  using T = TypeParam;
  for (std::size_t n : {std::size_t(1), prime, big}) {
    SCOPED_TRACE(n);
    std::vector<T> h(n, T(1));
    EXPECT_EQ(gpu::find(gpu::copy(h), T(2)), n);
    h[n - 1] = T(2);
    EXPECT_EQ(gpu::find(gpu::copy(h), T(2)), n - 1);
    h[0] = T(2);
    EXPECT_EQ(gpu::find(gpu::copy(h), T(2)), 0u);
  }
}

} // namespace

// End-to-end: the radix sort (issue 10, items 1, 2, 6 and 7) against std::sort and
// std::stable_sort on the host.
//   functions  gpu::sort(v[, std::less<> / std::greater<>]), gpu::stable_sort,
//              gpu::sort(v, begin_bit, end_bit), gpu::sort_by_key(keys, values[, comp]),
//              gpu::sort_by_key(keys, values, begin_bit, end_bit)
//   keys       int, unsigned, long long, unsigned long long, float, double
//   sizes      0, 1, 2, primes (one tile and several), 2^20 + 3 once (hundreds of tiles:
//              the look-back walks)
//   data       random, all equal, sorted, reverse sorted, few distinct keys (long runs:
//              stability), NaNs and +-0.0
//   contract   stable (pairs carry their input index); exactly 2 + passes launches;
//              pointers into the vector stay valid; bit ranges out of the key are errors
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

namespace {

using pacxx_test::rng;

const std::size_t small_sizes[] = {0, 1, 2, 3, 31, 1009, 7919, 40009};

enum class shape { random, equal, sorted, reversed, few };
const shape shapes[] = {shape::random, shape::equal, shape::sorted, shape::reversed, shape::few};

// Random keys over the whole range of T (both signs; floats of every magnitude).
template <class T> T random_key(rng &r, std::true_type /*integral*/) {
  return static_cast<T>(r.next());
}
template <class T> T random_key(rng &r, std::false_type) {
  const double m = r.uniform(-1.0, 1.0);
  const int e = static_cast<int>(r.integer(-60, 60));
  return static_cast<T>(std::ldexp(m, e));
}
template <class T> std::vector<T> keys(std::size_t n, shape s, std::uint64_t seed) {
  rng r(seed);
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (s) {
    case shape::random:
      v[i] = random_key<T>(r, std::is_integral<T>{});
      break;
    case shape::equal:
      v[i] = static_cast<T>(42);
      break;
    case shape::sorted:
    case shape::reversed:
      v[i] = static_cast<T>(static_cast<long long>(i) - static_cast<long long>(n / 2));
      break;
    case shape::few:
      v[i] = static_cast<T>(r.integer(0, 5)) - static_cast<T>(2);
      break;
    }
  }
  if (s == shape::sorted && std::is_unsigned<T>::value)
    std::sort(v.begin(), v.end());
  if (s == shape::reversed)
    std::sort(v.begin(), v.end(), std::greater<T>());
  return v;
}

// Equal as bit patterns (so that -0.0 and +0.0, and NaNs, are told apart).
template <class T> bool same_bits(const std::vector<T> &a, const std::vector<T> &b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <class T> class Sort : public ::testing::Test {};
using Types = ::testing::Types<int, unsigned, long long, unsigned long long, float, double>;
TYPED_TEST_SUITE(Sort, Types);

TYPED_TEST(Sort, AscendingAndDescendingMatchStableSort) {
  using T = TypeParam;
  for (std::size_t n : small_sizes)
    for (shape s : shapes) {
      const std::vector<T> h = keys<T>(n, s, n * 7 + int(s));
      std::vector<T> up = h, down = h;
      std::stable_sort(up.begin(), up.end());
      std::stable_sort(down.begin(), down.end(), std::greater<T>());
      gpu::vector<T> v = gpu::copy(h);
      gpu::sort(v);
      ASSERT_TRUE(same_bits(gpu::copy(v), up)) << "n = " << n << " shape " << int(s);
      gpu::vector<T> w = gpu::copy(h);
      gpu::sort(w, std::greater<>{});
      ASSERT_TRUE(same_bits(gpu::copy(w), down)) << "n = " << n << " shape " << int(s);
    }
}

} // namespace

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

// Pairs: the values are the keys' input positions, so the result shows stability. One
// key type of each kind (each is two more kernels to build on PoCL).
template <class T> class SortPairs : public ::testing::Test {};
using PairTypes = ::testing::Types<int, unsigned long long, float>;
TYPED_TEST_SUITE(SortPairs, PairTypes);

TYPED_TEST(SortPairs, SortByKeyIsStable) {
  using T = TypeParam;
  for (std::size_t n : {std::size_t(0), std::size_t(2), std::size_t(1009), std::size_t(40009)})
    for (shape s : {shape::random, shape::few, shape::equal}) {
      const std::vector<T> h = keys<T>(n, s, n + 11 * int(s));
      std::vector<unsigned> idx(n);
      std::iota(idx.begin(), idx.end(), 0u);
      for (int descending = 0; descending < 2; ++descending) {
        std::vector<unsigned> want = idx;
        if (descending)
          std::stable_sort(want.begin(), want.end(),
                           [&](unsigned a, unsigned b) { return h[a] > h[b]; });
        else
          std::stable_sort(want.begin(), want.end(),
                           [&](unsigned a, unsigned b) { return h[a] < h[b]; });
        std::vector<T> want_keys(n);
        for (std::size_t i = 0; i < n; ++i)
          want_keys[i] = h[want[i]];
        gpu::vector<T> k = gpu::copy(h);
        gpu::vector<unsigned> v = gpu::copy(idx);
        if (descending)
          gpu::sort_by_key(k, v, std::greater<T>{});
        else
          gpu::sort_by_key(k, v);
        ASSERT_EQ(gpu::copy(v), want)
            << "n = " << n << " shape " << int(s) << " descending " << descending;
        ASSERT_TRUE(same_bits(gpu::copy(k), want_keys)) << "n = " << n;
      }
    }
}

// 2^20 + 3 keys once (hundreds of tiles: long look-back walks), as pairs.
TYPED_TEST(Sort, LargeRandomPairs) {
  using T = TypeParam;
  if (!std::is_same<T, unsigned>::value)
    return;
  const std::size_t n = pacxx_test::big;
  const std::vector<T> h = keys<T>(n, shape::random, 5);
  std::vector<unsigned> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  std::vector<unsigned> want = idx;
  std::stable_sort(want.begin(), want.end(), [&](unsigned a, unsigned b) { return h[a] < h[b]; });
  gpu::vector<T> k = gpu::copy(h);
  gpu::vector<unsigned> v = gpu::copy(idx);
  gpu::sort_by_key(k, v);
  ASSERT_EQ(gpu::copy(v), want);
}

// Keys of one and two bytes: one and two passes.
TEST(SortSmallKeys, CharAndShort) {
  const std::size_t n = 40009;
  rng r(21);
  std::vector<signed char> hc(n);
  std::vector<unsigned short> hs(n);
  for (std::size_t i = 0; i < n; ++i) {
    hc[i] = static_cast<signed char>(r.next());
    hs[i] = static_cast<unsigned short>(r.next());
  }
  gpu::vector<signed char> c = gpu::copy(hc);
  gpu::vector<unsigned short> s = gpu::copy(hs);
  gpu::sort(c);
  gpu::sort(s, std::greater<>{});
  std::sort(hc.begin(), hc.end());
  std::sort(hs.begin(), hs.end(), std::greater<unsigned short>());
  ASSERT_EQ(gpu::copy(c), hc);
  ASSERT_EQ(gpu::copy(s), hs);
}

// NaNs are kept (positive ones after +inf, negative ones before -inf, in input order);
// -0.0 and +0.0 are equal and keep their input order; everything else is sorted.
template <class T> class FloatSort : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(FloatSort, FloatTypes);

TYPED_TEST(FloatSort, NaNsAndSignedZeros) {
  using T = TypeParam;
  using lim = std::numeric_limits<T>;
  for (std::size_t n : {std::size_t(7), std::size_t(1009), std::size_t(40009)}) {
    rng r(n);
    std::vector<T> h(n);
    const T specials[] = {T(0.0),          T(-0.0),          lim::quiet_NaN(),  -lim::quiet_NaN(),
                          lim::infinity(), -lim::infinity(), lim::denorm_min(), -lim::denorm_min(),
                          lim::max(),      lim::lowest()};
    for (std::size_t i = 0; i < n; ++i)
      h[i] = r.integer(0, 1) ? specials[r.integer(0, 9)] : T(r.uniform(-4, 4));
    // The expected order: negative NaNs, the numbers (stably, -0.0 == +0.0), positive NaNs.
    std::vector<T> neg_nan, num, pos_nan;
    for (T x : h)
      (std::isnan(x) ? (std::signbit(x) ? neg_nan : pos_nan) : num).push_back(x);
    std::stable_sort(num.begin(), num.end());
    for (int descending = 0; descending < 2; ++descending) {
      std::vector<T> want;
      if (!descending) {
        want = neg_nan;
        want.insert(want.end(), num.begin(), num.end());
        want.insert(want.end(), pos_nan.begin(), pos_nan.end());
      } else {
        std::vector<T> down = h;
        down.erase(std::remove_if(down.begin(), down.end(), [](T x) { return std::isnan(x); }),
                   down.end());
        std::stable_sort(down.begin(), down.end(), std::greater<T>());
        want = pos_nan;
        want.insert(want.end(), down.begin(), down.end());
        want.insert(want.end(), neg_nan.begin(), neg_nan.end());
      }
      gpu::vector<T> v = gpu::copy(h);
      if (descending)
        gpu::sort(v, std::greater<>{});
      else
        gpu::stable_sort(v);
      ASSERT_TRUE(same_bits(gpu::copy(v), want)) << "n = " << n << " descending " << descending;
    }
  }
}

// Bit ranges: only bits [b, e) of the radix order count; keys equal there keep their
// order.
TEST(SortBits, RangesMatchStableSortOnTheBits) {
  const std::size_t n = 7919;
  rng r(3);
  std::vector<unsigned> h(n);
  for (auto &x : h)
    x = static_cast<unsigned>(r.next());
  // Empty; one bit; 8 bits off the digit grid; 8 + 8 + 1 bits; all.
  const int ranges[][2] = {{0, 0}, {5, 6}, {3, 11}, {4, 21}, {15, 32}, {0, 32}};
  for (const auto &b : ranges) {
    const unsigned lo = unsigned(b[0]), bits = unsigned(b[1] - b[0]);
    auto field = [&](unsigned x) -> unsigned long long {
      return bits == 0 ? 0 : (x >> lo) & ((1ull << bits) - 1);
    };
    std::vector<unsigned> want = h;
    std::stable_sort(want.begin(), want.end(),
                     [&](unsigned x, unsigned y) { return field(x) < field(y); });
    gpu::vector<unsigned> v = gpu::copy(h);
    gpu::sort(v, b[0], b[1]);
    ASSERT_EQ(gpu::copy(v), want) << "bits [" << b[0] << ", " << b[1] << ")";
    // Pairs over a bit range of signed keys (the sign bit flipped in the radix order).
    std::vector<int> hk(n);
    for (std::size_t i = 0; i < n; ++i)
      hk[i] = static_cast<int>(h[i]);
    std::vector<unsigned> idx(n);
    std::iota(idx.begin(), idx.end(), 0u);
    std::vector<unsigned> want_idx = idx;
    std::stable_sort(want_idx.begin(), want_idx.end(), [&](unsigned x, unsigned y) {
      return field(h[x] ^ 0x80000000u) < field(h[y] ^ 0x80000000u);
    });
    gpu::vector<int> k = gpu::copy(hk);
    gpu::vector<unsigned> v2 = gpu::copy(idx);
    gpu::sort_by_key(k, v2, b[0], b[1]);
    ASSERT_EQ(gpu::copy(v2), want_idx) << "bits [" << b[0] << ", " << b[1] << ")";
  }
}

TEST(SortBits, RangesOutsideTheKeyAreErrors) {
  gpu::vector<unsigned> v(10, 1u);
  EXPECT_THROW(gpu::sort(v, 0, 33), pacxx::error);
  EXPECT_THROW(gpu::sort(v, -1, 8), pacxx::error);
  EXPECT_THROW(gpu::sort(v, 9, 8), pacxx::error);
  gpu::vector<unsigned> values(2, 0u);
  gpu::vector<unsigned> keys(3, 0u);
  EXPECT_THROW(gpu::sort_by_key(keys, values), pacxx::error);
}

// Values of a user type follow their keys.
struct Payload {
  double weight;
  int id;
  char tag[3];
};

TEST(SortValues, StructValuesFollowTheirKeys) {
  const std::size_t n = 40009;
  rng r(9);
  std::vector<long long> hk(n);
  std::vector<Payload> hv(n);
  for (std::size_t i = 0; i < n; ++i) {
    hk[i] = r.integer(-1000, 1000);
    hv[i] = Payload{double(hk[i]) * 0.5, int(i), {'a', char('a' + i % 26), 'z'}};
  }
  gpu::vector<long long> k = gpu::copy(hk);
  gpu::vector<Payload> v = gpu::copy(hv);
  gpu::sort_by_key(k, v, std::greater<>{});
  const std::vector<long long> gk = gpu::copy(k);
  const std::vector<Payload> gv = gpu::copy(v);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return hk[a] > hk[b]; });
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(gk[i], hk[order[i]]);
    ASSERT_EQ(gv[i].id, int(order[i])) << i;
    ASSERT_EQ(gv[i].weight, hv[order[i]].weight);
    ASSERT_EQ(gv[i].tag[1], hv[order[i]].tag[1]);
  }
}

// Values larger than the passes move (policy::radix_sort::max_value_bytes) are sorted by
// index and gathered: they follow their keys all the same, stably.
struct BigPayload {
  unsigned id;
  unsigned char bytes[196];
};

TEST(SortValues, LargeValuesFollowTheirKeysStably) {
  static_assert(sizeof(BigPayload) > pacxx::policy::radix_sort::max_value_bytes,
                "the test must take the by-index path");
  for (std::size_t n : {std::size_t(2), std::size_t(1031), std::size_t(70001)}) {
    rng r(11);
    std::vector<unsigned> hk(n);
    std::vector<BigPayload> hv(n);
    for (std::size_t i = 0; i < n; ++i) {
      hk[i] = unsigned(r.integer(0, 300));
      hv[i].id = unsigned(i);
      for (std::size_t b = 0; b < sizeof hv[i].bytes; ++b)
        hv[i].bytes[b] = static_cast<unsigned char>(i * 7 + b);
    }
    gpu::vector<unsigned> k = gpu::copy(hk);
    gpu::vector<BigPayload> v = gpu::copy(hv);
    gpu::sort_by_key(k, v);
    const std::vector<unsigned> gk = gpu::copy(k);
    const std::vector<BigPayload> gv = gpu::copy(v);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return hk[a] < hk[b]; });
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(gk[i], hk[order[i]]) << n << " " << i;
      ASSERT_EQ(gv[i].id, unsigned(order[i])) << n << " " << i;
      ASSERT_EQ(0, std::memcmp(gv[i].bytes, hv[order[i]].bytes, sizeof gv[i].bytes)) << i;
    }
  }
}

// Values as a zip of gpu::vectors (structure of arrays): every part follows the keys.
TEST(SortValues, ZipOfVectorsFollowsTheKeys) {
  const std::size_t n = 7919;
  rng r(12);
  std::vector<int> hk(n);
  std::vector<float> ha(n);
  std::vector<unsigned> hb(n);
  for (std::size_t i = 0; i < n; ++i) {
    hk[i] = int(r.integer(-50, 50));
    ha[i] = float(hk[i]) * 0.25f;
    hb[i] = unsigned(i);
  }
  std::vector<unsigned> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned a, unsigned b) { return hk[a] < hk[b]; });
  gpu::vector<int> k = gpu::copy(hk);
  gpu::vector<float> a = gpu::copy(ha);
  gpu::vector<unsigned> b = gpu::copy(hb);
  gpu::sort_by_key(k, ranges::views::zip(a, b));
  const std::vector<float> ga = gpu::copy(a);
  ASSERT_EQ(gpu::copy(b), order);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(ga[i], ha[order[i]]) << i;
  std::sort(hk.begin(), hk.end());
  ASSERT_EQ(gpu::copy(k), hk);
}

// Launches: the clear, the histogram and one per pass of 8 bits; nothing for n <= 1
// or an empty bit range. Temporaries come from the pool after a warm-up; the vector
// keeps its memory (the result is copied back after an odd number of passes).
TEST(SortContract, LaunchCountsAndMemory) {
  std::vector<unsigned> h = pacxx_test::random_vector<unsigned>(5000, 1, 0, 4e9);
  gpu::vector<unsigned> v = gpu::copy(h);
  gpu::vector<unsigned long long> w = gpu::copy(std::vector<unsigned long long>(5000, 3));
  const unsigned *where = v.data();
  struct expect {
    int begin, end;
    std::size_t launches;
  };
  for (const expect &e : {expect{0, 32, 6}, expect{0, 24, 5}, expect{8, 16, 3}, expect{4, 4, 0}}) {
    gpu::sort(v, e.begin, e.end); // warm-up (JIT, pool)
    const auto before = pacxx_test::counts();
    gpu::sort(v, e.begin, e.end);
    const auto after = pacxx_test::counts();
    EXPECT_EQ(after.kernel_launches - before.kernel_launches, e.launches)
        << e.begin << " " << e.end;
    EXPECT_EQ(after.device_allocations - before.device_allocations,
              after.pool_hits - before.pool_hits);
    EXPECT_EQ(v.data(), where);
  }
  gpu::sort(v);
  std::sort(h.begin(), h.end());
  EXPECT_EQ(gpu::copy(v), h);
  gpu::sort(w);
  const auto before = pacxx_test::counts();
  gpu::sort(w, std::greater<>{});
  gpu::sort(w);
  EXPECT_EQ(pacxx_test::counts().kernel_launches - before.kernel_launches, 2 * (2 + 8u));
  gpu::vector<float> one(1, 2.f), none;
  const auto b1 = pacxx_test::counts();
  gpu::sort(one);
  gpu::sort(none);
  EXPECT_EQ(pacxx_test::counts().kernel_launches, b1.kernel_launches);
}

// The look-back's 64-bit words (used from 2^30 keys on) at a size PoCL can run.
TEST(SortContract, WideLookBackWords) {
  const std::size_t n = 100003;
  const std::vector<unsigned> h = pacxx_test::random_vector<unsigned>(n, 4, 0, 4e9);
  gpu::vector<unsigned> v = gpu::copy(h), alt(n);
  gpu::detail::radix_passes<unsigned, gpu::detail::no_values, false, unsigned long long>(
      v.data(), alt.data(), nullptr, nullptr, n, 0, 32);
  std::vector<unsigned> want = h;
  std::sort(want.begin(), want.end());
  EXPECT_EQ(gpu::copy(v), want);
}

} // namespace

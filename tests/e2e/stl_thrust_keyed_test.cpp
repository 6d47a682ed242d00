// End-to-end: keyed compaction (issue 38, item 2) against the host STL.
//   gpu::unique_copy(in, out[, eq]), gpu::unique_count(rng[, eq]),
//   gpu::unique_by_key(keys, values[, eq]) (in place), gpu::unique_by_key_copy,
//   gpu::run_length_encode(in, out_unique, out_counts), run_length_encode_non_trivial
//   types      int, unsigned, long long, float, double (keys); int, double and a user
//              struct (values); sizes 0, 1, a prime, 2^20 + 3; runs of 1 to 8
//   contract   outputs too small: pacxx::error, outputs unchanged; views on inputs and
//              outputs; launch counts with pacxx::stats()
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace view = ranges::views;

// A user POD as a value carried with its key.
struct Payload {
  int id;
  float weight;
};
inline bool operator==(const Payload &a, const Payload &b) {
  return a.id == b.id && a.weight == b.weight;
}

namespace {

using pacxx_test::big;
using pacxx_test::prime;
const std::size_t sizes[] = {0, 1, prime, big};

template <class T> T make(int v, int) { return static_cast<T>(v); }
template <> Payload make<Payload>(int v, int i) { return Payload{i, static_cast<float>(v) * 0.5f}; }

// n keys in runs of 1 to max_run equal values (neighbouring runs differ).
template <class T> std::vector<T> runs(std::size_t n, std::uint64_t seed, int max_run) {
  pacxx_test::rng r(seed);
  std::vector<T> v;
  v.reserve(n);
  int value = 0;
  while (v.size() < n) {
    value += static_cast<int>(r.integer(1, 3));
    const std::size_t len = static_cast<std::size_t>(r.integer(1, max_run));
    for (std::size_t k = 0; k < len && v.size() < n; ++k)
      v.push_back(static_cast<T>(value % 97));
  }
  return v;
}
template <class V> std::vector<V> payloads(std::size_t n) {
  std::vector<V> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = make<V>(static_cast<int>(i % 1000), static_cast<int>(i));
  return v;
}

// Equal by value / 4: runs of a comparison that is not ==.
struct same_quarter {
  template <class T> bool operator()(const T &a, const T &b) const {
    return static_cast<long long>(a) / 4 == static_cast<long long>(b) / 4;
  }
};

template <class T> class Unique : public ::testing::Test {};
using KeyTypes = ::testing::Types<int, unsigned, long long, float, double>;
TYPED_TEST_SUITE(Unique, KeyTypes);

TYPED_TEST(Unique, CopyAndCountMatchStd) {
  using T = TypeParam;
  for (std::size_t n : sizes) {
    const std::vector<T> h = runs<T>(n, n + 1, 8);
    std::vector<T> want;
    std::unique_copy(h.begin(), h.end(), std::back_inserter(want));
    gpu::vector<T> x = gpu::copy(h), out(n + 1, T(-1));
    EXPECT_EQ(gpu::unique_count(x), want.size()) << "n = " << n;
    ASSERT_EQ(gpu::unique_copy(x, out), want.size());
    std::vector<T> got = gpu::copy(out);
    got.resize(want.size());
    ASSERT_EQ(got, want) << "n = " << n;
    // Exactly sized: counted first.
    gpu::vector<T> exact(want.size());
    ASSERT_EQ(gpu::unique_copy(x, exact), want.size());
    ASSERT_EQ(gpu::copy(exact), want);
    // Too small: an error, out unchanged.
    if (!want.empty()) {
      gpu::vector<T> tight(want.size() - 1, T(5));
      EXPECT_THROW(gpu::unique_copy(x, tight), pacxx::error);
      ASSERT_EQ(gpu::copy(tight), std::vector<T>(want.size() - 1, T(5)));
    }
  }
}

TEST(Unique, ComparisonAndViews) {
  for (std::size_t n : sizes) {
    const std::vector<int> h = runs<int>(n, n + 2, 3);
    std::vector<int> doubled(n), want;
    std::transform(h.begin(), h.end(), doubled.begin(), [](int v) { return 2 * v; });
    std::unique_copy(doubled.begin(), doubled.end(), std::back_inserter(want), same_quarter{});
    gpu::vector<int> x = gpu::copy(h), out(2 * n, -1);
    auto dbl = [](int v) { return 2 * v; };
    EXPECT_EQ(gpu::unique_count(x | view::transform(dbl), same_quarter{}), want.size());
    ASSERT_EQ(gpu::unique_copy(x | view::transform(dbl), out | view::stride(2), same_quarter{}),
              want.size());
    const std::vector<int> got = gpu::copy(out);
    for (std::size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(got[2 * i], want[i]) << "n = " << n;
  }
}

template <class V> class UniqueByKey : public ::testing::Test {};
using ValueTypes = ::testing::Types<int, double, Payload>;
TYPED_TEST_SUITE(UniqueByKey, ValueTypes);

TYPED_TEST(UniqueByKey, InPlaceAndCopyMatchStd) {
  using V = TypeParam;
  for (std::size_t n : sizes) {
    const std::vector<int> hk = runs<int>(n, n + 3, 8);
    const std::vector<V> hv = payloads<V>(n);
    std::vector<int> wk;
    std::vector<V> wv;
    for (std::size_t i = 0; i < n; ++i)
      if (i == 0 || hk[i] != hk[i - 1]) {
        wk.push_back(hk[i]);
        wv.push_back(hv[i]);
      }
    gpu::vector<int> k = gpu::copy(hk);
    gpu::vector<V> v = gpu::copy(hv);
    gpu::vector<int> ok(wk.size());
    gpu::vector<V> ov(wk.size() + 2);
    ASSERT_EQ(gpu::unique_by_key_copy(k, v, ok, ov), wk.size());
    ASSERT_EQ(gpu::copy(ok), wk) << "n = " << n;
    std::vector<V> gv = gpu::copy(ov);
    gv.resize(wk.size());
    ASSERT_EQ(gv, wv) << "n = " << n;
    ASSERT_EQ(gpu::unique_by_key(k, v), wk.size());
    ASSERT_EQ(k.size(), wk.size());
    ASSERT_EQ(v.size(), wk.size());
    ASSERT_EQ(gpu::copy(k), wk) << "n = " << n;
    ASSERT_EQ(gpu::copy(v), wv) << "n = " << n;
  }
}

TEST(UniqueByKey, ComparisonErrorsAndViews) {
  const std::size_t n = prime;
  const std::vector<int> hk = runs<int>(n, 4, 2);
  const std::vector<int> hv = payloads<int>(n);
  std::vector<int> wk, wv;
  for (std::size_t i = 0; i < n; ++i)
    if (i == 0 || !same_quarter{}(hk[i - 1], hk[i])) {
      wk.push_back(hk[i]);
      wv.push_back(-hv[i]);
    }
  gpu::vector<int> k = gpu::copy(hk), v = gpu::copy(hv), ok(n), ov(n);
  auto neg = [](int x) { return -x; };
  const std::size_t c =
      gpu::unique_by_key_copy(k, v | view::transform(neg), ok, ov | view::take(n), same_quarter{});
  ASSERT_EQ(c, wk.size());
  std::vector<int> gk = gpu::copy(ok), gv = gpu::copy(ov);
  gk.resize(c);
  gv.resize(c);
  EXPECT_EQ(gk, wk);
  EXPECT_EQ(gv, wv);
  gpu::vector<int> small_k(c - 1, 9), small_v(n, 9);
  EXPECT_THROW(gpu::unique_by_key_copy(k, v, small_k, small_v), pacxx::error);
  EXPECT_EQ(gpu::copy(small_k), std::vector<int>(c - 1, 9));
  EXPECT_EQ(gpu::copy(small_v), std::vector<int>(n, 9));
  gpu::vector<int> short_v(n - 1);
  EXPECT_THROW(gpu::unique_by_key(k, short_v), pacxx::error);
  ASSERT_EQ(gpu::unique_by_key(k, v, same_quarter{}), wk.size());
  EXPECT_EQ(gpu::copy(k), wk);
}

template <class T> class RunLengthEncode : public ::testing::Test {};
TYPED_TEST_SUITE(RunLengthEncode, KeyTypes);

TYPED_TEST(RunLengthEncode, MatchesHost) {
  using T = TypeParam;
  for (std::size_t n : sizes) {
    const std::vector<T> h = runs<T>(n, n + 5, 8);
    std::vector<T> wu;
    std::vector<unsigned> wc;
    for (std::size_t i = 0; i < n; ++i) {
      if (i == 0 || !(h[i] == h[i - 1])) {
        wu.push_back(h[i]);
        wc.push_back(0);
      }
      ++wc.back();
    }
    gpu::vector<T> x = gpu::copy(h), u(n);
    gpu::vector<unsigned> c(n);
    const std::size_t r = gpu::run_length_encode(x, u, c);
    ASSERT_EQ(r, wu.size()) << "n = " << n;
    std::vector<T> gu = gpu::copy(u);
    std::vector<unsigned> gc = gpu::copy(c);
    gu.resize(r);
    gc.resize(r);
    ASSERT_EQ(gu, wu) << "n = " << n;
    ASSERT_EQ(gc, wc) << "n = " << n;
  }
}

TEST(RunLengthEncode, ViewsCountsTypeAndErrors) {
  const std::size_t n = big;
  const std::vector<int> h = runs<int>(n, 6, 8);
  std::vector<int> wu;
  std::vector<long long> wc;
  for (std::size_t i = 0; i < n; ++i) {
    const int v = h[i] / 2;
    if (i == 0 || v != h[i - 1] / 2) {
      wu.push_back(v);
      wc.push_back(0);
    }
    ++wc.back();
  }
  gpu::vector<int> x = gpu::copy(h), u(wu.size());
  gpu::vector<long long> c(2 * wu.size(), -1);
  auto half = [](int v) { return v / 2; };
  ASSERT_EQ(gpu::run_length_encode(x | view::transform(half), u, c | view::stride(2)), wu.size());
  EXPECT_EQ(gpu::copy(u), wu);
  const std::vector<long long> gc = gpu::copy(c);
  for (std::size_t i = 0; i < wu.size(); ++i) {
    ASSERT_EQ(gc[2 * i], wc[i]);
    ASSERT_EQ(gc[2 * i + 1], -1);
  }
  gpu::vector<int> tight(wu.size() - 1, 3);
  EXPECT_THROW(gpu::run_length_encode(x | view::transform(half), tight, c), pacxx::error);
  EXPECT_EQ(gpu::copy(tight), std::vector<int>(wu.size() - 1, 3));
}

TEST(RunLengthEncode, NonTrivialRuns) {
  for (std::size_t n : sizes) {
    const std::vector<int> h = runs<int>(n, n + 9, 3);
    std::vector<std::size_t> wo, wl;
    for (std::size_t i = 0; i < n;) {
      std::size_t j = i + 1;
      while (j < n && h[j] == h[i])
        ++j;
      if (j - i > 1) {
        wo.push_back(i);
        wl.push_back(j - i);
      }
      i = j;
    }
    gpu::vector<int> x = gpu::copy(h);
    gpu::vector<std::size_t> offsets(n), exact(wo.size());
    gpu::vector<unsigned> lengths(n);
    const std::size_t r = gpu::run_length_encode_non_trivial(x, offsets, lengths);
    ASSERT_EQ(r, wo.size()) << "n = " << n;
    std::vector<std::size_t> go = gpu::copy(offsets);
    std::vector<unsigned> gl = gpu::copy(lengths);
    go.resize(r);
    gl.resize(r);
    ASSERT_EQ(go, wo);
    ASSERT_EQ(std::vector<std::size_t>(gl.begin(), gl.end()), wl);
    // Exactly sized outputs (counted first); one too small: an error, unchanged.
    gpu::vector<unsigned> exact_lengths(wo.size());
    ASSERT_EQ(gpu::run_length_encode_non_trivial(x, exact, exact_lengths), wo.size());
    ASSERT_EQ(gpu::copy(exact), wo);
    if (!wo.empty()) {
      gpu::vector<unsigned> tight(wo.size() - 1, 4u);
      EXPECT_THROW(gpu::run_length_encode_non_trivial(x, offsets, tight), pacxx::error);
      EXPECT_EQ(gpu::copy(tight), std::vector<unsigned>(wo.size() - 1, 4u));
    }
  }
}

TEST(Launches, Counts) {
  const std::size_t n = big;
  const std::vector<int> h = runs<int>(n, 7, 8);
  const std::vector<int> hv = payloads<int>(n);
  gpu::vector<int> x = gpu::copy(h), v = gpu::copy(hv), out(n), out2(n);
  gpu::vector<unsigned> counts(n);
  auto run_all = [&] {
    (void)gpu::unique_count(x);                         // 1
    gpu::unique_copy(x, out);                           // 2: clear, pass
    gpu::unique_by_key_copy(x, v, out, out2);           // 2: clear, pass
    gpu::run_length_encode(x, out, counts);             // 2: clear, pass
    gpu::run_length_encode_non_trivial(x, out, counts); // 4: 2 x (clear, pass)
    gpu::vector<int> k = x, w = v;
    gpu::unique_by_key(k, w); // 2: clear, pass
  };
  run_all(); // warm-up: JIT, scratch, pool
  pacxx::reset_stats();
  run_all();
  const auto s = pacxx_test::counts();
  EXPECT_EQ(s.kernel_launches, 1u + 2 + 2 + 2 + 4 + 2);
  EXPECT_EQ(s.device_allocations, s.pool_hits);
}

} // namespace

// End-to-end: pacxx::atomic_add / atomic_min / atomic_max / atomic_exchange / atomic_cas
// on int, unsigned, long long, unsigned long long, float and double, on global memory and on
// block-shared memory, with results (and the old values the atomics return) checked
// against expectations computed on the CPU.
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

namespace {

using pacxx_test::cover;
using pacxx_test::device_scalar;
using pacxx_test::rng;

// Values for each type: spread over the type's range (negative ones for signed types,
// above 2^31 for unsigned, beyond 32 bits for long long), and for float values whose
// sums are exact in float (multiples of 1/4 below 2^10) so any order gives one result.
template <class T> T random_value(rng &r);
template <> int random_value<int>(rng &r) {
  return static_cast<int>(static_cast<std::int64_t>(r.next() % 4000000001ull) - 2000000000);
}
template <> unsigned random_value<unsigned>(rng &r) {
  return static_cast<unsigned>(r.next() % 4294967296ull);
}
template <> long long random_value<long long>(rng &r) {
  return static_cast<long long>(r.next() % (1ull << 50)) - (1ll << 49);
}
template <> unsigned long long random_value<unsigned long long>(rng &r) { return r.next(); }
template <> float random_value<float>(rng &r) {
  return static_cast<float>(static_cast<int>(r.next() % 8001) - 4000) * 0.25f;
}
// Doubles beyond float's precision (53-bit fractions), so a min/max that went through
// float would fail.
template <> double random_value<double>(rng &r) {
  return (static_cast<double>(r.next() >> 11) - 4503599627370496.0) * 1.0e-9;
}

template <class T> std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  rng r(seed);
  std::vector<T> v(n);
  for (auto &x : v)
    x = random_value<T>(r);
  return v;
}

// Small values for sums that must not overflow any type.
template <class T> std::vector<T> small_values(std::size_t n, std::uint64_t seed) {
  rng r(seed);
  std::vector<T> v(n);
  for (auto &x : v)
    x = static_cast<T>(r.next() % 1000);
  return v;
}

template <class T> class Atomics : public testing::Test {};
using Types = testing::Types<int, unsigned, long long, unsigned long long, float, double>;
TYPED_TEST_SUITE(Atomics, Types);

const std::size_t N = 10007; // prime, not a multiple of the block size

// ---------------------------------------------------------------------------------
// Global memory

TYPED_TEST(Atomics, GlobalAddCountsAndReturnsDistinctOldValues) {
  // Every thread adds 1 to one counter: the counter ends at n and the old values the
  // threads got back are exactly 0, 1, ..., n-1 in some order.
  using T = TypeParam;
  gpu::vector<T> counter = device_scalar<T>(T(0));
  gpu::vector<T> old(N);
  auto k = pacxx::kernel(
      [](T *counter, T *old, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          old[i] = pacxx::atomic_add(counter, T(1));
      },
      cover(N));
  k(counter.data(), old.data(), N);
  EXPECT_EQ(gpu::copy(counter)[0], static_cast<T>(N));
  std::vector<T> o = gpu::copy(old);
  std::sort(o.begin(), o.end());
  for (std::size_t i = 0; i < N; ++i)
    ASSERT_EQ(o[i], static_cast<T>(i)) << "old values are not a permutation of 0..n-1";
}

TYPED_TEST(Atomics, GlobalAddSum) {
  using T = TypeParam;
  std::vector<T> h = small_values<T>(N, 3);
  const T start = T(17);
  gpu::vector<T> in = gpu::copy(h), sum = device_scalar<T>(start);
  auto k = pacxx::kernel(
      [](const T *in, T *sum, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          pacxx::atomic_add(sum, in[i]);
      },
      cover(N));
  k(in.data(), sum.data(), N);
  EXPECT_EQ(gpu::copy(sum)[0], std::accumulate(h.begin(), h.end(), start));
}

TYPED_TEST(Atomics, GlobalMinMax) {
  using T = TypeParam;
  std::vector<T> h = random_values<T>(N, 5);
  const T lo_start = std::numeric_limits<T>::max(), hi_start = std::numeric_limits<T>::lowest();
  gpu::vector<T> in = gpu::copy(h), lo = device_scalar(lo_start), hi = device_scalar(hi_start);
  // Also a minimum that starts below every value (must stay) and a maximum above.
  gpu::vector<T> lo_fixed = device_scalar(std::numeric_limits<T>::lowest());
  gpu::vector<T> hi_fixed = device_scalar(std::numeric_limits<T>::max());
  auto k = pacxx::kernel(
      [](const T *in, T *lo, T *hi, T *lo_fixed, T *hi_fixed, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n) {
          pacxx::atomic_min(lo, in[i]);
          pacxx::atomic_max(hi, in[i]);
          pacxx::atomic_min(lo_fixed, in[i]);
          pacxx::atomic_max(hi_fixed, in[i]);
        }
      },
      cover(N));
  k(in.data(), lo.data(), hi.data(), lo_fixed.data(), hi_fixed.data(), N);
  EXPECT_EQ(gpu::copy(lo)[0], *std::min_element(h.begin(), h.end()));
  EXPECT_EQ(gpu::copy(hi)[0], *std::max_element(h.begin(), h.end()));
  EXPECT_EQ(gpu::copy(lo_fixed)[0], std::numeric_limits<T>::lowest());
  EXPECT_EQ(gpu::copy(hi_fixed)[0], std::numeric_limits<T>::max());
}

TYPED_TEST(Atomics, GlobalMinMaxReturnOldValue) {
  // One thread per slot: the returned old value is the slot's previous content, and
  // the slot holds min/max(previous, argument).
  using T = TypeParam;
  std::vector<T> a = random_values<T>(N, 7), b = random_values<T>(N, 8);
  gpu::vector<T> mins = gpu::copy(a), maxs = gpu::copy(a), in = gpu::copy(b);
  gpu::vector<T> old_min(N), old_max(N);
  auto k = pacxx::kernel(
      [](T *mins, T *maxs, const T *in, T *old_min, T *old_max, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n) {
          old_min[i] = pacxx::atomic_min(&mins[i], in[i]);
          old_max[i] = pacxx::atomic_max(&maxs[i], in[i]);
        }
      },
      cover(N));
  k(mins.data(), maxs.data(), in.data(), old_min.data(), old_max.data(), N);
  std::vector<T> rmin = gpu::copy(mins), rmax = gpu::copy(maxs), omin = gpu::copy(old_min),
                 omax = gpu::copy(old_max);
  for (std::size_t i = 0; i < N; ++i) {
    ASSERT_EQ(rmin[i], std::min(a[i], b[i])) << i;
    ASSERT_EQ(rmax[i], std::max(a[i], b[i])) << i;
    ASSERT_EQ(omin[i], a[i]) << i;
    ASSERT_EQ(omax[i], a[i]) << i;
  }
}

TYPED_TEST(Atomics, GlobalExchange) {
  // All threads exchange their own value into one slot. The values handed back plus
  // the final content are exactly the initial content plus every thread's value.
  using T = TypeParam;
  std::vector<T> h = random_values<T>(N, 9);
  const T initial = random_values<T>(1, 10)[0];
  gpu::vector<T> in = gpu::copy(h), slot = device_scalar(initial), got(N);
  auto k = pacxx::kernel(
      [](const T *in, T *slot, T *got, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          got[i] = pacxx::atomic_exchange(slot, in[i]);
      },
      cover(N));
  k(in.data(), slot.data(), got.data(), N);
  std::vector<T> seen = gpu::copy(got);
  seen.push_back(gpu::copy(slot)[0]);
  std::vector<T> expected = h;
  expected.push_back(initial);
  std::sort(seen.begin(), seen.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_TRUE(seen == expected) << "exchange lost or duplicated values";
}

TYPED_TEST(Atomics, GlobalCasOneWinner) {
  // Every thread tries cas(slot, sentinel, its value): exactly one succeeds (gets the
  // sentinel back), the slot holds the winner's value, and every loser got that value.
  using T = TypeParam;
  std::vector<T> h(N);
  for (std::size_t i = 0; i < N; ++i)
    h[i] = static_cast<T>(i + 1);
  T sentinel = T(0); // not const: the closure captures it for every T
  gpu::vector<T> in = gpu::copy(h), slot = device_scalar(sentinel), got(N);
  auto k = pacxx::kernel(
      [sentinel](const T *in, T *slot, T *got, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          got[i] = pacxx::atomic_cas(slot, sentinel, in[i]);
      },
      cover(N));
  k(in.data(), slot.data(), got.data(), N);
  std::vector<T> g = gpu::copy(got);
  const T final_value = gpu::copy(slot)[0];
  std::size_t winners = 0, winner = N;
  for (std::size_t i = 0; i < N; ++i)
    if (g[i] == sentinel) {
      ++winners;
      winner = i;
    }
  ASSERT_EQ(winners, 1u);
  EXPECT_EQ(final_value, h[winner]);
  for (std::size_t i = 0; i < N; ++i)
    if (i != winner)
      ASSERT_EQ(g[i], final_value) << "loser " << i << " did not see the winner's value";
}

TYPED_TEST(Atomics, GlobalCasLoopIncrement) {
  // A compare-and-swap retry loop as the only way to increment: the counter ends at
  // the number of threads, and the successful CAS count (counted with atomic_add)
  // equals it; a failed CAS must not store.
  using T = TypeParam;
  const std::size_t n = 4099;
  gpu::vector<T> counter = device_scalar(T(0));
  gpu::vector<unsigned> successes = device_scalar(0u);
  gpu::vector<unsigned> attempts = device_scalar(0u);
  auto k = pacxx::kernel(
      [](T *counter, unsigned *successes, unsigned *attempts, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i >= n)
          return;
        T expected = T(0);
        unsigned tries = 0;
        for (;;) {
          ++tries;
          const T old = pacxx::atomic_cas(counter, expected, T(expected + T(1)));
          if (old == expected) {
            pacxx::atomic_add(successes, 1u);
            break;
          }
          expected = old;
        }
        pacxx::atomic_add(attempts, tries);
      },
      cover(n));
  k(counter.data(), successes.data(), attempts.data(), n);
  EXPECT_EQ(gpu::copy(counter)[0], static_cast<T>(n));
  EXPECT_EQ(gpu::copy(successes)[0], static_cast<unsigned>(n));
  EXPECT_GE(gpu::copy(attempts)[0], static_cast<unsigned>(n));
}

TYPED_TEST(Atomics, GlobalHistogram) {
  // Many threads per bin: atomic_add on an array of counters.
  using T = TypeParam;
  std::size_t bins = 37; // not const: the closure captures it
  std::vector<unsigned> keys = random_values<unsigned>(N, 11);
  std::vector<T> zero(bins, T(0));
  gpu::vector<unsigned> dkeys = gpu::copy(keys);
  gpu::vector<T> hist = gpu::copy(zero);
  auto k = pacxx::kernel(
      [bins](const unsigned *keys, T *hist, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          pacxx::atomic_add(&hist[keys[i] % bins], T(1));
      },
      cover(N));
  k(dkeys.data(), hist.data(), N);
  std::vector<T> expected(bins, T(0));
  for (unsigned key : keys)
    expected[key % bins] += T(1);
  EXPECT_EQ(gpu::copy(hist), expected);
}

// ---------------------------------------------------------------------------------
// Shared memory

constexpr std::size_t shared_bins = 64;

TYPED_TEST(Atomics, SharedHistogramThenGlobal) {
  // Each block builds a histogram of its elements in shared memory with atomic_add,
  // writes it to its own row, and adds it to the global histogram with atomic_add.
  using T = TypeParam;
  const std::size_t block = 128, blocks = (N + block - 1) / block;
  std::vector<unsigned> keys = random_values<unsigned>(N, 13);
  std::vector<T> weights = small_values<T>(N, 14);
  std::vector<T> zero(shared_bins, T(0));
  gpu::vector<unsigned> dkeys = gpu::copy(keys);
  gpu::vector<T> dweights = gpu::copy(weights);
  gpu::vector<T> global = gpu::copy(zero), rows(blocks * shared_bins);
  auto k = pacxx::kernel(
      [](const unsigned *keys, const T *weights, T *global, T *rows, std::size_t n) {
        pacxx::shared_memory<T, shared_bins> hist;
        const auto t = pacxx::Thread::get();
        const auto b = pacxx::Block::get();
        for (std::size_t j = t.local.x; j < shared_bins; j += b.size.x)
          hist[j] = T(0);
        pacxx::barrier();
        if (t.global.x < n)
          pacxx::atomic_add(&hist[keys[t.global.x] % shared_bins], weights[t.global.x]);
        pacxx::barrier();
        for (std::size_t j = t.local.x; j < shared_bins; j += b.size.x) {
          rows[b.index.x * shared_bins + j] = hist[j];
          pacxx::atomic_add(&global[j], hist[j]);
        }
      },
      cover(N, block));
  k(dkeys.data(), dweights.data(), global.data(), rows.data(), N);
  std::vector<T> expected(shared_bins, T(0)), expected_rows(blocks * shared_bins, T(0));
  for (std::size_t i = 0; i < N; ++i) {
    expected[keys[i] % shared_bins] += weights[i];
    expected_rows[(i / block) * shared_bins + keys[i] % shared_bins] += weights[i];
  }
  EXPECT_EQ(gpu::copy(rows), expected_rows);
  EXPECT_EQ(gpu::copy(global), expected);
}

TYPED_TEST(Atomics, SharedMinMaxPerBlock) {
  // Block minimum and maximum via atomic_min/max in shared memory; thread 0 writes
  // them per block and folds them into global results with atomic_min/max.
  using T = TypeParam;
  const std::size_t block = 256, blocks = (N + block - 1) / block;
  std::vector<T> h = random_values<T>(N, 15);
  gpu::vector<T> in = gpu::copy(h), block_min(blocks), block_max(blocks);
  gpu::vector<T> gmin = device_scalar(std::numeric_limits<T>::max());
  gpu::vector<T> gmax = device_scalar(std::numeric_limits<T>::lowest());
  auto k = pacxx::kernel(
      [](const T *in, T *block_min, T *block_max, T *gmin, T *gmax, std::size_t n) {
        pacxx::shared_memory<T, 2> s; // s[0] = min, s[1] = max
        const auto t = pacxx::Thread::get();
        const std::size_t bi = pacxx::Block::get().index.x;
        if (t.local.x == 0) {
          s[0] = std::numeric_limits<T>::max();
          s[1] = std::numeric_limits<T>::lowest();
        }
        pacxx::barrier();
        if (t.global.x < n) {
          pacxx::atomic_min(&s[0], in[t.global.x]);
          pacxx::atomic_max(&s[1], in[t.global.x]);
        }
        pacxx::barrier();
        if (t.local.x == 0) {
          block_min[bi] = s[0];
          block_max[bi] = s[1];
          pacxx::atomic_min(gmin, s[0]);
          pacxx::atomic_max(gmax, s[1]);
        }
      },
      cover(N, block));
  k(in.data(), block_min.data(), block_max.data(), gmin.data(), gmax.data(), N);
  std::vector<T> bmin = gpu::copy(block_min), bmax = gpu::copy(block_max);
  for (std::size_t b = 0; b < blocks; ++b) {
    auto first = h.begin() + static_cast<std::ptrdiff_t>(b * block);
    auto last = h.begin() + static_cast<std::ptrdiff_t>(std::min(N, (b + 1) * block));
    EXPECT_EQ(bmin[b], *std::min_element(first, last)) << "block " << b;
    EXPECT_EQ(bmax[b], *std::max_element(first, last)) << "block " << b;
  }
  EXPECT_EQ(gpu::copy(gmin)[0], *std::min_element(h.begin(), h.end()));
  EXPECT_EQ(gpu::copy(gmax)[0], *std::max_element(h.begin(), h.end()));
}

TYPED_TEST(Atomics, SharedExchangeAndCasPerBlock) {
  // In each block: every thread exchanges its value into a shared slot (the values
  // returned plus the final content are the initial content plus all the block's
  // values), and every thread tries cas(shared flag, sentinel, its value): exactly one
  // winner per block, whose value the flag then holds.
  using T = TypeParam;
  const std::size_t block = 128, blocks = (N + block - 1) / block;
  std::vector<T> h(N);
  for (std::size_t i = 0; i < N; ++i)
    h[i] = static_cast<T>(i % block + 1); // distinct within a block, never the sentinel
  T initial = T(1000), sentinel = T(0);   // not const: the closure captures it for every T
  gpu::vector<T> in = gpu::copy(h), exchanged(N), cas_old(N), finals(2 * blocks);
  auto k = pacxx::kernel(
      [initial, sentinel](const T *in, T *exchanged, T *cas_old, T *finals, std::size_t n) {
        pacxx::shared_memory<T, 1> slot;
        pacxx::shared_memory<T, 1> flag;
        const auto t = pacxx::Thread::get();
        const std::size_t bi = pacxx::Block::get().index.x;
        if (t.local.x == 0) {
          slot[0] = initial;
          flag[0] = sentinel;
        }
        pacxx::barrier();
        if (t.global.x < n) {
          exchanged[t.global.x] = pacxx::atomic_exchange(&slot[0], in[t.global.x]);
          cas_old[t.global.x] = pacxx::atomic_cas(&flag[0], sentinel, in[t.global.x]);
        }
        pacxx::barrier();
        if (t.local.x == 0) {
          finals[2 * bi] = slot[0];
          finals[2 * bi + 1] = flag[0];
        }
      },
      cover(N, block));
  k(in.data(), exchanged.data(), cas_old.data(), finals.data(), N);
  std::vector<T> ex = gpu::copy(exchanged), co = gpu::copy(cas_old), fin = gpu::copy(finals);
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t first = b * block, last = std::min(N, (b + 1) * block);
    std::vector<T> seen(ex.begin() + static_cast<std::ptrdiff_t>(first),
                        ex.begin() + static_cast<std::ptrdiff_t>(last));
    seen.push_back(fin[2 * b]);
    std::vector<T> expected(h.begin() + static_cast<std::ptrdiff_t>(first),
                            h.begin() + static_cast<std::ptrdiff_t>(last));
    expected.push_back(initial);
    std::sort(seen.begin(), seen.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_TRUE(seen == expected) << "block " << b << ": shared exchange lost or duplicated values";

    std::size_t winners = 0, winner = last;
    for (std::size_t i = first; i < last; ++i)
      if (co[i] == sentinel) {
        ++winners;
        winner = i;
      }
    ASSERT_EQ(winners, 1u) << "block " << b;
    EXPECT_EQ(fin[2 * b + 1], h[winner]) << "block " << b;
    for (std::size_t i = first; i < last; ++i)
      if (i != winner)
        ASSERT_EQ(co[i], h[winner]) << "block " << b << ", thread " << i - first;
  }
}

TYPED_TEST(Atomics, SharedCasLoopIncrement) {
  // A CAS retry loop on a shared counter per block; the block's count goes to global.
  using T = TypeParam;
  const std::size_t block = 64, n = 1009, blocks = (n + block - 1) / block;
  gpu::vector<T> counts(blocks), total = device_scalar(T(0));
  auto k = pacxx::kernel(
      [](T *counts, T *total, std::size_t n) {
        pacxx::shared_memory<T, 1> c;
        const auto t = pacxx::Thread::get();
        if (t.local.x == 0)
          c[0] = T(0);
        pacxx::barrier();
        if (t.global.x < n) {
          T expected = T(0);
          for (;;) {
            const T old = pacxx::atomic_cas(&c[0], expected, T(expected + T(1)));
            if (old == expected)
              break;
            expected = old;
          }
        }
        pacxx::barrier();
        if (t.local.x == 0) {
          counts[pacxx::Block::get().index.x] = c[0];
          pacxx::atomic_add(total, c[0]);
        }
      },
      cover(n, block));
  k(counts.data(), total.data(), n);
  std::vector<T> got = gpu::copy(counts);
  for (std::size_t b = 0; b < blocks; ++b)
    EXPECT_EQ(got[b], static_cast<T>(std::min(n, (b + 1) * block) - b * block)) << "block " << b;
  EXPECT_EQ(gpu::copy(total)[0], static_cast<T>(n));
}

// ---------------------------------------------------------------------------------
// Type-specific corners

TEST(AtomicsFloat, MinMaxWithNegativesAndFractions) {
  // Float min/max (a compare-and-swap loop inside) over many threads and values of both
  // signs that are not integers, starting from +-infinity.
  const std::size_t n = 20011;
  rng r(99);
  std::vector<float> h(n);
  for (auto &x : h)
    x = (static_cast<float>(r.next() % 2000001) - 1000000.0f) * 1.37e-3f;
  h[n / 2] = -12345.678f; // a clear minimum in the middle
  h[n - 1] = 9876.5f;     // and a maximum at the end
  gpu::vector<float> in = gpu::copy(h);
  gpu::vector<float> lo = device_scalar(std::numeric_limits<float>::infinity());
  gpu::vector<float> hi = device_scalar(-std::numeric_limits<float>::infinity());
  auto k = pacxx::kernel(
      [](const float *in, float *lo, float *hi, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n) {
          pacxx::atomic_min(lo, in[i]);
          pacxx::atomic_max(hi, in[i]);
        }
      },
      cover(n, 256));
  k(in.data(), lo.data(), hi.data(), n);
  EXPECT_EQ(gpu::copy(lo)[0], -12345.678f);
  EXPECT_EQ(gpu::copy(hi)[0], 9876.5f);
}

TEST(AtomicsInt, SignedVersusUnsignedComparison) {
  // The same bit patterns compare differently as int and unsigned: -1 is the int
  // minimum candidate but the unsigned maximum.
  std::vector<int> hi_in = {5, -1, 7, -2000000000, 42};
  std::vector<unsigned> hu_in(hi_in.begin(), hi_in.end());
  gpu::vector<int> di = gpu::copy(hi_in);
  gpu::vector<unsigned> du = gpu::copy(hu_in);
  gpu::vector<int> imin = device_scalar(std::numeric_limits<int>::max()),
                   imax = device_scalar(std::numeric_limits<int>::min());
  gpu::vector<unsigned> umin = device_scalar(std::numeric_limits<unsigned>::max()),
                        umax = device_scalar(0u);
  auto k = pacxx::kernel(
      [](const int *di, const unsigned *du, int *imin, int *imax, unsigned *umin, unsigned *umax,
         std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n) {
          pacxx::atomic_min(imin, di[i]);
          pacxx::atomic_max(imax, di[i]);
          pacxx::atomic_min(umin, du[i]);
          pacxx::atomic_max(umax, du[i]);
        }
      },
      {{1}, {32}});
  k(di.data(), du.data(), imin.data(), imax.data(), umin.data(), umax.data(), hi_in.size());
  EXPECT_EQ(gpu::copy(imin)[0], *std::min_element(hi_in.begin(), hi_in.end()));
  EXPECT_EQ(gpu::copy(imax)[0], *std::max_element(hi_in.begin(), hi_in.end()));
  EXPECT_EQ(gpu::copy(umin)[0], *std::min_element(hu_in.begin(), hu_in.end()));
  EXPECT_EQ(gpu::copy(umax)[0], *std::max_element(hu_in.begin(), hu_in.end()));
}

TEST(AtomicsInt, AddWrapsAround) {
  // Unsigned and long long adds carry across 32 bits / wrap like the host does.
  const std::size_t n = 1000;
  gpu::vector<unsigned> u = device_scalar(4294967000u);
  gpu::vector<long long> ll = device_scalar(4294967000ll);
  auto k = pacxx::kernel(
      [](unsigned *u, long long *ll, std::size_t n) {
        if (pacxx::Thread::get().global.x < n) {
          pacxx::atomic_add(u, 1u);
          pacxx::atomic_add(ll, 1ll);
        }
      },
      cover(n));
  k(u.data(), ll.data(), n);
  EXPECT_EQ(gpu::copy(u)[0], static_cast<unsigned>(4294967000u + n));
  EXPECT_EQ(gpu::copy(ll)[0], 4294967000ll + static_cast<long long>(n));
}

} // namespace

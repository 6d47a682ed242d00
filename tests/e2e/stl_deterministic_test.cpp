// End-to-end: the deterministic scans (gpu::deterministic as the first argument; issue 34,
// item 8): inclusive_scan, exclusive_scan, inclusive_scan_by_key, exclusive_scan_by_key.
//   exact      integers and a non-commutative op equal the host's sequential fold, at
//              sizes from 0 to 2^20 + 3 (hundreds of tiles)
//   same bits  float data of mixed magnitudes (every order of additions gives other
//              bits), its tiles delayed by a pause whose length depends on the tile and a
//              seed, so that each run meets its predecessors in another state: every run
//              gives the same bits; the first n results do not depend on how many
//              elements follow them
//   the order  where a warp is one thread (OpenCL) the results equal, bit for bit, a host
//              model of the fixed order (the block scan's tree within a tile, the tiles'
//              aggregates folded left to right): the look-back's result is that order
//              and not merely one that happened to repeat
//   reduce     gpu::reduce needs no tag: the same bits on every run, paused or not
// The scans without the tag are run on the same paused inputs and the number of
// distinct results they gave is printed (not checked: it depends on the machine).
#include "test_support.hpp"

#include <pacxx/algorithm/deterministic.hpp>
#include <pacxx/algorithm/scan.hpp>
#include <pacxx/algorithm/scan_by_key.hpp>
#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <set>
#include <vector>

namespace view = ranges::views;

// x -> a * x + b, composed left to right: associative, not commutative.
struct Affine {
  long long a, b;
};
inline bool operator==(const Affine &x, const Affine &y) { return x.a == y.a && x.b == y.b; }

namespace {

template <class T> constexpr std::size_t tile_of() {
  return pacxx::policy::scan_for<T, true>::block * pacxx::policy::scan_for<T, true>::items;
}
const std::size_t tile = tile_of<int>();
const std::size_t sizes[] = {0, 1, 2, tile - 1, tile, tile + 1, 3 * tile + 7, pacxx_test::big};

// x[i], read after a pause at the first element of each tile (the tile's first load, by
// its block's first thread), of a length that depends on the tile and the seed.
struct paused {
  const float *x;
  std::size_t tile;
  std::uint32_t seed;
  float operator()(std::size_t i) const {
    if (i % tile == 0) {
      std::uint32_t h = std::uint32_t(i / tile) * 2654435761u ^ seed;
      h ^= h >> 15;
      h *= 2246822519u;
      h ^= h >> 13;
      // Up to ~30 us on a CPU; a quarter of the tiles do not pause at all.
      const unsigned spins = (h & 3u) == 0 ? 0u : (h >> 8 & 1023u) * 32u;
      volatile std::uint32_t sink = h;
      std::uint32_t s = h;
      for (unsigned k = 0; k < spins; ++k)
        s = s * 1664525u + 1013904223u;
      sink = s;
      (void)sink;
    }
    return x[i];
  }
};

// Floats of mixed magnitudes (2^-12 .. 2^12, both signs): a sum of them in another
// order nearly always differs in its last bits.
std::vector<float> mixed_floats(std::size_t n, std::uint64_t seed) {
  pacxx_test::rng r(seed);
  std::vector<float> v(n);
  for (auto &x : v)
    x = static_cast<float>(r.sign() * r.uniform(1.0, 2.0) *
                           std::ldexp(1.0, int(r.integer(-12, 12))));
  return v;
}

bool same_bits(const std::vector<float> &a, const std::vector<float> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}
// The first index where a and b differ in their bits (a.size() where none).
std::size_t first_difference(const std::vector<float> &a, const std::vector<float> &b) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0)
      return i;
  return a.size() == b.size() ? a.size() : std::min(a.size(), b.size());
}

// The device's warp width (1 on OpenCL, 32 on CUDA).
unsigned warp_width() {
  gpu::vector<unsigned> w(1);
  pacxx::kernel(
      [](unsigned *w) {
        if (pacxx::Thread::get().global.x == 0)
          *w = pacxx::warp::size();
      },
      pacxx::launch_config{{1}, {32}})(w.data());
  return gpu::copy(w)[0];
}

// ---- integers: equal to the host's sequential fold -----------------------------------

TEST(Deterministic, IntegerScansEqualTheSequentialFold) {
  for (std::size_t n : sizes) {
    const std::vector<int> h = pacxx_test::ints(n, 3 + n, -1000, 1000);
    gpu::vector<int> x = gpu::copy(h), out(n);
    std::vector<int> expect(n);
    int run = 0;
    for (std::size_t i = 0; i < n; ++i)
      expect[i] = run += h[i];
    gpu::inclusive_scan(gpu::deterministic, x, out);
    EXPECT_EQ(gpu::copy(out), expect) << "inclusive, n = " << n;
    run = 5;
    for (std::size_t i = 0; i < n; ++i) {
      expect[i] = run;
      run += h[i];
    }
    gpu::exclusive_scan(gpu::deterministic, x, out, 5);
    EXPECT_EQ(gpu::copy(out), expect) << "exclusive, n = " << n;
    // In place, with max.
    auto mx = [](int a, int b) { return a < b ? b : a; };
    gpu::inclusive_scan(gpu::deterministic, x, x, mx);
    for (std::size_t i = 0; i < n; ++i)
      expect[i] = i == 0 ? h[0] : mx(expect[i - 1], h[i]);
    EXPECT_EQ(gpu::copy(x), expect) << "max in place, n = " << n;
  }
}

TEST(Deterministic, NonCommutativeOpInTileOrder) {
  // The look-back folds the predecessors' aggregates one at a time: composing affine maps
  // shows any fold out of tile order.
  auto compose = [](Affine f, Affine g) { return Affine{g.a * f.a, g.a * f.b + g.b}; };
  for (std::size_t n : {tile_of<Affine>() * 40 + 3, pacxx_test::big}) {
    pacxx_test::rng r(n);
    std::vector<Affine> h(n);
    for (auto &f : h)
      f = Affine{r.integer(0, 1) ? 1 : -1, r.integer(-3, 3)};
    gpu::vector<Affine> x = gpu::copy(h), out(n);
    gpu::inclusive_scan(gpu::deterministic, x, out, compose);
    std::vector<Affine> expect(n);
    for (std::size_t i = 0; i < n; ++i)
      expect[i] = i == 0 ? h[0] : compose(expect[i - 1], h[i]);
    ASSERT_EQ(gpu::copy(out), expect) << "n = " << n;
    gpu::exclusive_scan(gpu::deterministic, x, out, Affine{1, 0}, compose);
    Affine run{1, 0};
    for (std::size_t i = 0; i < n; ++i) {
      expect[i] = run;
      run = compose(run, h[i]);
    }
    ASSERT_EQ(gpu::copy(out), expect) << "n = " << n;
  }
}

TEST(Deterministic, IntegerScansByKeyEqualTheSequentialFold) {
  for (std::size_t n : sizes) {
    // Segments of 1 to ~3 tiles' length, and one run of single elements.
    std::vector<int> keys(n);
    pacxx_test::rng r(n + 1);
    int k = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (r.integer(0, 4000) == 0 || (i > n / 2 && i < n / 2 + 50))
        ++k;
      keys[i] = k;
    }
    const std::vector<int> h = pacxx_test::ints(n, 9 + n, -1000, 1000);
    gpu::vector<int> dk = gpu::copy(keys), dv = gpu::copy(h), out(n);
    std::vector<int> inc(n), exc(n);
    for (std::size_t i = 0; i < n; ++i) {
      const bool head = i == 0 || keys[i - 1] != keys[i];
      exc[i] = head ? 7 : exc[i - 1] + h[i - 1];
      inc[i] = head ? h[i] : inc[i - 1] + h[i];
    }
    gpu::inclusive_scan_by_key(gpu::deterministic, dk, dv, out);
    EXPECT_EQ(gpu::copy(out), inc) << "inclusive, n = " << n;
    gpu::exclusive_scan_by_key(gpu::deterministic, dk, dv, out, 7);
    EXPECT_EQ(gpu::copy(out), exc) << "exclusive, n = " << n;
  }
}

// ---- floats: the same bits on every run -------------------------------------------------

// The model of the fixed order where a warp is one thread (pacxx::block_scan's
// Hillis-Steele scan in shared memory, pacxx::ordered_lookback_prefix's left fold of the
// tiles' aggregates, agent::scan_tile_items' walk over a thread's items). op over the
// B * I items of each tile: thread l holds items l * I .. l * I + I - 1.
template <class T, bool Exclusive, class Op>
std::vector<T> model_scan(const std::vector<T> &in, Op op, T init, std::size_t B, std::size_t I) {
  const std::size_t n = in.size(), tile_size = B * I;
  std::vector<T> out(n);
  T carried{}; // the inclusive prefix of the tiles so far
  for (std::size_t base = 0; base < n; base += tile_size) {
    const std::size_t valid = std::min(tile_size, n - base);
    std::vector<T> slot(B);
    for (std::size_t l = 0; l < B; ++l) {
      const std::size_t first = l * I, mine = valid <= first ? 0 : std::min(I, valid - first);
      T total = mine ? in[base + first] : T{};
      for (std::size_t k = 1; k < mine; ++k)
        total = op(total, in[base + first + k]);
      slot[l] = total;
    }
    for (std::size_t d = 1; d < B; d *= 2) {
      std::vector<T> next = slot;
      for (std::size_t l = d; l < B; ++l)
        next[l] = op(slot[l - d], slot[l]);
      slot = next;
    }
    const T aggregate = slot[B - 1];
    // The tile's exclusive prefix (what the look-back returns; init for tile 0).
    const bool first_tile = base == 0;
    const T tile_prefix = first_tile ? init : carried;
    carried = first_tile ? (Exclusive ? op(init, aggregate) : aggregate) : op(carried, aggregate);
    for (std::size_t l = 0; l < B; ++l) {
      const std::size_t first = l * I;
      if (first >= valid)
        break;
      const bool has_prefix = Exclusive || !first_tile || l != 0;
      T prefix = l == 0 ? tile_prefix : op(tile_prefix, slot[l - 1]);
      if (!Exclusive && first_tile)
        prefix = l == 0 ? T{} : slot[l - 1];
      T run = has_prefix ? op(prefix, in[base + first]) : in[base + first];
      if (Exclusive)
        out[base + first] = prefix;
      for (std::size_t k = 0; k < I && first + k < valid; ++k) {
        if (k > 0) {
          if (Exclusive)
            out[base + first + k] = run;
          run = op(run, in[base + first + k]);
        }
        if (!Exclusive)
          out[base + first + k] = run;
      }
    }
  }
  return out;
}

const std::size_t n_float = pacxx_test::big; // 342 tiles of 3072 floats
const std::uint32_t seeds[] = {1, 2, 3, 4, 5, 6};

class DeterministicFloat : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    h = new std::vector<float>(mixed_floats(n_float, 42));
    x = new gpu::vector<float>(gpu::copy(*h));
    width = warp_width();
  }
  static void TearDownTestSuite() {
    delete x;
    delete h;
  }
  static std::vector<float> *h;
  static gpu::vector<float> *x;
  static unsigned width;

  auto input(std::size_t tile_size, std::uint32_t seed) const {
    return view::iota(std::size_t(0), n_float) |
           view::transform(paused{x->data(), tile_size, seed});
  }
};
std::vector<float> *DeterministicFloat::h;
gpu::vector<float> *DeterministicFloat::x;
unsigned DeterministicFloat::width;

void report(const char *what, std::size_t distinct, std::size_t runs) {
  std::cout << "[ info ] " << what << " without gpu::deterministic: " << distinct
            << " distinct results in " << runs << " runs\n";
}

TEST_F(DeterministicFloat, InclusiveScanGivesTheSameBitsOnEveryRun) {
  const std::size_t ts = tile_of<float>();
  gpu::vector<float> out(n_float);
  std::vector<float> first;
  std::set<std::vector<float>> plain;
  for (std::uint32_t seed : seeds) {
    gpu::inclusive_scan(gpu::deterministic, input(ts, seed), out);
    const std::vector<float> got = gpu::copy(out);
    if (first.empty())
      first = got;
    ASSERT_TRUE(same_bits(got, first))
        << "seed " << seed << ": first difference at " << first_difference(got, first);
    gpu::inclusive_scan(input(ts, seed), out);
    plain.insert(gpu::copy(out));
  }
  report("inclusive_scan", plain.size(), sizeof seeds / sizeof seeds[0]);
  // Without the pauses, from a gpu::vector, in place: the same bits.
  gpu::vector<float> y = gpu::copy(*h);
  gpu::inclusive_scan(gpu::deterministic, y, y);
  ASSERT_TRUE(same_bits(gpu::copy(y), first));
  if (width == 1) {
    const auto model = model_scan<float, false>(*h, std::plus<float>{}, 0.f,
                                                pacxx::policy::scan_for<float, true>::block,
                                                pacxx::policy::scan_for<float, true>::items);
    EXPECT_TRUE(same_bits(first, model))
        << "first difference from the model at " << first_difference(first, model);
  }
}

TEST_F(DeterministicFloat, ExclusiveScanGivesTheSameBitsOnEveryRun) {
  const std::size_t ts = tile_of<float>();
  gpu::vector<float> out(n_float);
  std::vector<float> first;
  std::set<std::vector<float>> plain;
  for (std::uint32_t seed : seeds) {
    gpu::exclusive_scan(gpu::deterministic, input(ts, seed), out, 0.375f);
    const std::vector<float> got = gpu::copy(out);
    if (first.empty())
      first = got;
    ASSERT_TRUE(same_bits(got, first))
        << "seed " << seed << ": first difference at " << first_difference(got, first);
    gpu::exclusive_scan(input(ts, seed), out, 0.375f);
    plain.insert(gpu::copy(out));
  }
  report("exclusive_scan", plain.size(), sizeof seeds / sizeof seeds[0]);
  if (width == 1) {
    const auto model = model_scan<float, true>(*h, std::plus<float>{}, 0.375f,
                                               pacxx::policy::scan_for<float, true>::block,
                                               pacxx::policy::scan_for<float, true>::items);
    EXPECT_TRUE(same_bits(first, model))
        << "first difference from the model at " << first_difference(first, model);
  }
}

TEST_F(DeterministicFloat, TheFirstResultsDoNotDependOnTheLength) {
  // out[i] depends on in[0..i] only: a scan of a prefix of the input is a prefix of the
  // scan, bit for bit, whether the prefix ends within a tile or at its end.
  gpu::vector<float> out(n_float);
  gpu::inclusive_scan(gpu::deterministic, *x, out);
  const std::vector<float> all = gpu::copy(out);
  const std::size_t ts = tile_of<float>();
  for (std::size_t m : {std::size_t(1), ts - 1, ts, 5 * ts + 17, 100 * ts, n_float - 1}) {
    gpu::vector<float> part(m);
    gpu::inclusive_scan(gpu::deterministic, *x | view::take(m), part);
    const std::vector<float> got = gpu::copy(part);
    ASSERT_TRUE(same_bits(got, std::vector<float>(all.begin(), all.begin() + m)))
        << "m = " << m << ": first difference at "
        << first_difference(got, std::vector<float>(all.begin(), all.begin() + m));
  }
}

TEST_F(DeterministicFloat, ScansByKeyGiveTheSameBitsOnEveryRun) {
  // Segments from a few elements to ~170 tiles (the pair of a float and its head flag
  // takes tiles of 1536).
  const std::size_t ts = tile_of<gpu::detail::flagged<float>>();
  std::vector<int> keys(n_float);
  pacxx_test::rng r(77);
  int k = 0;
  for (std::size_t i = 0; i < n_float; ++i) {
    if (i == n_float / 2 || (i > n_float / 2 && r.integer(0, 1999) == 0) || (i > 1000 && i < 1100))
      ++k;
    keys[i] = k;
  }
  gpu::vector<int> dk = gpu::copy(keys);
  gpu::vector<float> out(n_float);
  std::vector<float> first_inc, first_exc;
  std::set<std::vector<float>> plain;
  for (std::uint32_t seed : seeds) {
    gpu::inclusive_scan_by_key(gpu::deterministic, dk, input(ts, seed), out);
    const std::vector<float> inc = gpu::copy(out);
    gpu::exclusive_scan_by_key(gpu::deterministic, dk, input(ts, seed), out, -0.5f);
    const std::vector<float> exc = gpu::copy(out);
    if (first_inc.empty()) {
      first_inc = inc;
      first_exc = exc;
    }
    ASSERT_TRUE(same_bits(inc, first_inc))
        << "seed " << seed << ": first difference at " << first_difference(inc, first_inc);
    ASSERT_TRUE(same_bits(exc, first_exc))
        << "seed " << seed << ": first difference at " << first_difference(exc, first_exc);
    gpu::inclusive_scan_by_key(dk, input(ts, seed), out);
    plain.insert(gpu::copy(out));
  }
  report("inclusive_scan_by_key", plain.size(), sizeof seeds / sizeof seeds[0]);
  if (width == 1) {
    using F = gpu::detail::flagged<float>;
    const gpu::detail::segmented<std::plus<float>> seg{std::plus<float>{}};
    std::vector<F> pairs(n_float), pairs_exc(n_float);
    for (std::size_t i = 0; i < n_float; ++i) {
      const unsigned head = i == 0 || keys[i - 1] != keys[i] ? 1u : 0u;
      pairs[i] = F{(*h)[i], head};
      pairs_exc[i] = F{head ? -0.5f + (*h)[i] : (*h)[i], head};
    }
    using P = pacxx::policy::scan_for<F, true>;
    const auto inc = model_scan<F, false>(pairs, seg, F{0.f, 0u}, P::block, P::items);
    const auto exc = model_scan<F, true>(pairs_exc, seg, F{-0.5f, 0u}, P::block, P::items);
    std::vector<float> model_inc(n_float), model_exc(n_float);
    for (std::size_t i = 0; i < n_float; ++i) {
      model_inc[i] = inc[i].value;
      model_exc[i] = pairs[i].head ? -0.5f : exc[i].value;
    }
    EXPECT_TRUE(same_bits(first_inc, model_inc))
        << "first difference from the model at " << first_difference(first_inc, model_inc);
    EXPECT_TRUE(same_bits(first_exc, model_exc))
        << "first difference from the model at " << first_difference(first_exc, model_exc);
  }
}

TEST_F(DeterministicFloat, ReduceGivesTheSameBitsOnEveryRunWithoutATag) {
  // gpu::reduce's order is fixed already (docs/RELIABILITY.md, "Determinism"): the grid
  // depends on n alone, a thread folds its elements in index order, the block folds them
  // in a fixed tree and the host folds the blocks' partials in a fixed order.
  // gpu::reduce_to folds the partials on the device, in a fixed order of its own.
  const float plain = gpu::reduce(*x, 0.f);
  gpu::vector<float> on_device(1);
  gpu::reduce_to(*x, on_device.data(), 0.f);
  const float plain_to = gpu::copy(on_device)[0];
  for (std::uint32_t seed : seeds) {
    const float got = gpu::reduce(input(2048, seed), 0.f);
    ASSERT_EQ(0, std::memcmp(&got, &plain, sizeof got)) << "seed " << seed;
    gpu::reduce_to(input(2048, seed), on_device.data(), 0.f);
    const float got_to = gpu::copy(on_device)[0];
    ASSERT_EQ(0, std::memcmp(&got_to, &plain_to, sizeof got)) << "reduce_to, seed " << seed;
  }
}

TEST(Deterministic, TheTagSelectsTheOverload) {
  // Two-argument forms with the tag are not taken for (range, range, op).
  static_assert(gpu::detail::is_deterministic_tag<const gpu::deterministic_t &>::value, "");
  static_assert(!gpu::detail::is_deterministic_tag<gpu::vector<int> &>::value, "");
  gpu::vector<double> x = gpu::copy(std::vector<double>{1, 2, 3}), out(3);
  const gpu::deterministic_t tag = gpu::deterministic;
  gpu::inclusive_scan(tag, x, out);
  EXPECT_EQ(gpu::copy(out), (std::vector<double>{1, 3, 6}));
  gpu::exclusive_scan(tag, x, out, 0.5, std::plus<>{});
  EXPECT_EQ(gpu::copy(out), (std::vector<double>{0.5, 1.5, 3.5}));
}

} // namespace

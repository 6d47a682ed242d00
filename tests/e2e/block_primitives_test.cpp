// End-to-end: the warp and block primitives (pacxx/block/) in users' own kernels, against
// host folds. On CUDA they shuffle within warps of 32; on OpenCL a warp is one
// work-item and they go through shared memory: both paths run here.
//   warp      reduce (full and partial), inclusive_scan, shuffle of a 12-byte struct
//   block     block_reduce (all threads, a prefix of them), block_scan inclusive /
//             exclusive (with init, with a prefix callback), block_exchange round trip
//   shapes    blocks of 64, 96, 256 and 384 (whole warps, not only powers of two), a
//             non-commutative op (the order is kept)
#include "test_support.hpp"

#include <pacxx/block/block_exchange.hpp>
#include <pacxx/block/block_reduce.hpp>
#include <pacxx/block/block_scan.hpp>
#include <pacxx/block/warp.hpp>
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

struct Triple {
  int a, b, c;
};

namespace {

// Affine maps of ints composed left to right (x -> a x + b): not commutative.
struct Map {
  long long a, b;
};
const auto compose = [](Map f, Map g) { return Map{g.a * f.a, g.a * f.b + g.b}; };
bool same(Map x, Map y) { return x.a == y.a && x.b == y.b; }

std::vector<Map> maps(std::size_t n, std::uint64_t seed) {
  pacxx_test::rng r(seed);
  std::vector<Map> v(n);
  for (auto &m : v)
    m = Map{r.integer(0, 1) ? 1 : -1, r.integer(-5, 5)};
  return v;
}

template <std::size_t B> void block_reduce_and_scan(std::size_t blocks) {
  const std::size_t n = B * blocks;
  const std::vector<Map> h = maps(n, B);
  gpu::vector<Map> in = gpu::copy(h), inc(n), exc(n), pre(n), sums(blocks), part(blocks);
  Map *pi = in.data(), *pinc = inc.data(), *pexc = exc.data(), *ppre = pre.data();
  Map *ps = sums.data(), *pp = part.data();
  pacxx::kernel(
      [=](std::size_t) {
        const std::size_t l = pacxx::Thread::get().local.x, b = pacxx::Block::get().index.x;
        const Map v = pi[b * B + l];
        pacxx::block_reduce<Map, B> r;
        Map s = r.reduce(v, compose);
        if (l == 0)
          ps[b] = s;
        pacxx::barrier();
        // Threads [0, B / 2 + 3) only.
        Map p = r.reduce(v, compose, B / 2 + 3);
        if (l == 0)
          pp[b] = p;
        pacxx::block_scan<Map, B> scan;
        pinc[b * B + l] = scan.inclusive(v, compose);
        pacxx::barrier();
        pexc[b * B + l] = scan.exclusive(v, Map{1, 0}, compose);
        pacxx::barrier();
        // The prefix callback runs on the first warp; its lane-0 result is the prefix.
        auto prefix = [&](const Map &total) { return Map{total.a, 1000 + (long long)b}; };
        ppre[b * B + l] = scan.exclusive_with_prefix(v, compose, prefix);
      },
      {{blocks}, {B}})(0);
  const auto g_sums = gpu::copy(sums), g_part = gpu::copy(part), g_inc = gpu::copy(inc),
             g_exc = gpu::copy(exc), g_pre = gpu::copy(pre);
  for (std::size_t b = 0; b < blocks; ++b) {
    Map run{1, 0}, all{1, 0};
    for (std::size_t l = 0; l < B; ++l)
      all = compose(all, h[b * B + l]);
    EXPECT_TRUE(same(g_sums[b], all)) << "block " << b;
    Map half{1, 0};
    for (std::size_t l = 0; l < B / 2 + 3; ++l)
      half = compose(half, h[b * B + l]);
    EXPECT_TRUE(same(g_part[b], half)) << "block " << b;
    const Map p{all.a, 1000 + (long long)b};
    Map with_prefix = p;
    for (std::size_t l = 0; l < B; ++l) {
      const std::size_t i = b * B + l;
      ASSERT_TRUE(same(g_exc[i], run)) << "exclusive, block " << b << " thread " << l;
      ASSERT_TRUE(same(g_pre[i], with_prefix)) << "with prefix, block " << b << " thread " << l;
      run = compose(run, h[i]);
      with_prefix = compose(with_prefix, h[i]);
      ASSERT_TRUE(same(g_inc[i], run)) << "inclusive, block " << b << " thread " << l;
    }
  }
}

TEST(BlockPrimitives, ReduceAndScan256) { block_reduce_and_scan<256>(7); }
TEST(BlockPrimitives, ReduceAndScan64) { block_reduce_and_scan<64>(5); }
// Blocks that are whole warps but not powers of two.
TEST(BlockPrimitives, ReduceAndScan384) { block_reduce_and_scan<384>(3); }
TEST(BlockPrimitives, ReduceAndScan96) { block_reduce_and_scan<96>(4); }

TEST(BlockPrimitives, Warp) {
  // Per warp: the sum of its lanes, of its first 5 lanes, an inclusive scan, and the
  // Triple of the lane above (shuffle_down by 1; the last lane keeps its own).
  const std::size_t B = 128, blocks = 3, n = B * blocks;
  const std::vector<int> h = pacxx_test::ints(n, 3);
  gpu::vector<int> in = gpu::copy(h), sum(n), sum5(n), scan(n), size(1);
  gpu::vector<Triple> moved(n);
  int *pi = in.data(), *ps = sum.data(), *p5 = sum5.data(), *pc = scan.data(), *pz = size.data();
  Triple *pm = moved.data();
  pacxx::kernel(
      [=](std::size_t) {
        const std::size_t i = pacxx::Thread::get().global.x;
        const int v = pi[i];
        ps[i] = pacxx::warp::reduce(v, [](int a, int b) { return a + b; });
        p5[i] = pacxx::warp::reduce(
            v, [](int a, int b) { return a + b; }, 5);
        pc[i] = pacxx::warp::inclusive_scan(v, [](int a, int b) { return a + b; });
        pm[i] = pacxx::warp::shuffle_down(Triple{v, -v, 2 * v}, 1);
        if (i == 0)
          pz[0] = int(pacxx::warp::size());
      },
      {{blocks}, {B}})(0);
  const int w = gpu::copy(size)[0];
  ASSERT_TRUE(w == 1 || w == 32) << w;
  const auto g_sum = gpu::copy(sum), g_sum5 = gpu::copy(sum5), g_scan = gpu::copy(scan);
  const auto g_moved = gpu::copy(moved);
  for (std::size_t first = 0; first < n; first += w) {
    int all = 0, five = 0, run = 0;
    for (int k = 0; k < w; ++k)
      all += h[first + k];
    for (int k = 0; k < w && k < 5; ++k)
      five += h[first + k];
    EXPECT_EQ(g_sum[first], all); // lane 0 holds the result
    EXPECT_EQ(g_sum5[first], five);
    for (int k = 0; k < w; ++k) {
      run += h[first + k];
      EXPECT_EQ(g_scan[first + k], run);
      const int src = h[first + (k + 1 < w ? k + 1 : k)];
      EXPECT_EQ(g_moved[first + k].a, src);
      EXPECT_EQ(g_moved[first + k].b, -src);
      EXPECT_EQ(g_moved[first + k].c, 2 * src);
    }
  }
}

// warp::match(v, bits): the lanes whose v agrees with this lane's in the low bits.
TEST(BlockPrimitives, WarpMatch) {
  const std::size_t B = 64, n = 3 * B;
  const std::vector<int> h = pacxx_test::ints(n, 11);
  std::vector<unsigned> hv(n);
  for (std::size_t i = 0; i < n; ++i)
    hv[i] = unsigned(h[i]) * 2654435761u; // any bits above the matched ones
  gpu::vector<unsigned> in = gpu::copy(hv), m3(n), m8(n), size(1);
  const unsigned *pi = in.data();
  unsigned *p3 = m3.data(), *p8 = m8.data(), *pz = size.data();
  pacxx::kernel(
      [=](std::size_t) {
        const std::size_t i = pacxx::Thread::get().global.x;
        p3[i] = pacxx::warp::match(pi[i], 3);
        p8[i] = pacxx::warp::match(pi[i], 8);
        if (i == 0)
          pz[0] = pacxx::warp::size();
      },
      {{n / B}, {B}})(0);
  const unsigned w = gpu::copy(size)[0];
  ASSERT_TRUE(w == 1 || w == 32) << w;
  const auto g3 = gpu::copy(m3), g8 = gpu::copy(m8);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t first = i / w * w;
    unsigned e3 = 0, e8 = 0;
    for (unsigned k = 0; k < w; ++k) {
      e3 |= ((hv[first + k] ^ hv[i]) & 7u) == 0 ? 1u << k : 0u;
      e8 |= ((hv[first + k] ^ hv[i]) & 255u) == 0 ? 1u << k : 0u;
    }
    EXPECT_EQ(g3[i], e3) << i;
    EXPECT_EQ(g8[i], e8) << i;
  }
}

TEST(BlockPrimitives, ExchangeRoundTrip) {
  // Blocked items of thread l are the tile's elements l * I .. l * I + I - 1; a partial
  // tile keeps its length, and slots past it hold element 0.
  constexpr std::size_t B = 64, I = 5;
  const std::size_t n = B * I * 2 + 17; // two full tiles and a partial one
  const std::vector<int> h = pacxx_test::ints(n, 9);
  gpu::vector<int> in = gpu::copy(h), out(n), blocked(3 * B * I);
  int *pi = in.data(), *po = out.data(), *pb = blocked.data();
  pacxx::kernel(
      [=](std::size_t n) {
        const std::size_t l = pacxx::Thread::get().local.x, b = pacxx::Block::get().index.x;
        const std::size_t base = b * B * I, valid = n - base < B * I ? n - base : B * I;
        pacxx::block_exchange<int, B, I> ex;
        int items[I];
        ex.load_blocked([&](std::size_t i) { return pi[base + i]; }, valid, items);
        for (std::size_t k = 0; k < I; ++k)
          pb[base + l * I + k] = items[k];
        for (std::size_t k = 0; k < I; ++k)
          items[k] = -items[k];
        ex.store_blocked(items, valid, [&](std::size_t i, int v) { po[base + i] = v; });
      },
      {{3}, {B}})(n);
  const auto g_out = gpu::copy(out), g_blocked = gpu::copy(blocked);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(g_out[i], -h[i]) << i;
  for (std::size_t i = 0; i < 3 * B * I; ++i)
    ASSERT_EQ(g_blocked[i], i < n ? h[i] : h[2 * B * I]) << i;
}

} // namespace

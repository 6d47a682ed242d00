// Tiled pairwise reductions and scatter with a combining operation (issue 35 items 5
// and 6): gpu::pairwise_reduce against the host's double loop (empty, single, prime and
// non-multiple-of-the-block sizes, views fused on both inputs and the output, an order-
// sensitive op), gpu::scatter_reduce's deterministic path (float sums the same bits on
// every run, int sums exact, min / max) and its atomic path, bad maps, launch counts.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include <range/v3/view/iota.hpp>
#include <range/v3/view/reverse.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include "../../examples/nbody/nbody.hpp"
#include "test_support.hpp"

namespace view = ranges::views;

namespace {

// An op that is neither commutative nor associative: the fold order is part of the result.
struct horner {
  unsigned operator()(unsigned acc, unsigned v) const { return acc * 3u + v; }
};
struct pair_term {
  unsigned operator()(unsigned x, unsigned y) const { return x * y + (x ^ y); }
};

template <class A, class B, class T, class Op, class F>
std::vector<T> host_pairwise(const std::vector<A> &a, const std::vector<B> &b, T init, Op op, F f) {
  std::vector<T> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    T acc = init;
    for (std::size_t j = 0; j < b.size(); ++j)
      acc = op(acc, f(a[i], b[j]));
    r[i] = acc;
  }
  return r;
}

struct Sizes {
  std::size_t n, m;
};
class PairwiseReduce : public ::testing::TestWithParam<Sizes> {};

TEST_P(PairwiseReduce, FoldsEveryPairInOrder) {
  const Sizes s = GetParam();
  std::vector<unsigned> a(s.n), b(s.m);
  pacxx_test::rng r(s.n * 31 + s.m);
  for (auto &x : a)
    x = static_cast<unsigned>(r.next());
  for (auto &x : b)
    x = static_cast<unsigned>(r.next());
  gpu::vector<unsigned> da = gpu::copy(a), db = gpu::copy(b), out(s.n);
  pacxx::reset_stats();
  gpu::pairwise_reduce(da, db, out, 7u, horner{}, pair_term{});
  EXPECT_EQ(pacxx_test::counts().kernel_launches, s.n == 0 ? 0u : 1u);
  EXPECT_EQ(gpu::copy(out), host_pairwise(a, b, 7u, horner{}, pair_term{}));
}

// 256 threads a block: sizes below, at and around it, primes, the empty inner range.
INSTANTIATE_TEST_SUITE_P(Sizes, PairwiseReduce,
                         ::testing::Values(Sizes{0, 5}, Sizes{1, 1}, Sizes{1, 0}, Sizes{5, 0},
                                           Sizes{1, 1009}, Sizes{1009, 1}, Sizes{255, 257},
                                           Sizes{256, 256}, Sizes{257, 512}, Sizes{1009, 997},
                                           Sizes{3001, 700}));

TEST(PairwiseReduceViews, ZipAndTransformInputsAndAReversedOutput) {
  const std::size_t n = 613, m = 1031;
  const std::vector<int> x = pacxx_test::ints(n, 1), y = pacxx_test::ints(n, 2),
                         z = pacxx_test::ints(m, 3);
  gpu::vector<int> dx = gpu::copy(x), dy = gpu::copy(y), dz = gpu::copy(z);
  gpu::vector<long long> out(n);
  auto sum2 = [](const auto &p) { return std::get<0>(p) + 2 * std::get<1>(p); };
  auto sq = [](int v) { return v * v - 3; };
  auto f = [](int a, int b) { return static_cast<long long>(a) * b; };
  pacxx::reset_stats();
  gpu::pairwise_reduce(view::zip(dx, dy) | view::transform(sum2), dz | view::transform(sq),
                       out | view::reverse, 5ll, std::plus<>{}, f);
  EXPECT_EQ(pacxx_test::counts().kernel_launches, 1u); // the views fused
  std::vector<int> a(n), b(m);
  for (std::size_t i = 0; i < n; ++i)
    a[i] = x[i] + 2 * y[i];
  for (std::size_t j = 0; j < m; ++j)
    b[j] = z[j] * z[j] - 3;
  std::vector<long long> expect = host_pairwise(a, b, 5ll, std::plus<>{}, f);
  std::vector<long long> got = gpu::copy(out);
  std::reverse(got.begin(), got.end());
  EXPECT_EQ(got, expect);
}

struct vec3 {
  float x, y, z;
};
struct add3 {
  vec3 operator()(const vec3 &a, const vec3 &b) const { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
};

TEST(PairwiseReduceViews, StructAccumulatorOfFloats) {
  const std::size_t n = 777, m = 530;
  const std::vector<float> p = pacxx_test::random_floats(n, 4, -1.f, 1.f),
                           q = pacxx_test::random_floats(m, 5, -1.f, 1.f);
  gpu::vector<float> dp = gpu::copy(p), dq = gpu::copy(q);
  gpu::vector<vec3> out(n);
  auto f = [](float a, float b) { return vec3{a - b, a * b, 1.f}; };
  gpu::pairwise_reduce(dp, dq, out, vec3{0.f, 0.f, 0.f}, add3{}, f);
  std::vector<vec3> got = gpu::copy(out);
  for (std::size_t i = 0; i < n; ++i) {
    double sx = 0, sy = 0;
    for (std::size_t j = 0; j < m; ++j) {
      sx += double(p[i]) - q[j];
      sy += double(p[i]) * q[j];
    }
    ASSERT_NEAR(got[i].x, sx, 1e-3 * m) << i;
    ASSERT_NEAR(got[i].y, sy, 1e-3 * m) << i;
    ASSERT_EQ(got[i].z, float(m)) << i;
  }
}

TEST(PairwiseReduceErrors, AShortOutputIsAnError) {
  gpu::vector<int> a(10, 1), b(3, 1), out(9, 0);
  try {
    gpu::pairwise_reduce(a, b, out, 0, std::plus<>{}, std::multiplies<>{});
    FAIL() << "no error";
  } catch (const pacxx::error &e) {
    EXPECT_NE(std::string(e.what()).find("gpu::pairwise_reduce: the output has 9"),
              std::string::npos)
        << e.what();
  }
}

// The N-body example (examples/nbody): accelerations of 1000 bodies against the host in
// double, from an array of structs and from a structure of arrays zipped into bodies.
TEST(NBody, AccelerationsMatchTheHost) {
  const std::size_t n = 1000;
  const float eps2 = 1e-4f;
  const std::vector<nbody::body> pos = nbody::random_bodies(n, 7);
  const std::vector<nbody::vec3> ref = nbody::host_accelerations(pos, eps2);
  gpu::vector<nbody::body> dpos = gpu::copy(pos);
  gpu::vector<nbody::vec3> acc(n);
  nbody::accelerations(dpos, acc, eps2);
  EXPECT_LT(nbody::relative_error(gpu::copy(acc), ref), 1e-4);

  std::vector<float> x(n), y(n), z(n), m(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = pos[i].x;
    y[i] = pos[i].y;
    z[i] = pos[i].z;
    m[i] = pos[i].mass;
  }
  gpu::vector<float> dx = gpu::copy(x), dy = gpu::copy(y), dz = gpu::copy(z), dm = gpu::copy(m);
  auto to_body = [](const auto &t) {
    return nbody::body{std::get<0>(t), std::get<1>(t), std::get<2>(t), std::get<3>(t)};
  };
  gpu::vector<nbody::vec3> acc2(n);
  pacxx::reset_stats();
  nbody::accelerations(view::zip(dx, dy, dz, dm) | view::transform(to_body), acc2, eps2);
  EXPECT_EQ(pacxx_test::counts().kernel_launches, 1u);
  EXPECT_LT(nbody::relative_error(gpu::copy(acc2), ref), 1e-4);
}

TEST(NBody, StepsMatchTheHost) {
  const std::size_t n = 500;
  const float dt = 1e-3f, eps2 = 1e-4f;
  std::vector<nbody::body> pos = nbody::random_bodies(n, 8);
  std::vector<nbody::vec3> vel(n, nbody::vec3{0.f, 0.f, 0.f});
  gpu::vector<nbody::body> dpos = gpu::copy(pos);
  gpu::vector<nbody::vec3> dvel = gpu::copy(vel), dacc(n);
  for (int s = 0; s < 3; ++s) {
    nbody::step(dpos, dvel, dacc, dt, eps2);
    nbody::host_step(pos, vel, dt, eps2);
  }
  const std::vector<nbody::body> got = gpu::copy(dpos);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_NEAR(got[i].x, pos[i].x, 1e-5) << i;
    ASSERT_NEAR(got[i].y, pos[i].y, 1e-5) << i;
    ASSERT_NEAR(got[i].z, pos[i].z, 1e-5) << i;
  }
}

// ---- scatter_reduce ----

std::vector<int> random_map(std::size_t n, int targets, std::uint64_t seed) {
  return pacxx_test::ints(n, seed, 0, targets - 1);
}

TEST(ScatterReduce, FloatSumsAreTheSameBitsOnEveryRun) {
  for (int targets : {1, 3, 1000, 70000}) { // few long runs (a block each) to many short ones
    const std::size_t n = 100003;
    const std::vector<float> v = pacxx_test::random_floats(n, 7, -1.f, 1.f);
    const std::vector<int> map = random_map(n, targets, 8);
    const std::vector<float> init = pacxx_test::random_floats(std::size_t(targets), 9, -1.f, 1.f);
    gpu::vector<float> dv = gpu::copy(v);
    gpu::vector<int> dm = gpu::copy(map);
    gpu::vector<float> first = gpu::copy(init);
    gpu::scatter_reduce(dv, dm, first, std::plus<>{});
    const std::vector<float> r1 = gpu::copy(first);
    for (int run = 0; run < 3; ++run) {
      gpu::vector<float> again = gpu::copy(init);
      gpu::scatter_reduce(dv, dm, again, std::plus<>{});
      const std::vector<float> r2 = gpu::copy(again);
      ASSERT_EQ(std::memcmp(r1.data(), r2.data(), r1.size() * sizeof(float)), 0)
          << targets << " targets, run " << run;
    }
    std::vector<double> expect(init.begin(), init.end());
    std::vector<double> mag(init.size(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      expect[std::size_t(map[i])] += v[i];
      mag[std::size_t(map[i])] += std::fabs(v[i]);
    }
    for (std::size_t t = 0; t < expect.size(); ++t)
      ASSERT_NEAR(r1[t], expect[t], 1e-5 * (mag[t] + 1.0)) << targets << " targets, target " << t;
  }
}

template <class T, class Op>
std::vector<T> host_scatter(const std::vector<T> &v, const std::vector<int> &map,
                            std::vector<T> out, Op op) {
  for (std::size_t i = 0; i < v.size(); ++i)
    out[std::size_t(map[i])] = op(out[std::size_t(map[i])], v[i]);
  return out;
}

TEST(ScatterReduce, IntSumsAreExactOnBothPaths) {
  for (int targets : {1, 17, 5000}) {
    const std::size_t n = 40009;
    const std::vector<int> v = pacxx_test::ints(n, 10), map = random_map(n, targets, 11);
    const std::vector<int> init = pacxx_test::ints(std::size_t(targets), 12);
    const std::vector<int> expect = host_scatter(v, map, init, std::plus<int>());
    gpu::vector<int> dv = gpu::copy(v), dm = gpu::copy(map);
    gpu::vector<int> a = gpu::copy(init), b = gpu::copy(init);
    gpu::scatter_reduce(dv, dm, a, std::plus<>{});
    gpu::scatter_reduce(gpu::atomic, dv, dm, b, std::plus<>{});
    EXPECT_EQ(gpu::copy(a), expect) << targets;
    EXPECT_EQ(gpu::copy(b), expect) << targets;
  }
}

TEST(ScatterReduce, MinAndMaxOfFloatsOnBothPaths) {
  const std::size_t n = 20011;
  const int targets = 613; // some targets get no value and keep theirs
  const std::vector<float> v = pacxx_test::random_floats(n, 13, -100.f, 100.f);
  const std::vector<int> map = random_map(n, targets, 14);
  std::vector<float> init(std::size_t(targets), 50.f);
  init[3] = -1000.f;
  const std::vector<float> lo = host_scatter(v, map, init, gpu::minimum<>{}),
                           hi = host_scatter(v, map, init, gpu::maximum<>{});
  gpu::vector<float> dv = gpu::copy(v);
  gpu::vector<int> dm = gpu::copy(map);
  gpu::vector<float> a = gpu::copy(init), b = gpu::copy(init), c = gpu::copy(init),
                     d = gpu::copy(init);
  gpu::scatter_reduce(dv, dm, a, gpu::minimum<>{});
  gpu::scatter_reduce(dv, dm, b, gpu::maximum<>{});
  gpu::scatter_reduce(gpu::atomic, dv, dm, c, gpu::minimum<>{});
  gpu::scatter_reduce(gpu::atomic, dv, dm, d, gpu::maximum<float>{});
  EXPECT_EQ(gpu::copy(a), lo);
  EXPECT_EQ(gpu::copy(b), hi);
  EXPECT_EQ(gpu::copy(c), lo);
  EXPECT_EQ(gpu::copy(d), hi);
}

TEST(ScatterReduce, AtomicFloatSumsMatchTheHost) {
  const std::size_t n = 50000;
  const int targets = 100;
  const std::vector<float> v = pacxx_test::random_floats(n, 15, 0.f, 1.f);
  const std::vector<int> map = random_map(n, targets, 16);
  gpu::vector<float> dv = gpu::copy(v), out(std::size_t(targets), 0.f);
  gpu::vector<int> dm = gpu::copy(map);
  gpu::scatter_reduce(gpu::atomic, dv, dm, out, std::plus<>{});
  std::vector<double> expect(std::size_t(targets), 0.0);
  for (std::size_t i = 0; i < n; ++i)
    expect[std::size_t(map[i])] += v[i];
  const std::vector<float> r = gpu::copy(out);
  for (std::size_t t = 0; t < r.size(); ++t)
    EXPECT_NEAR(r[t], expect[t], 1e-4 * expect[t]) << t;
}

// Integral values in doubles sum exactly in any order, so the atomic double path must
// match the host bit for bit; minimum and maximum take the double CAS loops.
TEST(ScatterReduce, AtomicDoublesMatchTheHostExactly) {
  const std::size_t n = 30011;
  const int targets = 97;
  const std::vector<int> iv = pacxx_test::ints(n, 21);
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = double(iv[i] % 1000) - 300.0;
  const std::vector<int> map = random_map(n, targets, 22);
  const std::vector<double> init(std::size_t(targets), 5.0);
  gpu::vector<double> dv = gpu::copy(v), sum = gpu::copy(init), lo = gpu::copy(init),
                      hi = gpu::copy(init);
  gpu::vector<int> dm = gpu::copy(map);
  gpu::scatter_reduce(gpu::atomic, dv, dm, sum, std::plus<>{});
  gpu::scatter_reduce(gpu::atomic, dv, dm, lo, gpu::minimum<>{});
  gpu::scatter_reduce(gpu::atomic, dv, dm, hi, gpu::maximum<double>{});
  EXPECT_EQ(gpu::copy(sum), host_scatter(v, map, init, std::plus<double>()));
  EXPECT_EQ(gpu::copy(lo), host_scatter(v, map, init, gpu::minimum<>{}));
  EXPECT_EQ(gpu::copy(hi), host_scatter(v, map, init, gpu::maximum<>{}));
}

TEST(ScatterReduce, ViewsOnValuesAndMap) {
  const std::size_t n = 9001;
  const int targets = 101;
  gpu::vector<long long> out(std::size_t(targets), 0);
  auto target = [](long long i) { return int((i * 7) % 101); };
  auto value = [](long long i) { return i * i; };
  pacxx::reset_stats();
  gpu::scatter_reduce(view::iota(0ll, (long long)n) | view::transform(value),
                      view::iota(0ll, (long long)n) | view::transform(target), out, std::plus<>{});
  // The check with the copy, the radix sort by 7 bits (2 + 1 passes), the fold.
  EXPECT_EQ(pacxx_test::counts().kernel_launches, 5u);
  std::vector<long long> expect(std::size_t(targets), 0);
  for (long long i = 0; i < (long long)n; ++i)
    expect[std::size_t(target(i))] += value(i);
  EXPECT_EQ(gpu::copy(out), expect);
  gpu::vector<long long> atomic_out(std::size_t(targets), 0); // its fill is a launch
  pacxx::reset_stats();
  gpu::scatter_reduce(gpu::atomic, view::iota(0ll, (long long)n) | view::transform(value),
                      view::iota(0ll, (long long)n) | view::transform(target), atomic_out,
                      std::plus<>{});
  EXPECT_EQ(pacxx_test::counts().kernel_launches, 2u); // the check, the atomics
  EXPECT_EQ(gpu::copy(atomic_out), expect);
}

TEST(ScatterReduce, NoValuesLaunchNothing) {
  gpu::vector<float> v, out(4, 1.f);
  gpu::vector<int> map;
  pacxx::reset_stats();
  gpu::scatter_reduce(v, map, out, std::plus<>{});
  gpu::scatter_reduce(gpu::atomic, v, map, out, std::plus<>{});
  EXPECT_EQ(pacxx_test::counts().kernel_launches, 0u);
  EXPECT_EQ(gpu::copy(out), std::vector<float>(4, 1.f));
}

void expect_bad_map(std::vector<int> map, std::size_t bad_index, bool atomic) {
  const std::vector<int> init{1, 2, 3, 4};
  gpu::vector<int> dv(map.size(), 5), dm = gpu::copy(map), out = gpu::copy(init);
  try {
    if (atomic)
      gpu::scatter_reduce(gpu::atomic, dv, dm, out, std::plus<>{});
    else
      gpu::scatter_reduce(dv, dm, out, std::plus<>{});
    FAIL() << "no error";
  } catch (const pacxx::error &e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("gpu::scatter_reduce"), std::string::npos) << what;
    EXPECT_NE(what.find("map[" + std::to_string(bad_index) + "] is outside the output's 4"),
              std::string::npos)
        << what;
  }
  EXPECT_EQ(gpu::copy(out), init); // unchanged
}

TEST(ScatterReduceErrors, MapEntriesOutOfRangeAreErrorsAndTheOutputIsUnchanged) {
  for (bool atomic : {false, true}) {
    expect_bad_map({0, 1, 4, 2}, 2, atomic);
    expect_bad_map({0, -1, 3, 7}, 1, atomic);
    std::vector<int> big(5000, 3);
    big[4321] = 4;
    big[4999] = -5;
    expect_bad_map(big, 4321, atomic);
  }
  gpu::vector<int> v(10, 1), map(9, 0), out(2, 0);
  try {
    gpu::scatter_reduce(v, map, out, std::plus<>{});
    FAIL() << "no error";
  } catch (const pacxx::error &e) {
    EXPECT_NE(std::string(e.what()).find("the map has 9 elements, the values 10"),
              std::string::npos)
        << e.what();
  }
}

} // namespace

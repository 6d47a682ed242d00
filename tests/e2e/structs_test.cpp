// End-to-end: what kernels can take and call. User structs by value (nested, with
// arrays, over-aligned, holding device pointers), std::pair, std::tuple and std::array
// by value, as arguments and as captures; function objects that are not lambdas; a
// generic lambda; kernels made in a function template and in a namespace; a kernel
// calling non-inline and static helper functions of this file; constant tables at
// namespace scope read with run-time indices. Built with pacxx++ -std=c++14.
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

// ---------------------------------------------------------------------------------
// Types and functions at namespace scope (outside the anonymous namespace on purpose:
// external linkage, as a user's header would give them).

struct Inner {
  float scale;
  int offsets[3];
  unsigned char flag; // padding follows
};

struct Outer {
  char tag; // padding follows (alignment of double)
  double bias;
  Inner inner;
  short shorts[5];
  std::array<float, 4> weights;
  long long big;
};

struct alignas(16) Vec4 {
  float x, y, z, w;
};

struct DeviceView { // a struct holding device pointers and a size
  const float *in;
  float *out;
  std::size_t n;
};

// A large argument (256 bytes of table).
struct Table64 {
  float v[64];
};

// A non-inline helper defined in this file, and one with internal linkage.
float polynomial(float x, float a, float b, float c);
float polynomial(float x, float a, float b, float c) { return (a * x + b) * x + c; }

static int mix(int a, int b) { return (a * 31) ^ (b + 7); }

// Constant tables at namespace scope, read in kernels with run-time indices.
static const float table[8] = {1.5f, -2.25f, 3.0f, 0.125f, -7.5f, 11.0f, 0.0f, -0.5f};
constexpr int primes[10] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
const double weights_table[5] = {0.1, 0.2, 0.3, 0.25, 0.15};

namespace user {
namespace kernels {

// A kernel launched from a function in a namespace.
inline void negate_in_namespace(gpu::vector<int> &v) {
  const std::size_t n = v.size();
  pacxx::kernel(
      [](int *p, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          p[i] = -p[i] + static_cast<int>(i);
      },
      {{(n + 63) / 64}, {64}})(v.data(), n);
}

// A function object type in a namespace.
struct Affine {
  float a, b;
  void operator()(const float *x, float *y, std::size_t n) const {
    const std::size_t i = pacxx::Thread::get().global.x;
    if (i < n)
      y[i] = a * x[i] + b;
  }
};

} // namespace kernels
} // namespace user

// A kernel made inside a function template: element-wise out[i] = f(in[i]).
template <class T, class F> void map_kernel(const gpu::vector<T> &in, gpu::vector<T> &out, F f) {
  const std::size_t n = in.size();
  pacxx::kernel(
      [f](const T *in, T *out, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          out[i] = f(in[i]);
      },
      {{(n + 127) / 128}, {128}})(in.data(), out.data(), n);
}

namespace {

using pacxx_test::cover;
using pacxx_test::rng;

// n floats in [-10, 10).
std::vector<float> random_floats(std::size_t n, std::uint64_t seed) {
  return pacxx_test::random_floats(n, seed, -10.0f, 10.0f);
}

Outer make_outer() {
  Outer o;
  o.tag = 'Q';
  o.bias = -0.625;
  o.inner.scale = 1.75f;
  o.inner.offsets[0] = -3;
  o.inner.offsets[1] = 100000;
  o.inner.offsets[2] = 42;
  o.inner.flag = 200;
  o.shorts[0] = -32768;
  o.shorts[1] = 32767;
  o.shorts[2] = -1;
  o.shorts[3] = 12345;
  o.shorts[4] = 0;
  o.weights = {{0.5f, -1.5f, 2.5f, 4.0f}};
  o.big = -(1ll << 40) - 7;
  return o;
}

// Every field of an Outer, as doubles, in a fixed order.
std::vector<double> fields(const Outer &o) {
  return {static_cast<double>(o.tag),
          o.bias,
          o.inner.scale,
          static_cast<double>(o.inner.offsets[0]),
          static_cast<double>(o.inner.offsets[1]),
          static_cast<double>(o.inner.offsets[2]),
          static_cast<double>(o.inner.flag),
          static_cast<double>(o.shorts[0]),
          static_cast<double>(o.shorts[1]),
          static_cast<double>(o.shorts[2]),
          static_cast<double>(o.shorts[3]),
          static_cast<double>(o.shorts[4]),
          o.weights[0],
          o.weights[1],
          o.weights[2],
          o.weights[3],
          static_cast<double>(o.big)};
}
const std::size_t n_fields = 17;

// The same computation on host and device: uses every field of an Outer.
inline float combine(const Outer &o, float x, std::size_t i) {
  return o.inner.scale * x + static_cast<float>(o.inner.offsets[i % 3]) +
         o.weights[i % 4] * static_cast<float>(o.shorts[i % 5]) + static_cast<float>(o.bias) +
         static_cast<float>(o.tag) + static_cast<float>(o.inner.flag) +
         static_cast<float>(o.big % 1000);
}

TEST(Structs, NestedStructArgumentFieldByField) {
  const Outer o = make_outer();
  gpu::vector<double> out(n_fields);
  auto k = pacxx::kernel(
      [](Outer o, double *out) {
        if (pacxx::Thread::get().global.x != 0)
          return;
        out[0] = o.tag;
        out[1] = o.bias;
        out[2] = o.inner.scale;
        for (int j = 0; j < 3; ++j)
          out[3 + j] = o.inner.offsets[j];
        out[6] = o.inner.flag;
        for (int j = 0; j < 5; ++j)
          out[7 + j] = o.shorts[j];
        for (int j = 0; j < 4; ++j)
          out[12 + j] = o.weights[static_cast<std::size_t>(j)];
        out[16] = static_cast<double>(o.big);
      },
      {{1}, {32}});
  k(o, out.data());
  EXPECT_EQ(gpu::copy(out), fields(o));
}

TEST(Structs, NestedStructArgumentAndCapture) {
  const std::size_t n = 1009;
  const Outer o = make_outer();
  Outer captured = make_outer();
  captured.inner.scale = -0.5f;
  captured.shorts[2] = 77;
  captured.tag = 'z';
  std::vector<float> x = random_floats(n, 1);
  gpu::vector<float> dx = gpu::copy(x), by_arg(n), by_capture(n);
  auto k = pacxx::kernel(
      [captured](Outer o, const float *x, float *by_arg, float *by_capture, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n) {
          by_arg[i] = combine(o, x[i], i);
          by_capture[i] = combine(captured, x[i], i);
        }
      },
      cover(n));
  k(o, dx.data(), by_arg.data(), by_capture.data(), n);
  std::vector<float> ra = gpu::copy(by_arg), rc = gpu::copy(by_capture);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_NEAR(ra[i], combine(o, x[i], i), 1e-3f * (1 + std::fabs(ra[i]))) << i;
    ASSERT_NEAR(rc[i], combine(captured, x[i], i), 1e-3f * (1 + std::fabs(rc[i]))) << i;
  }
}

TEST(Structs, OverAlignedStructAndPointerStruct) {
  // A 16-byte aligned argument between smaller ones, and a struct carrying the device
  // pointers (rather than separate pointer arguments).
  const std::size_t n = 1009;
  std::vector<float> x = random_floats(n, 2);
  gpu::vector<float> dx = gpu::copy(x), dy(n);
  const Vec4 v{2.0f, -1.0f, 0.5f, 3.0f};
  const DeviceView view{dx.data(), dy.data(), n};
  auto k = pacxx::kernel(
      [](char c, Vec4 v, short s, DeviceView view) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < view.n) {
          const float t = view.in[i];
          view.out[i] = v.x * t * t + v.y * t + v.z + v.w * static_cast<float>(i % 7) +
                        static_cast<float>(c) - static_cast<float>(s);
        }
      },
      cover(n));
  k('A', v, static_cast<short>(-300), view);
  std::vector<float> r = gpu::copy(dy);
  for (std::size_t i = 0; i < n; ++i) {
    const float t = x[i];
    const float e = v.x * t * t + v.y * t + v.z + v.w * static_cast<float>(i % 7) + 65.0f + 300.0f;
    ASSERT_NEAR(r[i], e, 1e-4f * (1 + std::fabs(e))) << i;
  }
}

TEST(Structs, LargeStructByValue) {
  Table64 t;
  for (int j = 0; j < 64; ++j)
    t.v[j] = static_cast<float>(j * j) - 31.5f;
  const std::size_t n = 1009;
  gpu::vector<float> out(n);
  auto k = pacxx::kernel(
      [](Table64 t, float *out, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          out[i] = t.v[i % 64] * static_cast<float>(i / 64 + 1);
      },
      cover(n));
  k(t, out.data(), n);
  std::vector<float> r = gpu::copy(out);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(r[i], t.v[i % 64] * static_cast<float>(i / 64 + 1)) << i;
}

TEST(Structs, PairTupleArrayByValue) {
  const std::size_t n = 1009;
  std::vector<float> x = random_floats(n, 3);
  gpu::vector<float> dx = gpu::copy(x), out(n);
  const std::pair<int, double> p(-7, 0.25);
  const std::tuple<float, int, long long> t(1.5f, 3, 1ll << 33);
  const std::array<float, 8> a = {{0.5f, 1.0f, -1.0f, 2.0f, -2.0f, 4.0f, -4.0f, 8.0f}};
  const std::pair<char, std::array<short, 3>> nested('x', {{10, -20, 30}});
  auto k = pacxx::kernel(
      [p, a](std::tuple<float, int, long long> t, std::pair<char, std::array<short, 3>> nested,
             const float *x, float *out, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          out[i] = static_cast<float>(p.first) * x[i] + static_cast<float>(p.second) +
                   std::get<0>(t) * a[i % 8] + static_cast<float>(std::get<1>(t)) +
                   static_cast<float>(std::get<2>(t) >> 30) +
                   static_cast<float>(nested.first) * static_cast<float>(nested.second[i % 3]);
      },
      cover(n));
  k(t, nested, dx.data(), out.data(), n);
  std::vector<float> r = gpu::copy(out);
  for (std::size_t i = 0; i < n; ++i) {
    const float e = static_cast<float>(p.first) * x[i] + static_cast<float>(p.second) +
                    std::get<0>(t) * a[i % 8] + static_cast<float>(std::get<1>(t)) +
                    static_cast<float>(std::get<2>(t) >> 30) +
                    static_cast<float>(nested.first) * static_cast<float>(nested.second[i % 3]);
    ASSERT_NEAR(r[i], e, 1e-3f * (1 + std::fabs(e))) << i;
  }
}

TEST(Structs, ArrayArgumentWrittenBack) {
  // A std::array of pointers: each thread writes into every target buffer.
  const std::size_t n = 257;
  gpu::vector<int> b0(n), b1(n), b2(n);
  const std::array<int *, 3> bufs = {{b0.data(), b1.data(), b2.data()}};
  auto k = pacxx::kernel(
      [](std::array<int *, 3> bufs, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          for (std::size_t j = 0; j < 3; ++j)
            bufs[j][i] = static_cast<int>(i * (j + 2));
      },
      cover(n));
  k(bufs, n);
  std::vector<int> r0 = gpu::copy(b0), r1 = gpu::copy(b1), r2 = gpu::copy(b2);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(r0[i], static_cast<int>(2 * i));
    ASSERT_EQ(r1[i], static_cast<int>(3 * i));
    ASSERT_EQ(r2[i], static_cast<int>(4 * i));
  }
}

TEST(Kernels, GenericLambda) {
  // One generic lambda launched with two sets of argument types: two kernels.
  auto body = [](auto *p, auto n) {
    const std::size_t i = pacxx::Thread::get().global.x;
    if (i < static_cast<std::size_t>(n))
      p[i] = p[i] * p[i] - static_cast<decltype(+p[i])>(i);
  };
  const std::size_t n = 1009;
  std::vector<float> hf = random_floats(n, 4);
  std::vector<long long> hl(n);
  for (std::size_t i = 0; i < n; ++i)
    hl[i] = static_cast<long long>(i) * 100003 - 50000000;
  gpu::vector<float> df = gpu::copy(hf);
  gpu::vector<long long> dl = gpu::copy(hl);
  pacxx::kernel(body, cover(n))(df.data(), n);
  pacxx::kernel(body, cover(n))(dl.data(), static_cast<int>(n));
  std::vector<float> rf = gpu::copy(df);
  std::vector<long long> rl = gpu::copy(dl);
  for (std::size_t i = 0; i < n; ++i) {
    const float ef = hf[i] * hf[i] - static_cast<float>(i);
    ASSERT_NEAR(rf[i], ef, 1e-5f * (1 + std::fabs(ef))) << i;
    ASSERT_EQ(rl[i], hl[i] * hl[i] - static_cast<long long>(i)) << i;
  }
}

TEST(Kernels, KernelInFunctionTemplate) {
  const std::size_t n = 1009;
  std::vector<float> hf = random_floats(n, 5);
  std::vector<int> hi(n);
  for (std::size_t i = 0; i < n; ++i)
    hi[i] = static_cast<int>(i * 7919 % 10007) - 5000;
  gpu::vector<float> df = gpu::copy(hf), of(n);
  gpu::vector<int> di = gpu::copy(hi), oi(n);
  const float k = 0.75f;
  map_kernel(df, of, [k](float v) { return k * v - 1.0f; });
  map_kernel(di, oi, [](int v) { return v * v % 1000 - v; });
  std::vector<float> rf = gpu::copy(of);
  std::vector<int> ri = gpu::copy(oi);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_NEAR(rf[i], k * hf[i] - 1.0f, 1e-5f * (1 + std::fabs(rf[i]))) << i;
    ASSERT_EQ(ri[i], hi[i] * hi[i] % 1000 - hi[i]) << i;
  }
}

TEST(Kernels, KernelInNamespaceAndFunctionObject) {
  const std::size_t n = 1009;
  std::vector<int> h(n);
  for (std::size_t i = 0; i < n; ++i)
    h[i] = static_cast<int>(i * i % 977) - 400;
  gpu::vector<int> d = gpu::copy(h);
  user::kernels::negate_in_namespace(d);
  std::vector<int> r = gpu::copy(d);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(r[i], -h[i] + static_cast<int>(i)) << i;

  std::vector<float> x = random_floats(n, 6);
  gpu::vector<float> dx = gpu::copy(x), dy(n);
  const user::kernels::Affine f{-2.5f, 0.125f};
  pacxx::kernel(f, cover(n))(dx.data(), dy.data(), n);
  std::vector<float> ry = gpu::copy(dy);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_NEAR(ry[i], f.a * x[i] + f.b, 1e-5f * (1 + std::fabs(ry[i]))) << i;
}

TEST(Kernels, CallsHelperFunctionsOfThisFile) {
  const std::size_t n = 1009;
  std::vector<float> x = random_floats(n, 7);
  gpu::vector<float> dx = gpu::copy(x), dy(n);
  gpu::vector<int> dm(n);
  auto k = pacxx::kernel(
      [](const float *x, float *y, int *m, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n) {
          y[i] = polynomial(x[i], 0.5f, -1.0f, 2.0f);
          m[i] = mix(static_cast<int>(i), static_cast<int>(n));
        }
      },
      cover(n));
  k(dx.data(), dy.data(), dm.data(), n);
  std::vector<float> ry = gpu::copy(dy);
  std::vector<int> rm = gpu::copy(dm);
  for (std::size_t i = 0; i < n; ++i) {
    const float e = polynomial(x[i], 0.5f, -1.0f, 2.0f);
    ASSERT_NEAR(ry[i], e, 1e-5f * (1 + std::fabs(e))) << i;
    ASSERT_EQ(rm[i], mix(static_cast<int>(i), static_cast<int>(n))) << i;
  }
}

TEST(Kernels, ReadsConstantTables) {
  // Indices come from device memory, so the tables cannot be folded away at compile
  // time: the kernel reads the tables themselves on the device.
  const std::size_t n = 1009;
  std::vector<int> idx(n);
  rng r(8);
  for (auto &v : idx)
    v = static_cast<int>(r.next() % 1000);
  gpu::vector<int> didx = gpu::copy(idx);
  gpu::vector<float> out_t(n);
  gpu::vector<int> out_p(n);
  gpu::vector<double> out_w(n);
  auto k = pacxx::kernel(
      [](const int *idx, float *out_t, int *out_p, double *out_w, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n) {
          const int j = idx[i];
          out_t[i] = table[j % 8] * static_cast<float>(j);
          out_p[i] = primes[j % 10] * primes[(j / 10) % 10];
          out_w[i] = weights_table[j % 5] + weights_table[(j + 1) % 5];
        }
      },
      cover(n));
  k(didx.data(), out_t.data(), out_p.data(), out_w.data(), n);
  std::vector<float> rt = gpu::copy(out_t);
  std::vector<int> rp = gpu::copy(out_p);
  std::vector<double> rw = gpu::copy(out_w);
  for (std::size_t i = 0; i < n; ++i) {
    const int j = idx[i];
    ASSERT_EQ(rt[i], table[j % 8] * static_cast<float>(j)) << i;
    ASSERT_EQ(rp[i], primes[j % 10] * primes[(j / 10) % 10]) << i;
    ASSERT_EQ(rw[i], weights_table[j % 5] + weights_table[(j + 1) % 5]) << i;
  }
}

TEST(Kernels, NestedLambdaAndLoopInKernel) {
  // A lambda defined and called inside the kernel, with a loop of run-time length.
  const std::size_t n = 1009;
  std::vector<int> h(n);
  for (std::size_t i = 0; i < n; ++i)
    h[i] = static_cast<int>(i % 50);
  gpu::vector<int> d = gpu::copy(h), out(n);
  auto k = pacxx::kernel(
      [](const int *in, int *out, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i >= n)
          return;
        auto collatz_steps = [](int v) {
          int steps = 0;
          while (v > 1) {
            v = (v % 2) ? 3 * v + 1 : v / 2;
            ++steps;
          }
          return steps;
        };
        out[i] = collatz_steps(in[i] + 1);
      },
      cover(n));
  k(d.data(), out.data(), n);
  std::vector<int> r = gpu::copy(out);
  for (std::size_t i = 0; i < n; ++i) {
    int v = h[i] + 1, steps = 0;
    while (v > 1) {
      v = (v % 2) ? 3 * v + 1 : v / 2;
      ++steps;
    }
    ASSERT_EQ(r[i], steps) << i;
  }
}

} // namespace

// End-to-end: <cmath> inside kernels. Each function is called as std::name(...) in a
// kernel, in float and in double, on inputs inside its domain, and compared with the
// host's libm: approximate functions within an ulp bound (the OpenCL full-profile
// bounds, which also cover CUDA's libdevice), the exactly rounded ones (fabs, floor,
// fmod, fma, ...) bit for bit. One kernel per type switches on a function index
// passed as an argument, so the whole test costs two JIT compilations.
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// F1/F2/F3: functions of one, two, three floating-point arguments.
#define PACXX_MATH_FUNCTIONS(F1, F2, F3)                                                    \
  F1(sin) F1(cos) F1(tan) F1(asin) F1(acos) F1(atan) F1(sinh) F1(cosh) F1(tanh) F1(asinh) \
  F1(acosh) F1(atanh) F1(exp) F1(exp2) F1(expm1) F1(log) F1(log2) F1(log10) F1(log1p)     \
  F1(sqrt) F1(cbrt) F1(fabs) F1(floor) F1(ceil) F1(round) F1(trunc) F1(rint)              \
  F1(nearbyint) F1(erf) F1(erfc) F1(tgamma) F1(lgamma) F2(atan2) F2(pow) F2(hypot)        \
  F2(fmod) F2(fmin) F2(fmax) F2(copysign) F2(remainder) F2(fdim) F3(fma)

#define PACXX_ENUM(name) fn_##name,
enum function : int { PACXX_MATH_FUNCTIONS(PACXX_ENUM, PACXX_ENUM, PACXX_ENUM) fn_count };
#undef PACXX_ENUM

#define PACXX_NAME(name) #name,
const char *const function_names[] = {PACXX_MATH_FUNCTIONS(PACXX_NAME, PACXX_NAME, PACXX_NAME)};
#undef PACXX_NAME

#define PACXX_ARITY1(name) 1,
#define PACXX_ARITY2(name) 2,
#define PACXX_ARITY3(name) 3,
const int function_arity[] = {PACXX_MATH_FUNCTIONS(PACXX_ARITY1, PACXX_ARITY2, PACXX_ARITY3)};

// The device side: out[i] = f(a[i], b[i], c[i]) for the function `fn`.
template <class T> void device_math(int fn, const gpu::vector<T> &a, const gpu::vector<T> &b,
                                    const gpu::vector<T> &c, gpu::vector<T> &out) {
  const std::size_t n = a.size();
  auto k = pacxx::kernel(
      [](int fn, const T *a, const T *b, const T *c, T *out, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i >= n)
          return;
        const T x = a[i], y = b[i], z = c[i];
        T r = T(0);
        switch (fn) {
#define PACXX_CASE1(name)                                                                  \
  case fn_##name:                                                                          \
    r = std::name(x);                                                                      \
    break;
#define PACXX_CASE2(name)                                                                  \
  case fn_##name:                                                                          \
    r = std::name(x, y);                                                                   \
    break;
#define PACXX_CASE3(name)                                                                  \
  case fn_##name:                                                                          \
    r = std::name(x, y, z);                                                                \
    break;
          PACXX_MATH_FUNCTIONS(PACXX_CASE1, PACXX_CASE2, PACXX_CASE3)
#undef PACXX_CASE1
#undef PACXX_CASE2
#undef PACXX_CASE3
        default:
          r = std::numeric_limits<T>::quiet_NaN();
        }
        out[i] = r;
      },
      {{(n + 127) / 128}, {128}});
  k(fn, a.data(), b.data(), c.data(), out.data(), n);
}

// Functions whose IEEE/C result is exactly rounded (or exact): the reference is the
// host function of the same precision, and the device must match it bit for bit.
bool is_exact(int fn) {
  switch (fn) {
  case fn_fabs: case fn_floor: case fn_ceil: case fn_round: case fn_trunc: case fn_rint:
  case fn_nearbyint: case fn_fmod: case fn_fmin: case fn_fmax: case fn_copysign:
  case fn_remainder: case fn_fdim: case fn_fma:
    return true;
  default:
    return false;
  }
}

// The host reference in precision W (double for float, long double for double; the
// same type for the exact functions), rounded to T.
template <class T, class W> T host_math(int fn, T x, T y, T z) {
  const W wx = static_cast<W>(x), wy = static_cast<W>(y), wz = static_cast<W>(z);
  (void)wy;
  (void)wz;
  switch (fn) {
#define PACXX_REF1(name)                                                                   \
  case fn_##name:                                                                          \
    return static_cast<T>(std::name(wx));
#define PACXX_REF2(name)                                                                   \
  case fn_##name:                                                                          \
    return static_cast<T>(std::name(wx, wy));
#define PACXX_REF3(name)                                                                   \
  case fn_##name:                                                                          \
    return static_cast<T>(std::name(wx, wy, wz));
    PACXX_MATH_FUNCTIONS(PACXX_REF1, PACXX_REF2, PACXX_REF3)
#undef PACXX_REF1
#undef PACXX_REF2
#undef PACXX_REF3
  }
  return std::numeric_limits<T>::quiet_NaN();
}

template <class T> T reference(int fn, T x, T y, T z) {
  using wide = typename std::conditional<std::is_same<T, float>::value, double, long double>::type;
  // sqrt is correctly rounded on the host: computing it in long double and rounding
  // again to double could be 1 ulp off (double rounding).
  const bool same_precision = is_exact(fn) || fn == fn_sqrt;
  return same_precision ? host_math<T, T>(fn, x, y, z) : host_math<T, wide>(fn, x, y, z);
}

// Allowed error in ulps of the result: OpenCL 3.0's full-profile bounds (single,
// double), which CUDA's libdevice meets too (its tgamma in double: 10 ulps).
int ulp_bound(int fn, bool is_float) {
  switch (fn) {
  case fn_sin: case fn_cos: case fn_asin: case fn_acos: case fn_sinh: case fn_cosh:
  case fn_asinh: case fn_acosh: case fn_hypot:
    return 4;
  case fn_tan: case fn_atan: case fn_tanh: case fn_atanh:
    return 5;
  case fn_atan2:
    return 6;
  case fn_exp: case fn_exp2: case fn_expm1: case fn_log: case fn_log2: case fn_log10:
    return 3;
  case fn_log1p: case fn_cbrt:
    return 2;
  case fn_sqrt:
    return 0; // correctly rounded on both targets, as nvcc does by default
  case fn_erf: case fn_erfc: case fn_tgamma: case fn_lgamma: case fn_pow:
    return 16;
  default:
    return 0; // the exact ones
  }
}

using pacxx_test::rng;

struct args {
  double x, y, z;
};

// Inputs inside each function's domain, away from poles and from the zeros where a
// relative error bound means nothing; some special points (halves for the rounding
// functions, integers, equal arguments).
args input(int fn, std::size_t i, rng &r) {
  const double u = r.uniform(-1, 1), v = r.uniform(-1, 1), w = r.uniform(-1, 1);
  switch (fn) {
  case fn_sin: case fn_cos: case fn_tan:
    return {10 * u, 0, 0};
  case fn_asin: case fn_acos:
    return {u, 0, 0};
  case fn_atan: case fn_asinh:
    return {100 * u * std::fabs(u), 0, 0};
  case fn_sinh: case fn_cosh:
    return {10 * u, 0, 0};
  case fn_tanh: case fn_expm1:
    return {5 * u, 0, 0};
  case fn_acosh:
    return {1 + 99 * (u + 1) * (u + 1) / 4, 0, 0};
  case fn_atanh:
    return {0.99 * u, 0, 0};
  case fn_exp:
    return {20 * u, 0, 0};
  case fn_exp2:
    return {30 * u, 0, 0};
  case fn_log: case fn_log2: case fn_log10:
    return {std::pow(10.0, 3 * u), 0, 0}; // 0.001 .. 1000
  case fn_log1p:
    return {i % 2 ? 0.9 * u : 100 * (u + 1), 0, 0};
  case fn_sqrt:
    return {1e4 * (u + 1), 0, 0};
  case fn_cbrt: case fn_fabs:
    return {1000 * u, 0, 0};
  case fn_floor: case fn_ceil: case fn_round: case fn_trunc: case fn_rint: case fn_nearbyint:
    // every third input an exact half (2.5, -3.5: where round and rint differ)
    return {i % 3 == 0 ? std::floor(200 * u) + 0.5 : 100 * u, 0, 0};
  case fn_erf:
    return {3 * u, 0, 0};
  case fn_erfc:
    return {-2 + 3 * (u + 1), 0, 0}; // -2 .. 4
  case fn_tgamma:
    return {0.1 + 4.95 * (u + 1), 0, 0}; // 0.1 .. 10
  case fn_lgamma:
    return {i % 2 ? 0.05 + 0.425 * (u + 1) : 3 + 13.5 * (u + 1), 0, 0}; // .05...9, 3..30
  case fn_atan2:
    return {10 * u, 10 * v, 0};
  case fn_pow:
    if (i % 4 == 0) // negative bases with integral exponents
      return {-(0.25 + 3.75 * (u + 1) / 2), std::floor(6 * v), 0};
    return {0.1 + 4.95 * (u + 1), 8 * v, 0};
  case fn_hypot:
    return {100 * u, 100 * v, 0};
  case fn_fmod: case fn_remainder:
    return {1000 * u, r.sign() * (0.3 + 10 * (v + 1)), 0};
  case fn_fmin: case fn_fmax: case fn_fdim:
    return {100 * u, i % 5 == 0 ? 100 * u : 100 * v, 0}; // sometimes equal
  case fn_copysign:
    return {100 * u, v, 0};
  case fn_fma:
    return {10 * u, 10 * v, 10 * w};
  }
  return {0, 0, 0};
}

template <class T> std::int64_t ordered_bits(T v) {
  typedef typename std::conditional<sizeof(T) == 4, std::int32_t, std::int64_t>::type I;
  I i;
  std::memcpy(&i, &v, sizeof v);
  // Map the sign-magnitude encoding onto a line where adjacent floats differ by 1.
  return i < 0 ? static_cast<std::int64_t>(std::numeric_limits<I>::min()) - i : i;
}

template <class T> std::uint64_t ulp_distance(T a, T b) {
  if (std::isnan(a) && std::isnan(b))
    return 0;
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<std::uint64_t>::max();
  const std::int64_t d = ordered_bits(a) - ordered_bits(b);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

const std::size_t n = 1009;

template <class T> void check_function(int fn) {
  const bool is_float = std::is_same<T, float>::value;
  rng r(1234 + static_cast<std::uint64_t>(fn));
  std::vector<T> a(n), b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) {
    const args in = input(fn, i, r);
    a[i] = static_cast<T>(in.x);
    b[i] = static_cast<T>(in.y);
    c[i] = static_cast<T>(in.z);
  }
  gpu::vector<T> da = gpu::copy(a), db = gpu::copy(b), dc = gpu::copy(c), out(n);
  device_math<T>(fn, da, db, dc, out);
  std::vector<T> got = gpu::copy(out);
  const std::uint64_t bound = static_cast<std::uint64_t>(ulp_bound(fn, is_float));
  std::uint64_t worst = 0;
  std::size_t failures = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const T expected = reference<T>(fn, a[i], b[i], c[i]);
    ASSERT_TRUE(std::isfinite(expected)) << "test input outside the domain: "
                                         << function_names[fn] << "(" << a[i] << ", " << b[i]
                                         << ", " << c[i] << ")";
    const std::uint64_t d = ulp_distance(got[i], expected);
    worst = d > worst ? d : worst;
    if (d > bound && ++failures <= 5)
      ADD_FAILURE() << std::setprecision(std::numeric_limits<T>::max_digits10)
                    << function_names[fn] << "(" << a[i] << ", " << b[i] << ", " << c[i]
                    << "): device " << got[i] << ", host " << expected << " (" << d
                    << " ulps, allowed " << bound << ")";
  }
  EXPECT_EQ(failures, 0u) << function_names[fn] << ": worst error " << worst << " ulps";
  testing::Test::RecordProperty(std::string(function_names[fn]) + (is_float ? "_float" : "_double") + "_ulps",
                 std::to_string(worst));
}

class MathFunction : public testing::TestWithParam<int> {};

TEST_P(MathFunction, Float) { check_function<float>(GetParam()); }
TEST_P(MathFunction, Double) { check_function<double>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cmath, MathFunction, testing::Range(0, static_cast<int>(fn_count)),
                         [](const testing::TestParamInfo<int> &info) {
                           return std::string(function_names[info.param]);
                         });

TEST(MathKernel, CompiledOncePerType) {
  // All functions go through the same two kernels (float, double): launching every
  // function again compiles nothing.
  const pacxx::runtime_stats before = pacxx::stats();
  for (int fn = 0; fn < fn_count; ++fn) {
    check_function<float>(fn);
    check_function<double>(fn);
  }
  const pacxx::runtime_stats after = pacxx::stats();
  EXPECT_LE(after.jit_compilations - before.jit_compilations, 2u);
  EXPECT_EQ(after.kernel_launches - before.kernel_launches, 2u * fn_count);
}

TEST(MathKernel, SpecialValues) {
  // IEEE special cases the C library defines exactly.
  const float inf = std::numeric_limits<float>::infinity();
  struct cas {
    int fn;
    float x, y;
  };
  const cas cases[] = {
      {fn_sqrt, 0.0f, 0},       {fn_sqrt, -0.0f, 0},     {fn_exp, -inf, 0},
      {fn_exp, inf, 0},         {fn_log, 0.0f, 0},       {fn_log, 1.0f, 0},
      {fn_fabs, -inf, 0},       {fn_floor, -0.5f, 0},    {fn_ceil, -0.5f, 0},
      {fn_round, -2.5f, 0},     {fn_rint, -2.5f, 0},     {fn_nearbyint, 3.5f, 0},
      {fn_trunc, -7.99f, 0},    {fn_atan, inf, 0},       {fn_tanh, -inf, 0},
      {fn_erf, inf, 0},         {fn_erfc, -inf, 0},      {fn_copysign, 3.0f, -0.0f},
      {fn_fmin, 1.0f, -1.0f},   {fn_fmax, 1.0f, -1.0f},  {fn_atan2, 0.0f, -1.0f},
      {fn_pow, 2.0f, 10.0f},    {fn_pow, -2.0f, 3.0f},   {fn_hypot, 3.0f, 4.0f},
      {fn_fdim, 1.0f, 5.0f},    {fn_fmod, 7.0f, 2.0f},   {fn_remainder, 7.0f, 2.0f},
      {fn_cbrt, -27.0f, 0},     {fn_exp2, 10.0f, 0},     {fn_log2, 1024.0f, 0},
      {fn_log10, 1000.0f, 0},   {fn_tgamma, 5.0f, 0},    {fn_lgamma, 1.0f, 0},
  };
  for (const cas &t : cases) {
    std::vector<float> a(1, t.x), b(1, t.y), c(1, 0.0f);
    gpu::vector<float> da = gpu::copy(a), db = gpu::copy(b), dc = gpu::copy(c), out(1);
    device_math<float>(t.fn, da, db, dc, out);
    const float got = gpu::copy(out)[0];
    const float expected = host_math<float, float>(t.fn, t.x, t.y, 0.0f);
    // Exact values here; allow the ulp bound only for results that are not.
    EXPECT_LE(ulp_distance(got, expected), static_cast<std::uint64_t>(ulp_bound(t.fn, true)))
        << function_names[t.fn] << "(" << t.x << ", " << t.y << "): device " << got << ", host "
        << expected;
    EXPECT_EQ(std::signbit(got), std::signbit(expected))
        << function_names[t.fn] << "(" << t.x << ", " << t.y << ") has the wrong sign";
  }
}

} // namespace

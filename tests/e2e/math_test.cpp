// End-to-end: what the JIT provides from <cmath> and <cstdlib> (abi::lib_functions),
// from one table, PACXX_MATH_FUNCTIONS. Each function is called as std::name(...) in a
// kernel, in float and in double, on inputs inside its domain, and compared with the
// host's libm: approximate functions within an ulp bound (the OpenCL full-profile
// bounds, which also cover CUDA's libdevice), the exactly rounded or exact ones (fabs,
// floor, fmod, fma, ldexp, frexp, lround, ...) bit for bit, integer results exactly.
// The integer functions (abs, div, ... and their std:: overloads) run on long long
// inputs in range of their type. One kernel per type switches on a function index
// passed as an argument, so the whole test costs three JIT compilations.
// std::complex<float> and <double> (C99 complex arithmetic and <complex.h>, which the
// JIT's device library provides) have a table of their own at the end: random inputs
// against the host in wider precision, and Annex G's infinities and NaNs against the
// host's results in the same precision.
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// The table. F1/F2/F3: T(T), T(T, T), T(T, T, T). FI: T(T, int) and FL: T(T, long),
// the integer being y. FE: T(T, int *) (frexp), FM: T(T, T *) (modf), FR: T(T, T, int *)
// (remquo): the second result in r2 or ir. IF: an integer of T (ilogb, lround, the
// classification macros, which clang expands inline). IA(label, function, type):
// integer absolute value of a in `type`; ID(label, function, type): a division
// returning quot and rem. abs(INT_MIN) is left out: it is undefined on the host.
// clang-format re-wraps this list differently on every run.
// clang-format off
#define PACXX_MATH_FUNCTIONS(F1, F2, F3, FI, FL, FE, FM, FR, IF, IA, ID)                    \
  F1(sin) F1(cos) F1(tan) F1(asin) F1(acos) F1(atan) F1(sinh) F1(cosh) F1(tanh) F1(asinh) \
  F1(acosh) F1(atanh) F1(exp) F1(exp2) F1(expm1) F1(log) F1(log2) F1(log10) F1(log1p)     \
  F1(sqrt) F1(cbrt) F1(fabs) F1(floor) F1(ceil) F1(round) F1(trunc) F1(rint)              \
  F1(nearbyint) F1(erf) F1(erfc) F1(tgamma) F1(lgamma) F1(logb) F2(atan2) F2(pow)         \
  F2(hypot) F2(fmod) F2(fmin) F2(fmax) F2(copysign) F2(remainder) F2(fdim) F2(nextafter)  \
  F3(fma) FI(ldexp) FI(scalbn) FL(scalbln) FE(frexp) FM(modf) FR(remquo) IF(ilogb)        \
  IF(lround) IF(llround) IF(lrint) IF(llrint) IF(isnan) IF(isinf) IF(isfinite)            \
  IF(isnormal) IF(signbit) IF(fpclassify)                                                 \
  IA(abs, std::abs, int) IA(c_abs, ::abs, int) IA(abs_long, std::abs, long)               \
  IA(abs_llong, std::abs, long long) IA(labs, std::labs, long)                            \
  IA(llabs, std::llabs, long long) ID(div, std::div, int) ID(c_div, ::div, int)           \
  ID(div_long, std::div, long) ID(ldiv, std::ldiv, long) ID(lldiv, std::lldiv, long long) \
  ID(div_llong, std::div, long long)
// clang-format on

#define PACXX_NONE(...)
#define PACXX_ENUM(name, ...) fn_##name,
enum function : int {
  PACXX_MATH_FUNCTIONS(PACXX_ENUM, PACXX_ENUM, PACXX_ENUM, PACXX_ENUM, PACXX_ENUM, PACXX_ENUM,
                       PACXX_ENUM, PACXX_ENUM, PACXX_ENUM, PACXX_ENUM, PACXX_ENUM) fn_count
};
#undef PACXX_ENUM

#define PACXX_NAME(name, ...) #name,
const char *const function_names[] = {
    PACXX_MATH_FUNCTIONS(PACXX_NAME, PACXX_NAME, PACXX_NAME, PACXX_NAME, PACXX_NAME, PACXX_NAME,
                         PACXX_NAME, PACXX_NAME, PACXX_NAME, PACXX_NAME, PACXX_NAME)};
#undef PACXX_NAME

#define PACXX_YES(...) true,
#define PACXX_NO(...) false,
// Functions of integers (run by device_integer) rather than of T.
const bool is_integer_function[] = {PACXX_MATH_FUNCTIONS(PACXX_NO, PACXX_NO, PACXX_NO, PACXX_NO,
                                                         PACXX_NO, PACXX_NO, PACXX_NO, PACXX_NO,
                                                         PACXX_NO, PACXX_YES, PACXX_YES)};
#undef PACXX_YES
#undef PACXX_NO

// What one call produces: the result r, a second floating-point result r2 (modf's
// integral part), an integer result or second result ir (frexp's exponent, remquo's
// quotient bits, ilogb, div's rem); quot of a division in ir2.
template <class T> struct results {
  T r, r2;
  long long ir, ir2;
};

// One call of the function `fn` on (x, y, z); the same code on the device and the host.
template <class T> results<T> call_math(int fn, T x, T y, T z) {
  results<T> o{T(0), T(0), 0, 0};
  (void)y;
  (void)z;
  switch (fn) {
#define PACXX_CASE1(name)                                                                          \
  case fn_##name:                                                                                  \
    o.r = std::name(x);                                                                            \
    break;
#define PACXX_CASE2(name)                                                                          \
  case fn_##name:                                                                                  \
    o.r = std::name(x, y);                                                                         \
    break;
#define PACXX_CASE3(name)                                                                          \
  case fn_##name:                                                                                  \
    o.r = std::name(x, y, z);                                                                      \
    break;
#define PACXX_CASEI(name)                                                                          \
  case fn_##name:                                                                                  \
    o.r = std::name(x, static_cast<int>(y));                                                       \
    break;
#define PACXX_CASEL(name)                                                                          \
  case fn_##name:                                                                                  \
    o.r = std::name(x, static_cast<long>(y));                                                      \
    break;
#define PACXX_CASEE(name)                                                                          \
  case fn_##name: {                                                                                \
    int e = 0;                                                                                     \
    o.r = std::name(x, &e);                                                                        \
    o.ir = e;                                                                                      \
    break;                                                                                         \
  }
#define PACXX_CASEM(name)                                                                          \
  case fn_##name: {                                                                                \
    T integral = T(0);                                                                             \
    o.r = std::name(x, &integral);                                                                 \
    o.r2 = integral;                                                                               \
    break;                                                                                         \
  }
#define PACXX_CASER(name)                                                                          \
  case fn_##name: {                                                                                \
    int q = 0;                                                                                     \
    o.r = std::name(x, y, &q);                                                                     \
    o.ir = q % 8; /* C promises the sign and the low 3 bits of the quotient */                     \
    break;                                                                                         \
  }
#define PACXX_CASEF(name)                                                                          \
  case fn_##name:                                                                                  \
    o.ir = static_cast<long long>(std::name(x));                                                   \
    break;
    PACXX_MATH_FUNCTIONS(PACXX_CASE1, PACXX_CASE2, PACXX_CASE3, PACXX_CASEI, PACXX_CASEL,
                         PACXX_CASEE, PACXX_CASEM, PACXX_CASER, PACXX_CASEF, PACXX_NONE, PACXX_NONE)
  default:
    o.r = std::numeric_limits<T>::quiet_NaN();
  }
  return o;
}

// The integer functions on a and b converted to their type.
inline results<double> call_integer(int fn, long long a, long long b) {
  results<double> o{0, 0, 0, 0};
  (void)b;
  switch (fn) {
#define PACXX_CASEA(label, function, type)                                                         \
  case fn_##label:                                                                                 \
    o.ir = function(static_cast<type>(a));                                                         \
    break;
#define PACXX_CASED(label, function, type)                                                         \
  case fn_##label: {                                                                               \
    const auto d = function(static_cast<type>(a), static_cast<type>(b));                           \
    o.ir = d.rem;                                                                                  \
    o.ir2 = d.quot;                                                                                \
    break;                                                                                         \
  }
    PACXX_MATH_FUNCTIONS(PACXX_NONE, PACXX_NONE, PACXX_NONE, PACXX_NONE, PACXX_NONE, PACXX_NONE,
                         PACXX_NONE, PACXX_NONE, PACXX_NONE, PACXX_CASEA, PACXX_CASED)
  default:
    o.ir = -1;
  }
  return o;
}

// The device side: out[i] = f(a[i], b[i], c[i]) for the function `fn`.
template <class T>
void device_math(int fn, const gpu::vector<T> &a, const gpu::vector<T> &b, const gpu::vector<T> &c,
                 gpu::vector<results<T>> &out) {
  const std::size_t n = a.size();
  auto k = pacxx::kernel(
      [](int fn, const T *a, const T *b, const T *c, results<T> *out, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          out[i] = call_math<T>(fn, a[i], b[i], c[i]);
      },
      {{(n + 127) / 128}, {128}});
  k(fn, a.data(), b.data(), c.data(), out.data(), n);
}

void device_integer(int fn, const gpu::vector<long long> &a, const gpu::vector<long long> &b,
                    gpu::vector<results<double>> &out) {
  const std::size_t n = a.size();
  auto k = pacxx::kernel(
      [](int fn, const long long *a, const long long *b, results<double> *out, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          out[i] = call_integer(fn, a[i], b[i]);
      },
      {{(n + 127) / 128}, {128}});
  k(fn, a.data(), b.data(), out.data(), n);
}

// Allowed error in ulps of the result: OpenCL 3.0's full-profile bounds (single,
// double: the same), which CUDA's libdevice meets too (its tgamma in double: 10 ulps).
int ulp_bound(int fn) {
  switch (fn) {
  case fn_sin:
  case fn_cos:
  case fn_asin:
  case fn_acos:
  case fn_sinh:
  case fn_cosh:
  case fn_asinh:
  case fn_acosh:
  case fn_hypot:
    return 4;
  case fn_tan:
  case fn_atan:
  case fn_tanh:
  case fn_atanh:
    return 5;
  case fn_atan2:
    return 6;
  case fn_exp:
  case fn_exp2:
  case fn_expm1:
  case fn_log:
  case fn_log2:
  case fn_log10:
    return 3;
  case fn_log1p:
  case fn_cbrt:
    return 2;
  case fn_sqrt:
    return 0; // correctly rounded on both targets, as nvcc does by default
  case fn_erf:
  case fn_erfc:
  case fn_tgamma:
  case fn_lgamma:
  case fn_pow:
    return 16;
  default:
    return 0; // the exact ones
  }
}

// The host's result: in the same precision for the exact functions (and sqrt, which
// the host rounds correctly: computing it in long double and rounding again to double
// could be 1 ulp off), else in precision W (double for float, long double for double)
// rounded to T.
template <class T> results<T> reference(int fn, T x, T y, T z) {
  using wide = typename std::conditional<std::is_same<T, float>::value, double, long double>::type;
  if (ulp_bound(fn) == 0)
    return call_math<T>(fn, x, y, z);
  const results<wide> w = call_math<wide>(fn, x, y, z);
  return {static_cast<T>(w.r), static_cast<T>(w.r2), w.ir, w.ir2};
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
  case fn_sin:
  case fn_cos:
  case fn_tan:
    return {10 * u, 0, 0};
  case fn_asin:
  case fn_acos:
    return {u, 0, 0};
  case fn_atan:
  case fn_asinh:
    return {100 * u * std::fabs(u), 0, 0};
  case fn_sinh:
  case fn_cosh:
    return {10 * u, 0, 0};
  case fn_tanh:
  case fn_expm1:
    return {5 * u, 0, 0};
  case fn_acosh:
    return {1 + 99 * (u + 1) * (u + 1) / 4, 0, 0};
  case fn_atanh:
    return {0.99 * u, 0, 0};
  case fn_exp:
    return {20 * u, 0, 0};
  case fn_exp2:
    return {30 * u, 0, 0};
  case fn_log:
  case fn_log2:
  case fn_log10:
    return {std::pow(10.0, 3 * u), 0, 0}; // 0.001 .. 1000
  case fn_log1p:
    return {i % 2 ? 0.9 * u : 100 * (u + 1), 0, 0};
  case fn_sqrt:
    return {1e4 * (u + 1), 0, 0};
  case fn_cbrt:
  case fn_fabs:
    return {1000 * u, 0, 0};
  case fn_floor:
  case fn_ceil:
  case fn_round:
  case fn_trunc:
  case fn_rint:
  case fn_nearbyint:
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
  case fn_fmod:
  case fn_remainder:
    return {1000 * u, r.sign() * (0.3 + 10 * (v + 1)), 0};
  case fn_fmin:
  case fn_fmax:
  case fn_fdim:
    return {100 * u, i % 5 == 0 ? 100 * u : 100 * v, 0}; // sometimes equal
  case fn_copysign:
    return {100 * u, v, 0};
  case fn_fma:
    return {10 * u, 10 * v, 10 * w};
  case fn_logb:
  case fn_ilogb:
    return {r.sign() * std::pow(10.0, 30 * u), 0, 0}; // 1e-30 .. 1e30, float subnormals too
  case fn_nextafter:
    return {100 * u, i % 5 == 0 ? 100 * u : 100 * v, 0};
  case fn_ldexp:
  case fn_scalbn:
    // results from float subnormals (2^-140) to near float's largest (100 * 2^100)
    return {100 * u, std::floor(-140 + 120 * (v + 1)), 0};
  case fn_scalbln:
    // and exponents far beyond int: every tenth one overflows or underflows to +-inf or 0
    return {100 * u, i % 10 == 0 ? r.sign() * 1099511627776.0 : std::floor(-140 + 120 * (v + 1)),
            0};
  case fn_frexp:
    return {i % 7 == 0 ? 0.0 : r.sign() * std::pow(10.0, 30 * u), 0, 0};
  case fn_modf:
    return {i % 5 == 0 ? std::floor(100 * u) : 1000 * u, 0, 0};
  case fn_remquo:
    return {1000 * u, r.sign() * (0.3 + 10 * (v + 1)), 0};
  case fn_lround:
  case fn_llround:
  case fn_lrint:
  case fn_llrint:
    return {i % 3 == 0 ? std::floor(200 * u) + 0.5 : 1e6 * u, 0, 0};
  case fn_isnan:
  case fn_isinf:
  case fn_isfinite:
  case fn_isnormal:
  case fn_signbit:
  case fn_fpclassify: {
    // NaN, infinities, zeros, a float subnormal and normal numbers of either sign
    const double special[] = {std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity(),
                              0.0,
                              -0.0,
                              1e-40,
                              -1e-40};
    return {i % 9 < 7 ? special[i % 9] : 100 * u, 0, 0};
  }
  default: // the integer functions have their own inputs
    break;
  }
  return {0, 0, 0};
}

// Inputs of the integer functions: anything in range of the type but its minimum
// (abs(INT_MIN) and INT_MIN / -1 are undefined); a nonzero divisor.
void integer_input(int fn, rng &r, long long &a, long long &b) {
  const bool is_int = fn == fn_abs || fn == fn_c_abs || fn == fn_div || fn == fn_c_div;
  const long long max = is_int ? 2147483647LL : 9223372036854775807LL;
  // small values as often as large ones: division by small divisors is the common case
  const long long scale = r.next() % 2 ? max : 1000;
  a = r.integer(-scale, scale);
  do
    b = r.integer(-scale, scale);
  while (b == 0);
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
  gpu::vector<T> da = gpu::copy(a), db = gpu::copy(b), dc = gpu::copy(c);
  gpu::vector<results<T>> out(n);
  device_math<T>(fn, da, db, dc, out);
  std::vector<results<T>> got = gpu::copy(out);
  const std::uint64_t bound = static_cast<std::uint64_t>(ulp_bound(fn));
  std::uint64_t worst = 0;
  std::size_t failures = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const results<T> expected = reference<T>(fn, a[i], b[i], c[i]);
    // A bound in ulps means nothing for infinite results; exact ones may be infinite.
    ASSERT_TRUE(bound == 0 || std::isfinite(expected.r))
        << "test input outside the domain: " << function_names[fn] << "(" << a[i] << ", " << b[i]
        << ", " << c[i] << ")";
    const std::uint64_t d = ulp_distance(got[i].r, expected.r);
    worst = d > worst ? d : worst;
    const bool second_ok = ulp_distance(got[i].r2, expected.r2) == 0 && got[i].ir == expected.ir &&
                           got[i].ir2 == expected.ir2;
    if ((d > bound || !second_ok) && ++failures <= 5)
      ADD_FAILURE() << std::setprecision(std::numeric_limits<T>::max_digits10) << function_names[fn]
                    << "(" << a[i] << ", " << b[i] << ", " << c[i] << "): device " << got[i].r
                    << " " << got[i].r2 << " " << got[i].ir << ", host " << expected.r << " "
                    << expected.r2 << " " << expected.ir << " (" << d << " ulps, allowed " << bound
                    << ")";
  }
  EXPECT_EQ(failures, 0u) << function_names[fn] << ": worst error " << worst << " ulps";
  testing::Test::RecordProperty(std::string(function_names[fn]) +
                                    (is_float ? "_float" : "_double") + "_ulps",
                                std::to_string(worst));
}

void check_integer_function(int fn) {
  rng r(4321 + static_cast<std::uint64_t>(fn));
  std::vector<long long> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i)
    integer_input(fn, r, a[i], b[i]);
  gpu::vector<long long> da = gpu::copy(a), db = gpu::copy(b);
  gpu::vector<results<double>> out(n);
  device_integer(fn, da, db, out);
  std::vector<results<double>> got = gpu::copy(out);
  std::size_t failures = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const results<double> expected = call_integer(fn, a[i], b[i]);
    if ((got[i].ir != expected.ir || got[i].ir2 != expected.ir2) && ++failures <= 5)
      ADD_FAILURE() << function_names[fn] << "(" << a[i] << ", " << b[i] << "): device "
                    << got[i].ir << " " << got[i].ir2 << ", host " << expected.ir << " "
                    << expected.ir2;
  }
  EXPECT_EQ(failures, 0u) << function_names[fn];
}

// The table's functions of T (integer = false) or of integers.
std::vector<int> functions(bool integer) {
  std::vector<int> out;
  for (int fn = 0; fn < fn_count; ++fn)
    if (is_integer_function[fn] == integer)
      out.push_back(fn);
  return out;
}

std::string function_name(const testing::TestParamInfo<int> &info) {
  return function_names[info.param];
}

class MathFunction : public testing::TestWithParam<int> {};
TEST_P(MathFunction, Float) { check_function<float>(GetParam()); }
TEST_P(MathFunction, Double) { check_function<double>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cmath, MathFunction, testing::ValuesIn(functions(false)), function_name);

class IntegerFunction : public testing::TestWithParam<int> {};
TEST_P(IntegerFunction, Exact) { check_integer_function(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cstdlib, IntegerFunction, testing::ValuesIn(functions(true)),
                         function_name);

TEST(MathKernel, CompiledOncePerType) {
  // All functions go through the same three kernels (float, double, integers):
  // launching every function again compiles nothing.
  const pacxx::runtime_stats before = pacxx::stats();
  std::size_t launches = 0;
  for (int fn = 0; fn < fn_count; ++fn) {
    if (is_integer_function[fn]) {
      check_integer_function(fn);
      launches += 1;
    } else {
      check_function<float>(fn);
      check_function<double>(fn);
      launches += 2;
    }
  }
  const pacxx::runtime_stats after = pacxx::stats();
  EXPECT_LE(after.jit_compilations - before.jit_compilations, 3u);
  EXPECT_EQ(after.kernel_launches - before.kernel_launches, launches);
}

TEST(MathKernel, SpecialValues) {
  // IEEE special cases the C library defines exactly.
  const float inf = std::numeric_limits<float>::infinity();
  struct cas {
    int fn;
    float x, y;
  };
  const cas cases[] = {
      {fn_sqrt, 0.0f, 0},          {fn_sqrt, -0.0f, 0},
      {fn_exp, -inf, 0},           {fn_exp, inf, 0},
      {fn_log, 0.0f, 0},           {fn_log, 1.0f, 0},
      {fn_fabs, -inf, 0},          {fn_floor, -0.5f, 0},
      {fn_ceil, -0.5f, 0},         {fn_round, -2.5f, 0},
      {fn_rint, -2.5f, 0},         {fn_nearbyint, 3.5f, 0},
      {fn_trunc, -7.99f, 0},       {fn_atan, inf, 0},
      {fn_tanh, -inf, 0},          {fn_erf, inf, 0},
      {fn_erfc, -inf, 0},          {fn_copysign, 3.0f, -0.0f},
      {fn_fmin, 1.0f, -1.0f},      {fn_fmax, 1.0f, -1.0f},
      {fn_atan2, 0.0f, -1.0f},     {fn_pow, 2.0f, 10.0f},
      {fn_pow, -2.0f, 3.0f},       {fn_hypot, 3.0f, 4.0f},
      {fn_fdim, 1.0f, 5.0f},       {fn_fmod, 7.0f, 2.0f},
      {fn_remainder, 7.0f, 2.0f},  {fn_cbrt, -27.0f, 0},
      {fn_exp2, 10.0f, 0},         {fn_log2, 1024.0f, 0},
      {fn_log10, 1000.0f, 0},      {fn_tgamma, 5.0f, 0},
      {fn_lgamma, 1.0f, 0},        {fn_frexp, 0.0f, 0},
      {fn_frexp, -0.0f, 0},        {fn_frexp, 1e-40f, 0},
      {fn_modf, -inf, 0},          {fn_modf, -0.0f, 0},
      {fn_modf, -2.5f, 0},         {fn_logb, 0.0f, 0},
      {fn_logb, -inf, 0},          {fn_nextafter, 0.0f, 1.0f},
      {fn_nextafter, -0.0f, 0.0f}, {fn_ldexp, 1.0f, 128},
      {fn_ldexp, -1.0f, -160},     {fn_scalbn, 3.0f, -149},
      {fn_remquo, 7.0f, 2.0f},     {fn_remquo, -7.0f, 2.0f},
      {fn_lround, -2.5f, 0},       {fn_lrint, -2.5f, 0},
      {fn_llround, 2.5f, 0},       {fn_llrint, 3.5f, 0},
      {fn_ilogb, 1e-40f, 0},       {fn_fpclassify, 1e-40f, 0},
  };
  for (const cas &t : cases) {
    std::vector<float> a(1, t.x), b(1, t.y), c(1, 0.0f);
    gpu::vector<float> da = gpu::copy(a), db = gpu::copy(b), dc = gpu::copy(c);
    gpu::vector<results<float>> out(1);
    device_math<float>(t.fn, da, db, dc, out);
    const results<float> got = gpu::copy(out)[0];
    const results<float> expected = call_math<float>(t.fn, t.x, t.y, 0.0f);
    // Exact values here; allow the ulp bound only for results that are not.
    EXPECT_LE(ulp_distance(got.r, expected.r), static_cast<std::uint64_t>(ulp_bound(t.fn)))
        << function_names[t.fn] << "(" << t.x << ", " << t.y << "): device " << got.r << ", host "
        << expected.r;
    EXPECT_EQ(std::signbit(got.r), std::signbit(expected.r))
        << function_names[t.fn] << "(" << t.x << ", " << t.y << ") has the wrong sign";
    EXPECT_EQ(ulp_distance(got.r2, expected.r2), 0u) << function_names[t.fn] << "(" << t.x << ")";
    EXPECT_EQ(std::signbit(got.r2), std::signbit(expected.r2)) << function_names[t.fn];
    EXPECT_EQ(got.ir, expected.ir) << function_names[t.fn] << "(" << t.x << ", " << t.y << ")";
  }
}

TEST(MathKernel, MemcpyMemsetMemmove) {
  // <cstring>'s memcpy, memset and memmove with sizes known only at run time: clang
  // emits LLVM intrinsics, which both targets lower to loops.
  std::vector<int> host(64);
  for (int i = 0; i < 64; ++i)
    host[i] = i;
  gpu::vector<int> data = gpu::copy(host);
  pacxx::kernel(
      [](int *d, std::size_t bytes) {
        std::memcpy(d + 32, d, bytes);    // d[32..47] = 0..15
        std::memset(d + 48, 0xff, bytes); // d[48..63] = -1
        std::memmove(d + 1, d, bytes);    // d[1..16] = 0..15 (overlapping)
      },
      {{1}, {1}})(data.data(), 16 * sizeof(int));
  std::vector<int> expected = host;
  std::memcpy(&expected[32], &expected[0], 16 * sizeof(int));
  std::memset(&expected[48], 0xff, 16 * sizeof(int));
  std::memmove(&expected[1], &expected[0], 16 * sizeof(int));
  EXPECT_EQ(gpu::copy(data), expected);
}

TEST(MathKernel, NanAndCNames) {
  // nan("") is the default quiet NaN, bit for bit as on the host; the C names (ldexpf,
  // frexp, labs, ...) are the very functions the std:: overloads call.
  gpu::vector<double> out(8);
  pacxx::kernel(
      [](double *o, float x, int e, long l) {
        int ex = 0;
        float ip = 0;
        o[0] = std::nan("");
        o[1] = nanf("");
        o[2] = ldexpf(x, e);
        o[3] = frexpf(x, &ex) + ex;
        o[4] = modff(x, &ip) + 10 * ip;
        o[5] = static_cast<double>(lroundf(x) + labs(l) + llabs(-l) + abs(e));
        o[6] = static_cast<double>(div(e, 3).quot + ldiv(l, 7L).rem);
        o[7] = scalblnf(x, l);
      },
      {{1}, {1}})(out.data(), 2.75f, -3, -20L);
  const std::vector<double> got = gpu::copy(out);
  int ex = 0;
  float ip = 0;
  const double expected[] = {
      std::nan(""),
      nanf(""),
      ldexpf(2.75f, -3),
      frexpf(2.75f, &ex) + ex,
      modff(2.75f, &ip) + 10 * ip,
      static_cast<double>(lroundf(2.75f) + labs(-20L) + llabs(20L) + abs(-3)),
      static_cast<double>(div(-3, 3).quot + ldiv(-20L, 7L).rem),
      scalblnf(2.75f, -20L)};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(ulp_distance(got[i], expected[i]), 0u)
        << "o[" << i << "]: device " << got[i] << ", host " << expected[i];
  std::uint64_t got_bits, expected_bits;
  std::memcpy(&got_bits, &got[0], 8);
  std::memcpy(&expected_bits, &expected[0], 8);
  EXPECT_EQ(got_bits, expected_bits) << "nan(\"\") differs from the host's";
}

// std::complex in kernels. Multiplication calls __mulsc3 / __muldc3 when the inline
// product is NaN + iNaN, division always calls __divsc3 / __divdc3, and std::abs, arg,
// exp, log, log10, sqrt, pow and proj call cabsf, cargf, cexpf, clogf, csqrtf, cpowf and
// cprojf (and the double ones); polar and pow(complex, real) use <cmath> (and clog).
// clang-format off
#define PACXX_COMPLEX_FUNCTIONS(X)                                                               \
  X(mul, z * w) X(div, z / w) X(abs, std::abs(z)) X(arg, std::arg(z)) X(exp, std::exp(z))       \
  X(log, std::log(z)) X(log10, std::log10(z)) X(sqrt, std::sqrt(z)) X(pow, std::pow(z, w))       \
  X(pow_real, std::pow(z, w.real())) X(polar, std::polar(std::fabs(z.real()), z.imag()))        \
  X(proj, std::proj(z))
// clang-format on
#define PACXX_ENUM(name, ...) cf_##name,
enum complex_function : int { PACXX_COMPLEX_FUNCTIONS(PACXX_ENUM) cf_count };
#undef PACXX_ENUM
#define PACXX_NAME(name, ...) #name,
const char *const complex_names[] = {PACXX_COMPLEX_FUNCTIONS(PACXX_NAME)};
#undef PACXX_NAME

// The function fn of (z, w); the same code on the device and the host. A real result
// is the real part.
template <class T> std::complex<T> call_complex(int fn, std::complex<T> z, std::complex<T> w) {
  switch (fn) {
#define PACXX_CASE(name, expression)                                                               \
  case cf_##name:                                                                                  \
    return expression;
    PACXX_COMPLEX_FUNCTIONS(PACXX_CASE)
#undef PACXX_CASE
  default:
    return std::numeric_limits<T>::quiet_NaN();
  }
}

template <class T>
void device_complex(int fn, const gpu::vector<std::complex<T>> &z,
                    const gpu::vector<std::complex<T>> &w, gpu::vector<std::complex<T>> &out) {
  const std::size_t n = z.size();
  pacxx::kernel(
      [](int fn, const std::complex<T> *z, const std::complex<T> *w, std::complex<T> *out,
         std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          out[i] = call_complex<T>(fn, z[i], w[i]);
      },
      pacxx_test::cover(n))(fn, z.data(), w.data(), out.data(), n);
}

// Allowed normwise error |device - exact| / |exact| in units of epsilon: the C library's
// parts (hypot 4 ulps, exp and log 3, sin and cos 4, atan2 6 in OpenCL's bounds)
// combined; pow's error grows with |w log z|, which the inputs keep below 12 (PoCL,
// 2026-11-27: at most 1.5 eps but pow's 6).
double complex_bound(int fn) {
  switch (fn) {
  case cf_mul:
  case cf_div:
    return 3;
  case cf_abs:
  case cf_polar:
    return 5;
  case cf_arg:
    return 6;
  case cf_exp:
  case cf_log:
  case cf_log10:
  case cf_sqrt:
    return 10;
  case cf_pow:
  case cf_pow_real:
    return 32;
  default:
    return 0;
  }
}

// Inputs: parts of both signs over several magnitudes, near the unit circle for log
// (where log|z| is small), exp's real part where e^x is finite, pow's base away from
// 0 and its exponent small.
std::complex<double> complex_input(int fn, rng &r, bool second) {
  const double u = r.uniform(-1, 1), v = r.uniform(-1, 1);
  const double scale = std::pow(10.0, r.uniform(-3, 3));
  switch (fn) {
  case cf_exp:
    return {40 * u, 20 * v};
  case cf_log:
  case cf_log10:
    if (r.next() % 2) { // |z| within 1 +- 1/64
      const double t = 3.14159 * u, m = 1 + v / 64;
      return {m * std::cos(t), m * std::sin(t)};
    }
    return {scale * u, scale * v};
  case cf_pow:
  case cf_pow_real:
    if (second)
      return {2 * u, 2 * v};
    return {std::pow(10.0, u) * std::cos(3 * v), std::pow(10.0, u) * std::sin(3 * v)};
  default:
    return {scale * u, std::pow(10.0, r.uniform(-3, 3)) * v};
  }
}

template <class T> double normwise_error(std::complex<T> got, std::complex<double> exact) {
  const double d = std::abs(std::complex<double>(got) - exact);
  return d / (std::abs(exact) * std::numeric_limits<T>::epsilon());
}
template <class T> double normwise_error(std::complex<T> got, std::complex<long double> exact) {
  const long double d = std::abs(std::complex<long double>(got) - exact);
  return static_cast<double>(d / (std::abs(exact) * std::numeric_limits<T>::epsilon()));
}

template <class T> void check_complex(int fn) {
  using wide = typename std::conditional<std::is_same<T, float>::value, double, long double>::type;
  rng r(777 + static_cast<std::uint64_t>(fn));
  std::vector<std::complex<T>> z(n), w(n);
  for (std::size_t i = 0; i < n; ++i) {
    z[i] = std::complex<T>(complex_input(fn, r, false));
    w[i] = std::complex<T>(complex_input(fn, r, true));
  }
  gpu::vector<std::complex<T>> dz = gpu::copy(z), dw = gpu::copy(w), out(n);
  device_complex<T>(fn, dz, dw, out);
  const std::vector<std::complex<T>> got = gpu::copy(out);
  double worst = 0;
  std::size_t failures = 0;
  for (std::size_t i = 0; i < n; ++i) {
    // The host's result in wider precision: the device's error, not the host's.
    const std::complex<wide> exact =
        call_complex<wide>(fn, std::complex<wide>(z[i]), std::complex<wide>(w[i]));
    ASSERT_TRUE(std::isfinite(std::abs(exact)) && std::abs(exact) != 0)
        << "test input outside the domain: " << complex_names[fn] << z[i] << w[i];
    const double e = normwise_error(got[i], exact);
    worst = e > worst ? e : worst;
    if (!(e <= complex_bound(fn)) && ++failures <= 5)
      ADD_FAILURE() << std::setprecision(std::numeric_limits<T>::max_digits10) << complex_names[fn]
                    << z[i] << w[i] << ": device " << got[i] << ", host " << std::complex<T>(exact)
                    << " (" << e << " eps, allowed " << complex_bound(fn) << ")";
  }
  EXPECT_EQ(failures, 0u) << complex_names[fn] << ": worst error " << worst << " eps";
  testing::Test::RecordProperty(std::string("complex_") + complex_names[fn] +
                                    (std::is_same<T, float>::value ? "_float" : "_double") + "_eps",
                                std::to_string(worst));
}

std::string complex_name(const testing::TestParamInfo<int> &info) {
  return complex_names[info.param];
}

class ComplexFunction : public testing::TestWithParam<int> {};
TEST_P(ComplexFunction, Float) { check_complex<float>(GetParam()); }
TEST_P(ComplexFunction, Double) { check_complex<double>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Complex, ComplexFunction, testing::Range(0, int(cf_count)), complex_name);

// The same value as the host's, part by part: both NaN, or equal with the same sign
// (zeros and infinities included), or finite and within `ulps`.
template <class T> bool same_part(T got, T host, std::uint64_t ulps) {
  if (std::isnan(got) || std::isnan(host))
    return std::isnan(got) && std::isnan(host);
  if (std::signbit(got) != std::signbit(host))
    return false;
  return ulp_distance(got, host) <= ulps;
}

// Annex G: the infinities and NaNs of multiplication and division (G.5.1), where the
// inline formula gives NaN + iNaN and __mulsc3 / __divsc3 recover the infinite or zero
// result, and the special values of cabs, carg, cexp, clog, csqrt and cproj (G.6),
// against the host (libgcc and glibc) in the same precision. Float products and
// quotients are bit for bit the host's (libgcc divides floats in double, as the
// device library does); the rest may differ in the last bits where finite.
template <class T> void check_complex_special_values() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const T big = std::numeric_limits<T>::max() / 4;
  using c = std::complex<T>;
  struct cas {
    int fn;
    c z, w;
  };
  const cas cases[] = {
      // products: an infinite factor times a nonzero one is infinite
      {cf_mul, {inf, nan}, {1, 1}},
      {cf_mul, {nan, inf}, {2, 0}},
      {cf_mul, {-inf, nan}, {0, -3}},
      {cf_mul, {1, 1}, {nan, -inf}},
      {cf_mul, {inf, inf}, {nan, nan}},
      {cf_mul, {inf, 0}, {nan, nan}},
      {cf_mul, {0, 0}, {inf, nan}},
      {cf_mul, {nan, nan}, {1, 2}},
      {cf_mul, {big, nan}, {big, big}}, // overflow: inf from finite parts
      {cf_mul, {big, big}, {big, -big}},
      {cf_mul, {1, 2}, {3, 4}},
      // quotients: nonzero / 0 is infinite, infinite / finite infinite, finite / infinite 0
      {cf_div, {1, 1}, {0, 0}},
      {cf_div, {1, -2}, {-0.0, 0}},
      {cf_div, {-3, 0}, {0, -0.0}},
      {cf_div, {0, 0}, {0, 0}},
      {cf_div, {nan, 1}, {0, 0}},
      {cf_div, {inf, nan}, {2, 1}},
      {cf_div, {nan, -inf}, {2, -1}},
      {cf_div, {inf, inf}, {1, 1}},
      {cf_div, {1, 1}, {inf, inf}},
      {cf_div, {-2, 3}, {inf, nan}},
      {cf_div, {2, 3}, {nan, -inf}},
      {cf_div, {inf, 1}, {inf, 1}},
      {cf_div, {nan, 0}, {1, 1}},
      {cf_div, {1, 2}, {nan, 0}},
      {cf_div, {big, big}, {big / 1e10f, big / 1e10f}},
      {cf_div, {1, 2}, {3, 4}},
      // cabs, carg
      {cf_abs, {inf, nan}, {}},
      {cf_abs, {nan, -inf}, {}},
      {cf_abs, {nan, 1}, {}},
      {cf_abs, {-0.0, 0}, {}},
      {cf_abs, {big, big}, {}},
      {cf_arg, {-1, 0}, {}},
      {cf_arg, {-1, -0.0}, {}},
      {cf_arg, {-0.0, 0}, {}},
      {cf_arg, {-inf, inf}, {}},
      {cf_arg, {nan, 1}, {}},
      // cexp
      {cf_exp, {0, 0}, {}},
      {cf_exp, {-0.0, -0.0}, {}},
      {cf_exp, {1, inf}, {}},
      {cf_exp, {1, nan}, {}},
      {cf_exp, {inf, 0}, {}},
      {cf_exp, {inf, -0.0}, {}},
      {cf_exp, {-inf, 2}, {}},
      {cf_exp, {-inf, -3}, {}},
      {cf_exp, {inf, 2}, {}},
      {cf_exp, {inf, -4}, {}},
      {cf_exp, {-inf, inf}, {}},
      {cf_exp, {inf, inf}, {}},
      {cf_exp, {-inf, nan}, {}},
      {cf_exp, {inf, nan}, {}},
      {cf_exp, {nan, 0}, {}},
      {cf_exp, {nan, -0.0}, {}},
      {cf_exp, {nan, 1}, {}},
      {cf_exp, {nan, nan}, {}},
      {cf_exp, {1000, 0}, {}},
      {cf_exp, {1000, 1}, {}},
      // clog
      {cf_log, {-0.0, 0}, {}},
      {cf_log, {0, -0.0}, {}},
      {cf_log, {1, inf}, {}},
      {cf_log, {1, nan}, {}},
      {cf_log, {-inf, 1}, {}},
      {cf_log, {inf, -1}, {}},
      {cf_log, {-inf, inf}, {}},
      {cf_log, {inf, -inf}, {}},
      {cf_log, {inf, nan}, {}},
      {cf_log, {-inf, nan}, {}},
      {cf_log, {nan, 1}, {}},
      {cf_log, {nan, -inf}, {}},
      {cf_log, {nan, nan}, {}},
      {cf_log, {1, 0}, {}},
      {cf_log, {-1, 0}, {}},
      {cf_log, {big, big}, {}},
      // csqrt
      {cf_sqrt, {0, 0}, {}},
      {cf_sqrt, {-0.0, -0.0}, {}},
      {cf_sqrt, {1, inf}, {}},
      {cf_sqrt, {nan, -inf}, {}},
      {cf_sqrt, {1, nan}, {}},
      {cf_sqrt, {-inf, 1}, {}},
      {cf_sqrt, {-inf, -1}, {}},
      {cf_sqrt, {inf, 1}, {}},
      {cf_sqrt, {inf, -1}, {}},
      {cf_sqrt, {inf, nan}, {}},
      {cf_sqrt, {-inf, nan}, {}},
      {cf_sqrt, {nan, 1}, {}},
      {cf_sqrt, {nan, nan}, {}},
      {cf_sqrt, {-4, 0}, {}},
      {cf_sqrt, {-4, -0.0}, {}},
      {cf_sqrt, {big, -big}, {}},
      {cf_sqrt, {std::numeric_limits<T>::denorm_min(), 0}, {}},
      {cf_sqrt, {-std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::min()}, {}},
      // cproj
      {cf_proj, {inf, nan}, {}},
      {cf_proj, {nan, -inf}, {}},
      {cf_proj, {1, -2}, {}},
  };
  const std::size_t count = sizeof cases / sizeof cases[0];
  std::vector<c> z, w;
  for (const cas &t : cases) {
    z.push_back(t.z);
    w.push_back(t.w);
  }
  // One launch per case (the kernel takes the function as an argument): one JIT compile.
  for (std::size_t i = 0; i < count; ++i) {
    gpu::vector<c> one_z = pacxx_test::device_scalar(z[i]), one_w = pacxx_test::device_scalar(w[i]);
    gpu::vector<c> out(1);
    device_complex<T>(cases[i].fn, one_z, one_w, out);
    const c got = gpu::copy(out)[0];
    const c host = call_complex<T>(cases[i].fn, z[i], w[i]);
    // Products are the same arithmetic on both sides; float quotients too (in double).
    const bool exact =
        cases[i].fn == cf_mul || (std::is_same<T, float>::value && cases[i].fn == cf_div);
    const std::uint64_t ulps = exact ? 0 : 4;
    EXPECT_TRUE(same_part(got.real(), host.real(), ulps) &&
                same_part(got.imag(), host.imag(), ulps))
        << std::setprecision(std::numeric_limits<T>::max_digits10) << complex_names[cases[i].fn]
        << z[i] << w[i] << ": device " << got << ", host " << host;
  }
}

TEST(ComplexKernel, AnnexGFloat) { check_complex_special_values<float>(); }
TEST(ComplexKernel, AnnexGDouble) { check_complex_special_values<double>(); }

TEST(ComplexKernel, FloatProductsAndQuotientsAreTheHosts) {
  // Bit for bit: the product's inline formula is the same IR on both sides, and float
  // division is done in double by the device library as by libgcc.
  rng r(99);
  std::vector<std::complex<float>> z(n), w(n);
  for (std::size_t i = 0; i < n; ++i) {
    z[i] = std::complex<float>(complex_input(cf_div, r, false));
    w[i] = std::complex<float>(complex_input(cf_div, r, true));
  }
  gpu::vector<std::complex<float>> dz = gpu::copy(z), dw = gpu::copy(w), out(n);
  for (int fn : {int(cf_mul), int(cf_div)}) {
    device_complex<float>(fn, dz, dw, out);
    const std::vector<std::complex<float>> got = gpu::copy(out);
    std::size_t failures = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::complex<float> host = call_complex<float>(fn, z[i], w[i]);
      if ((!same_part(got[i].real(), host.real(), 0) ||
           !same_part(got[i].imag(), host.imag(), 0)) &&
          ++failures <= 5)
        ADD_FAILURE() << std::setprecision(9) << complex_names[fn] << z[i] << w[i] << ": device "
                      << got[i] << ", host " << host;
    }
    EXPECT_EQ(failures, 0u) << complex_names[fn];
  }
}

} // namespace

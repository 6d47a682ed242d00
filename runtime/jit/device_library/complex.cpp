// The C99 complex arithmetic and <complex.h> functions that clang's code for
// std::complex (and _Complex) calls: __mulsc3, __muldc3, __divsc3, __divdc3 (what `*`
// and `/` call when the inline product comes out NaN + iNaN, and for every division),
// and cabs, carg, cexp, clog, csqrt, cpow, cproj with their float variants (libstdc++
// calls them as __builtin_c* when _GLIBCXX_USE_C99_COMPLEX).
//
// This file is not part of libpacxx's code: the build compiles it with clang++-15 for
// x86-64 to LLVM bitcode (runtime/CMakeLists.txt), libpacxx embeds the bitcode
// (device_library.S) and the JIT links the functions a kernel calls into its module
// (device_library.cpp) before the target lowering. Compiled for x86-64 because the kernel
// IR is x86-64 IR: the definitions get exactly the signatures clang gave the calls
// (float _Complex as <2 x float>, double _Complex as two doubles and {double, double}).
// Their own calls (hypot, exp, atan2, ...) are C library calls or LLVM intrinsics that
// the target lowering then maps to libdevice or OpenCL builtins like any kernel's.
// Compiled with -ffp-contract=off (Annex G's examples are written under
// FP_CONTRACT OFF), -fno-math-errno and -ffreestanding (no call here may become another
// C library call by the optimiser's choice).
//
// Special values follow C11 Annex G (G.5.1 for multiplication and division, G.6 for the
// functions), written from the standard's text and its examples. Where Annex G leaves a
// sign unspecified the choice is glibc's, so that kernels and host agree.

namespace {

template <class T> struct math;

template <> struct math<float> {
  static float sqrt(float x) { return __builtin_sqrtf(x); }
  static float exp(float x) { return __builtin_expf(x); }
  static float log(float x) { return __builtin_logf(x); }
  static float log1p(float x) { return __builtin_log1pf(x); }
  static float sin(float x) { return __builtin_sinf(x); }
  static float cos(float x) { return __builtin_cosf(x); }
  static float atan2(float y, float x) { return __builtin_atan2f(y, x); }
  static float hypot(float x, float y) { return __builtin_hypotf(x, y); }
  static float fma(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
  static float fabs(float x) { return __builtin_fabsf(x); }
  static float copysign(float x, float y) { return __builtin_copysignf(x, y); }
  static float inf() { return __builtin_inff(); }
  // exp(x) overflows above about 88.72.
  static constexpr float exp_overflow = 88.0f;
  // csqrt's scaling: above `big` the sum |x| + |z| could overflow; below `tiny` (and in
  // the subnormals) it would lose bits, so x and y are scaled by tiny_scale^2 first.
  static constexpr float big = 8.5e37f;        // FLT_MAX / 4
  static constexpr float tiny = 0x1p-100f;     // above FLT_MIN * 2^24
  static constexpr float tiny_scale = 0x1p26f; // 2^52 * 2^-149 is normal
  static constexpr float tiny_unscale = 0x1p-26f;
};

template <> struct math<double> {
  static double sqrt(double x) { return __builtin_sqrt(x); }
  static double exp(double x) { return __builtin_exp(x); }
  static double log(double x) { return __builtin_log(x); }
  static double log1p(double x) { return __builtin_log1p(x); }
  static double sin(double x) { return __builtin_sin(x); }
  static double cos(double x) { return __builtin_cos(x); }
  static double atan2(double y, double x) { return __builtin_atan2(y, x); }
  static double hypot(double x, double y) { return __builtin_hypot(x, y); }
  static double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
  static double fabs(double x) { return __builtin_fabs(x); }
  static double copysign(double x, double y) { return __builtin_copysign(x, y); }
  static double inf() { return __builtin_inf(); }
  static constexpr double exp_overflow = 709.0;
  static constexpr double big = 4.4e307;
  static constexpr double tiny = 0x1p-1000;
  static constexpr double tiny_scale = 0x1p54;
  static constexpr double tiny_unscale = 0x1p-54;
};

template <class T> struct cx {
  T re, im;
};

template <class T> bool is_nan(T x) { return __builtin_isnan(x); }
template <class T> bool is_inf(T x) { return __builtin_isinf(x); }
template <class T> bool is_finite(T x) { return __builtin_isfinite(x); }

// Annex G's "box": an infinite part becomes 1, a finite one 0, both keeping their sign.
template <class T> T box(T x) { return math<T>::copysign(is_inf(x) ? T(1) : T(0), x); }
// A NaN part becomes 0 of its sign.
template <class T> T nan_to_zero(T x) { return is_nan(x) ? math<T>::copysign(T(0), x) : x; }

// (a + ib)(c + id), G.5.1: a product is infinite when a factor is infinite and the other
// nonzero, even where the plain formula gives NaN + iNaN (inf * 0 terms): then the
// infinities are boxed to 1, NaNs beside them become 0, and the product of what is left
// gives the direction of the infinite result. Infinities from overflow are recovered
// the same way.
template <class T> cx<T> multiply(T a, T b, T c, T d) {
  const T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  T x = ac - bd, y = ad + bc;
  if (is_nan(x) && is_nan(y)) {
    bool recalc = false;
    if (is_inf(a) || is_inf(b)) {
      a = box(a);
      b = box(b);
      c = nan_to_zero(c);
      d = nan_to_zero(d);
      recalc = true;
    }
    if (is_inf(c) || is_inf(d)) {
      c = box(c);
      d = box(d);
      a = nan_to_zero(a);
      b = nan_to_zero(b);
      recalc = true;
    }
    if (!recalc && (is_inf(ac) || is_inf(bd) || is_inf(ad) || is_inf(bc))) {
      a = nan_to_zero(a);
      b = nan_to_zero(b);
      c = nan_to_zero(c);
      d = nan_to_zero(d);
      recalc = true;
    }
    if (recalc) {
      x = math<T>::inf() * (a * c - b * d);
      y = math<T>::inf() * (a * d + b * c);
    }
  }
  return {x, y};
}

// G.5.1 for a quotient x + iy of (a + ib) / (c + id) that came out NaN + iNaN: a nonzero
// number over zero is infinite, an infinite one over a finite one is infinite, a finite
// one over an infinite one is zero (each in the direction the signs give). `denom` is
// c^2 + d^2 as computed; c and d may have been scaled by a power of two.
template <class T>
void recover_quotient(T a, T b, T c, T d, T denom, bool divisor_infinite, T &x, T &y) {
  if (!is_nan(x) || !is_nan(y))
    return;
  const T inf = math<T>::inf();
  if (denom == T(0) && (!is_nan(a) || !is_nan(b))) {
    x = math<T>::copysign(inf, c) * a;
    y = math<T>::copysign(inf, c) * b;
  } else if ((is_inf(a) || is_inf(b)) && is_finite(c) && is_finite(d)) {
    a = box(a);
    b = box(b);
    x = inf * (a * c + b * d);
    y = inf * (b * c - a * d);
  } else if (divisor_infinite && is_finite(a) && is_finite(b)) {
    c = box(c);
    d = box(d);
    x = T(0) * (a * c + b * d);
    y = T(0) * (b * c - a * d);
  }
}

// Float division in double, as libgcc does on x86-64 (so kernels and host agree bit for
// bit): the products of floats are exact in double and c^2 + d^2 can neither overflow
// nor underflow there, so no scaling is needed; one rounding to float at the end.
cx<float> divide_float(float fa, float fb, float fc, float fd) {
  const double a = fa, b = fb, c = fc, d = fd;
  const double denom = c * c + d * d;
  double x = (a * c + b * d) / denom, y = (b * c - a * d) / denom;
  recover_quotient(a, b, c, d, denom, is_inf(c) || is_inf(d), x, y);
  return {static_cast<float>(x), static_cast<float>(y)};
}

// Double division as in Annex G's example (G.5.1): the divisor is scaled by a power of
// two to about 1 (logb, scalbn) so that c^2 + d^2 does not overflow or underflow, and
// the quotient is scaled back.
cx<double> divide_double(double a, double b, double c, double d) {
  const double logbw = __builtin_logb(__builtin_fmax(math<double>::fabs(c), math<double>::fabs(d)));
  int ilogbw = 0;
  if (is_finite(logbw)) {
    ilogbw = static_cast<int>(logbw);
    c = __builtin_scalbn(c, -ilogbw);
    d = __builtin_scalbn(d, -ilogbw);
  }
  const double denom = c * c + d * d;
  double x = __builtin_scalbn((a * c + b * d) / denom, -ilogbw);
  double y = __builtin_scalbn((b * c - a * d) / denom, -ilogbw);
  // Annex G's example tests isinf(logbw) here, which is also true for NaN + i0 (fmax
  // ignores the NaN, logb(0) is -inf) and made x / (NaN + i0) zero: test the parts.
  recover_quotient(a, b, c, d, denom, is_inf(c) || is_inf(d), x, y);
  return {x, y};
}

// cabs (G.6 refers to hypot, F.10.4.3): +inf when either part is infinite, even if the
// other is NaN.
template <class T> T c_abs(T x, T y) {
  if (is_inf(x) || is_inf(y))
    return math<T>::inf();
  return math<T>::hypot(x, y);
}

// cexp, G.6.3.1.
template <class T> cx<T> c_exp(T x, T y) {
  if (is_inf(x)) {
    if (x < 0) // e^-inf = +0: +0 cis(y) for finite y; signs unspecified otherwise
      return is_finite(y) ? cx<T>{T(0) * math<T>::cos(y), T(0) * math<T>::sin(y)}
                          : cx<T>{T(0), math<T>::copysign(T(0), y)};
    if (y == T(0)) // +inf + i0, the zero's sign kept
      return {x, y};
    if (!is_finite(y)) // +inf + i inf or NaN: +-inf + iNaN (invalid)
      return {x, y - y};
    return {x * math<T>::cos(y), x * math<T>::sin(y)}; // +inf cis(y)
  }
  if (is_nan(x)) // NaN + i0 keeps the zero; any other y gives NaN + iNaN
    return y == T(0) ? cx<T>{x, y} : cx<T>{x, x};
  if (!is_finite(y)) // finite x + i inf or NaN: NaN + iNaN (invalid)
    return {y - y, y - y};
  if (y == T(0)) // real: exact zero imaginary part, also where e^x overflows
    return {math<T>::exp(x), y};
  const T c = math<T>::cos(y), s = math<T>::sin(y);
  if (x > math<T>::exp_overflow) {
    // e^x overflows, but e^x cos(y) need not: e^(x/2) twice.
    const T h = math<T>::exp(x * T(0.5));
    return {(h * c) * h, (h * s) * h};
  }
  const T e = math<T>::exp(x);
  return {e * c, e * s};
}

// clog, G.6.3.2: log|z| + i arg(z). hypot and atan2 give every special value of Annex G
// (clog(-0 + i0) = -inf + i pi, clog(-inf + i inf) = +inf + i 3pi/4, ...) but one: |z| is
// +inf when a part is infinite and the other NaN.
template <class T> cx<T> c_log(T x, T y) {
  const T ax = math<T>::fabs(x), ay = math<T>::fabs(y);
  const T big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
  T re;
  if (is_inf(x) || is_inf(y))
    re = math<T>::inf();
  else if (big >= T(0.5) && big <= T(2))
    // Near the unit circle log|z| is small and log(hypot) would lose it to rounding:
    // log|z| = log1p(|z|^2 - 1) / 2 with big^2 - 1 from one fma.
    re = T(0.5) * math<T>::log1p(math<T>::fma(big, big, T(-1)) + small * small);
  else
    re = math<T>::log(math<T>::hypot(x, y)); // NaN parts give NaN
  return {re, math<T>::atan2(y, x)};
}

// csqrt, G.6.4.2: the principal root (real part >= 0, imaginary part with y's sign).
template <class T> cx<T> c_sqrt(T x, T y) {
  const T inf = math<T>::inf();
  if (is_inf(y)) // x + i inf, for every x (NaN too): +inf + i inf
    return {inf, y};
  if (is_inf(x)) {
    if (x > 0) // +inf + iy: +inf + i0 (+inf + iNaN for NaN y)
      return {x, is_nan(y) ? y : math<T>::copysign(T(0), y)};
    // -inf + iy: +0 + i inf; -inf + iNaN: NaN +- i inf (sign unspecified; the NaN's, as
    // glibc)
    return {is_nan(y) ? y : T(0), math<T>::copysign(inf, y)};
  }
  if (is_nan(x) || is_nan(y))
    return {x + y, x + y};
  if (x == T(0) && y == T(0)) // +-0 + i0: +0 + i0, the zero's sign kept
    return {T(0), y};
  // t = sqrt((|x| + |z|) / 2), with x and y scaled so that the sum neither overflows nor
  // is computed among subnormals; the root scales by the square root of the factor.
  T scale = T(1);
  const T ax = math<T>::fabs(x), ay = math<T>::fabs(y);
  const T big = ax > ay ? ax : ay;
  if (big > math<T>::big) {
    x *= T(0.25);
    y *= T(0.25);
    scale = T(2);
  } else if (big < math<T>::tiny) {
    x *= math<T>::tiny_scale * math<T>::tiny_scale;
    y *= math<T>::tiny_scale * math<T>::tiny_scale;
    scale = math<T>::tiny_unscale;
  }
  const T t = math<T>::sqrt((math<T>::fabs(x) + math<T>::hypot(x, y)) * T(0.5));
  // The other part is y / 2t; for x < 0 the parts trade places (t goes to the imaginary
  // part, with y's sign).
  if (x >= T(0))
    return {t * scale, (y / (T(2) * t)) * scale};
  return {(math<T>::fabs(y) / (T(2) * t)) * scale, math<T>::copysign(t, y) * scale};
}

// cpow (G.6.4.1 specifies no special values): e^(w log z), with Annex G's product, as
// glibc computes it.
template <class T> cx<T> c_pow(T x, T y, T u, T v) {
  const cx<T> l = c_log(x, y);
  const cx<T> p = multiply(u, v, l.re, l.im);
  return c_exp(p.re, p.im);
}

// cproj, G.6 (7.3.9.5): every infinity projects to +inf + i0 (the zero with y's sign).
template <class T> cx<T> c_proj(T x, T y) {
  if (is_inf(x) || is_inf(y))
    return {math<T>::inf(), math<T>::copysign(T(0), y)};
  return {x, y};
}

float _Complex to_c(cx<float> z) {
  float _Complex r;
  __real__ r = z.re;
  __imag__ r = z.im;
  return r;
}
double _Complex to_c(cx<double> z) {
  double _Complex r;
  __real__ r = z.re;
  __imag__ r = z.im;
  return r;
}

} // namespace

// The C names, with the C signatures (what clang calls).
extern "C" {

float _Complex __mulsc3(float a, float b, float c, float d) { return to_c(multiply(a, b, c, d)); }
double _Complex __muldc3(double a, double b, double c, double d) {
  return to_c(multiply(a, b, c, d));
}
float _Complex __divsc3(float a, float b, float c, float d) {
  return to_c(divide_float(a, b, c, d));
}
double _Complex __divdc3(double a, double b, double c, double d) {
  return to_c(divide_double(a, b, c, d));
}

float cabsf(float _Complex z) { return c_abs(__real__ z, __imag__ z); }
double cabs(double _Complex z) { return c_abs(__real__ z, __imag__ z); }
float cargf(float _Complex z) { return math<float>::atan2(__imag__ z, __real__ z); }
double carg(double _Complex z) { return math<double>::atan2(__imag__ z, __real__ z); }
float _Complex cexpf(float _Complex z) { return to_c(c_exp(__real__ z, __imag__ z)); }
double _Complex cexp(double _Complex z) { return to_c(c_exp(__real__ z, __imag__ z)); }
float _Complex clogf(float _Complex z) { return to_c(c_log(__real__ z, __imag__ z)); }
double _Complex clog(double _Complex z) { return to_c(c_log(__real__ z, __imag__ z)); }
float _Complex csqrtf(float _Complex z) { return to_c(c_sqrt(__real__ z, __imag__ z)); }
double _Complex csqrt(double _Complex z) { return to_c(c_sqrt(__real__ z, __imag__ z)); }
float _Complex cpowf(float _Complex z, float _Complex w) {
  return to_c(c_pow(__real__ z, __imag__ z, __real__ w, __imag__ w));
}
double _Complex cpow(double _Complex z, double _Complex w) {
  return to_c(c_pow(__real__ z, __imag__ z, __real__ w, __imag__ w));
}
float _Complex cprojf(float _Complex z) { return to_c(c_proj(__real__ z, __imag__ z)); }
double _Complex cproj(double _Complex z) { return to_c(c_proj(__real__ z, __imag__ z)); }

} // extern "C"

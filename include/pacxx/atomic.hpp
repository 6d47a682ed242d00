// Device atomics on global or shared memory: add, min, max, exchange, compare-and-swap
// for int, unsigned, long long (and unsigned long long), float and double. Each returns
// the old value. They compile to plain LLVM atomic instructions, which both targets lower
// (NVPTX: atom.add.f32/f64, natively on sm_60 and later; PoCL's CPU backend expands a
// floating-point atomicrmw into a compare-and-swap loop itself); float and double
// min/max, exchange and compare-and-swap go through a compare-and-swap loop on the
// integer of the same width.
#pragma once
#include <cstring>
#include <type_traits>

namespace pacxx {
namespace detail {

template <class T> struct is_atomic_int {
  static constexpr bool value =
      std::is_same<T, int>::value || std::is_same<T, unsigned>::value ||
      std::is_same<T, long long>::value || std::is_same<T, unsigned long long>::value ||
      std::is_same<T, long>::value || std::is_same<T, unsigned long>::value;
};

template <class T> struct is_atomic_type {
  static constexpr bool value =
      is_atomic_int<T>::value || std::is_same<T, float>::value || std::is_same<T, double>::value;
};

template <class T> using atomic_t = typename std::enable_if<is_atomic_type<T>::value, T>::type;
// The float and double overloads of min/max/exchange/cas are separate functions below.
template <class T> using atomic_int_t = typename std::enable_if<is_atomic_int<T>::value, T>::type;

inline unsigned float_bits(float f) {
  unsigned u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float bits_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline unsigned long long float_bits(double f) {
  unsigned long long u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline double bits_double(unsigned long long u) {
  double f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
inline float bits_as(unsigned u, float) { return bits_float(u); }
inline double bits_as(unsigned long long u, double) { return bits_double(u); }

// Floating-point read-modify-write through compare-and-swap on the bit pattern.
template <class F, class Op> inline F float_cas_loop(F *p, F v, Op op) {
  using B = decltype(float_bits(v));
  B *ip = reinterpret_cast<B *>(p);
  B old = __atomic_load_n(ip, __ATOMIC_RELAXED);
  for (;;) {
    B desired = float_bits(op(bits_as(old, F()), v));
    if (__atomic_compare_exchange_n(ip, &old, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return bits_as(old, F());
  }
}

} // namespace detail

// *p += v atomically (relaxed order) for int, unsigned, long, long long (signed and
// unsigned), float or double; returns the old *p. Device code.
template <class T> inline detail::atomic_t<T> atomic_add(T *p, T v) {
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

// *p = min(*p, v) atomically for the integer types; returns the old *p.
template <class T> inline detail::atomic_int_t<T> atomic_min(T *p, T v) {
  return __atomic_fetch_min(p, v, __ATOMIC_RELAXED);
}
// *p = min(*p, v) atomically (a compare-and-swap loop); returns the old *p.
inline float atomic_min(float *p, float v) {
  return detail::float_cas_loop(p, v, [](float a, float b) { return b < a ? b : a; });
}
// *p = min(*p, v) atomically (a compare-and-swap loop); returns the old *p.
inline double atomic_min(double *p, double v) {
  return detail::float_cas_loop(p, v, [](double a, double b) { return b < a ? b : a; });
}

// *p = max(*p, v) atomically for the integer types; returns the old *p.
template <class T> inline detail::atomic_int_t<T> atomic_max(T *p, T v) {
  return __atomic_fetch_max(p, v, __ATOMIC_RELAXED);
}
// *p = max(*p, v) atomically (a compare-and-swap loop); returns the old *p.
inline float atomic_max(float *p, float v) {
  return detail::float_cas_loop(p, v, [](float a, float b) { return a < b ? b : a; });
}
// *p = max(*p, v) atomically (a compare-and-swap loop); returns the old *p.
inline double atomic_max(double *p, double v) {
  return detail::float_cas_loop(p, v, [](double a, double b) { return a < b ? b : a; });
}

// Stores v into *p atomically for the integer types; returns the old *p.
template <class T> inline detail::atomic_int_t<T> atomic_exchange(T *p, T v) {
  return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}
// Stores v into *p atomically (as its bits); returns the old *p.
inline float atomic_exchange(float *p, float v) {
  return detail::bits_float(__atomic_exchange_n(reinterpret_cast<unsigned *>(p),
                                                detail::float_bits(v), __ATOMIC_RELAXED));
}
// Stores v into *p atomically (as its bits); returns the old *p.
inline double atomic_exchange(double *p, double v) {
  return detail::bits_double(__atomic_exchange_n(reinterpret_cast<unsigned long long *>(p),
                                                 detail::float_bits(v), __ATOMIC_RELAXED));
}

// Stores `desired` if *p == expected; returns the value *p held before.
template <class T> inline detail::atomic_int_t<T> atomic_cas(T *p, T expected, T desired) {
  __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return expected;
}
// Stores desired if *p has expected's bit pattern (so -0.0 is not +0.0, and a NaN matches
// its own bits); returns the value *p held before.
inline float atomic_cas(float *p, float expected, float desired) {
  unsigned e = detail::float_bits(expected);
  __atomic_compare_exchange_n(reinterpret_cast<unsigned *>(p), &e, detail::float_bits(desired),
                              false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return detail::bits_float(e);
}
// Stores desired if *p has expected's bit pattern; returns the value *p held before.
inline double atomic_cas(double *p, double expected, double desired) {
  unsigned long long e = detail::float_bits(expected);
  __atomic_compare_exchange_n(reinterpret_cast<unsigned long long *>(p), &e,
                              detail::float_bits(desired), false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return detail::bits_double(e);
}

} // namespace pacxx

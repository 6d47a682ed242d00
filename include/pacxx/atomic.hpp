// Device atomics on global or shared memory: add, min, max, exchange, compare-and-swap
// for int, unsigned, long long (and unsigned long long) and float. Each returns the old
// value. They compile to plain LLVM atomic instructions, which both targets lower
// natively (float min/max use a compare-and-swap loop).
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
  static constexpr bool value = is_atomic_int<T>::value || std::is_same<T, float>::value;
};

template <class T> using atomic_t = typename std::enable_if<is_atomic_type<T>::value, T>::type;
// The float overloads of min/max/exchange/cas are separate functions below.
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

// Float read-modify-write through compare-and-swap on the bit pattern.
template <class Op> inline float float_cas_loop(float *p, float v, Op op) {
  unsigned *ip = reinterpret_cast<unsigned *>(p);
  unsigned old = __atomic_load_n(ip, __ATOMIC_RELAXED);
  for (;;) {
    unsigned desired = float_bits(op(bits_float(old), v));
    if (__atomic_compare_exchange_n(ip, &old, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return bits_float(old);
  }
}

} // namespace detail

template <class T> inline detail::atomic_t<T> atomic_add(T *p, T v) {
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

template <class T> inline detail::atomic_int_t<T> atomic_min(T *p, T v) {
  return __atomic_fetch_min(p, v, __ATOMIC_RELAXED);
}
inline float atomic_min(float *p, float v) {
  return detail::float_cas_loop(p, v, [](float a, float b) { return b < a ? b : a; });
}

template <class T> inline detail::atomic_int_t<T> atomic_max(T *p, T v) {
  return __atomic_fetch_max(p, v, __ATOMIC_RELAXED);
}
inline float atomic_max(float *p, float v) {
  return detail::float_cas_loop(p, v, [](float a, float b) { return a < b ? b : a; });
}

template <class T> inline detail::atomic_int_t<T> atomic_exchange(T *p, T v) {
  return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}
inline float atomic_exchange(float *p, float v) {
  return detail::bits_float(__atomic_exchange_n(reinterpret_cast<unsigned *>(p),
                                                detail::float_bits(v), __ATOMIC_RELAXED));
}

// Stores `desired` if *p == expected; returns the value *p held before.
template <class T> inline detail::atomic_int_t<T> atomic_cas(T *p, T expected, T desired) {
  __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return expected;
}
inline float atomic_cas(float *p, float expected, float desired) {
  unsigned e = detail::float_bits(expected);
  __atomic_compare_exchange_n(reinterpret_cast<unsigned *>(p), &e, detail::float_bits(desired),
                              false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return detail::bits_float(e);
}

} // namespace pacxx

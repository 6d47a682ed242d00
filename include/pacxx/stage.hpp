// pacxx::stage(expr) (multi-staging, Section 5 of the PACXX paper): in kernel code,
// expr is evaluated on the host before each launch and enters the kernel as a
// compile-time constant, so the JIT can unroll loops whose bounds only the host knows.
// expr may use captured values, kernel arguments and the launch configuration
// (pacxx::Block::get().size, pacxx::Grid::get().size); one that depends on thread or
// block indices or on device memory is a compile-time error at its line.
// PACXX_STAGING=0 turns staging off: stage then returns the value computed at run time.
#pragma once
#include <type_traits>

// The markers pacxx::stage compiles to: the offline compiler replaces each call in a
// kernel by a placeholder and a host stub that computes v before the launch; the JIT
// substitutes the value. Not for direct use.
extern "C" {
long long __pacxx_stage_int(long long v); // an integral or bool value staged
float __pacxx_stage_float(float v);       // a float value staged
double __pacxx_stage_double(double v);    // a double value staged
}

namespace pacxx {
namespace detail {
template <class T> T stage(T v, std::true_type /*integral*/) {
  return static_cast<T>(__pacxx_stage_int(static_cast<long long>(v)));
}
inline float stage(float v, std::false_type) { return __pacxx_stage_float(v); }
inline double stage(double v, std::false_type) { return __pacxx_stage_double(v); }
} // namespace detail

// In kernel code: v, computed on the host before the launch and a constant in the
// kernel's compiled code (see the top of this header). T: integral, bool, float, double.
template <class T> T stage(T v) {
  static_assert(std::is_integral<T>::value || std::is_same<T, float>::value ||
                    std::is_same<T, double>::value,
                "pacxx::stage: integer, bool, float or double values only");
  return detail::stage(v, std::is_integral<T>{});
}

} // namespace pacxx

// Shared by multifile_main.cpp and multifile_helper.cpp: a device function defined in
// only one translation unit, and kernels defined in this header that both units
// instantiate with the same types.
#pragma once
#include <pacxx/pacxx.hpp>

#include <cstddef>

// Defined (non-inline) in multifile_helper.cpp only; kernels in multifile_main.cpp call it.
float helper_scale(float x);

// Defined in multifile_helper.cpp only: an int version that calls a static function and
// reads a table of that unit.
int helper_lookup(int i);

namespace multifile {

// A kernel template (a function object) defined in the header.
template <class T> struct scale_add {
  T a;
  void operator()(const T *x, T *y, std::size_t n) const {
    const std::size_t i = pacxx::Thread::get().global.x;
    if (i < n)
      y[i] = a * x[i] + y[i];
  }
};

// Launches the header's kernel template: y = a*x + y.
template <class T> void launch_scale_add(T a, const T *x, T *y, std::size_t n) {
  pacxx::kernel(scale_add<T>{a}, {{(n + 127) / 128}, {128}})(x, y, n);
}

// A lambda kernel inside an inline function template of the header: its closure type
// (and so the kernel) is the same entity in every unit that instantiates it.
template <class T> void launch_square_minus(T *p, std::size_t n) {
  pacxx::kernel(
      [](T *p, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          p[i] = p[i] * p[i] - T(1);
      },
      {{(n + 63) / 64}, {64}})(p, n);
}

} // namespace multifile

// Functions of multifile_helper.cpp that launch the header's kernels from that unit.
void helper_unit_scale_add(float a, const float *x, float *y, std::size_t n);
void helper_unit_square_minus(double *p, std::size_t n);
void helper_unit_scale_add_int(int a, const int *x, int *y, std::size_t n);
// A kernel of the helper unit itself that calls helper_scale (same unit).
void helper_unit_apply_scale(const float *x, float *y, std::size_t n);

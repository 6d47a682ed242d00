// The second translation unit of the multi-file test: see multifile_main.cpp.
#include "multifile.hpp"

namespace {
const int lookup_table[7] = {3, -1, 4, -1, 5, -9, 2};
}

static int twist(int v) { return v * 3 - (v >> 2); }

float helper_scale(float x) { return 2.5f * x - 0.75f; }

int helper_lookup(int i) { return twist(i) + lookup_table[(i % 7 + 7) % 7]; }

void helper_unit_scale_add(float a, const float *x, float *y, std::size_t n) {
  multifile::launch_scale_add<float>(a, x, y, n);
}

void helper_unit_scale_add_int(int a, const int *x, int *y, std::size_t n) {
  multifile::launch_scale_add<int>(a, x, y, n);
}

void helper_unit_square_minus(double *p, std::size_t n) {
  multifile::launch_square_minus<double>(p, n);
}

void helper_unit_apply_scale(const float *x, float *y, std::size_t n) {
  pacxx::kernel(
      [](const float *x, float *y, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          y[i] = helper_scale(x[i]) + 1.0f;
      },
      {{(n + 127) / 128}, {128}})(x, y, n);
}

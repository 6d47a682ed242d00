#include <pacxx/pacxx.hpp>

#include <cstdio>
#include <vector>

float scale(float x);

int main() {
  const std::size_t n = 1000;
  std::vector<float> in(n);
  for (std::size_t i = 0; i < n; ++i)
    in[i] = 0.5f * i;
  gpu::vector<float> d = gpu::copy(in), out(n);
  pacxx::kernel(
      [](const float *x, float *o, std::size_t n) {
        auto i = pacxx::Thread::get().global.x;
        if (i < n)
          o[i] = scale(x[i]);
      },
      {{(n + 63) / 64}, {64}})(d.data(), out.data(), n);
  std::vector<float> r = gpu::copy(out);
  for (std::size_t i = 0; i < n; ++i)
    if (r[i] != scale(in[i])) {
      std::printf("wrong at %zu: %g\n", i, r[i]);
      return 1;
    }
  std::printf("cmake project: %zu correct\n", n);
  return 0;
}

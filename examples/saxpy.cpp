// saxpy as a hand-written kernel (Listing 8 style): y = a*x + y on the default device.
#include <pacxx/pacxx.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

static int run() {
  std::vector<float> x(1 << 20, 1.f), y(1 << 20, 2.f);
  gpu::vector<float> dx = gpu::copy(x), dy = gpu::copy(y), out(x.size());
  const float a = 2.5f;
  std::size_t n = x.size();
  auto k = pacxx::kernel(
      [a](const float *x, const float *y, float *o, std::size_t n) {
        auto i = pacxx::Thread::get().global.x;
        if (i >= n)
          return;
        o[i] = a * x[i] + y[i];
      },
      {{(n + 127) / 128}, {128}});
  k(dx.data(), dy.data(), out.data(), n);
  std::vector<float> r = gpu::copy(out); // waits for the kernel, copies back

  for (std::size_t i = 0; i < n; ++i)
    if (r[i] != a * x[i] + y[i]) {
      std::printf("saxpy: wrong result at %zu: %g\n", i, r[i]);
      return 1;
    }
  std::printf("saxpy: %zu elements correct (r[0] = %g)\n", n, r[0]);
  return 0;
}

int main() {
  try {
    return run();
  } catch (const pacxx::error &e) { // no device, JIT or driver failure
    std::fprintf(stderr, "saxpy: %s\n", e.what());
    return 1;
  }
}

// Shared by the NVPTX and SPIR tests: a saxpy, and a sum of `per` elements per thread
// with `per` staged (the kernel of tests/e2e/staging_test.cpp).
#include <pacxx/pacxx.hpp>

int main() {
  gpu::vector<float> x(64 * 8), y(64 * 8), o(64);
  const float a = 2.5f;
  std::size_t n = x.size();
  pacxx::kernel([a](const float *x, const float *y, float *o, std::size_t n) {
    auto i = pacxx::Thread::get().global.x;
    if (i >= n) return;
    o[i] = a * x[i] + y[i];
  }, {{n / 128}, {128}})(x.data(), y.data(), y.data(), n);
  pacxx::kernel([](const float *x, float *o, std::size_t n) {
    const std::size_t total = pacxx::Block::get().size.x * pacxx::Grid::get().size.x;
    const std::size_t per = pacxx::stage(n / total);
    const std::size_t t = pacxx::Thread::get().global.x;
    float s = 0;
    for (std::size_t k = 0; k < per; ++k)
      s += x[t * per + k];
    o[t] = s;
  }, {{2}, {32}})(x.data(), o.data(), n);
}

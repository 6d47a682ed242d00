// A transform_reduce whose element function has two loops (k-means-like distances, as
// in issue 34's port).
#include <pacxx/pacxx.hpp>

#include <range/v3/view/iota.hpp>

int main() {
  gpu::vector<float> c(64 * 8, 1.f);
  return gpu::transform_reduce(ranges::views::iota(0, 100000), 0.f,
                               [](float a, float b) { return a + b; },
                               [p = c.data()](int i) {
                                 float best = 1e30f;
                                 for (int k = 0; k < 64; ++k) {
                                   float d = 0;
                                   for (int j = 0; j < 8; ++j) {
                                     float x = float(i % (j + 3)) - p[k * 8 + j];
                                     d += x * x;
                                   }
                                   best = d < best ? d : best;
                                 }
                                 float acc = 0;
                                 for (int j = 0; j < 32; ++j)
                                   acc += float((i + j) % 7);
                                 return best + acc;
                               }) > 0;
}

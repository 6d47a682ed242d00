#include <pacxx/pacxx.hpp>
// A stencil (gpu::neighbours and view::transform) that calls through a function pointer,
// fused into the gpu::copy that evaluates it.
float halve(float x) { return x / 2; }
int main() {
  const std::size_t w = 8;
  gpu::vector<float> image(w * w, 1.f), out(w * w);
  float (*f)(float) = halve;
  auto blurred = gpu::neighbours(image, w) | ranges::views::transform([f](auto nb) {
                   return nb.inside(1, 0) ? f(nb(1, 0)) : nb(0, 0); // expect-error: kernel 'gpu::copy' calls through a function pointer
                 });
  gpu::copy(blurred, out); // expect-note: in a kernel of gpu::copy launched here
}

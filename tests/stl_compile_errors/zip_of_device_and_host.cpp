// A zip of a gpu::vector and a std::vector: one part of the view is on the host.
#include <pacxx/pacxx.hpp>
#include <vector>
namespace view = ranges::views;
int main() {
  gpu::vector<float> d(100, 1.0f);
  std::vector<float> h(100, 2.0f);
  auto mult = [](auto p) { return std::get<0>(p) * std::get<1>(p); };
  float r = view::zip(d, h) | view::transform(mult) | gpu::reduce(0.0f); // expect-static-error: a host container or a view over one must be copied to the device first
  return r > 0;
}

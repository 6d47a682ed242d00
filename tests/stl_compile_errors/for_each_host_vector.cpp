// gpu::for_each over a std::vector.
#include <pacxx/pacxx.hpp>
#include <vector>
int main() {
  std::vector<float> h(100, 1.0f);
  gpu::for_each(h, [](float &x) { x *= 2; }); // expect-static-error: a host container or a view over one must be copied to the device first
}

// gpu::scatter_reduce(gpu::atomic, ...) needs a device atomic for its op and type: there
// is none for a product (the deterministic gpu::scatter_reduce takes any op).
#include <pacxx/pacxx.hpp>

#include <functional>
int main() {
  gpu::vector<float> values(100, 2.f), out(10, 1.f);
  gpu::vector<int> map(100, 3);
  gpu::scatter_reduce(gpu::atomic, values, map, out, std::multiplies<>{}); // expect-static-error: device atomics exist for std::plus
}

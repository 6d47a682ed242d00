// gpu::scatter_reduce(gpu::atomic, ...) needs a device atomic for its op and type: there
// is no double atomic add in pacxx/atomic.hpp.
#include <pacxx/pacxx.hpp>

#include <functional>
int main() {
  gpu::vector<double> values(100, 2.0), out(10, 1.0);
  gpu::vector<int> map(100, 3);
  gpu::scatter_reduce(gpu::atomic, values, map, out, std::plus<>{}); // expect-static-error: device atomics exist for std::plus
}

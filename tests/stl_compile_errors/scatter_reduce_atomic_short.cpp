// gpu::scatter_reduce(gpu::atomic, ...) needs a device atomic for its op and type: there
// is no 16-bit atomic add in pacxx/atomic.hpp (int, long, long long, float and double
// have one).
#include <pacxx/pacxx.hpp>

#include <functional>
int main() {
  gpu::vector<short> values(100, 2), out(10, 1);
  gpu::vector<int> map(100, 3);
  gpu::scatter_reduce(gpu::atomic, values, map, out, std::plus<>{}); // expect-static-error: device atomics exist for std::plus
}

// gpu::reduce with an operation capturing a std::vector by value.
#include <pacxx/pacxx.hpp>
#include <vector>
int main() {
  gpu::vector<int> d(100, 1);
  std::vector<int> weights(2, 1);
  auto op = [weights](int a, int b) { return a * weights[0] + b * weights[1]; };
  return gpu::reduce(d, 0, op); // expect-static-error: gpu::reduce: the operation must be trivially copyable
}

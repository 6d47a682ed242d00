// gpu::transform with a function object capturing a std::vector by value.
#include <pacxx/pacxx.hpp>
#include <vector>
int main() {
  gpu::vector<int> in(100, 1), out(100);
  std::vector<int> table(10, 3);
  gpu::transform(in, out, [table](int x) { return x + table[0]; }); // expect-static-error: gpu::transform: the function must be trivially copyable
}

// gpu::for_each with a function object capturing a std::vector by value.
#include <pacxx/pacxx.hpp>
#include <vector>
int main() {
  gpu::vector<int> d(100, 1);
  std::vector<int> table(10, 3);
  gpu::for_each(d, [table](int &x) { x += table[0]; }); // expect-static-error: gpu::for_each: the function must be trivially copyable
}

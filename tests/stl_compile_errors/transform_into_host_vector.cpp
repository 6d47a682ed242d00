// gpu::transform writing into a std::vector: the output must be on the device too.
#include <pacxx/pacxx.hpp>
#include <vector>
int main() {
  gpu::vector<int> in(100, 1);
  std::vector<int> out(100);
  gpu::transform(in, out, [](int x) { return x + 1; }); // expect-static-error: a host container or a view over one must be copied to the device first
}

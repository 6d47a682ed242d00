// A GPU algorithm given a host container: it must be copied to the device first.
#include <pacxx/pacxx.hpp>
#include <vector>
int main() {
  std::vector<int> h(100, 1);
  return gpu::reduce(h, 0); // expect-static-error: a host container or a view over one must be copied to the device first
}

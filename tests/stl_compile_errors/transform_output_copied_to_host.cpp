// Copying an output view to the host would read it.
#include <pacxx/pacxx.hpp>
int main() {
  gpu::vector<int> v(100);
  auto h = gpu::copy(v | gpu::views::transform_output([](int x) { return x + 1; })); // expect-static-error: write-only
  return int(h.size());
}

// gpu::sort reads and writes its view: a write-only view cannot be sorted.
#include <pacxx/pacxx.hpp>
int main() {
  gpu::vector<int> v(100);
  gpu::sort(v | gpu::views::transform_output([](int x) { return x + 1; })); // expect-static-error: a write-only view
}

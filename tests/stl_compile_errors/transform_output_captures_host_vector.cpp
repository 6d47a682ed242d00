// The function of an output view holds a host container.
#include <pacxx/pacxx.hpp>
#include <vector>
int main() {
  std::vector<int> h(100, 1);
  gpu::vector<int> v(100);
  auto ov = v | gpu::views::transform_output([h](int x) { return x + h[0]; }); // expect-static-error: the function must be trivially copyable
  (void)ov;
}

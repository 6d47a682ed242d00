// gpu::copy of a view over a host container: such a view cannot be evaluated on the
// device (gpu::copy of the container itself is the transfer).
#include <pacxx/pacxx.hpp>
#include <vector>
namespace view = ranges::views;
int main() {
  std::vector<int> h(100, 1);
  auto r = gpu::copy(view::reverse(h)); // expect-static-error: a host container or a view over one must be copied to the device first
  return r.size() == 100;
}

// A view over a host container (range-v3's ref_view holds its host address).
#include <pacxx/pacxx.hpp>
#include <vector>
namespace view = ranges::views;
int main() {
  std::vector<int> h(100, 1);
  return view::transform(h, [](int x) { return x * 2; }) | gpu::reduce(0); // expect-static-error: a host container or a view over one must be copied to the device first
}

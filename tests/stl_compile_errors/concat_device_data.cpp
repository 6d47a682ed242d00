// view::concat of device ranges: its iterator's variant throws bad_variant_access, which
// a device cannot (issue 34, item 5).
#include <pacxx/pacxx.hpp>
namespace view = ranges::views;
int main() {
  gpu::vector<int> a(100, 1), b(50, 2);
  return view::concat(a, b) | gpu::reduce(0); // expect-static-error: view::concat cannot run on a device
}

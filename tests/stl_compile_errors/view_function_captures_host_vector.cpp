// A view over a gpu::vector whose function captures a std::vector by value: the view
// is not device copyable (its function holds host memory).
#include <pacxx/pacxx.hpp>
#include <vector>
namespace view = ranges::views;
int main() {
  gpu::vector<int> d(100, 1);
  std::vector<int> table(10, 3);
  auto lookup = [table](int x) { return table[x % 10]; };
  return view::transform(d, lookup) | gpu::reduce(0); // expect-static-error: a host container or a view over one must be copied to the device first
}

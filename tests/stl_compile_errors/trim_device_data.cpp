// view::trim over device data, copied to the host: its bounds are searched on both
// ends (issue 34, item 6).
#include <pacxx/pacxx.hpp>
#include <vector>
namespace view = ranges::views;
int main() {
  gpu::vector<int> d(100, 1);
  std::vector<int> h = gpu::copy(d | view::trim([](int x) { return x == 0; })); // expect-static-error: find their bounds by reading elements
  return int(h.size());
}

// view::take_while over device data: its end compares elements with the predicate, so
// sizing it would read device memory on the host (issue 34, item 6).
#include <pacxx/pacxx.hpp>
namespace view = ranges::views;
int main() {
  gpu::vector<int> d(100, 1);
  return gpu::reduce(d | view::take_while([](int x) { return x > 0; }), 0); // expect-static-error: find their bounds by reading elements
}

// view::drop_while under a transform over device data: its begin searches the first
// element that fails the predicate, on the host (issue 34, item 6).
#include <pacxx/pacxx.hpp>
namespace view = ranges::views;
int main() {
  gpu::vector<int> d(100, 1), out(100);
  auto tail = d | view::drop_while([](int x) { return x < 0; });
  gpu::transform(tail | view::transform([](int x) { return x + 1; }), out, [](int x) { return x; }); // expect-static-error: find their bounds by reading elements
}

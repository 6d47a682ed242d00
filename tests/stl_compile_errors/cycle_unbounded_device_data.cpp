// An unbounded view::cycle over device data, reduced: it has no end (issue 34, item 6).
#include <pacxx/pacxx.hpp>
namespace view = ranges::views;
int main() {
  gpu::vector<int> d(100, 1);
  return d | view::cycle | gpu::reduce(0); // expect-static-error: an unbounded range (view::repeat, view::iota(x), view::cycle
}

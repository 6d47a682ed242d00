// view::delimit over device data, in a zip: its end compares elements with the value
// (issue 34, item 6).
#include <pacxx/pacxx.hpp>
namespace view = ranges::views;
int main() {
  gpu::vector<int> d(100, 1), e(100, 2);
  gpu::for_each(view::zip(d | view::delimit(0), e), [](auto &&p) { std::get<1>(p) = std::get<0>(p); }); // expect-static-error: find their bounds by reading elements
}

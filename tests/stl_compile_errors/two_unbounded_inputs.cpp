// Two unbounded inputs: neither gives the other a size (issue 34, item 8a).
#include <pacxx/pacxx.hpp>
namespace view = ranges::views;
int main() {
  return gpu::inner_product(view::repeat(1), view::iota(0), 0); // expect-static-error: an unbounded range (view::repeat, view::iota(x), view::cycle
}

// The elements of an output view cannot be read, e.g. as an algorithm's input.
#include <pacxx/pacxx.hpp>
int main() {
  gpu::vector<int> v(100), out(100);
  gpu::exclusive_scan(v | gpu::views::transform_output([](int x) { return x + 1; }), out, 0); // expect-static-error: they cannot be read
}

#include <pacxx/pacxx.hpp>
#include <stdexcept>
// The operation of gpu::reduce throws; the error is in it, through a helper of the user's.
int checked_add(int a, int b) {
  if (a < 0 || b < 0)
    throw std::domain_error("negative"); // expect-error: kernel 'gpu::reduce' throws an exception
  return a + b;
}
int main() {
  gpu::vector<int> v(100, 1);
  int sum = gpu::reduce(v, 0, [](int a, int b) { return checked_add(a, b); }); // expect-note: in the function passed to gpu::reduce here
  return sum == 100 ? 0 : 1;
}

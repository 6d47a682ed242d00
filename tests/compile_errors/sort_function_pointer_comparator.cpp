#include <pacxx/pacxx.hpp>
// A comparator that is a function pointer is called by pacxx's code, not the user's: the
// error is at the user's call of gpu::sort.
bool less(float a, float b) { return a < b; }
int main() {
  gpu::vector<float> v(100, 1.f);
  gpu::sort(v, &less); // expect-error: kernel 'gpu::sort' calls through a function pointer
}

// A memmove of a run-time length within a stack array (the insertion step of an
// insertion sort), then a sum of the array into global memory.
#include <pacxx/pacxx.hpp>

#include <cstring>

int main() {
  gpu::vector<unsigned> o(64);
  pacxx::kernel([](unsigned *o) {
    unsigned a[32];
    const unsigned t = static_cast<unsigned>(pacxx::Thread::get().global.x);
    for (unsigned i = 0; i < 32; ++i)
      a[i] = t + i;
    std::memmove(a + 1, a, (t % 31) * sizeof(unsigned));
    unsigned s = 0;
    for (unsigned i = 0; i < 32; ++i)
      s = s * 31 + a[i];
    o[t] = s;
  }, {{1}, {64}})(o.data());
}

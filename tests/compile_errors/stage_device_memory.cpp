#include <pacxx/pacxx.hpp>
int main() {
  gpu::vector<int> count(1, 4), out(64);
  pacxx::kernel([](const int *n, int *o) {
    int k = pacxx::stage(*n); // expect-error: stages a value that reads device or local memory
    o[pacxx::Thread::get().global.x] = k;
  }, {{1}, {64}})(count.data(), out.data());
}

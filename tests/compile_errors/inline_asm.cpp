#include <pacxx/pacxx.hpp>
int main() {
  gpu::vector<int> out(1);
  pacxx::kernel([](int *o) {
    int v = 1;
    asm volatile("" : "+r"(v)); // expect-error: uses inline assembly
    o[0] = v;
  }, {{1}, {1}})(out.data());
}

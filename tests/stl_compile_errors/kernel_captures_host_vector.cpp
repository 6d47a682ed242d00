// A pacxx::kernel whose lambda captures a std::vector.
#include <pacxx/pacxx.hpp>
#include <vector>
int main() {
  gpu::vector<float> out(16);
  std::vector<float> host(16, 1.0f);
  pacxx::kernel(
      [host](float *o) { o[pacxx::Thread::get().global.x] = host[0]; },
      {{1}, {16}})(out.data()); // expect-static-error: pacxx::kernel: the kernel's closure must be trivially copyable
}

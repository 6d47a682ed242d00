// A std::vector passed as a kernel argument.
#include <pacxx/pacxx.hpp>
#include <vector>
int main() {
  gpu::vector<float> out(16);
  std::vector<float> host(16, 1.0f);
  pacxx::kernel(
      [](float *o, const std::vector<float> &h) { o[pacxx::Thread::get().global.x] = h[0]; },
      {{1}, {16}})(out.data(), host); // expect-static-error: pacxx::kernel: kernel arguments must be device copyable
}

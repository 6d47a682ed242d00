#include <pacxx/pacxx.hpp>
#include <stdexcept>
int main() {
  gpu::vector<float> out(1);
  pacxx::kernel([](float *o, int n) {
    if (n < 0)
      throw std::runtime_error("negative"); // expect-error: throws an exception (throw)
    o[0] = n;
  }, {{1}, {1}})(out.data(), 1);
}

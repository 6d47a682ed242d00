#include <pacxx/pacxx.hpp>
float scale = 2.f; // a host variable: the device cannot see it
int main() {
  gpu::vector<float> out(1);
  pacxx::kernel([](float *o) {
    o[0] = scale; // expect-error: uses the mutable host global 'scale'
  }, {{1}, {1}})(out.data());
}

#include <pacxx/pacxx.hpp>
float twice(float x) { return 2 * x; }
int main() {
  gpu::vector<float> out(1);
  float (*f)(float) = twice;
  pacxx::kernel([f](float *o) {
    o[0] = f(1.f); // expect-error: calls through a function pointer
  }, {{1}, {1}})(out.data());
}

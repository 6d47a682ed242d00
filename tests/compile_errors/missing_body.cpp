#include <pacxx/pacxx.hpp>
float nowhere(float x); // declared, defined in no translation unit of the program
int main() {
  gpu::vector<float> out(1);
  pacxx::kernel([](float *o) {
    o[0] = nowhere(1.f); // expect-error: whose body is nowhere in the program
  }, {{1}, {1}})(out.data());
}
float nowhere_else(float x) { return x; }

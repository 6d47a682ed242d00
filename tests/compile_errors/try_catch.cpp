#include <pacxx/pacxx.hpp>
float may_throw(float x); // defined elsewhere: it may throw
int main() {
  gpu::vector<float> out(1);
  pacxx::kernel([](float *o) {
    try {
      o[0] = may_throw(1.f); // expect-error: catches exceptions (try/catch)
    } catch (int code) {
      o[0] = code;
    }
  }, {{1}, {1}})(out.data());
}

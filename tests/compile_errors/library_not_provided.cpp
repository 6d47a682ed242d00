#include <pacxx/pacxx.hpp>
#include <cstring>
// strlen is C library code CUDA does not offer in device code, so the JIT does not
// provide it (abi::lib_functions): calling it must stay a compile-time error.
int main() {
  gpu::vector<unsigned long> out(1);
  pacxx::kernel([](unsigned long *o, const char *s) {
    o[0] = std::strlen(s); // expect-error: whose body is nowhere in the program
  }, {{1}, {1}})(out.data(), "host");
}

#include <pacxx/pacxx.hpp>
int main() {
  gpu::vector<double> out(1);
  pacxx::kernel([](double *o, double x) {
    long double wide = x; // expect-error: uses long double
    o[0] = static_cast<double>(wide * wide);
  }, {{1}, {1}})(out.data(), 3.0);
}

#include <pacxx/pacxx.hpp>
struct Shape {
  virtual float area() const { return 0.f; }
};
struct Square : Shape {
  float side = 2.f;
  float area() const override { return side * side; }
};
int main() {
  gpu::vector<float> out(1);
  pacxx::kernel([](float *o, const Shape *s) {
    o[0] = s->area(); // expect-error: makes a virtual call
  }, {{1}, {1}})(out.data(), static_cast<const Shape *>(nullptr));
}

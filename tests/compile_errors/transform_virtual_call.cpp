#include <pacxx/pacxx.hpp>
// A construct that cannot run on a GPU in the function given to a GPU STL algorithm is
// reported at the user's line, naming the algorithm, with a note at its call.
struct Shape {
  virtual float area() const { return 1.f; }
};
int main() {
  gpu::vector<float> in(16, 1.f), out(16);
  const Shape *s = nullptr;
  gpu::transform(in, out, [s](float x) { // expect-note: in the function passed to gpu::transform here
    return x * s->area(); // expect-error: kernel 'gpu::transform' makes a virtual call
  });
}

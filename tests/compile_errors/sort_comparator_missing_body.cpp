#include <pacxx/pacxx.hpp>
// A comparator calling a function defined nowhere: an error when the program is linked,
// at the comparator's line, naming gpu::sort (which launches several kernels: reported once).
float weight(float x); // declared, defined in no translation unit of the program
int main() {
  gpu::vector<float> v(100, 1.f);
  gpu::sort(v, [](float a, float b) { // expect-note: in the function passed to gpu::sort here
    return weight(a) < b; // expect-error: kernel 'gpu::sort' calls 'weight(float)' whose body is nowhere in the program
  });
}

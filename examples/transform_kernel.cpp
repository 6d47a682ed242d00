// Listing 8 of the PACXX paper: gpu::transform written as a pacxx::kernel, one thread
// per element, 128 threads per block, here over a zip of two gpu::vectors.
#include <pacxx/pacxx.hpp>

#include <cstdio>
#include <vector>

using namespace pacxx;
namespace view = ranges::views;

template <class InRng, class OutRng, class Func>
void transform(InRng &&in, OutRng &out, Func func) {
  size_t distance = ranges::distance(in);
  auto kernel = pacxx::kernel(
      [func](auto in, auto out, size_t size) {
        auto id = Thread::get().global;
        if (id.x >= size)
          return;
        *(out + id.x) = func(*(in + id.x));
      },
      {{(distance + 127) / 128}, {128}});

  kernel(in.begin(), out.begin(), distance);
}

int main() {
  const size_t n = 100003;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 17);
    b[i] = static_cast<float>(i % 5) + 1.f;
  }
  try {
    gpu::vector<float> da = gpu::copy(a), db = gpu::copy(b), out(n);
    auto in = view::zip(da, db);
    transform(in, out, [](auto p) { return std::get<0>(p) / std::get<1>(p); });
    std::vector<float> r = gpu::copy(out);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i)
      wrong += r[i] != a[i] / b[i];
    printf("transform kernel over zip of %zu elements: %s\n", n, wrong ? "WRONG" : "correct");
    return wrong ? 1 : 0;
  } catch (const pacxx::error &e) {
    fprintf(stderr, "transform_kernel: %s\n", e.what());
    return 1;
  }
}

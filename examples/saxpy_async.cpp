// Listing 7 of the PACXX paper: saxpy with views only, evaluated on the GPU by
// gpu::async in one kernel (four views fused).
#include <pacxx/pacxx.hpp>

#include <cstdio>
#include <vector>

using std::get;
using std::vector;
namespace view = ranges::views;

auto mult = [](auto p) { return get<0>(p) * get<1>(p); };
auto plus = [](auto p) { return get<0>(p) + get<1>(p); };

auto saxpy(float A, const vector<float> &X, const vector<float> &Y) {
  return gpu::async(
      [=](auto a, const auto &x, const auto &y) {
        auto ax = view::zip(view::repeat(a), x) | view::transform(mult);
        return view::zip(ax, y) | view::transform(plus);
      },
      A, X, Y);
}

int main() {
  const std::size_t n = 1000003;
  vector<float> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 101);
    y[i] = static_cast<float>(i % 7) - 3.f;
  }
  const float a = 0.5f;
  try {
    auto future = saxpy(a, x, y); // returns at once; the work goes on
    vector<float> r = gpu::copy(future.get());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
      wrong += r.size() != n || r[i] != a * x[i] + y[i];
    printf("saxpy (gpu::async) of %zu elements: %s\n", n, wrong ? "WRONG" : "correct");
    return wrong ? 1 : 0;
  } catch (const pacxx::error &e) {
    fprintf(stderr, "saxpy_async: %s\n", e.what());
    return 1;
  }
}

// Listing 6 of the PACXX paper: the dot product as views fused into gpu::reduce.
// One kernel computes zip, transform and the per-block sums; the host adds the partials.
#include <pacxx/pacxx.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace std;
namespace view = ranges::views;

float dotProduct(const vector<float> &a, const vector<float> &b) {
  auto mult = [](auto p) { return get<0>(p) * get<1>(p); };

  return view::zip(gpu::copy(a), gpu::copy(b)) | view::transform(mult) | gpu::reduce(0.0f);
}

int main() {
  const size_t n = (1 << 24) + 3;
  vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1000) / 1000.f;
    b[i] = static_cast<float>((i * 7) % 13) / 13.f;
  }
  try {
    pacxx::reset_stats();
    float gpu_result = dotProduct(a, b);
    pacxx::runtime_stats s = pacxx::stats();
    double ref = 0;
    for (size_t i = 0; i < n; ++i)
      ref += double(a[i]) * b[i];
    bool ok = std::fabs(gpu_result - ref) <= 1e-4 * std::fabs(ref) + 1e-2;
    printf("dot product of %zu elements: %.6g (host: %.6g) in %zu kernel launch(es): %s\n", n,
           gpu_result, ref, s.kernel_launches, ok ? "correct" : "WRONG");
    return ok && s.kernel_launches == 1 ? 0 : 1;
  } catch (const pacxx::error &e) {
    fprintf(stderr, "dot_product: %s\n", e.what());
    return 1;
  }
}

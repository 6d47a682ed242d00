// gpu::dist in a project built with find_package(pacxx COMPONENTS dist): a vector
// scattered from rank 0, a fused distributed transform, a reduction every rank gets,
// the vector gathered back; checked against the host on every rank.
#include <pacxx/dist.hpp>
#include <pacxx/pacxx.hpp>

#include <cstdio>
#include <vector>

struct scale_add {
  float a;
  template <class P> float operator()(const P &p) const {
    return a * std::get<0>(p) + std::get<1>(p);
  }
};

int main(int argc, char **argv) {
  pacxx::dist::environment env(argc, argv);
  const std::size_t n = 1001;
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i)
    host[i] = static_cast<float>(i % 7);
  auto x = gpu::dist::vector<float>::scatter(host, 0);
  gpu::dist::vector<float> y(n);
  gpu::fill(y.local(), 1.0f);
  gpu::dist::transform(gpu::dist::zip(x, y), y, scale_add{2.0f}); // y = 2 x + 1
  const double sum = gpu::dist::reduce(y, 0.0);
  double want = 0;
  for (float v : host)
    want += 2.0 * v + 1.0;
  int ok = sum == want;
  const std::vector<float> back = y.gather(0);
  if (env.rank() == 0)
    for (std::size_t i = 0; i < n; ++i)
      ok &= back[i] == 2.0f * host[i] + 1.0f;
  pacxx::dist::detail::broadcast(&ok, sizeof ok, 0);
  if (env.rank() == 0)
    std::printf("dist project: %zu elements on %d ranks (%s), sum %g: %s\n", n, env.size(),
                env.transport_name(), sum, ok ? "correct" : "WRONG");
  return ok ? 0 : 1;
}

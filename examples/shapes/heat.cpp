// Heat diffusion (a Jacobi iteration, issue 35 and 37): explicit steps of the 2D heat
// equation, u' = u + k (laplacian of u) with clamped (insulated) borders, on a 5-point
// gpu::stencil. Two steps (ping-pong) are captured once as a pacxx::graph and replayed;
// gpu::iterate_until runs them until the largest change of a step, reduced on the device
// (gpu::reduce_to into a flag), is below a tolerance, testing every 8 double steps.
// Checked against the same iteration on the host, step for step.
//   heat [width height]
#include <pacxx/pacxx.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <vector>

#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

namespace view = ranges::views;

struct diffuse {
  float k;
  template <class N> float operator()(const N &n) const {
    return n(0, 0) + k * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1) - 4.f * n(0, 0));
  }
};

int main(int argc, char **argv) {
  const std::size_t w = argc > 2 ? std::strtoul(argv[1], nullptr, 10) : 96;
  const std::size_t h = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 64;
  const float k = 0.2f, tolerance = 1e-3f;
  std::vector<float> u0(w * h, 0.f);
  for (std::size_t y = h / 4; y < h / 2; ++y) // a hot block
    for (std::size_t x = w / 4; x < w / 2; ++x)
      u0[x + w * y] = 100.f;

  gpu::vector<float> u = gpu::copy(u0), v(w * h);
  gpu::vector<int> hot(1); // 1 while some point changed by more than the tolerance
  pacxx::queue q;
  pacxx::graph step = pacxx::capture(q, [&] {
    gpu::transform(gpu::stencil<1>(gpu::md(u, w, h), gpu::boundary::clamp), v, diffuse{k});
    gpu::transform(gpu::stencil<1>(gpu::md(v, w, h), gpu::boundary::clamp), u, diffuse{k});
    // Whether the second step changed a point by more than the tolerance: a max of 0/1.
    gpu::reduce_to(view::zip(u, v) | view::transform([tolerance](auto p) {
                     return std::fabs(std::get<0>(p) - std::get<1>(p)) > tolerance ? 1 : 0;
                   }),
                   hot.data(), 0, [](int a, int b) { return a > b ? a : b; });
  });
  const std::size_t steps = gpu::iterate_until(
      q, step, hot, gpu::iterate_options().max_iterations(100000).check_every(8));
  q.wait();

  // The host: the same double steps, as many.
  std::vector<float> a = u0, b(w * h);
  auto at = [&](const std::vector<float> &s, long x, long y) {
    x = x < 0 ? 0 : x >= long(w) ? long(w) - 1 : x;
    y = y < 0 ? 0 : y >= long(h) ? long(h) - 1 : y;
    return s[static_cast<std::size_t>(x) + w * static_cast<std::size_t>(y)];
  };
  auto host_step = [&](const std::vector<float> &s, std::vector<float> &d) {
    for (long y = 0; y < long(h); ++y)
      for (long x = 0; x < long(w); ++x)
        d[static_cast<std::size_t>(x) + w * static_cast<std::size_t>(y)] =
            at(s, x, y) + k * (at(s, x - 1, y) + at(s, x + 1, y) + at(s, x, y - 1) +
                               at(s, x, y + 1) - 4.f * at(s, x, y));
  };
  for (std::size_t i = 0; i < steps; ++i) {
    host_step(a, b);
    host_step(b, a);
  }
  const std::vector<float> got = gpu::copy(u);
  double worst = 0;
  for (std::size_t i = 0; i < w * h; ++i)
    worst = std::fmax(worst, std::fabs(got[i] - a[i]));
  std::printf("heat %zux%zu: %zu double steps to a change below %g, largest difference from the "
              "host %.2e\n",
              w, h, steps, tolerance, worst);
  if (!(worst < 1e-3) || steps == 0) {
    std::printf("FAILED\n");
    return 1;
  }
  return 0;
}

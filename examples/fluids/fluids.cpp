// Stable fluids (Jos Stam; examples/fluids/fluids.hpp): an n x n box with a constant
// source of smoke and force, the step captured once as a graph and replayed, checked
// against the host's solver (the same arithmetic in the same order): every step from
// the device's state before it, each field within 2.5e-7 n of its largest magnitude.
// The tolerance: the only differences are the rounding of a * b + c, which the device's
// compiler may fuse into one fma and the host's (x86-64 without FMA) does not: built
// with -ffp-contract=off the two agree bit for bit over any number of steps (measured;
// tests/e2e/apps_test.cpp checks it so). Such a difference is about an ulp (2^-24
// relative) of the pressure, and the gradient subtraction divides pressure differences
// by h = 1 / n: one step from the same state differed by 4.6e-8 n to 8.8e-8 n of the
// field's largest value (PoCL, n = 31, 64, 90, 128, 10 to 30 steps, 2026-11-27). Over
// many steps the flow amplifies such differences (3e-3 after 40 steps at n = 128), so
// the comparison restarts from the device's state at each step.
//   fluids [n [steps]]
#include "fluids.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
// The largest difference between two fields, relative to the largest magnitude in b.
double relative_difference(const std::vector<float> &a, const std::vector<float> &b) {
  double d = 0, m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::fmax(d, std::fabs(double(a[i]) - b[i]));
    m = std::fmax(m, std::fabs(double(b[i])));
  }
  return m > 0 ? d / m : d;
}
} // namespace

int main(int argc, char **argv) {
  const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 90;
  const std::size_t steps = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 10;
  try {
    const fluids::sources src = fluids::make_sources(n);
    fluids::solver dev(n, src);
    fluids::host_solver host(n, src);
    double worst = 0;
    for (std::size_t s = 0; s < steps; ++s) {
      host.load(dev.state());
      dev.run();
      host.step();
      worst = std::fmax(worst, relative_difference(gpu::copy(dev.density()), host.dens));
      worst = std::fmax(worst, relative_difference(gpu::copy(dev.u()), host.u));
      worst = std::fmax(worst, relative_difference(gpu::copy(dev.v()), host.v));
    }
    double mass = 0;
    for (float d : host.dens)
      mass += d;
    const bool ok = worst <= 2.5e-7 * double(n) && mass > 0;
    std::printf("fluids %zux%zu: %zu steps of %zu kernels (a captured graph), smoke %.4g; largest "
                "difference from the host %.2e of the field's largest value (%.2e n): %s\n",
                n, n, steps, dev.kernels_per_step(), mass, worst, worst / double(n),
                ok ? "correct" : "WRONG");
    return ok ? 0 : 1;
  } catch (const pacxx::error &e) {
    std::fprintf(stderr, "fluids: %s\n", e.what());
    return 1;
  }
}

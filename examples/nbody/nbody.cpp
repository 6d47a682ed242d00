// All-pairs N-body (Accelerate's and the CUDA SDK's benchmark) on gpu::pairwise_reduce:
// a few integration steps of n bodies (default 1000; the first argument sets it),
// checked against the host in double: the accelerations of the first step and the
// positions after the last, each within a relative tolerance.
#include "nbody.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000;
  const int steps = 4;
  const float dt = 1e-2f, eps2 = 1e-4f;
  std::vector<nbody::body> pos = nbody::random_bodies(n, 42);
  const std::vector<nbody::body> start = pos;
  std::vector<nbody::vec3> vel(n, nbody::vec3{0.f, 0.f, 0.f});
  try {
    gpu::vector<nbody::body> dpos = gpu::copy(pos);
    gpu::vector<nbody::vec3> dvel = gpu::copy(vel), dacc(n);
    nbody::accelerations(dpos, dacc, eps2);
    const double acc_error =
        nbody::relative_error(gpu::copy(dacc), nbody::host_accelerations(pos, eps2));
    for (int s = 0; s < steps; ++s) {
      nbody::step(dpos, dvel, dacc, dt, eps2);
      nbody::host_step(pos, vel, dt, eps2);
    }
    const std::vector<nbody::body> got = gpu::copy(dpos);
    double pos_error = 0, moved = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double d = std::fabs(double(pos[i].x) - start[i].x) +
                       std::fabs(double(pos[i].y) - start[i].y) +
                       std::fabs(double(pos[i].z) - start[i].z);
      moved = d > moved ? d : moved;
      const double e = std::fabs(double(got[i].x) - pos[i].x) +
                       std::fabs(double(got[i].y) - pos[i].y) +
                       std::fabs(double(got[i].z) - pos[i].z);
      pos_error = e > pos_error ? e : pos_error;
    }
    const bool ok = acc_error < 1e-4 && pos_error < 1e-5;
    std::printf("nbody: %zu bodies, %d steps: accelerations within %.2g of the host's (relative), "
                "positions (moved up to %.2g) within %.2g: %s\n",
                n, steps, acc_error, moved, pos_error, ok ? "correct" : "WRONG");
    return ok ? 0 : 1;
  } catch (const pacxx::error &e) {
    std::fprintf(stderr, "nbody: %s\n", e.what());
    return 1;
  }
}

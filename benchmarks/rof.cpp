// The paper's application (issue 11): ROF denoising written module by module
// (examples/rof), fused by views into two kernels an iteration, against the same
// iteration written FlexBox style with Thrust (one call per module operation,
// device_vector temporaries) and written by hand in CUDA (two fused kernels), all in
// this one process (baselines/rof.cu, nvcc). Images of 1024^2, 2048^2 and 4096^2
// pixels (synthetic, piecewise constant plus noise; the content does not change the
// work); one benchmark iteration is 100 solver iterations, until the device is done.
//
// Counters (measured, never typed in):
//   launches_per_iter  pacxx::stats() for pacxx; for the baselines the CUDA runtime's
//                      launch entry points, wrapped at link time (baselines/rof.h);
//   device_MiB         device memory the implementation holds (its image, solution and
//                      variables): cudaMemGetInfo's free memory before it is set up
//                      minus after its first iteration (pacxx's pool is off, as with
//                      PACXX_POOL_MB=0, so that it neither hides nor keeps memory);
//   bytes_per_iter     the compulsory traffic of an iteration in two passes, the
//                      schedule of both pacxx and the hand-fused CUDA (see below);
//   copy_GBps          cudaMemcpy device to device at the image's size (read + write),
//                      the rate that traffic is set against.
// rof_pacxxgraph: the pacxx solver's iteration captured once (pacxx::capture) and
// replayed 100 times a benchmark iteration.
// Before timing, each implementation's result after 100 iterations is checked against
// the hand-fused CUDA one (largest difference within 1e-4 of the largest value).
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

#include "baselines/rof.h"
#include "operators/gradient.hpp"
#include "operators/identity.hpp"
#include "prox/l2_data_dual.hpp"
#include "prox/tv_dual.hpp"
#include "solver/primal_dual.hpp"
#include "synthetic.hpp"

namespace {

constexpr float kLambda = 8.f;
constexpr int kIterations = 100;

// Floats an iteration must read and write per pixel when it runs in two passes:
// dual pass: read u_bar, p (2), q, f; write p (2), q;  primal pass: read p (2), q, u;
// write u, u_bar. Neighbours' values come from cache.
constexpr double kFloatsPerPixel = (5 + 3) + (4 + 2);

struct image {
  std::size_t side;
  std::vector<float> noisy;
  std::vector<float> cuda_result; // hand-fused CUDA after 100 iterations: the yardstick
  explicit image(std::size_t s)
      : side(s), noisy(rof::add_gaussian_noise(rof::piecewise_constant(s, s), 0.1f, 42)) {}
};

image &data(std::size_t side) {
  // Never destroyed: the runtime may be gone by the time static objects are.
  static auto *all = new std::map<std::size_t, std::unique_ptr<image>>;
  auto &p = (*all)[side];
  if (!p) {
    p.reset(new image(side));
    rof_cuda_solver *s = rof_cuda_create(p->noisy.data(), side, side, kLambda);
    rof_cuda_iterate(s, kIterations);
    p->cuda_result.resize(side * side);
    rof_cuda_u(s, p->cuda_result.data());
    rof_cuda_destroy(s);
  }
  return *p;
}

bool agrees(const std::vector<float> &u, const std::vector<float> &want) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    diff = std::max(diff, std::fabs(static_cast<double>(u[i]) - want[i]));
    scale = std::max(scale, std::fabs(static_cast<double>(want[i])));
  }
  if (diff > 1e-4 * scale)
    std::fprintf(stderr, "rof: result differs from the hand-fused CUDA one by %g (scale %g)\n",
                 diff, scale);
  return diff <= 1e-4 * scale;
}

void counters(benchmark::State &state, std::size_t side, double launches, double used_bytes) {
  const double px = static_cast<double>(side) * side;
  state.counters["pixels"] = px;
  state.counters["launches_per_iter"] = launches;
  state.counters["device_MiB"] = used_bytes / (1 << 20);
  state.counters["bytes_per_iter"] = kFloatsPerPixel * sizeof(float) * px;
  // Read + written by the copy of one image, over its time.
  static std::map<std::size_t, double> copy_ms;
  double &ms = copy_ms[side];
  if (ms == 0)
    ms = rof_copy_ms(side * side * sizeof(float), 20);
  state.counters["copy_GBps"] = 2.0 * px * sizeof(float) / (ms * 1e6);
}

auto make_solver(const gpu::vector<float> &f, std::size_t side) {
  return rof::make_primal_dual(f, rof::make_term(rof::gradient{side}, rof::tv_dual(1.f)),
                               rof::make_term(rof::identity{}, rof::l2_data_dual(f, kLambda)));
}

// captured: the iteration recorded once by pacxx::capture and replayed (issue 37: one
// CUDA graph launch an iteration instead of two kernel launches through the runtime).
void rof_pacxx_run(benchmark::State &state, bool captured) {
  const std::size_t side = state.range(0);
  image &img = data(side);
  const pacxx::queue &q = pacxx::queue::default_queue();
  auto iterations = [&](auto &s, const pacxx::graph &g, int n) {
    if (captured)
      g.launch(q, n);
    else
      for (int i = 0; i < n; ++i)
        s.iterate();
  };
  auto record = [&](auto &s) {
    return captured ? pacxx::capture(q, [&] { s.iterate(); }) : pacxx::graph();
  };
  {
    const gpu::vector<float> f = gpu::copy(img.noisy);
    auto s = make_solver(f, side);
    const pacxx::graph g = record(s);
    iterations(s, g, kIterations);
    if (!agrees(gpu::copy(s.u()), img.cuda_result))
      return state.SkipWithError("wrong result");
  }
  pacxx::synchronize();
  const std::size_t free_before = rof_device_free_bytes();
  const gpu::vector<float> f = gpu::copy(img.noisy);
  auto s = make_solver(f, side);
  const pacxx::graph g = record(s);
  iterations(s, g, 1);
  pacxx::synchronize();
  const double used = static_cast<double>(free_before) - rof_device_free_bytes();
  const std::size_t launches_before = pacxx::stats().kernel_launches;
  std::size_t done = 0;
  for (auto _ : state) {
    iterations(s, g, kIterations);
    pacxx::synchronize();
    done += kIterations;
  }
  counters(state, side,
           static_cast<double>(pacxx::stats().kernel_launches - launches_before) / done, used);
}
void rof_pacxx(benchmark::State &state) { rof_pacxx_run(state, false); }
void rof_pacxxgraph(benchmark::State &state) { rof_pacxx_run(state, true); }

template <class Create, class Iterate, class Result, class Destroy>
void baseline(benchmark::State &state, Create create, Iterate iterate, Result result,
              Destroy destroy) {
  const std::size_t side = state.range(0);
  image &img = data(side);
  {
    auto *s = create(img.noisy.data(), side, side, kLambda);
    iterate(s, kIterations);
    std::vector<float> u(side * side);
    result(s, u.data());
    destroy(s);
    if (!agrees(u, img.cuda_result))
      return state.SkipWithError("wrong result");
  }
  rof_synchronize();
  const std::size_t free_before = rof_device_free_bytes();
  auto *s = create(img.noisy.data(), side, side, kLambda);
  iterate(s, 1);
  rof_synchronize();
  const double used = static_cast<double>(free_before) - rof_device_free_bytes();
  const std::size_t launches_before = rof_launches();
  std::size_t iterations = 0;
  for (auto _ : state) {
    iterate(s, kIterations);
    rof_synchronize();
    iterations += kIterations;
  }
  counters(state, side, static_cast<double>(rof_launches() - launches_before) / iterations, used);
  destroy(s);
}

void rof_thrust(benchmark::State &state) {
  baseline(state, rof_thrust_create, rof_thrust_iterate, rof_thrust_u, rof_thrust_destroy);
}
// The same Thrust calls without the wait at the end of each (not FlexBox's code; for
// reference).
void rof_thrustnosync(benchmark::State &state) {
  baseline(state, rof_thrust_create, rof_thrust_nosync_iterate, rof_thrust_u, rof_thrust_destroy);
}
void rof_cuda(benchmark::State &state) {
  baseline(state, rof_cuda_create, rof_cuda_iterate, rof_cuda_u, rof_cuda_destroy);
}

void sides(benchmark::internal::Benchmark *b) {
  for (int64_t s : {1024, 2048, 4096})
    b->Arg(s);
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}

} // namespace

BENCHMARK(rof_pacxx)->Apply(sides);
BENCHMARK(rof_pacxxgraph)->Apply(sides);
BENCHMARK(rof_thrust)->Apply(sides);
BENCHMARK(rof_thrustnosync)->Apply(sides);
BENCHMARK(rof_cuda)->Apply(sides);
// pacxx's pool off unless asked for (PACXX_POOL_MB), so that device_MiB sees pacxx's
// allocations as it sees cudaMalloc's.
int main(int argc, char **argv) {
  setenv("PACXX_POOL_MB", "0", 0);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// Stable fluids (issue 35 item 7, issue 37 item 4): examples/fluids' solver (stencils,
// md views captured in the advection, the step captured as a pacxx::graph and
// replayed) against a naive CUDA port of Stam's code (baselines/fluids.cu: a kernel per
// loop, plain launches on a stream), same process. Family fluids, variants pacxx (the
// graph replayed), direct (pacxx without the graph: the same algorithms called every
// step, the launch path of issue 37) and cuda; grids of 1024^2 and 2048^2 cells. Times are per step
// (about 220 kernels with 20 Jacobi iterations a solve), each timed step synchronised;
// counter cells: cells per second. Before the timings, one step from rest on each side
// is compared: u, v and density within 2.5e-7 n of their largest magnitude (the
// example's tolerance: the two compilers fuse a * b + c differently).
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include "../examples/fluids/fluids.hpp"
#include "baselines/fluids.h"

namespace {

struct fluid_data {
  std::size_t n;
  fluids::sources src;
  fluids::params p;
  fluids::solver dev;
  void *cuda;
  explicit fluid_data(std::size_t n_)
      : n(n_), src(fluids::make_sources(n_)), dev(n_, src),
        cuda(cuda_fluids_create(n_, src.u.data(), src.v.data(), src.dens.data(), p.dt, p.diff,
                                p.visc, p.iterations)) {}
};

fluid_data &cached(std::size_t n) {
  // Never destroyed: the runtime may be gone by the time static objects are.
  static auto *all = new std::map<std::size_t, std::unique_ptr<fluid_data>>;
  auto &d = (*all)[n];
  if (!d)
    d.reset(new fluid_data(n));
  return *d;
}

double relative_difference(const std::vector<float> &a, const std::vector<float> &b) {
  double d = 0, m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::fmax(d, std::fabs(double(a[i]) - b[i]));
    m = std::fmax(m, std::fabs(double(b[i])));
  }
  return m > 0 ? d / m : d;
}

// One step from rest on both sides (fresh solvers) agrees.
bool agree(std::size_t n) {
  const fluids::sources src = fluids::make_sources(n);
  const fluids::params p;
  fluids::solver dev(n, src);
  void *cuda = cuda_fluids_create(n, src.u.data(), src.v.data(), src.dens.data(), p.dt, p.diff,
                                  p.visc, p.iterations);
  dev.run();
  cuda_fluids_run(cuda, 1);
  const std::size_t s = (n + 2) * (n + 2);
  std::vector<float> u(s), v(s), dens(s);
  cuda_fluids_state(cuda, u.data(), v.data(), dens.data());
  cuda_fluids_destroy(cuda);
  const double worst = std::fmax(relative_difference(gpu::copy(dev.u()), u),
                                 std::fmax(relative_difference(gpu::copy(dev.v()), v),
                                           relative_difference(gpu::copy(dev.density()), dens)));
  return worst <= 2.5e-7 * double(n);
}

template <class F> void run(benchmark::State &state, F f) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  static std::map<std::size_t, bool> checked;
  if (!checked.count(n))
    checked[n] = agree(n);
  if (!checked[n])
    return state.SkipWithError("pacxx and CUDA disagree");
  fluid_data &d = cached(n);
  f(d);
  for (auto _ : state)
    f(d);
  state.counters["cells"] = benchmark::Counter(double(n) * double(n) * double(state.iterations()),
                                               benchmark::Counter::kIsRate);
  state.counters["kernels"] = double(d.dev.kernels_per_step());
}

void fluids_pacxx(benchmark::State &s) {
  run(s, [](fluid_data &d) { d.dev.run(); });
}
void fluids_direct(benchmark::State &s) {
  run(s, [](fluid_data &d) { d.dev.run_direct(); });
}
void fluids_cuda(benchmark::State &s) {
  run(s, [](fluid_data &d) { cuda_fluids_run(d.cuda, 1); });
}

void sizes(benchmark::internal::Benchmark *b) {
  for (int n : {1024, 2048})
    b->Arg(n);
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}
BENCHMARK(fluids_pacxx)->Apply(sizes);
BENCHMARK(fluids_direct)->Apply(sizes);
BENCHMARK(fluids_cuda)->Apply(sizes);

} // namespace

BENCHMARK_MAIN();

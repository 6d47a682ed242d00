// Launch costs (issue 37), on a CUDA GPU. One process, the same 2^16-element axpy
// (y = a * x + y) throughout:
//  - axpy_<way>: 2000 dependent launches back to back, then one synchronisation; the
//    counter launch_us is the time of one launch in microseconds (the console prints
//    it with an "s": Google Benchmark marks inverted rates so). Ways: pacxx_transform
//    (gpu::transform of zip(x, y)), pacxx_kernel (a raw pacxx::kernel), pacxx_graph (the
//    2000 gpu::transforms captured once with pacxx::capture, one g.launch per
//    iteration), cuda_launch (cudaLaunchKernel on the legacy stream), cuda_graph (the
//    2000 launches stream-captured into a CUDA graph, one cudaGraphLaunch).
//  - fixed_point_<way>: 1000 passes of the axpy plus a counter that the pass moves
//    towards zero, run until the counter is zero: gpu::iterate_until with the pass as a
//    graph and as a callable, testing every 8 passes; and a host loop that reads the
//    counter back after every pass. The counter pass_us is one pass, in microseconds.
//  - graph_update_<k> and graph_recapture_<k>: a graph of k gpu::transforms whose
//    captured factor changes every iteration, by g.update (cuGraphExecUpdate of the
//    executable graph) and by capturing a new graph (pacxx::capture, cuGraphInstantiate),
//    each followed by one replay; change_us is one change and replay, in microseconds.
// Results are checked against a host reference before timing.
// The first-run (JIT) costs are measured by benchmarks/cold_start.sh on whole programs.
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include "baselines/launches.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace view = ranges::views;

namespace {

constexpr std::size_t n = std::size_t(1) << 16;
constexpr int launches = 2000;
constexpr int passes = 1000;
constexpr float a = 1.0f / 1024;

struct axpy_op {
  float a;
  float operator()(const std::tuple<float, float> &p) const {
    return a * std::get<0>(p) + std::get<1>(p);
  }
};

struct data {
  gpu::vector<float> x, y;
  data() : x(n, 1.0f), y(n, 0.0f) {}
};

data &vectors() {
  static data *d = new data;
  return *d;
}

void axpy_transform(data &d) { gpu::transform(view::zip(d.x, d.y), d.y, axpy_op{a}); }

void axpy_kernel(data &d) {
  pacxx::kernel(
      [](float a, const float *x, float *y, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          y[i] = a * x[i] + y[i];
      },
      {{(n + 255) / 256}, {256}})(a, d.x.data(), d.y.data(), n);
}

// y after k launches from y = 0, x = 1: k * a (exact in float for these k).
bool check(benchmark::State &state, data &d, int k) {
  const std::vector<float> y = gpu::copy(d.y);
  for (float v : y)
    if (v != k * a) {
      state.SkipWithError("wrong result");
      return false;
    }
  return true;
}

void reset(data &d) {
  pacxx::detail::fill_on_device(d.y.data(), 0, n * sizeof(float));
  pacxx::synchronize();
}

void per_launch(benchmark::State &state, int count) {
  state.counters["launch_us"] = benchmark::Counter(
      count * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

template <class F> void run_direct(benchmark::State &state, F launch) {
  data &d = vectors();
  reset(d);
  for (int k = 0; k < launches; ++k)
    launch(d);
  if (!check(state, d, launches))
    return;
  for (auto _ : state) {
    for (int k = 0; k < launches; ++k)
      launch(d);
    pacxx::synchronize();
  }
  per_launch(state, launches);
}

void axpy_pacxx_transform(benchmark::State &state) { run_direct(state, axpy_transform); }
void axpy_pacxx_kernel(benchmark::State &state) { run_direct(state, axpy_kernel); }

void axpy_pacxx_graph(benchmark::State &state) {
  data &d = vectors();
  reset(d);
  const pacxx::queue &q = pacxx::queue::default_queue();
  pacxx::graph g = pacxx::capture(q, [&] {
    for (int k = 0; k < launches; ++k)
      axpy_transform(d);
  });
  g.launch(q);
  if (!check(state, d, launches))
    return;
  for (auto _ : state) {
    g.launch(q);
    pacxx::synchronize();
  }
  per_launch(state, launches);
}

void axpy_cuda_launch(benchmark::State &state) {
  data &d = vectors();
  reset(d);
  cuda_axpy_launches(a, d.x.data(), d.y.data(), n, launches);
  if (!check(state, d, launches))
    return;
  for (auto _ : state)
    cuda_axpy_launches(a, d.x.data(), d.y.data(), n, launches);
  per_launch(state, launches);
}

void axpy_cuda_graph(benchmark::State &state) {
  data &d = vectors();
  reset(d);
  cuda_axpy_graph_prepare(a, d.x.data(), d.y.data(), n, launches);
  cuda_axpy_graph_run();
  if (!check(state, d, launches))
    return;
  for (auto _ : state)
    cuda_axpy_graph_run();
  per_launch(state, launches);
}

// ---- changing a graph ------------------------------------------------------------

// k transforms y = f * x + y with the factor f captured by value.
void scaled_axpys(data &d, int k, float f) {
  for (int i = 0; i < k; ++i)
    gpu::transform(view::zip(d.x, d.y), d.y, axpy_op{f});
}

template <class Change> void run_change(benchmark::State &state, Change change) {
  const int k = static_cast<int>(state.range(0));
  data &d = vectors();
  reset(d);
  const pacxx::queue &q = pacxx::queue::default_queue();
  pacxx::graph g = pacxx::capture(q, [&] { scaled_axpys(d, k, a); });
  // Two changes, a then 2a: y = k * a + k * 2a.
  change(q, g, d, k, a);
  change(q, g, d, k, 2 * a);
  pacxx::synchronize();
  const std::vector<float> y = gpu::copy(d.y);
  for (float v : y)
    if (v != 3 * k * a) {
      state.SkipWithError("wrong result");
      return;
    }
  float f = a;
  for (auto _ : state) {
    change(q, g, d, k, f);
    f = f == a ? 2 * a : a;
  }
  pacxx::synchronize();
  state.counters["change_us"] = benchmark::Counter(
      1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void graph_update(benchmark::State &state) {
  run_change(state, [](const pacxx::queue &q, pacxx::graph &g, data &d, int k, float f) {
    g.update(q, [&] { scaled_axpys(d, k, f); });
    g.launch(q);
  });
}

void graph_recapture(benchmark::State &state) {
  run_change(state, [](const pacxx::queue &q, pacxx::graph &g, data &d, int k, float f) {
    g = pacxx::capture(q, [&] { scaled_axpys(d, k, f); });
    g.launch(q);
  });
}

// ---- fixed point ------------------------------------------------------------------

struct loop_data : data {
  gpu::vector<int> left;
  loop_data() : left(1, passes) {}
};

loop_data &loop_vectors() {
  static loop_data *d = new loop_data;
  return *d;
}

// One pass: the axpy, and the counter one step towards zero.
void pass(loop_data &d) {
  pacxx::kernel(
      [](float a, const float *x, float *y, int *left, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          y[i] = a * x[i] + y[i];
        if (i == 0 && left[0] > 0)
          left[0] -= 1;
      },
      {{(n + 255) / 256}, {256}})(a, d.x.data(), d.y.data(), d.left.data(), n);
}

void restart(loop_data &d) {
  const int start = passes;
  pacxx::detail::copy_to_device(d.left.data(), &start, sizeof start);
}

template <class Loop> void run_fixed_point(benchmark::State &state, Loop loop) {
  loop_data &d = loop_vectors();
  reset(d);
  restart(d);
  if (loop(d) != std::size_t(passes) || !check(state, d, passes)) {
    if (!state.error_occurred())
      state.SkipWithError("wrong number of passes");
    return;
  }
  for (auto _ : state) {
    restart(d);
    benchmark::DoNotOptimize(loop(d));
  }
  state.counters["pass_us"] = benchmark::Counter(
      passes * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void fixed_point_iterate_graph(benchmark::State &state) {
  const pacxx::queue &q = pacxx::queue::default_queue();
  loop_data &d = loop_vectors();
  pacxx::graph g = pacxx::capture(q, [&] { pass(d); });
  run_fixed_point(state, [&](loop_data &d) {
    return gpu::iterate_until(q, g, d.left, gpu::iterate_options().check_every(8));
  });
}

void fixed_point_iterate_callable(benchmark::State &state) {
  const pacxx::queue &q = pacxx::queue::default_queue();
  run_fixed_point(state, [&](loop_data &d) {
    return gpu::iterate_until(
        q, [&] { pass(d); }, d.left, gpu::iterate_options().check_every(8));
  });
}

void fixed_point_host_loop(benchmark::State &state) {
  run_fixed_point(state, [](loop_data &d) {
    std::size_t k = 0;
    int left = 1;
    while (left != 0) {
      pass(d);
      ++k;
      pacxx::detail::copy_to_host(&left, d.left.data(), sizeof left);
    }
    return k;
  });
}

} // namespace

BENCHMARK(axpy_pacxx_transform)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(axpy_pacxx_kernel)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(axpy_pacxx_graph)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(axpy_cuda_launch)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(axpy_cuda_graph)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(graph_update)->Arg(2)->Arg(16)->Arg(128)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(graph_recapture)->Arg(2)->Arg(16)->Arg(128)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(fixed_point_iterate_graph)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(fixed_point_iterate_callable)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(fixed_point_host_loop)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();

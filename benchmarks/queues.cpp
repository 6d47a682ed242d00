// Queues and device futures (issue 12), on a CUDA GPU:
//  - pipeline/<chunk log2>/<queues>: a 2^28-float array in pinned memory (cut into
//    chunks of 2^k floats, each a gpu::pinned_vector), every chunk uploaded
//    (gpu::copy(pinned, device), asynchronous) and summed (gpu::reduce_async) on one of
//    1..4 queues in turn; 1 queue is the serial version (upload, reduce, upload, ...).
//    upload_only and reduce_only time the two halves alone, so that the pipeline can be
//    read against max(PCIe time, kernel time).
//  - chain_device/<n> vs chain_sync/<n>: ten dependent steps x = (x - sum(x) / n) * 0.5:
//    on the device (gpu::reduce_to into a device scalar that the next transform reads,
//    one queue, one wait at the end) and with synchronous calls (gpu::reduce returns
//    the sum to the host, which passes it to the transform).
// Listing 7's gpu::async saxpy against Thrust is in stl_vs_cuda (saxpy_pacxx_async,
// saxpy_thrust). Every result is checked against a host reference before timing.
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include "bench_sizes.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

namespace view = ranges::views;

namespace {

void fail(benchmark::State &state, const char *what) { state.SkipWithError(what); }

std::size_t total_floats() {
  int log2 = 28;
  if (const char *s = std::getenv("PACXX_BENCH_MAX_LOG2"))
    log2 = std::atoi(s);
  return std::size_t(1) << log2;
}

struct to_double {
  double operator()(float v) const { return v; }
};

// ---- copy/compute overlap ------------------------------------------------------------

struct chunks {
  std::vector<gpu::pinned_vector<float>> host;
  std::vector<double> sums; // host reference per chunk
};

chunks &data(std::size_t chunk) {
  static auto *all = new std::map<std::size_t, std::unique_ptr<chunks>>;
  auto &p = (*all)[chunk];
  if (!p) {
    p.reset(new chunks);
    const std::size_t count = total_floats() / chunk;
    for (std::size_t c = 0; c < count; ++c) {
      p->host.emplace_back(chunk);
      double s = 0;
      for (std::size_t i = 0; i < chunk; ++i) {
        const float v = static_cast<float>((c * chunk + i) % 17) * 0.25f;
        p->host.back()[i] = v;
        s += v;
      }
      p->sums.push_back(s);
    }
  }
  return *p;
}

// mode 0: pipeline on `queues` queues; 1: uploads only; 2: reductions only (resident data)
void pipeline_run(benchmark::State &state, int mode) {
  const std::size_t chunk = std::size_t(1) << state.range(0);
  const int nq = mode == 0 ? static_cast<int>(state.range(1)) : 1;
  if (chunk > total_floats())
    return fail(state, "chunk larger than the array");
  chunks &d = data(chunk);
  std::vector<pacxx::queue> queues(nq);
  std::vector<gpu::vector<float>> dev;
  for (int k = 0; k < nq; ++k)
    dev.emplace_back(chunk);
  std::vector<gpu::vector<float>> resident; // mode 2: every chunk on the device already
  if (mode == 2)
    for (auto &h : d.host)
      resident.push_back(gpu::copy(h));
  pacxx::synchronize();
  std::vector<double> got(d.host.size());
  auto run = [&] {
    std::vector<pacxx::future<double>> sums;
    sums.reserve(d.host.size());
    for (std::size_t c = 0; c < d.host.size(); ++c) {
      const int k = static_cast<int>(c % nq);
      pacxx::queue_scope on(queues[k]);
      if (mode != 2)
        gpu::copy(d.host[c], dev[k]);
      if (mode != 1)
        sums.push_back(gpu::reduce_async(
            (mode == 2 ? resident[c] : dev[k]) | view::transform(to_double{}), 0.0));
    }
    for (std::size_t c = 0; c < sums.size(); ++c)
      got[c] = sums[c].get();
    for (auto &q : queues)
      q.wait();
  };
  run();
  if (mode != 1)
    for (std::size_t c = 0; c < d.host.size(); ++c)
      if (std::fabs(got[c] - d.sums[c]) > 1e-9 * (1 + d.sums[c]))
        return fail(state, "wrong sum");
  for (auto _ : state)
    run();
  const double bytes = double(total_floats()) * sizeof(float);
  state.counters["GB/s"] = benchmark::Counter(bytes, benchmark::Counter::kIsIterationInvariantRate,
                                              benchmark::Counter::kIs1000);
  state.counters["queues"] = nq;
}

void pipeline(benchmark::State &state) { pipeline_run(state, 0); }
void upload_only(benchmark::State &state) { pipeline_run(state, 1); }
void reduce_only(benchmark::State &state) { pipeline_run(state, 2); }

void pipeline_args(benchmark::internal::Benchmark *b) {
  for (int c : {22, 24, 26})
    for (int q : {1, 2, 3, 4})
      b->Args({c, q});
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}
void halves_args(benchmark::internal::Benchmark *b) {
  for (int c : {22, 24, 26})
    b->Args({c});
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}

// ---- a chain of dependent reductions and transforms -------------------------------

constexpr int steps = 10;

std::vector<float> chain_input(std::size_t n) {
  std::vector<float> h(n);
  for (std::size_t i = 0; i < n; ++i)
    h[i] = static_cast<float>(i % 13) * 0.5f;
  return h;
}

// The host reference, in double.
std::vector<double> chain_reference(const std::vector<float> &h) {
  std::vector<double> x(h.begin(), h.end());
  for (int k = 0; k < steps; ++k) {
    double s = 0;
    for (double v : x)
      s += v;
    for (double &v : x)
      v = (v - s / double(x.size())) * 0.5;
  }
  return x;
}

bool close(const std::vector<float> &got, const std::vector<double> &want) {
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::fabs(got[i] - want[i]) > 1e-3)
      return false;
  return true;
}

void chain_device(benchmark::State &state) {
  const std::size_t n = state.range(0);
  const std::vector<float> h = chain_input(n);
  pacxx::queue q;
  gpu::vector<float> x = gpu::copy(q, h), sums(steps);
  auto run = [&] {
    for (int k = 0; k < steps; ++k) {
      float *s = sums.data() + k;
      gpu::reduce_to(q, x, s, 0.f);
      gpu::transform(q, x, x, [s, n](float v) { return (v - *s / float(n)) * 0.5f; });
    }
    q.wait();
  };
  run();
  if (!close(gpu::copy(q, x), chain_reference(h)))
    return fail(state, "wrong result");
  for (auto _ : state)
    run();
  state.counters["launches/step"] = 3; // partials, the one-block fold, the transform
}

void chain_sync(benchmark::State &state) {
  const std::size_t n = state.range(0);
  const std::vector<float> h = chain_input(n);
  gpu::vector<float> x = gpu::copy(h);
  auto run = [&] {
    for (int k = 0; k < steps; ++k) {
      const float s = gpu::reduce(x, 0.f); // to the host and back into the next kernel
      gpu::transform(x, x, [s, n](float v) { return (v - s / float(n)) * 0.5f; });
    }
    pacxx::synchronize();
  };
  run();
  if (!close(gpu::copy(x), chain_reference(h)))
    return fail(state, "wrong result");
  for (auto _ : state)
    run();
  state.counters["launches/step"] = 2;
}

void chain_sizes(benchmark::internal::Benchmark *b) {
  int hi = 26;
  if (const char *s = std::getenv("PACXX_BENCH_MAX_LOG2"))
    hi = std::min(hi, std::atoi(s));
  for (int e = 16; e <= hi; e += 2)
    b->Arg(int64_t(1) << e);
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}

} // namespace

BENCHMARK(pipeline)->Apply(pipeline_args);
BENCHMARK(upload_only)->Apply(halves_args);
BENCHMARK(reduce_only)->Apply(halves_args);
BENCHMARK(chain_device)->Apply(chain_sizes);
BENCHMARK(chain_sync)->Apply(chain_sizes);

BENCHMARK_MAIN();

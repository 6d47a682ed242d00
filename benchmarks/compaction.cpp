// Stream compaction (issue 9): gpu::copy_if beside CUB DeviceSelect::If (temporary
// storage preallocated) and thrust::copy_if, all in this one process. float input,
// about half of it selected (v > 0), sizes 2^16..2^28 (PACXX_BENCH_MAX_LOG2 lowers the
// top). Times are per call, end to end: until the count is on the host (the output is
// then complete). Every result is checked against a host reference once per size
// before timing. Bytes processed: the input read once and the selected half written.
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include "bench_sizes.hpp"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

#include "baselines/compaction.h"

namespace view = ranges::views;

namespace {

struct inputs {
  std::vector<float> h, expect;
  gpu::vector<float> in, out;
  explicit inputs(std::size_t n) : h(n) {
    std::uint64_t s = 0x9E3779B97F4A7C15ull;
    for (std::size_t i = 0; i < n; ++i) {
      s ^= s >> 12;
      s ^= s << 25;
      s ^= s >> 27;
      const float v = static_cast<float>((s * 0x2545F4914F6CDD1Dull) >> 40) / 16777216.f;
      h[i] = v - 0.5f; // about half > 0, in no order
      if (h[i] > 0.f)
        expect.push_back(h[i]);
    }
    in = gpu::copy(h);
    out = gpu::vector<float>(n);
  }
};

inputs &data(std::size_t n) {
  // Never destroyed: the runtime may be gone by the time static objects are.
  static auto *all = new std::map<std::size_t, std::unique_ptr<inputs>>;
  auto &p = (*all)[n];
  if (!p) {
    p.reset(new inputs(n));
    cub_select_prepare(n);
  }
  return *p;
}

bool check(inputs &d, std::size_t c) {
  if (c != d.expect.size())
    return false;
  std::vector<float> r = gpu::copy(d.out);
  for (std::size_t i = 0; i < c; i += 1 + c / 4096)
    if (r[i] != d.expect[i])
      return false;
  return c == 0 || r[c - 1] == d.expect[c - 1];
}

void set_rates(benchmark::State &state, inputs &d) {
  const double bytes = (d.h.size() + d.expect.size()) * sizeof(float);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["n"] = static_cast<double>(d.h.size());
  state.counters["selected"] = static_cast<double>(d.expect.size());
}

template <class Run> void measure(benchmark::State &state, Run run) {
  inputs &d = data(static_cast<std::size_t>(state.range(0)));
  gpu::fill(d.out, 0.f);
  if (!check(d, run(d)))
    return state.SkipWithError("wrong result");
  for (auto _ : state)
    benchmark::DoNotOptimize(run(d));
  set_rates(state, d);
}

void copy_if_pacxx(benchmark::State &state) {
  measure(state,
          [](inputs &d) { return gpu::copy_if(d.in, d.out, [](float v) { return v > 0.f; }); });
}
void copy_if_cub(benchmark::State &state) {
  measure(state,
          [](inputs &d) { return cub_select_positive(d.in.data(), d.out.data(), d.h.size()); });
}
void copy_if_thrust(benchmark::State &state) {
  measure(state,
          [](inputs &d) { return thrust_copy_if_positive(d.in.data(), d.out.data(), d.h.size()); });
}

using pacxx_bench::sizes;

} // namespace

#define PACXX_BENCH(f) BENCHMARK(f)->Apply(sizes)
PACXX_BENCH(copy_if_pacxx);
PACXX_BENCH(copy_if_cub);
PACXX_BENCH(copy_if_thrust);

BENCHMARK_MAIN();

// The input sizes every benchmark program runs: 2^16 .. 2^28 (PACXX_BENCH_MAX_LOG2
// lowers the top), real time, microseconds.
#pragma once
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>

namespace pacxx_bench {

inline void sizes(benchmark::internal::Benchmark *b) {
  int lo = 16, hi = 28;
  if (const char *s = std::getenv("PACXX_BENCH_MAX_LOG2"))
    hi = std::atoi(s);
  for (int e = lo; e <= hi; ++e)
    b->Arg(int64_t(1) << e);
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}

// Times run(d) on the inputs d (d.n elements) after one checked call: where ok(d, result)
// is false the benchmark is an error and nothing is timed. bytes_of_n bytes a call; d.n as
// the counter "n".
template <class Data, class Run, class Check>
void measure_checked(benchmark::State &state, Data &d, Run run, Check ok, double bytes_of_n) {
  if (!ok(d, run(d)))
    return state.SkipWithError("wrong result");
  for (auto _ : state)
    benchmark::DoNotOptimize(run(d));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes_of_n));
  state.counters["n"] = static_cast<double>(d.n);
}

// The benchmark's size argument.
inline double n_of(benchmark::State &state) { return static_cast<double>(state.range(0)); }

} // namespace pacxx_bench

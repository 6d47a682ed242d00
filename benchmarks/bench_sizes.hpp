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

} // namespace pacxx_bench

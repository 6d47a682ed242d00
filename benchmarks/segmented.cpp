// Segmented reductions by CSR offsets (issue 35 item 4): gpu::segmented_reduce against
// CUB's DeviceSegmentedReduce::Sum (temporary storage allocated up front), same process.
// Families by segment length: segsum100, segsum1000, segsum100000 (all segments that
// long, the last one shorter) and segsummixed (lengths log-uniform in [1, 100000], a
// tenth of them empty). Values are small integers as floats, so every order of summing
// gives the same exact sums; both results are checked against the host once per size.
// Times are per call, until the sums are written (pacxx's includes its check of the
// offsets: one more launch and an 8-byte read back). Bytes: the values read once.
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "baselines/segmented.h"

namespace {

std::uint64_t next(std::uint64_t &s) { // xorshift64*
  s ^= s >> 12;
  s ^= s << 25;
  s ^= s >> 27;
  return s * 0x2545F4914F6CDD1Dull;
}

struct seg_data {
  std::vector<int> offsets;
  std::vector<float> expect;
  gpu::vector<float> v, out;
  gpu::vector<int> o;
  seg_data(std::size_t n, long length) { // length 0: mixed
    std::uint64_t s = 4242 + static_cast<std::uint64_t>(length);
    std::vector<float> values(n);
    for (auto &x : values)
      x = float(int(next(s) % 17) - 8);
    offsets.push_back(0);
    while (static_cast<std::size_t>(offsets.back()) < n) {
      long len = length;
      if (length == 0) {
        const double u = double(next(s) >> 11) * (1.0 / 9007199254740992.0);
        len = next(s) % 10 == 0 ? 0 : long(std::exp(u * std::log(100000.0)));
      }
      offsets.push_back(int(std::min<std::size_t>(n, std::size_t(offsets.back() + len))));
    }
    const std::size_t segments = offsets.size() - 1;
    expect.assign(segments, 0.f);
    for (std::size_t g = 0; g < segments; ++g)
      for (int i = offsets[g]; i < offsets[g + 1]; ++i)
        expect[g] += values[std::size_t(i)];
    v = gpu::copy(values);
    o = gpu::copy(offsets);
    out = gpu::vector<float>(segments);
    segmented_prepare(n, segments);
  }
  std::size_t segments() const { return offsets.size() - 1; }
  bool check() {
    std::vector<float> got = gpu::copy(out);
    bool ok = got == expect;
    gpu::fill(out, -1.f);
    return ok;
  }
};

seg_data &cached(std::size_t n, long length) {
  // Never destroyed: the runtime may be gone by the time static objects are.
  static auto *all = new std::map<std::pair<std::size_t, long>, std::unique_ptr<seg_data>>;
  auto &p = (*all)[{n, length}];
  if (!p)
    p.reset(new seg_data(n, length));
  else
    segmented_prepare(n, p->segments());
  return *p;
}

template <class F> void run(benchmark::State &state, long length, F f) {
  const std::size_t n = state.range(0);
  seg_data &d = cached(n, length);
  f(d);
  if (!d.check())
    return state.SkipWithError("wrong result");
  for (auto _ : state)
    f(d);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * n * sizeof(float));
  state.counters["segments"] = static_cast<double>(d.segments());
}

void pacxx_sum(seg_data &d) {
  gpu::segmented_reduce(d.v, d.o, d.out, 0.f);
  pacxx::synchronize();
}
void cub_sum(seg_data &d) { cub_segmented_sum(d.v.data(), d.o.data(), d.out.data(), d.segments()); }

void sizes(benchmark::internal::Benchmark *b) {
  for (int e : {20, 22, 24, 26})
    b->Arg(int64_t(1) << e);
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}

#define SEGMENTED(len, name)                                                                       \
  void segsum##name##_pacxx(benchmark::State &s) { run(s, len, pacxx_sum); }                       \
  void segsum##name##_cub(benchmark::State &s) { run(s, len, cub_sum); }                           \
  BENCHMARK(segsum##name##_pacxx)->Apply(sizes);                                                   \
  BENCHMARK(segsum##name##_cub)->Apply(sizes);

SEGMENTED(100, 100)
SEGMENTED(1000, 1000)
SEGMENTED(100000, 100000)
SEGMENTED(0, mixed)

} // namespace

BENCHMARK_MAIN();

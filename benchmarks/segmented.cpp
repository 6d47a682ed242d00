// Segmented algorithms by CSR offsets (issue 35 item 4) against CUB (temporary storage
// allocated up front), same process:
//  - segsum*: gpu::segmented_reduce against DeviceSegmentedReduce::Sum;
//  - segsort*: gpu::segmented_sort of 32-bit unsigned keys against
//    DeviceSegmentedSort::SortKeys (pacxx sorts in place: the keys are restored from a
//    copy before each call, outside the timing; CUB sorts them into a second buffer);
//  - segscan*: gpu::segmented_inclusive_scan against DeviceScan::InclusiveSumByKey over
//    segment ids made before timing (CUB has no scan by offsets; its by-key scan reads
//    a key per element more).
// Families by segment length: *100, *1000, *100000 (all segments that long, the last one
// shorter) and *mixed (lengths log-uniform in [1, 100000], a tenth of them empty).
// Values are small integers as floats, so every order of summing gives the same exact
// sums; every result is checked against the host once per size. Times are per call,
// until the result is written (pacxx's include the check of the offsets: in the sum and
// the scan, an 8-byte read back after their two launches; in the sort, one more launch
// and the read back before them, and another for the longest segment). Bytes: the values
// (keys) read once. segsum100_pacxxtiles and segsum1000_pacxxtiles: the sum with every
// segment on tiles, whatever the mean length (the default takes a warp a segment there),
// to place pacxx::policy::segmented_reduce::split_min_mean.
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
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

// CSR offsets over n elements with segments of `length` (0: mixed, see the header).
std::vector<int> make_offsets(std::size_t n, long length, std::uint64_t &s) {
  std::vector<int> offsets(1, 0);
  while (static_cast<std::size_t>(offsets.back()) < n) {
    long len = length;
    if (length == 0) {
      const double u = double(next(s) >> 11) * (1.0 / 9007199254740992.0);
      len = next(s) % 10 == 0 ? 0 : long(std::exp(u * std::log(100000.0)));
    }
    offsets.push_back(int(std::min<std::size_t>(n, std::size_t(offsets.back() + len))));
  }
  return offsets;
}

struct seg_data {
  std::vector<int> offsets;
  std::vector<float> values, expect;
  gpu::vector<float> v, out;
  gpu::vector<int> o;
  // The scan's and sort's data, made on first use.
  gpu::vector<float> scanned;
  gpu::vector<int> ids;
  std::vector<unsigned> sorted;
  gpu::vector<unsigned> keys, work;
  seg_data(std::size_t n, long length) { // length 0: mixed
    std::uint64_t s = 4242 + static_cast<std::uint64_t>(length);
    values.resize(n);
    for (auto &x : values)
      x = float(int(next(s) % 17) - 8);
    offsets = make_offsets(n, length, s);
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
  void make_scan() {
    if (ids.size() == values.size())
      return;
    std::vector<int> h(values.size());
    for (std::size_t g = 0; g < segments(); ++g)
      for (int i = offsets[g]; i < offsets[g + 1]; ++i)
        h[std::size_t(i)] = int(g);
    ids = gpu::copy(h);
    scanned = gpu::vector<float>(values.size());
  }
  bool check_scan() {
    std::vector<float> got = gpu::copy(scanned);
    for (std::size_t g = 0; g < segments(); ++g) {
      float acc = 0.f;
      for (int i = offsets[g]; i < offsets[g + 1]; ++i)
        if (got[std::size_t(i)] != (acc += values[std::size_t(i)]))
          return false;
    }
    gpu::fill(scanned, -1.f);
    return true;
  }
  void make_sort() {
    if (keys.size() == values.size())
      return;
    std::uint64_t s = 99;
    sorted.resize(values.size());
    for (auto &k : sorted)
      k = static_cast<unsigned>(next(s) >> 32);
    keys = gpu::copy(sorted);
    work = gpu::vector<unsigned>(sorted.size());
    for (std::size_t g = 0; g < segments(); ++g)
      std::sort(sorted.begin() + offsets[g], sorted.begin() + offsets[g + 1]);
  }
  bool check_sort() {
    const bool ok = gpu::copy(work) == sorted;
    gpu::fill(work, 0u);
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

// make: the data this family needs beyond the sums' (or nothing), check: whether f's
// result is right (it clears it for the next check).
template <class F>
void run(benchmark::State &state, long length, F f, void (seg_data::*make)(),
         bool (seg_data::*check)()) {
  const std::size_t n = state.range(0);
  seg_data &d = cached(n, length);
  if (make)
    (d.*make)();
  f(d);
  if (!(d.*check)())
    return state.SkipWithError("wrong result");
  for (auto _ : state)
    f(d);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * n * sizeof(float));
  state.counters["segments"] = static_cast<double>(d.segments());
}

// f sorts d.keys into d.work (pacxx: a copy, untimed, then the sort in place).
template <class F> void run_sort(benchmark::State &state, long length, F f) {
  const std::size_t n = state.range(0);
  seg_data &d = cached(n, length);
  d.make_sort();
  gpu::copy(d.keys, d.work);
  f(d);
  if (!d.check_sort())
    return state.SkipWithError("wrong result");
  for (auto _ : state) {
    state.PauseTiming();
    gpu::copy(d.keys, d.work);
    pacxx::synchronize();
    state.ResumeTiming();
    f(d);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * n * sizeof(unsigned));
  state.counters["segments"] = static_cast<double>(d.segments());
}

void pacxx_sum(seg_data &d) {
  gpu::segmented_reduce(d.v, d.o, d.out, 0.f);
  pacxx::synchronize();
}
void cub_sum(seg_data &d) { cub_segmented_sum(d.v.data(), d.o.data(), d.out.data(), d.segments()); }
struct tiles_everywhere : pacxx::policy::segmented_reduce {
  static constexpr std::size_t split_min_mean = 0;
};
void pacxx_sum_tiles(seg_data &d) {
  gpu::detail::segmented_reduce_with<tiles_everywhere>(d.v, d.o, d.out, 0.f, std::plus<>{});
  pacxx::synchronize();
}
void pacxx_scan(seg_data &d) {
  gpu::segmented_inclusive_scan(d.v, d.o, d.scanned);
  pacxx::synchronize();
}
void cub_scan(seg_data &d) {
  cub_scan_by_key(d.ids.data(), d.v.data(), d.scanned.data(), d.v.size());
}
void pacxx_sort(seg_data &d) {
  gpu::segmented_sort(d.work, d.o);
  pacxx::synchronize();
}
void cub_sort(seg_data &d) {
  cub_segmented_sort(d.keys.data(), d.work.data(), d.keys.size(), d.o.data(), d.segments());
}

void sizes(benchmark::internal::Benchmark *b) {
  for (int e : {20, 22, 24, 26})
    b->Arg(int64_t(1) << e);
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}

#define SEGMENTED(len, name)                                                                       \
  void segsum##name##_pacxx(benchmark::State &s) {                                                 \
    run(s, len, pacxx_sum, nullptr, &seg_data::check);                                             \
  }                                                                                                \
  void segsum##name##_cub(benchmark::State &s) {                                                   \
    run(s, len, cub_sum, nullptr, &seg_data::check);                                               \
  }                                                                                                \
  void segscan##name##_pacxx(benchmark::State &s) {                                                \
    run(s, len, pacxx_scan, &seg_data::make_scan, &seg_data::check_scan);                          \
  }                                                                                                \
  void segscan##name##_cub(benchmark::State &s) {                                                  \
    run(s, len, cub_scan, &seg_data::make_scan, &seg_data::check_scan);                            \
  }                                                                                                \
  void segsort##name##_pacxx(benchmark::State &s) { run_sort(s, len, pacxx_sort); }                \
  void segsort##name##_cub(benchmark::State &s) { run_sort(s, len, cub_sort); }                    \
  BENCHMARK(segsum##name##_pacxx)->Apply(sizes);                                                   \
  BENCHMARK(segsum##name##_cub)->Apply(sizes);                                                     \
  BENCHMARK(segscan##name##_pacxx)->Apply(sizes);                                                  \
  BENCHMARK(segscan##name##_cub)->Apply(sizes);                                                    \
  BENCHMARK(segsort##name##_pacxx)->Apply(sizes);                                                  \
  BENCHMARK(segsort##name##_cub)->Apply(sizes);

SEGMENTED(100, 100)
SEGMENTED(1000, 1000)
SEGMENTED(100000, 100000)
SEGMENTED(0, mixed)

void segsum100_pacxxtiles(benchmark::State &s) {
  run(s, 100, pacxx_sum_tiles, nullptr, &seg_data::check);
}
void segsum1000_pacxxtiles(benchmark::State &s) {
  run(s, 1000, pacxx_sum_tiles, nullptr, &seg_data::check);
}
BENCHMARK(segsum100_pacxxtiles)->Apply(sizes);
BENCHMARK(segsum1000_pacxxtiles)->Apply(sizes);

} // namespace

BENCHMARK_MAIN();

// Single-pass scans (issue 9) against CUB DeviceScan (temporary storage preallocated)
// and Thrust, all in this one process. Times are per call until the output is written.
// Every result is checked against a host reference once per size before timing (on the
// first repetition).
//
// The variant pacxxdet is the same call with gpu::deterministic (issue 34: the same bits
// on every run; the look-back folds the tiles' aggregates one at a time in tile order),
// beside pacxx for its cost: the float scans, and inclusive_scan_by_key (segments of
// 1000 keys) with and without the tag (no baseline: CUB has no scan by key).
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include "bench_sizes.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "baselines/scan.h"

namespace view = ranges::views;

namespace {

// Inputs of each size: small values, so float prefix sums stay close to the double
// reference (checked to 1e-5 relative) and int ones exact.
struct inputs {
  std::vector<float> hf;
  std::vector<int> hi;
  gpu::vector<float> f, fout;
  gpu::vector<int> i, iout;
  gpu::vector<int> keys; // made at the first scan by key: k / segment
  static constexpr std::size_t segment = 1000;
  explicit inputs(std::size_t n) : hf(n), hi(n) {
    for (std::size_t k = 0; k < n; ++k) {
      hi[k] = static_cast<int>(k % 7) - 3;
      hf[k] = static_cast<float>(k % 5) * 0.25f;
    }
    f = gpu::copy(hf);
    i = gpu::copy(hi);
    fout = gpu::vector<float>(n);
    iout = gpu::vector<int>(n);
  }
};

inputs &data(std::size_t n) {
  static auto *all = new std::map<std::size_t, std::unique_ptr<inputs>>;
  auto &p = (*all)[n];
  if (!p) {
    p.reset(new inputs(n));
    cub_scan_prepare(n);
  }
  return *p;
}

// f(x) then the scan then g(y), for the fused pipeline.
const auto sq = [](float x) { return x * x; };
const auto half = [](float y) { return y * 0.5f; };

enum class kind { inclusive, exclusive, transformed, by_key };

// Checks ~4096 spread elements (and the last) against the host.
template <class T> bool check(const std::vector<T> &in, const gpu::vector<T> &out, kind k) {
  std::vector<T> r = gpu::copy(out);
  const std::size_t n = in.size(), step = 1 + n / 4096;
  double run = 0;
  std::size_t next = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (k == kind::by_key && j % inputs::segment == 0)
      run = 0;
    const double before = run;
    run += k == kind::transformed ? double(in[j]) * in[j] : double(in[j]);
    if (j != next && j != n - 1)
      continue;
    next += step;
    const double want = k == kind::exclusive ? before : (k == kind::transformed ? run * 0.5 : run);
    if (std::fabs(double(r[j]) - want) > 1e-5 * std::fabs(want) + 1e-3)
      return false;
  }
  return true;
}

template <class T, class F>
void scan_bench(benchmark::State &state, const std::vector<T> &in, const gpu::vector<T> &out,
                kind k, F f) {
  const std::size_t n = state.range(0);
  f();
  // Checked on the first repetition of each benchmark and size: at 2^28 a check (1 GiB
  // to the host, a serial reference) costs about a second, and 3 repetitions of every
  // check ran past the GPU machine's 10-minute call.
  // (Each benchmark's lambda is a type of its own, so this set is per benchmark.)
  static std::set<std::size_t> checked;
  if (checked.insert(n).second && !check(in, out, k))
    return state.SkipWithError("wrong result");
  for (auto _ : state)
    f();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * n * sizeof(T) * 2);
  state.counters["n"] = static_cast<double>(n);
}

#define SCAN_BENCHES(T, field, suffix)                                                             \
  void inclusive_##suffix##_pacxx(benchmark::State &state) {                                       \
    inputs &d = data(state.range(0));                                                              \
    scan_bench(state, d.h##field, d.field##out, kind::inclusive, [&] {                             \
      gpu::inclusive_scan(d.field, d.field##out);                                                  \
      pacxx::synchronize();                                                                        \
    });                                                                                            \
  }                                                                                                \
  void inclusive_##suffix##_cub(benchmark::State &state) {                                         \
    inputs &d = data(state.range(0));                                                              \
    scan_bench(state, d.h##field, d.field##out, kind::inclusive, [&] {                             \
      cub_inclusive_sum_##suffix(d.field.data(), d.field##out.data(), d.field.size());             \
    });                                                                                            \
  }                                                                                                \
  void inclusive_##suffix##_thrust(benchmark::State &state) {                                      \
    inputs &d = data(state.range(0));                                                              \
    scan_bench(state, d.h##field, d.field##out, kind::inclusive, [&] {                             \
      thrust_inclusive_sum_##suffix(d.field.data(), d.field##out.data(), d.field.size());          \
    });                                                                                            \
  }                                                                                                \
  void exclusive_##suffix##_pacxx(benchmark::State &state) {                                       \
    inputs &d = data(state.range(0));                                                              \
    scan_bench(state, d.h##field, d.field##out, kind::exclusive, [&] {                             \
      gpu::exclusive_scan(d.field, d.field##out, T(0));                                            \
      pacxx::synchronize();                                                                        \
    });                                                                                            \
  }                                                                                                \
  void exclusive_##suffix##_cub(benchmark::State &state) {                                         \
    inputs &d = data(state.range(0));                                                              \
    scan_bench(state, d.h##field, d.field##out, kind::exclusive, [&] {                             \
      cub_exclusive_sum_##suffix(d.field.data(), d.field##out.data(), d.field.size());             \
    });                                                                                            \
  }                                                                                                \
  void exclusive_##suffix##_thrust(benchmark::State &state) {                                      \
    inputs &d = data(state.range(0));                                                              \
    scan_bench(state, d.h##field, d.field##out, kind::exclusive, [&] {                             \
      thrust_exclusive_sum_##suffix(d.field.data(), d.field##out.data(), d.field.size());          \
    });                                                                                            \
  }

SCAN_BENCHES(float, f, float)
SCAN_BENCHES(int, i, int)

void inclusive_float_pacxxdet(benchmark::State &state) {
  inputs &d = data(state.range(0));
  scan_bench(state, d.hf, d.fout, kind::inclusive, [&] {
    gpu::inclusive_scan(gpu::deterministic, d.f, d.fout);
    pacxx::synchronize();
  });
}
void exclusive_float_pacxxdet(benchmark::State &state) {
  inputs &d = data(state.range(0));
  scan_bench(state, d.hf, d.fout, kind::exclusive, [&] {
    gpu::exclusive_scan(gpu::deterministic, d.f, d.fout, 0.f);
    pacxx::synchronize();
  });
}

// Scans by key of the float inputs, the keys in segments of inputs::segment.
gpu::vector<int> &segment_keys(inputs &d) {
  if (d.keys.size() != d.f.size()) {
    std::vector<int> h(d.f.size());
    for (std::size_t k = 0; k < h.size(); ++k)
      h[k] = static_cast<int>(k / inputs::segment);
    d.keys = gpu::copy(h);
  }
  return d.keys;
}
void inclusive_by_key_float_pacxx(benchmark::State &state) {
  inputs &d = data(state.range(0));
  gpu::vector<int> &keys = segment_keys(d);
  scan_bench(state, d.hf, d.fout, kind::by_key, [&] {
    gpu::inclusive_scan_by_key(keys, d.f, d.fout);
    pacxx::synchronize();
  });
}
void inclusive_by_key_float_pacxxdet(benchmark::State &state) {
  inputs &d = data(state.range(0));
  gpu::vector<int> &keys = segment_keys(d);
  scan_bench(state, d.hf, d.fout, kind::by_key, [&] {
    gpu::inclusive_scan_by_key(gpu::deterministic, keys, d.f, d.fout);
    pacxx::synchronize();
  });
}

// g(inclusive_scan(f(x))): one pass. pacxx fuses f into the scan's loads and g into its
// stores (gpu::views::transform_output), as the CUB baseline does with Thrust's transform
// and transform-output iterators; Thrust's best API is transform_inclusive_scan followed
// by a transform (two passes).
void transform_scan_pacxx(benchmark::State &state) {
  inputs &d = data(state.range(0));
  scan_bench(state, d.hf, d.fout, kind::transformed, [&] {
    gpu::inclusive_scan(d.f | view::transform(sq), d.fout | gpu::views::transform_output(half));
    pacxx::synchronize();
  });
}
void transform_scan_thrust(benchmark::State &state) {
  inputs &d = data(state.range(0));
  scan_bench(state, d.hf, d.fout, kind::transformed,
             [&] { thrust_transform_scan_transform(d.f.data(), d.fout.data(), d.f.size()); });
}
void transform_scan_cub(benchmark::State &state) {
  inputs &d = data(state.range(0));
  scan_bench(state, d.hf, d.fout, kind::transformed,
             [&] { cub_transform_scan_transform(d.f.data(), d.fout.data(), d.f.size()); });
}

using pacxx_bench::sizes;

} // namespace

#define PACXX_BENCH(f) BENCHMARK(f)->Apply(sizes)
PACXX_BENCH(inclusive_float_pacxx);
PACXX_BENCH(inclusive_float_pacxxdet);
PACXX_BENCH(inclusive_float_cub);
PACXX_BENCH(inclusive_float_thrust);
PACXX_BENCH(exclusive_float_pacxx);
PACXX_BENCH(exclusive_float_pacxxdet);
PACXX_BENCH(exclusive_float_cub);
PACXX_BENCH(exclusive_float_thrust);
PACXX_BENCH(inclusive_int_pacxx);
PACXX_BENCH(inclusive_int_cub);
PACXX_BENCH(inclusive_int_thrust);
PACXX_BENCH(exclusive_int_pacxx);
PACXX_BENCH(exclusive_int_cub);
PACXX_BENCH(exclusive_int_thrust);
PACXX_BENCH(transform_scan_pacxx);
PACXX_BENCH(transform_scan_thrust);
PACXX_BENCH(transform_scan_cub);
PACXX_BENCH(inclusive_by_key_float_pacxx);
PACXX_BENCH(inclusive_by_key_float_pacxxdet);

BENCHMARK_MAIN();

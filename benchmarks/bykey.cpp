// By key and histograms (issue 9 item 6): gpu::reduce_by_key and gpu::histogram_even
// against CUB (DeviceReduce::ReduceByKey, DeviceHistogram::HistogramEven, temporary
// storage allocated up front) and Thrust (reduce_by_key; its dense-histogram example),
// all in this one process. Times are per call, end to end: reduce_by_key until the run
// count is on the host, histograms until the counts are written. Every result is
// checked against a host reference once per size before timing.
//   reduce_by_key   int keys in runs of 1..15 (average 8), float values (small integers:
//                   exact sums in any order)
//   histogram_even  256 bins over [0, 256) of float samples: uniform (a tenth outside),
//                   and skewed (nine tenths in three bins)
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include "bench_sizes.hpp"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

#include "baselines/bykey.h"

namespace {

const int kBins = 256;
const float kLower = 0.f, kUpper = 256.f;

std::uint64_t next(std::uint64_t &s) { // xorshift64*
  s ^= s >> 12;
  s ^= s << 25;
  s ^= s >> 27;
  return s * 0x2545F4914F6CDD1Dull;
}

struct rbk_data {
  std::vector<int> keys, run_keys;
  std::vector<float> values, run_values;
  gpu::vector<int> k, ok;
  gpu::vector<float> v, ov;
  explicit rbk_data(std::size_t n) : keys(n), values(n) {
    std::uint64_t s = 12345;
    int key = 0;
    for (std::size_t i = 0; i < n;) {
      const std::size_t len = 1 + next(s) % 15;
      key += 1 + int(next(s) % 3);
      for (std::size_t j = 0; j < len && i < n; ++j, ++i) {
        keys[i] = key;
        values[i] = float(int(next(s) % 17) - 8);
        if (j == 0) {
          run_keys.push_back(key);
          run_values.push_back(values[i]);
        } else {
          run_values.back() += values[i];
        }
      }
    }
    k = gpu::copy(keys);
    v = gpu::copy(values);
    ok = gpu::vector<int>(n);
    ov = gpu::vector<float>(n);
  }
};

struct hist_data {
  std::vector<unsigned long long> expect;
  gpu::vector<float> x;
  gpu::vector<int> h; // the baselines' counts
  hist_data(std::size_t n, bool skewed) : expect(kBins, 0) {
    std::uint64_t s = skewed ? 777 : 555;
    std::vector<float> hx(n);
    const float scale = float(kBins) / (kUpper - kLower);
    for (auto &x : hx) {
      const double u = double(next(s) >> 11) * (1.0 / 9007199254740992.0);
      if (skewed && next(s) % 10 != 0)
        x = next(s) % 3 == 0 ? 17.5f : (next(s) % 2 ? 128.25f : 200.75f);
      else
        x = float(-25.6 + u * 307.2); // [lower - 10%, upper + 10%)
      if (x >= kLower && x < kUpper) {
        const int b = int((x - kLower) * scale);
        ++expect[b < kBins ? b : kBins - 1];
      }
    }
    x = gpu::copy(hx);
    h = gpu::vector<int>(kBins);
  }
};

template <class T> T &cached(std::size_t n, bool skewed = false) {
  // Never destroyed: the runtime may be gone by the time static objects are.
  static auto *all = new std::map<std::pair<std::size_t, bool>, std::unique_ptr<T>>;
  auto &p = (*all)[{n, skewed}];
  if (!p) {
    p.reset(new T(n, skewed));
    bykey_prepare(n, kBins);
  }
  return *p;
}
struct rbk_holder : rbk_data {
  rbk_holder(std::size_t n, bool) : rbk_data(n) {}
};

bool check_runs(rbk_data &d, std::size_t runs) {
  if (runs != d.run_keys.size())
    return false;
  std::vector<int> k = gpu::copy(d.ok);
  std::vector<float> v = gpu::copy(d.ov);
  for (std::size_t r = 0; r < runs; ++r)
    if (k[r] != d.run_keys[r] || v[r] != d.run_values[r])
      return false;
  return true;
}
template <class C> bool check_hist(const hist_data &d, const std::vector<C> &got) {
  if (got.size() != d.expect.size())
    return false;
  for (std::size_t b = 0; b < got.size(); ++b)
    if ((unsigned long long)got[b] != d.expect[b])
      return false;
  return true;
}

void set_rates(benchmark::State &state, std::size_t n, std::size_t bytes_per_element) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * n * bytes_per_element);
  state.counters["n"] = static_cast<double>(n);
}

// ---- reduce_by_key ---------------------------------------------------------------------
template <class F> void reduce_by_key(benchmark::State &state, F f) {
  const std::size_t n = state.range(0);
  rbk_data &d = cached<rbk_holder>(n);
  if (!check_runs(d, f(d)))
    return state.SkipWithError("wrong result");
  for (auto _ : state)
    benchmark::DoNotOptimize(f(d));
  set_rates(state, n, sizeof(int) + sizeof(float)); // the inputs read once
  state.counters["runs"] = static_cast<double>(d.run_keys.size());
}
void reduce_by_key_pacxx(benchmark::State &state) {
  reduce_by_key(state, [](rbk_data &d) { return gpu::reduce_by_key(d.k, d.v, d.ok, d.ov); });
}
void reduce_by_key_cub(benchmark::State &state) {
  reduce_by_key(state, [](rbk_data &d) {
    return cub_reduce_by_key(d.k.data(), d.v.data(), d.ok.data(), d.ov.data(), d.k.size());
  });
}
void reduce_by_key_thrust(benchmark::State &state) {
  reduce_by_key(state, [](rbk_data &d) {
    return thrust_reduce_by_key(d.k.data(), d.v.data(), d.ok.data(), d.ov.data(), d.k.size());
  });
}

// ---- histogram_even --------------------------------------------------------------------
void histogram_pacxx(benchmark::State &state, bool skewed) {
  const std::size_t n = state.range(0);
  hist_data &d = cached<hist_data>(n, skewed);
  auto run = [&] {
    gpu::vector<unsigned long long> h = gpu::histogram_even(d.x, kBins, kLower, kUpper);
    pacxx::synchronize();
    return h;
  };
  if (!check_hist(d, gpu::copy(run())))
    return state.SkipWithError("wrong result");
  for (auto _ : state)
    benchmark::DoNotOptimize(run());
  set_rates(state, n, sizeof(float));
}
template <class F> void histogram_baseline(benchmark::State &state, bool skewed, F f) {
  const std::size_t n = state.range(0);
  hist_data &d = cached<hist_data>(n, skewed);
  f(d);
  if (!check_hist(d, gpu::copy(d.h)))
    return state.SkipWithError("wrong result");
  for (auto _ : state)
    f(d);
  set_rates(state, n, sizeof(float));
}
void cub_hist(hist_data &d) {
  cub_histogram_even(d.x.data(), d.x.size(), d.h.data(), kBins, kLower, kUpper);
}
void thrust_hist(hist_data &d) {
  thrust_histogram_even(d.x.data(), d.x.size(), d.h.data(), kBins, kLower, kUpper);
}
void histogram_uniform_pacxx(benchmark::State &state) { histogram_pacxx(state, false); }
void histogram_skewed_pacxx(benchmark::State &state) { histogram_pacxx(state, true); }
void histogram_uniform_cub(benchmark::State &state) { histogram_baseline(state, false, cub_hist); }
void histogram_skewed_cub(benchmark::State &state) { histogram_baseline(state, true, cub_hist); }
void histogram_uniform_thrust(benchmark::State &state) {
  histogram_baseline(state, false, thrust_hist);
}
void histogram_skewed_thrust(benchmark::State &state) {
  histogram_baseline(state, true, thrust_hist);
}

using pacxx_bench::sizes;

} // namespace

#define PACXX_BENCH(f) BENCHMARK(f)->Apply(sizes)
PACXX_BENCH(reduce_by_key_pacxx);
PACXX_BENCH(reduce_by_key_cub);
PACXX_BENCH(reduce_by_key_thrust);
PACXX_BENCH(histogram_uniform_pacxx);
PACXX_BENCH(histogram_uniform_cub);
PACXX_BENCH(histogram_uniform_thrust);
PACXX_BENCH(histogram_skewed_pacxx);
PACXX_BENCH(histogram_skewed_cub);
PACXX_BENCH(histogram_skewed_thrust);

BENCHMARK_MAIN();

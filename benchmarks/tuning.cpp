// Run-time tuning (issue 36): each tuned algorithm under its built-in policy (the H100's,
// policy.hpp; `tuning_<family>_default`) and under the candidate that exploration chose
// on this device (`tuning_<family>_tuned`), in one process: reduce (int sum), inclusive
// scan (int), the radix sort of u32 keys, SGEMM, SGEMV (row-major A) and the merge sort
// of 8-byte (key, index) pairs by key. Both variants run the same code
// (the algorithms' own kernels through pacxx::tune::invoke), so they differ by policy
// only. The exploration runs before the timed loop of the tuned variant, through
// pacxx::tune::choose with the algorithm's family and size class (as the algorithm
// would), and its time is the counter explore_ms (0 when the choice was stored already).
// Counters: items_per_second (elements, keys, or 2 m n k flops for gemm), candidate (the
// index chosen). The program sets PACXX_TUNE=explore unless it is set.
//
//   PACXX_TUNE_BUDGET_MS=60000 build/benchmarks/tuning --benchmark_format=json \
//       --benchmark_repetitions=3 --benchmark_report_aggregates_only=true > tuning.json
// (with a fresh PACXX_CACHE_DIR, or the choices stored by an earlier run are reused).
#include <pacxx/algorithm/gemm.hpp>
#include <pacxx/algorithm/merge_sort.hpp>
#include <pacxx/pacxx.hpp>
#include <pacxx/tune.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace {

std::vector<unsigned> randoms(std::size_t n, std::uint64_t s) {
  std::vector<unsigned> v(n);
  for (auto &x : v) { // xorshift64*
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    x = unsigned((s * 0x2545F4914F6CDD1Dull) >> 32);
  }
  return v;
}

// The candidate for the variant: 0 (built-in) or exploration's, timed into explore_ms.
template <class Space, class Trial>
std::size_t candidate(benchmark::State &state, bool tuned, const std::string &family,
                      std::uint64_t size_class, Trial trial) {
  if (!tuned)
    return 0;
  // Google Benchmark calls a benchmark several times (to size its loop): the first call
  // explores, later ones find the choice; the counter keeps the first call's time.
  static std::map<std::string, double> explored;
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t c = pacxx::tune::choose<Space>(family, size_class, trial);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  double &first = explored.emplace(family + "/" + std::to_string(size_class), ms).first->second;
  state.counters["explore_ms"] = first;
  return c;
}

void reduce(benchmark::State &state, bool tuned) {
  using S = pacxx::policy::tuning::reduce;
  const std::size_t n = std::size_t(state.range(0));
  const std::vector<unsigned> h = randoms(n, 1);
  const std::vector<int> hi(h.begin(), h.end());
  gpu::vector<int> v = gpu::copy(hi);
  auto in = pacxx::detail::device_view(v);
  auto run = [&](auto policy) {
    return gpu::detail::fold_partials(
        gpu::detail::reduce_blocks<int, decltype(policy)>(in, n, gpu::detail::element{},
                                                          std::plus<>{}, std::plus<>{}),
        std::plus<>{});
  };
  const std::size_t c =
      candidate<S>(state, tuned, "gpu::reduce/4", pacxx::tune::size_class(n), run);
  int want = 0;
  for (int x : hi)
    want += x;
  if (pacxx::tune::invoke<S>(c, run) != want)
    state.SkipWithError("wrong sum");
  for (auto _ : state)
    benchmark::DoNotOptimize(pacxx::tune::invoke<S>(c, run));
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n));
  state.counters["candidate"] = double(c);
}

void scan(benchmark::State &state, bool tuned) {
  using S = pacxx::policy::tuning::scan_space<int, false>;
  const std::size_t n = std::size_t(state.range(0));
  const std::vector<unsigned> h = randoms(n, 2);
  std::vector<int> hi(h.begin(), h.end());
  for (int &x : hi)
    x &= 1023;
  gpu::vector<int> v = gpu::copy(hi), out(n);
  auto src = pacxx::detail::device_view(v);
  auto dst = pacxx::detail::device_view(out);
  auto run = [&](auto policy) {
    gpu::detail::scan_with<decltype(policy), int, false>("scan", src, dst, n, 0, std::plus<>{});
  };
  const std::size_t c =
      candidate<S>(state, tuned, "gpu::inclusive_scan/4", pacxx::tune::size_class(n), run);
  pacxx::tune::invoke<S>(c, run);
  std::vector<int> want(n);
  std::partial_sum(hi.begin(), hi.end(), want.begin());
  if (gpu::copy(out) != want)
    state.SkipWithError("wrong scan");
  for (auto _ : state) {
    pacxx::tune::invoke<S>(c, run);
    pacxx::synchronize();
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n));
  state.counters["candidate"] = double(c);
}

void sort(benchmark::State &state, bool tuned) {
  using S = pacxx::policy::tuning::radix_space<4, 0, 4>;
  const std::size_t n = std::size_t(state.range(0));
  const std::vector<unsigned> h = randoms(n, 3);
  gpu::vector<unsigned> source = gpu::copy(h), keys(n), alt(n);
  // Each run sorts a fresh copy of the same keys (the copy is in both variants' times).
  auto run = [&](auto policy) {
    pacxx::detail::copy_on_device(keys.data(), source.data(), n * sizeof(unsigned));
    gpu::detail::radix_passes<unsigned, gpu::detail::no_values, false, unsigned, decltype(policy)>(
        keys.data(), alt.data(), nullptr, nullptr, n, 0, 32);
  };
  const std::size_t c =
      candidate<S>(state, tuned, "gpu::radix_sort/4/0", pacxx::tune::size_class(n), run);
  pacxx::tune::invoke<S>(c, run);
  std::vector<unsigned> want = h;
  std::sort(want.begin(), want.end());
  if (gpu::copy(keys) != want)
    state.SkipWithError("wrong sort");
  for (auto _ : state) {
    pacxx::tune::invoke<S>(c, run);
    pacxx::synchronize();
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n));
  state.counters["candidate"] = double(c);
}

void gemm(benchmark::State &state, bool tuned) {
  using S = pacxx::policy::tuning::gemm;
  const std::size_t m = std::size_t(state.range(0)), n = m, k = m;
  const std::vector<unsigned> ha = randoms(m * k, 4), hb = randoms(k * n, 5);
  std::vector<float> fa(m * k), fb(k * n);
  for (std::size_t i = 0; i < fa.size(); ++i)
    fa[i] = float(int(ha[i] % 17) - 8); // small integers: every tiling gives the same bits
  for (std::size_t i = 0; i < fb.size(); ++i)
    fb[i] = float(int(hb[i] % 17) - 8);
  gpu::vector<float> a = gpu::copy(fa), b = gpu::copy(fb), c(m * n), c0(m * n);
  auto A = gpu::md(a, k, m), B = gpu::md(b, n, k), C = gpu::md(c, n, m);
  // gpu::gemm's dispatch under policy G (algorithm/gemm.hpp, gemm_checked).
  auto run = [&](auto policy) {
    using G = decltype(policy);
    using L = typename G::large;
    const std::size_t tiles =
        ((m + L::block_m - 1) / L::block_m) * ((n + L::block_n - 1) / L::block_n);
    if (m >= L::block_m && n >= L::block_n && tiles >= G::large_min_tiles)
      gpu::detail::gemm_launch<typename G::large, gpu::math::fp32_t>(A, B, C, m, n, k, 1, 1.f, 0.f);
    else
      gpu::detail::gemm_launch<typename G::small, gpu::math::fp32_t>(A, B, C, m, n, k, 1, 1.f, 0.f);
  };
  const std::size_t chosen =
      candidate<S>(state, tuned, "gpu::gemm/4",
                   pacxx::tune::size_class(m, n, k) << 8 | pacxx::tune::size_class(1), run);
  pacxx::tune::invoke<S>(0, run);
  const std::vector<float> want = gpu::copy(c);
  pacxx::tune::invoke<S>(chosen, run);
  if (gpu::copy(c) != want)
    state.SkipWithError("the tuned gemm differs from the built-in one");
  for (auto _ : state) {
    pacxx::tune::invoke<S>(chosen, run);
    pacxx::synchronize();
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(2 * m * n * k));
  state.counters["candidate"] = double(chosen);
}

void gemv(benchmark::State &state, bool tuned) {
  using S = pacxx::policy::tuning::gemv;
  const std::size_t m = std::size_t(state.range(0)), n = m;
  const std::vector<unsigned> ha = randoms(m * n, 6), hx = randoms(n, 7);
  std::vector<float> fa(m * n), fx(n);
  for (std::size_t i = 0; i < fa.size(); ++i)
    fa[i] = float(int(ha[i] % 17) - 8); // small integers: every order of the sums agrees
  for (std::size_t i = 0; i < n; ++i)
    fx[i] = float(int(hx[i] % 17) - 8);
  gpu::vector<float> a = gpu::copy(fa), x = gpu::copy(fx), y(m);
  auto A = gpu::md(a, n, m);
  auto xv = pacxx::detail::device_view(x);
  auto yv = pacxx::detail::device_view(y);
  // gpu::gemv's row-major path (a warp per row) under policy P.
  auto run = [&](auto policy) {
    gpu::detail::gemv_by_warp<decltype(policy)>(A, xv, yv, m, n, 1.f, 0.f);
  };
  const std::size_t c =
      candidate<S>(state, tuned, "gpu::gemv/4/rows", pacxx::tune::size_class(m, n), run);
  pacxx::tune::invoke<S>(c, run);
  std::vector<float> want(m);
  for (std::size_t i = 0; i < m; ++i) {
    float s = 0;
    for (std::size_t j = 0; j < n; ++j)
      s += fa[i * n + j] * fx[j];
    want[i] = s;
  }
  if (gpu::copy(y) != want)
    state.SkipWithError("wrong gemv");
  for (auto _ : state) {
    pacxx::tune::invoke<S>(c, run);
    pacxx::synchronize();
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(2 * m * n));
  state.counters["candidate"] = double(c);
}

// The comparator sort's merge sort of (key, index) pairs by key.
struct keyed {
  unsigned key, index;
};
void merge_sort(benchmark::State &state, bool tuned) {
  using S = pacxx::policy::tuning::merge_sort_space<keyed>;
  const std::size_t n = std::size_t(state.range(0));
  const std::vector<unsigned> h = randoms(n, 8);
  std::vector<keyed> hk(n);
  for (std::size_t i = 0; i < n; ++i)
    hk[i] = {h[i] % 100000, unsigned(i)};
  gpu::vector<keyed> source = gpu::copy(hk), v(n);
  auto by_key = [](const keyed &a, const keyed &b) { return a.key < b.key; };
  // Each run sorts a fresh copy of the same pairs (the copy is in both variants' times).
  auto run = [&](auto policy) {
    pacxx::detail::copy_on_device(v.data(), source.data(), n * sizeof(keyed));
    gpu::detail::merge_sort_with<decltype(policy)>(v.data(), n, by_key);
  };
  const std::size_t c =
      candidate<S>(state, tuned, "gpu::merge_sort/8", pacxx::tune::size_class(n), run);
  pacxx::tune::invoke<S>(c, run);
  std::vector<keyed> want = hk;
  std::stable_sort(want.begin(), want.end(), by_key);
  const std::vector<keyed> got = gpu::copy(v);
  for (std::size_t i = 0; i < n; ++i)
    if (got[i].key != want[i].key || got[i].index != want[i].index) {
      state.SkipWithError("wrong merge sort");
      break;
    }
  for (auto _ : state) {
    pacxx::tune::invoke<S>(c, run);
    pacxx::synchronize();
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(n));
  state.counters["candidate"] = double(c);
}

} // namespace

BENCHMARK_CAPTURE(reduce, default, false)
    ->Arg(1 << 20)
    ->Arg(1 << 22)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(reduce, tuned, true)
    ->Arg(1 << 20)
    ->Arg(1 << 22)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(scan, default, false)
    ->Arg(1 << 20)
    ->Arg(1 << 22)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(scan, tuned, true)
    ->Arg(1 << 20)
    ->Arg(1 << 22)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(sort, default, false)->Arg(1 << 20)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK_CAPTURE(sort, tuned, true)->Arg(1 << 20)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK_CAPTURE(gemm, default, false)
    ->Arg(256)
    ->Arg(512)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(gemm, tuned, true)
    ->Arg(256)
    ->Arg(512)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

BENCHMARK_CAPTURE(gemv, default, false)
    ->Arg(1024)
    ->Arg(4096)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(gemv, tuned, true)
    ->Arg(1024)
    ->Arg(4096)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(merge_sort, default, false)
    ->Arg(1 << 18)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(merge_sort, tuned, true)
    ->Arg(1 << 18)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

int main(int argc, char **argv) {
  setenv("PACXX_TUNE", "explore", 0);
  // On a GPU (PACXX_DEVICE=cuda...), GPU-sized problems too; PoCL keeps the small ones.
  if (const char *d = std::getenv("PACXX_DEVICE"); d && std::string(d).compare(0, 4, "cuda") == 0)
    for (bool tuned : {false, true}) {
      const char *v = tuned ? "tuned" : "default";
      for (long n : {1L << 24, 1L << 26}) {
        benchmark::RegisterBenchmark((std::string("reduce/") + v).c_str(), reduce, tuned)
            ->Arg(n)
            ->Unit(benchmark::kMicrosecond)
            ->UseRealTime();
        benchmark::RegisterBenchmark((std::string("scan/") + v).c_str(), scan, tuned)
            ->Arg(n)
            ->Unit(benchmark::kMicrosecond)
            ->UseRealTime();
        benchmark::RegisterBenchmark((std::string("sort/") + v).c_str(), sort, tuned)
            ->Arg(n)
            ->Unit(benchmark::kMicrosecond)
            ->UseRealTime();
      }
      for (long m : {1024L, 2048L, 4096L})
        benchmark::RegisterBenchmark((std::string("gemm/") + v).c_str(), gemm, tuned)
            ->Arg(m)
            ->Unit(benchmark::kMicrosecond)
            ->UseRealTime();
    }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

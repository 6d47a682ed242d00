// Random numbers on the device (issue 38) beside cuRAND and Thrust, all in this one
// process, sizes 2^16..2^28 (PACXX_BENCH_MAX_LOG2 lowers the top). Times are per call,
// end to end: until the sum is on the host, or the numbers are written. Every result is
// checked against a host reference once per size before timing.
//   random_uniform  n floats uniform in [0, 1) from Philox4x32-10: pacxx fuses
//                   gpu::views::random_uniform<float>(seed, n) into gpu::reduce (nothing
//                   stored; the sum reaches the host); cuRAND's host API
//                   (CURAND_RNG_PSEUDO_PHILOX4_32_10, generator created once, before
//                   timing) writes them with curandGenerateUniform into a preallocated
//                   buffer. Bytes: 4n, as output bandwidth (the measure: cuRAND
//                   2894 GB/s at 2^26); the goal is pacxx >= 0.95x cuRAND.
//   random_engine   out[i] = uniform_real_distribution<float>(0, 1) of
//                   default_random_engine(seed) (minstd_rand) after discard(i), for every
//                   i < n: gpu::tabulate beside thrust::transform over a counting_iterator
//                   (Thrust's examples' style); both discards are O(log i). Bytes: 4n
//                   written; the goal is pacxx >= 10x Thrust (68 GB/s at 2^26).
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include "bench_sizes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "baselines/random.h"

namespace {

constexpr unsigned seed = 12345; // Thrust's examples' seed

struct inputs {
  std::size_t n;
  gpu::vector<float> out;
  explicit inputs(std::size_t n_) : n(n_), out(n_) {}
};

inputs &data(std::size_t n) {
  // Never destroyed: the runtime may be gone by the time static objects are.
  static auto *all = new std::map<std::size_t, std::unique_ptr<inputs>>;
  auto &p = (*all)[n];
  if (!p)
    p.reset(new inputs(n));
  return *p;
}

template <class Run, class Check>
void measure(benchmark::State &state, Run run, Check ok, double bytes_of_n) {
  pacxx_bench::measure_checked(state, data(static_cast<std::size_t>(state.range(0))), run, ok,
                               bytes_of_n);
}
using pacxx_bench::n_of;

// A mean of n uniform numbers in [0, 1) or (0, 1] within 6 standard deviations of 1/2.
bool mean_ok(double sum, std::size_t n) {
  return std::abs(sum / double(n) - 0.5) <= 6.0 / std::sqrt(12.0 * double(n)) + 1e-6;
}

// ---- random_uniform: the fused reduce against cuRAND writing the numbers
// The sum of the view's n numbers: statistically for every n; against the host's sum of
// the same Philox numbers (in double) up to 2^24, within the float reduction's rounding;
// the view's first 4096 numbers exactly (copied out once, outside the timed call).
bool uniform_pacxx_ok(inputs &d, float sum) {
  if (!mean_ok(sum, d.n))
    return false;
  const std::size_t c = std::min<std::size_t>(d.n, 4096);
  const std::vector<float> head = gpu::copy(gpu::views::random_uniform<float>(seed, c));
  gpu::random::philox4x32 e(seed);
  gpu::random::uniform_real_distribution<float> u01(0.f, 1.f);
  double host = 0;
  for (std::size_t i = 0; i < d.n && (i < c || d.n <= (std::size_t(1) << 24)); ++i) {
    const float x = u01(e); // word i of the stream: element i of the view
    if (i < c && head[i] != x)
      return false;
    host += x;
  }
  return d.n > (std::size_t(1) << 24) || std::abs(double(sum) - host) <= 2e-5 * host;
}
void random_uniform_pacxx(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) { return gpu::views::random_uniform<float>(seed, d.n) | gpu::reduce(0.0f); },
      uniform_pacxx_ok, 4 * n_of(state));
}
// cuRAND's numbers (its own Philox ordering): all in (0, 1], their mean near 1/2.
bool uniform_curand_ok(inputs &d, int) {
  const std::vector<float> h = gpu::copy(d.out);
  double sum = 0;
  for (float x : h) {
    if (!(x > 0.f && x <= 1.f))
      return false;
    sum += x;
  }
  return mean_ok(sum, d.n);
}
void random_uniform_curand(benchmark::State &state) {
  curand_prepare(seed); // once, in the first case that needs it (the pacxx cases run without CUDA)
  measure(
      state,
      [](inputs &d) {
        curand_uniform(d.out.data(), d.n);
        return 0;
      },
      uniform_curand_ok, 4 * n_of(state));
}

// ---- random_engine: an engine per element, discard(i), one number
// The host's reference at sampled i: std::minstd_rand(seed) walked to i (std's discard is
// O(i), so one walk over the whole stream), through pacxx's uniform_real_distribution,
// which Thrust's rounds differently (float against double): pacxx's must be equal, Thrust's
// within tol.
bool engine_ok(inputs &d, float tol) {
  const std::vector<float> r = gpu::copy(d.out);
  std::minstd_rand e(seed);
  const gpu::random::uniform_real_distribution<float> u01(0.f, 1.f);
  const std::size_t step = 1 + d.n / 4096;
  for (std::size_t i = 0; i < d.n; ++i, e()) {
    if (i % step != 0 && i != d.n - 1)
      continue;
    std::minstd_rand at = e;
    const float want = u01(at);
    if (!(std::abs(r[i] - want) <= tol))
      return false;
  }
  return true;
}
// Element i: an engine of its own, moved to i.
struct engine_at {
  unsigned seed;
  float operator()(std::size_t i) const {
    gpu::random::default_random_engine e(seed);
    e.discard(i);
    return gpu::random::uniform_real_distribution<float>(0.f, 1.f)(e);
  }
};
void random_engine_pacxx(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        gpu::tabulate(d.out, engine_at{seed});
        pacxx::synchronize();
        return 0;
      },
      [](inputs &d, int) { return engine_ok(d, 0.f); }, 4 * n_of(state));
}
void random_engine_thrust(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        thrust_engine_uniform(d.out.data(), d.n, seed);
        return 0;
      },
      [](inputs &d, int) { return engine_ok(d, 1e-6f); }, 4 * n_of(state));
}

using pacxx_bench::sizes;

} // namespace

#define PACXX_BENCH(f) BENCHMARK(f)->Apply(sizes)
PACXX_BENCH(random_uniform_pacxx);
PACXX_BENCH(random_uniform_curand);
PACXX_BENCH(random_engine_pacxx);
PACXX_BENCH(random_engine_thrust);

BENCHMARK_MAIN();

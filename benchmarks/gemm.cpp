// Dense linear algebra (issue 36): gpu::gemm against cuBLAS SGEMM and DGEMM (pedantic
// math: FP32 without TF32 tensor cores), gpu::gemv against cuBLAS SGEMV, same process
// (baselines/gemm.cu). All matrices row-major, C = A * B (alpha 1, beta 0). Shapes
// m x n x k: 1024^3, 2048^3, 4096^3 and the odd 1000^3 and 777 x 1023 x 513; gemv at
// 8192 x 8192; gpu::gemm_batched over 4096 products of 64 x 64 x 64 against
// cublasSgemmStridedBatched. Each result is checked against cuBLAS's once per shape
// (within rounding that grows with k; tests/e2e/stl_gemm_test.cpp checks against the
// host); times are per call until C is complete. Counters: TFLOP/s (2 m n k per
// product) for gemm, bytes (A, x and y once) for gemv.
//
// Tensor cores: tf32_gemm_* and bf16_gemm_* run gpu::gemm(..., gpu::math::tf32 / bf16)
// (mma.sync on the H100) beside cublasGemmEx on the same float data with
// CUBLAS_COMPUTE_32F_FAST_TF32 / _FAST_16BF (cuBLAS converts inside; it uses Hopper's
// wgmma). Their agreement check allows the inputs' rounding (cuBLAS's conversion need not
// round as pacxx's does): 8 sqrt(k + 2) ulp of TF32 / BF16 at 1, errors of about one
// ulp a product adding up as a random walk.
#include <pacxx/algorithm/gemm.hpp>
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <tuple>
#include <type_traits>
#include <vector>

#include "baselines/gemm.h"

namespace {

template <class T> std::vector<T> randoms(std::size_t n, std::uint64_t s) {
  std::vector<T> v(n);
  for (auto &x : v) { // xorshift64*, uniform in [-1, 1)
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    x = T(double((s * 0x2545F4914F6CDD1Dull) >> 11) * (2.0 / 9007199254740992.0) - 1.0);
  }
  return v;
}

template <class T> struct problem {
  std::size_t m, n, k;
  gpu::vector<T> a, b, c, ref;
  problem(std::size_t m_, std::size_t n_, std::size_t k_)
      : m(m_), n(n_), k(k_), a(gpu::copy(randoms<T>(m * k, 1 + m))),
        b(gpu::copy(randoms<T>(k * n, 2 + n))), c(m * n), ref(m * n) {}
  // |pacxx - cuBLAS| within 4 (k + 2) eps: both round k-term sums of products in
  // [-1, 1] (sums of about sqrt(k) / 3 in magnitude), in different orders; a product lost
  // or counted twice (about 1/4) is far outside.
  bool agree(double input_ulp = 0) {
    const std::vector<T> got = gpu::copy(c), want = gpu::copy(ref);
    const double bound = input_ulp > 0 ? 8 * input_ulp * std::sqrt(double(k + 2))
                                       : 4 * std::numeric_limits<T>::epsilon() * double(k + 2);
    for (std::size_t i = 0; i < got.size(); ++i)
      if (!(std::fabs(double(got[i]) - double(want[i])) <= bound))
        return false;
    return true;
  }
};

template <class T> problem<T> &cached(std::size_t m, std::size_t n, std::size_t k) {
  // Never destroyed: the runtime may be gone by the time static objects are.
  static auto *all =
      new std::map<std::tuple<std::size_t, std::size_t, std::size_t>, std::unique_ptr<problem<T>>>;
  auto &p = (*all)[std::make_tuple(m, n, k)];
  if (!p)
    p.reset(new problem<T>(m, n, k));
  return *p;
}

template <class T> void pacxx_gemm(problem<T> &p) {
  gpu::gemm(gpu::md(p.a, p.k, p.m), gpu::md(p.b, p.n, p.k), gpu::md(p.c, p.n, p.m), T(1), T(0));
  pacxx::synchronize();
}
void cublas_gemm(problem<float> &p) {
  cublas_sgemm(p.a.data(), p.b.data(), p.ref.data(), int(p.m), int(p.n), int(p.k));
}
void cublas_gemm(problem<double> &p) {
  cublas_dgemm(p.a.data(), p.b.data(), p.ref.data(), int(p.m), int(p.n), int(p.k));
}

template <class T, class F> void run(benchmark::State &state, F f) {
  gemm_prepare();
  const std::size_t m = state.range(0), n = state.range(1), k = state.range(2);
  problem<T> &p = cached<T>(m, n, k);
  cublas_gemm(p);
  pacxx_gemm(p);
  if (!p.agree())
    return state.SkipWithError("pacxx and cuBLAS disagree");
  for (auto _ : state)
    f(p);
  state.counters["TFLOP/s"] = benchmark::Counter(2.0 * double(m) * double(n) * double(k) / 1e12,
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

// TF32 (ulp 2^-10) or BF16 (2^-7) on tensor cores: pacxx's mma.sync against cuBLAS's
// GemmEx with the matching compute type.
template <class Math> void pacxx_gemm_math(problem<float> &p) {
  gpu::gemm(gpu::md(p.a, p.k, p.m), gpu::md(p.b, p.n, p.k), gpu::md(p.c, p.n, p.m), 1.f, 0.f,
            Math());
  pacxx::synchronize();
}
template <class Math> void cublas_gemm_math(problem<float> &p) {
  if (std::is_same<Math, gpu::math::tf32_t>::value)
    cublas_gemm_tf32(p.a.data(), p.b.data(), p.ref.data(), int(p.m), int(p.n), int(p.k));
  else
    cublas_gemm_bf16(p.a.data(), p.b.data(), p.ref.data(), int(p.m), int(p.n), int(p.k));
}
template <class Math> void run_math(benchmark::State &state, bool use_pacxx) {
  gemm_prepare();
  const std::size_t m = state.range(0), n = state.range(1), k = state.range(2);
  problem<float> &p = cached<float>(m, n, k);
  cublas_gemm_math<Math>(p);
  pacxx_gemm_math<Math>(p);
  const double ulp = std::is_same<Math, gpu::math::tf32_t>::value ? 0x1p-10 : 0x1p-7;
  if (!p.agree(ulp))
    return state.SkipWithError("pacxx and cuBLAS disagree");
  for (auto _ : state)
    use_pacxx ? pacxx_gemm_math<Math>(p) : cublas_gemm_math<Math>(p);
  state.counters["TFLOP/s"] = benchmark::Counter(2.0 * double(m) * double(n) * double(k) / 1e12,
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

void shapes(benchmark::internal::Benchmark *b) {
  for (long s : {1024, 2048, 4096})
    b->Args({s, s, s});
  b->Args({1000, 1000, 1000});
  b->Args({777, 1023, 513});
  b->ArgNames({"m", "n", "k"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}

void sgemm_pacxx(benchmark::State &s) {
  run<float>(s, [](problem<float> &p) { pacxx_gemm(p); });
}
void sgemm_cublas(benchmark::State &s) {
  run<float>(s, [](problem<float> &p) { cublas_gemm(p); });
}
void dgemm_pacxx(benchmark::State &s) {
  run<double>(s, [](problem<double> &p) { pacxx_gemm(p); });
}
void dgemm_cublas(benchmark::State &s) {
  run<double>(s, [](problem<double> &p) { cublas_gemm(p); });
}
BENCHMARK(sgemm_pacxx)->Apply(shapes);
BENCHMARK(sgemm_cublas)->Apply(shapes);
BENCHMARK(dgemm_pacxx)->Apply(shapes);
BENCHMARK(dgemm_cublas)->Apply(shapes);

void tensor_shapes(benchmark::internal::Benchmark *b) {
  for (long s : {1024, 2048, 4096, 8192})
    b->Args({s, s, s});
  b->Args({1000, 1000, 1000});
  b->Args({4096, 512, 1024});
  b->Args({777, 1023, 513});
  b->ArgNames({"m", "n", "k"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}
void tf32_gemm_pacxx(benchmark::State &s) { run_math<gpu::math::tf32_t>(s, true); }
void tf32_gemm_cublas(benchmark::State &s) { run_math<gpu::math::tf32_t>(s, false); }
void bf16_gemm_pacxx(benchmark::State &s) { run_math<gpu::math::bf16_t>(s, true); }
void bf16_gemm_cublas(benchmark::State &s) { run_math<gpu::math::bf16_t>(s, false); }
BENCHMARK(tf32_gemm_pacxx)->Apply(tensor_shapes);
BENCHMARK(tf32_gemm_cublas)->Apply(tensor_shapes);
BENCHMARK(bf16_gemm_pacxx)->Apply(tensor_shapes);
BENCHMARK(bf16_gemm_cublas)->Apply(tensor_shapes);

// Batched small products (m x n x k, `batch` of them in 3D views): the problem of
// m * batch rows holds the batch's A and C planes one after the other (its a and c
// seen as 3D views); the batch of B is kept here.
void run_batched(benchmark::State &state, bool use_pacxx) {
  gemm_prepare();
  const std::size_t m = state.range(0), n = state.range(1), k = state.range(2),
                    batch = state.range(3);
  problem<float> &p = cached<float>(m * batch, n, k);
  static auto *bs = new std::map<std::size_t, gpu::vector<float>>;
  auto &b = (*bs)[batch * k * n];
  if (b.size() == 0)
    b = gpu::copy(randoms<float>(batch * k * n, 3 + batch));
  auto pacxx_call = [&] {
    gpu::gemm_batched(gpu::md(p.a, k, m, batch), gpu::md(b, n, k, batch), gpu::md(p.c, n, m, batch),
                      1.f, 0.f);
    pacxx::synchronize();
  };
  auto cublas_call = [&] {
    cublas_sgemm_batched(p.a.data(), b.data(), p.ref.data(), int(m), int(n), int(k), int(batch));
  };
  pacxx_call();
  cublas_call();
  if (!p.agree())
    return state.SkipWithError("pacxx and cuBLAS disagree");
  for (auto _ : state)
    use_pacxx ? pacxx_call() : cublas_call();
  state.counters["TFLOP/s"] =
      benchmark::Counter(2.0 * double(m) * double(n) * double(k) * double(batch) / 1e12,
                         benchmark::Counter::kIsIterationInvariantRate);
}
void sgemm_batched_pacxx(benchmark::State &s) { run_batched(s, true); }
void sgemm_batched_cublas(benchmark::State &s) { run_batched(s, false); }
void batched_shapes(benchmark::internal::Benchmark *b) {
  b->Args({64, 64, 64, 4096})->ArgNames({"m", "n", "k", "batch"});
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(sgemm_batched_pacxx)->Apply(batched_shapes);
BENCHMARK(sgemm_batched_cublas)->Apply(batched_shapes);

// y = A x over a row-major m x n A: problem's a is A, b is x, c and ref are y.
template <class F> void run_gemv(benchmark::State &state, F f) {
  gemm_prepare();
  const std::size_t m = state.range(0), n = state.range(1);
  problem<float> &p = cached<float>(m, 1, n);
  gpu::gemv(gpu::md(p.a, n, m), p.b, p.c, 1.f, 0.f);
  cublas_sgemv(p.a.data(), p.b.data(), p.ref.data(), int(m), int(n));
  if (!p.agree())
    return state.SkipWithError("pacxx and cuBLAS disagree");
  for (auto _ : state)
    f(p);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t((m * n + n + m) * sizeof(float)));
}
void sgemv_pacxx(benchmark::State &s) {
  run_gemv(s, [](problem<float> &p) {
    gpu::gemv(gpu::md(p.a, p.k, p.m), p.b, p.c, 1.f, 0.f);
    pacxx::synchronize();
  });
}
void sgemv_cublas(benchmark::State &s) {
  run_gemv(s, [](problem<float> &p) {
    cublas_sgemv(p.a.data(), p.b.data(), p.ref.data(), int(p.m), int(p.k));
  });
}
void gemv_shapes(benchmark::internal::Benchmark *b) {
  b->Args({8192, 8192})->ArgNames({"m", "n"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(sgemv_pacxx)->Apply(gemv_shapes);
BENCHMARK(sgemv_cublas)->Apply(gemv_shapes);

} // namespace

BENCHMARK_MAIN();

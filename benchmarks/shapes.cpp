// Arrays with a shape (issue 35 items 1-3) beside hand-written CUDA and the device copy,
// same process. Families (the argument is the number of points):
//   jacobi2d   5-point stencil, clamped borders, 2048^2 .. 8192^2; pacxx gpu::stencil<1>,
//              cuda the naive kernel, copy cudaMemcpy of the array (the same 8 bytes a
//              point: one read, one write)
//   jacobi3d   7-point stencil, clamped, 128^3 .. 512^3, alike
//   box17      17 x 17 mean, clamped, 2048^2 and 4096^2: pacxx gpu::stencil<8> (no shared
//              memory tiles) against the hand-tiled shared-memory kernel
//   rowsum, colsum   gpu::reduce_rows / reduce_columns of a square float array
//   transpose  gpu::transpose; copy as above
//   indices    a 2D index space written out: gpu::views::indices (2D launch) against a
//              flat view::iota with / and % (pacxx "iota")
// Bytes: what each moves at least (stencils and transpose 8 a point, folds 4).
// pacxx results are checked against the baseline (or the host) once per size.
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>

#include "baselines/shapes.h"

namespace view = ranges::views;

namespace {

struct arrays {
  std::size_t w, h, d;
  gpu::vector<float> in, out, ref;
  arrays(std::size_t w_, std::size_t h_, std::size_t d_) : w(w_), h(h_), d(d_) {
    std::vector<float> v(w * h * d);
    std::uint64_t s = 77;
    for (auto &x : v) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      x = float((s >> 40) % 1000) * 0.001f;
    }
    in = gpu::copy(v);
    out = gpu::vector<float>(v.size());
    ref = gpu::vector<float>(v.size());
  }
};

arrays &cached(std::size_t w, std::size_t h, std::size_t d) {
  // Never destroyed: the runtime may be gone by the time static objects are.
  static auto *all = new std::map<std::size_t, std::unique_ptr<arrays>>;
  auto &p = (*all)[w * h * d];
  if (!p || p->w != w || p->h != h || p->d != d)
    p.reset(new arrays(w, h, d));
  return *p;
}

bool close(const gpu::vector<float> &a, const gpu::vector<float> &b) {
  const std::vector<float> x = gpu::copy(a), y = gpu::copy(b);
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::fabs(x[i] - y[i]) > 1e-4f * (1.f + std::fabs(y[i])))
      return false;
  return true;
}

std::size_t side2(benchmark::State &s) {
  return std::size_t(std::llround(std::sqrt(double(s.range(0)))));
}
std::size_t side3(benchmark::State &s) {
  return std::size_t(std::llround(std::cbrt(double(s.range(0)))));
}

template <class F> void timed(benchmark::State &state, std::size_t bytes, F f) {
  for (auto _ : state)
    f();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

// ---- 2D and 3D Jacobi ----------------------------------------------------------------
void pacxx_jacobi2d(arrays &a) {
  gpu::transform(gpu::stencil<1>(gpu::md(a.in, a.w, a.h), gpu::boundary::clamp), a.out, [](auto n) {
    return 0.25f * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1)) - n(0, 0);
  });
  pacxx::synchronize();
}
void jacobi2d_pacxx(benchmark::State &s) {
  arrays &a = cached(side2(s), side2(s), 1);
  cuda_jacobi2d(a.in.data(), a.ref.data(), a.w, a.h);
  pacxx_jacobi2d(a);
  if (!close(a.out, a.ref))
    return s.SkipWithError("wrong result");
  timed(s, 8 * a.w * a.h, [&] { pacxx_jacobi2d(a); });
}
void jacobi2d_cuda(benchmark::State &s) {
  arrays &a = cached(side2(s), side2(s), 1);
  timed(s, 8 * a.w * a.h, [&] { cuda_jacobi2d(a.in.data(), a.ref.data(), a.w, a.h); });
}
void jacobi2d_copy(benchmark::State &s) {
  arrays &a = cached(side2(s), side2(s), 1);
  timed(s, 8 * a.w * a.h, [&] { cuda_copy(a.in.data(), a.ref.data(), a.w * a.h); });
}

void pacxx_jacobi3d(arrays &a) {
  gpu::transform(gpu::stencil<1>(gpu::md(a.in, a.w, a.h, a.d), gpu::boundary::clamp), a.out,
                 [](auto n) {
                   return n(0, 0, 0) + n(-1, 0, 0) + n(1, 0, 0) + n(0, -1, 0) + n(0, 1, 0) +
                          n(0, 0, -1) + n(0, 0, 1);
                 });
  pacxx::synchronize();
}
void jacobi3d_pacxx(benchmark::State &s) {
  const std::size_t k = side3(s);
  arrays &a = cached(k, k, k);
  cuda_jacobi3d(a.in.data(), a.ref.data(), k, k, k);
  pacxx_jacobi3d(a);
  if (!close(a.out, a.ref))
    return s.SkipWithError("wrong result");
  timed(s, 8 * k * k * k, [&] { pacxx_jacobi3d(a); });
}
void jacobi3d_cuda(benchmark::State &s) {
  const std::size_t k = side3(s);
  arrays &a = cached(k, k, k);
  timed(s, 8 * k * k * k, [&] { cuda_jacobi3d(a.in.data(), a.ref.data(), k, k, k); });
}
void jacobi3d_copy(benchmark::State &s) {
  const std::size_t k = side3(s);
  arrays &a = cached(k, k, k);
  timed(s, 8 * k * k * k, [&] { cuda_copy(a.in.data(), a.ref.data(), k * k * k); });
}

// ---- 17 x 17 box filter --------------------------------------------------------------
void pacxx_box17(arrays &a) {
  gpu::transform(gpu::stencil<8>(gpu::md(a.in, a.w, a.h), gpu::boundary::clamp), a.out, [](auto n) {
    float s = 0.f;
    for (int dy = -8; dy <= 8; ++dy)
      for (int dx = -8; dx <= 8; ++dx)
        s += n(dx, dy);
    return s * (1.f / 289.f);
  });
  pacxx::synchronize();
}
void box17_pacxx(benchmark::State &s) {
  arrays &a = cached(side2(s), side2(s), 1);
  cuda_box17(a.in.data(), a.ref.data(), a.w, a.h);
  pacxx_box17(a);
  if (!close(a.out, a.ref))
    return s.SkipWithError("wrong result");
  timed(s, 8 * a.w * a.h, [&] { pacxx_box17(a); });
}
void box17_cuda(benchmark::State &s) {
  arrays &a = cached(side2(s), side2(s), 1);
  timed(s, 8 * a.w * a.h, [&] { cuda_box17(a.in.data(), a.ref.data(), a.w, a.h); });
}

// ---- folds along an axis and transposes -------------------------------------------------
template <bool Rows> void fold(benchmark::State &s) {
  arrays &a = cached(side2(s), side2(s), 1);
  auto run = [&] {
    if (Rows)
      gpu::reduce_rows(gpu::md(a.in, a.w, a.h), a.out, 0.f);
    else
      gpu::reduce_columns(gpu::md(a.in, a.w, a.h), a.out, 0.f);
    pacxx::synchronize();
  };
  run();
  const std::vector<float> host = gpu::copy(a.in), got = gpu::copy(a.out);
  for (std::size_t k = 0; k < a.w; k += a.w / 7 + 1) {
    double want = 0;
    for (std::size_t i = 0; i < a.w; ++i)
      want += Rows ? host[i + a.w * k] : host[k + a.w * i];
    if (std::fabs(got[k] - want) > 1e-3 * (1 + std::fabs(want)))
      return s.SkipWithError("wrong result");
  }
  timed(s, 4 * a.w * a.h, run);
}
void rowsum_pacxx(benchmark::State &s) { fold<true>(s); }
void colsum_pacxx(benchmark::State &s) { fold<false>(s); }
void fold_copy(benchmark::State &s) { // the copy rate, for the folds' bandwidth goals
  arrays &a = cached(side2(s), side2(s), 1);
  timed(s, 8 * a.w * a.h, [&] { cuda_copy(a.in.data(), a.ref.data(), a.w * a.h); });
}
void rowsum_copy(benchmark::State &s) { fold_copy(s); }
void colsum_copy(benchmark::State &s) { fold_copy(s); }
void transpose_copy(benchmark::State &s) { fold_copy(s); }
void transpose_pacxx(benchmark::State &s) {
  arrays &a = cached(side2(s), side2(s), 1);
  auto run = [&] {
    gpu::transpose(gpu::md(a.in, a.w, a.h), a.out);
    pacxx::synchronize();
  };
  run();
  const std::vector<float> host = gpu::copy(a.in), got = gpu::copy(a.out);
  for (std::size_t y = 0; y < a.h; y += 97)
    for (std::size_t x = 0; x < a.w; x += 89)
      if (got[y + a.h * x] != host[x + a.w * y])
        return s.SkipWithError("wrong result");
  timed(s, 8 * a.w * a.h, run);
}

// ---- index spaces -------------------------------------------------------------------------
void indices_pacxx(benchmark::State &s) {
  arrays &a = cached(side2(s), side2(s), 1);
  timed(s, 4 * a.w * a.h, [&] {
    gpu::transform(gpu::views::indices(a.w, a.h), a.out,
                   [](pacxx::index2 i) { return float(i.x) * 0.5f + float(i.y); });
    pacxx::synchronize();
  });
}
void indices_iota(benchmark::State &s) {
  arrays &a = cached(side2(s), side2(s), 1);
  const std::size_t w = a.w;
  timed(s, 4 * a.w * a.h, [&] {
    gpu::transform(view::iota(std::size_t(0), a.w * a.h), a.out,
                   [w](std::size_t i) { return float(i % w) * 0.5f + float(i / w); });
    pacxx::synchronize();
  });
}

void sizes2(benchmark::internal::Benchmark *b) {
  for (int e : {11, 12, 13})
    b->Arg(int64_t(1) << (2 * e));
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}
void sizes3(benchmark::internal::Benchmark *b) {
  for (int e : {7, 8, 9})
    b->Arg(int64_t(1) << (3 * e));
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}
void sizes_box(benchmark::internal::Benchmark *b) {
  for (int e : {11, 12})
    b->Arg(int64_t(1) << (2 * e));
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(jacobi2d_pacxx)->Apply(sizes2);
BENCHMARK(jacobi2d_cuda)->Apply(sizes2);
BENCHMARK(jacobi2d_copy)->Apply(sizes2);
BENCHMARK(jacobi3d_pacxx)->Apply(sizes3);
BENCHMARK(jacobi3d_cuda)->Apply(sizes3);
BENCHMARK(jacobi3d_copy)->Apply(sizes3);
BENCHMARK(box17_pacxx)->Apply(sizes_box);
BENCHMARK(box17_cuda)->Apply(sizes_box);
BENCHMARK(rowsum_pacxx)->Apply(sizes2);
BENCHMARK(rowsum_copy)->Apply(sizes2);
BENCHMARK(colsum_pacxx)->Apply(sizes2);
BENCHMARK(colsum_copy)->Apply(sizes2);
BENCHMARK(transpose_pacxx)->Apply(sizes2);
BENCHMARK(transpose_copy)->Apply(sizes2);
BENCHMARK(indices_pacxx)->Apply(sizes2);
BENCHMARK(indices_iota)->Apply(sizes2);

} // namespace

BENCHMARK_MAIN();

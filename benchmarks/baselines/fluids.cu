// See fluids.h. Every CUDA call is checked; a failure aborts with its message.
#include "fluids.h"

#include <utility>

#include "check.h"

namespace {

struct grid {
  int n, s; // N, N + 2
  __device__ int ix(int i, int j) const { return i + s * j; }
};

// A thread per inside cell (i, j) in [1, N]^2.
#define INSIDE                                                                                     \
  const int i = blockIdx.x * blockDim.x + threadIdx.x + 1,                                         \
            j = blockIdx.y * blockDim.y + threadIdx.y + 1;                                         \
  if (i > g.n || j > g.n)                                                                          \
    return;

__global__ void add_source(float *x, const float *s, float dt, int size) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size)
    x[i] += dt * s[i];
}

__global__ void set_bnd(grid g, int b, float *x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, N = g.n;
  if (i >= 1 && i <= N) {
    x[g.ix(0, i)] = b == 1 ? -x[g.ix(1, i)] : x[g.ix(1, i)];
    x[g.ix(N + 1, i)] = b == 1 ? -x[g.ix(N, i)] : x[g.ix(N, i)];
    x[g.ix(i, 0)] = b == 2 ? -x[g.ix(i, 1)] : x[g.ix(i, 1)];
    x[g.ix(i, N + 1)] = b == 2 ? -x[g.ix(i, N)] : x[g.ix(i, N)];
  } else if (i == 0 || i == N + 1) { // corners, from the inside cell next to them
    const int c = i, ci = i == 0 ? 1 : N;
    const float lo = x[g.ix(ci, 1)], hi = x[g.ix(ci, N)];
    x[g.ix(c, 0)] = 0.5f * ((b == 2 ? -lo : lo) + (b == 1 ? -lo : lo));
    x[g.ix(c, N + 1)] = 0.5f * ((b == 2 ? -hi : hi) + (b == 1 ? -hi : hi));
  }
}

__global__ void jacobi(grid g, float *out, const float *x, const float *x0, float a, float c) {
  INSIDE
  out[g.ix(i, j)] = (x0[g.ix(i, j)] + a * (x[g.ix(i - 1, j)] + x[g.ix(i + 1, j)] +
                                           x[g.ix(i, j - 1)] + x[g.ix(i, j + 1)])) /
                    c;
}

__global__ void advect(grid g, float *d, const float *d0, const float *u, const float *v,
                       float dt0) {
  INSIDE
  const float N = (float)g.n;
  float x = i - dt0 * u[g.ix(i, j)], y = j - dt0 * v[g.ix(i, j)];
  if (x < 0.5f)
    x = 0.5f;
  if (x > N + 0.5f)
    x = N + 0.5f;
  if (y < 0.5f)
    y = 0.5f;
  if (y > N + 0.5f)
    y = N + 0.5f;
  const int i0 = (int)x, i1 = i0 + 1, j0 = (int)y, j1 = j0 + 1;
  const float s1 = x - i0, s0 = 1 - s1, t1 = y - j0, t0 = 1 - t1;
  d[g.ix(i, j)] = s0 * (t0 * d0[g.ix(i0, j0)] + t1 * d0[g.ix(i0, j1)]) +
                  s1 * (t0 * d0[g.ix(i1, j0)] + t1 * d0[g.ix(i1, j1)]);
}

__global__ void divergence(grid g, float *div, const float *u, const float *v, float h) {
  INSIDE
  div[g.ix(i, j)] =
      -0.5f * h * (u[g.ix(i + 1, j)] - u[g.ix(i - 1, j)] + v[g.ix(i, j + 1)] - v[g.ix(i, j - 1)]);
}

__global__ void subtract_gradient(grid g, float *u, float *v, const float *p, float h) {
  INSIDE
  u[g.ix(i, j)] -= 0.5f * (p[g.ix(i + 1, j)] - p[g.ix(i - 1, j)]) / h;
  v[g.ix(i, j)] -= 0.5f * (p[g.ix(i, j + 1)] - p[g.ix(i, j - 1)]) / h;
}

struct fluid {
  grid g;
  float dt, diff, visc;
  int iterations;
  float *u, *v, *u0, *v0, *dens, *dens0, *tmp, *su, *sv, *sd;
  dim3 block{32, 8}, cells;
  int size;

  void bnd(int b, float *x) { set_bnd<<<(g.s + 127) / 128, 128>>>(g, b, x); }
  void source(float *x, const float *s) { add_source<<<(size + 255) / 256, 256>>>(x, s, dt, size); }
  void lin_solve(int b, float *x, const float *x0, float a, float c) {
    for (int k = 0; k < iterations; k += 2) {
      jacobi<<<cells, block>>>(g, tmp, x, x0, a, c);
      bnd(b, tmp);
      jacobi<<<cells, block>>>(g, x, tmp, x0, a, c);
      bnd(b, x);
    }
  }
  void diffuse(int b, float *x, const float *x0, float k) {
    const float a = dt * k * (float)g.n * (float)g.n;
    lin_solve(b, x, x0, a, 1 + 4 * a);
  }
  void adv(int b, float *d, const float *d0, const float *uu, const float *vv) {
    advect<<<cells, block>>>(g, d, d0, uu, vv, dt * (float)g.n);
    bnd(b, d);
  }
  void project(float *uu, float *vv, float *p, float *div) {
    const float h = 1.0f / (float)g.n;
    divergence<<<cells, block>>>(g, div, uu, vv, h);
    bnd(0, div);
    CHECK(cudaMemsetAsync(p, 0, size * sizeof(float)));
    lin_solve(0, p, div, 1, 4);
    subtract_gradient<<<cells, block>>>(g, uu, vv, p, h);
    bnd(1, uu);
    bnd(2, vv);
  }
  void step() {
    source(u, su);
    source(v, sv);
    diffuse(1, u0, u, visc);
    diffuse(2, v0, v, visc);
    project(u0, v0, u, v);
    adv(1, u, u0, u0, v0);
    adv(2, v, v0, u0, v0);
    project(u, v, u0, v0);
    source(dens, sd);
    diffuse(0, dens0, dens, diff);
    adv(0, dens, dens0, u, v);
  }
};

} // namespace

extern "C" void *cuda_fluids_create(std::size_t n, const float *su, const float *sv,
                                    const float *sd, float dt, float diff, float visc,
                                    int iterations) {
  auto *f = new fluid;
  f->g = grid{(int)n, (int)n + 2};
  f->dt = dt;
  f->diff = diff;
  f->visc = visc;
  f->iterations = iterations;
  f->size = f->g.s * f->g.s;
  f->cells = dim3((unsigned)((n + 31) / 32), (unsigned)((n + 7) / 8));
  const size_t bytes = (size_t)f->size * sizeof(float);
  for (float **p :
       {&f->u, &f->v, &f->u0, &f->v0, &f->dens, &f->dens0, &f->tmp, &f->su, &f->sv, &f->sd}) {
    CHECK(cudaMalloc(p, bytes));
    CHECK(cudaMemset(*p, 0, bytes));
  }
  CHECK(cudaMemcpy(f->su, su, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(f->sv, sv, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(f->sd, sd, bytes, cudaMemcpyHostToDevice));
  return f;
}

extern "C" void cuda_fluids_destroy(void *ctx) {
  auto *f = static_cast<fluid *>(ctx);
  for (float *p : {f->u, f->v, f->u0, f->v0, f->dens, f->dens0, f->tmp, f->su, f->sv, f->sd})
    CHECK(cudaFree(p));
  delete f;
}

extern "C" void cuda_fluids_run(void *ctx, std::size_t k) {
  auto *f = static_cast<fluid *>(ctx);
  for (std::size_t i = 0; i < k; ++i)
    f->step();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cuda_fluids_state(void *ctx, float *u, float *v, float *dens) {
  auto *f = static_cast<fluid *>(ctx);
  const size_t bytes = (size_t)f->size * sizeof(float);
  CHECK(cudaMemcpy(u, f->u, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(v, f->v, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(dens, f->dens, bytes, cudaMemcpyDeviceToHost));
}

// ROF baselines for benchmarks/rof.cpp (see rof.h): FlexBox-style Thrust and
// hand-fused CUDA, and the launch counter.
#include "rof.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>

#include "check.h"

// ---- launch counting (linker --wrap) ---------------------------------------------------
namespace {
std::atomic<std::size_t> launches{0};
}
extern "C" {
cudaError_t __real___cudaLaunchKernel(cudaKernel_t, dim3, dim3, void **, size_t, cudaStream_t);
cudaError_t __wrap___cudaLaunchKernel(cudaKernel_t k, dim3 g, dim3 b, void **args, size_t shared,
                                      cudaStream_t s) {
  ++launches;
  return __real___cudaLaunchKernel(k, g, b, args, shared, s);
}
cudaError_t __real_cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t);
cudaError_t __wrap_cudaLaunchKernel(const void *f, dim3 g, dim3 b, void **args, size_t shared,
                                    cudaStream_t s) {
  ++launches;
  return __real_cudaLaunchKernel(f, g, b, args, shared, s);
}
cudaError_t __real_cudaLaunchKernelExC(const cudaLaunchConfig_t *, const void *, void **);
cudaError_t __wrap_cudaLaunchKernelExC(const cudaLaunchConfig_t *c, const void *f, void **args) {
  ++launches;
  return __real_cudaLaunchKernelExC(c, f, args);
}

std::size_t rof_launches() { return launches.load(); }
void rof_synchronize() { CHECK(cudaDeviceSynchronize()); }
std::size_t rof_device_free_bytes() {
  std::size_t free_bytes = 0, total = 0;
  CHECK(cudaMemGetInfo(&free_bytes, &total));
  return free_bytes;
}
double rof_copy_ms(std::size_t bytes, int reps) {
  void *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMemset(a, 1, bytes));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int r = 0; r < reps + 1; ++r) {
    CHECK(cudaEventRecord(start));
    CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    if (r > 0) // the first is a warm-up
      ms.push_back(t);
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}
}

// ---- FlexBox style: Thrust, one call per module operation -------------------------------
namespace {

// Linear operators, FlexBox's way: the gradient is one operator per direction (forward
// differences, Neumann boundary), each with its own transpose; y <- y + s K x ("times
// plus") and y (+)= K^T x are one thrust::transform each.
struct grad_x_plus {
  const float *x;
  unsigned w;
  float s;
  __device__ float operator()(unsigned i, float y) const {
    return y + s * ((i % w) + 1 < w ? x[i + 1] - x[i] : 0.f);
  }
};
struct grad_y_plus {
  const float *x;
  unsigned w, n;
  float s;
  __device__ float operator()(unsigned i, float y) const {
    return y + s * (i + w < n ? x[i + w] - x[i] : 0.f);
  }
};
// (grad_x)^T p at i: p(x-1) - p(x), p(x) taken as 0 in the last column.
struct grad_x_transposed {
  const float *p;
  unsigned w;
  __device__ float operator()(unsigned i) const {
    const unsigned x = i % w;
    float d = 0.f;
    if (x + 1 < w)
      d -= p[i];
    if (x > 0)
      d += p[i - 1];
    return d;
  }
};
struct grad_y_transposed_plus {
  const float *p;
  unsigned w, n;
  __device__ float operator()(unsigned i, float acc) const {
    float d = 0.f;
    if (i + w < n)
      d -= p[i];
    if (i >= w)
      d += p[i - w];
    return acc + d;
  }
};
struct identity_plus {
  float s;
  __device__ float operator()(float x, float y) const { return y + s * x; }
};
struct add {
  __device__ float operator()(float a, float b) const { return a + b; }
};
// Proximal operators (dual of TV: projection onto the unit L2 ball; dual of the L2 data
// term) and the primal update, each one Thrust call.
struct project {
  template <class T> __device__ void operator()(T t) const {
    float ax = thrust::get<0>(t), ay = thrust::get<1>(t);
    const float n = sqrtf(ax * ax + ay * ay);
    if (n > 1.f) {
      ax = (1.f / n) * ax;
      ay = (1.f / n) * ay;
    }
    thrust::get<2>(t) = ax;
    thrust::get<3>(t) = ay;
  }
};
struct l2_dual_prox {
  float sigma, scale;
  __device__ float operator()(float y, float f) const { return (y - sigma * f) * scale; }
};
struct descend {
  float tau;
  __device__ float operator()(float u, float kty) const { return u - tau * kty; }
};
struct extrapolate {
  __device__ float operator()(float u, float old) const { return 2.f * u - old; }
};

} // namespace

struct rof_thrust_solver {
  unsigned w, n;
  float lambda, tau, sigma;
  thrust::device_vector<float> f, u, u_old, u_bar, px, py, q, px_t, py_t, q_t, kty;
};

extern "C" rof_thrust_solver *rof_thrust_create(const float *f_host, std::size_t width,
                                                std::size_t height, float lambda) {
  auto *s = new rof_thrust_solver;
  s->w = static_cast<unsigned>(width);
  s->n = static_cast<unsigned>(width * height);
  s->lambda = lambda;
  s->tau = s->sigma = 1.f / std::sqrt(8.f + 1.f); // ||grad||^2 <= 8, ||I||^2 = 1
  s->f.assign(f_host, f_host + s->n);
  s->u = s->f;
  s->u_old = s->f;
  s->u_bar = s->f;
  for (auto *v : {&s->px, &s->py, &s->q, &s->px_t, &s->py_t, &s->q_t, &s->kty})
    v->assign(s->n, 0.f);
  return s;
}

namespace {
// One iteration in 11 Thrust calls, under the given execution policy.
template <class Policy>
void thrust_iterate(const Policy &policy, rof_thrust_solver *s, int iterations) {
  using thrust::counting_iterator;
  const unsigned n = s->n, w = s->w;
  const float sigma = s->sigma, tau = s->tau;
  counting_iterator<unsigned> i0(0), i1(n);
  const float *ubar = thrust::raw_pointer_cast(s->u_bar.data());
  for (int it = 0; it < iterations; ++it) {
    // Dual term 1, TV: y~ = y + sigma K u_bar per operator, then its prox.
    thrust::transform(policy, i0, i1, s->px.begin(), s->px_t.begin(), grad_x_plus{ubar, w, sigma});
    thrust::transform(policy, i0, i1, s->py.begin(), s->py_t.begin(),
                      grad_y_plus{ubar, w, n, sigma});
    thrust::for_each(policy,
                     thrust::make_zip_iterator(thrust::make_tuple(s->px_t.begin(), s->py_t.begin(),
                                                                  s->px.begin(), s->py.begin())),
                     thrust::make_zip_iterator(thrust::make_tuple(s->px_t.end(), s->py_t.end(),
                                                                  s->px.end(), s->py.end())),
                     project{});
    // Dual term 2, L2 data: y~ = y + sigma u_bar, then its prox.
    thrust::transform(policy, s->u_bar.begin(), s->u_bar.end(), s->q.begin(), s->q_t.begin(),
                      identity_plus{sigma});
    thrust::transform(policy, s->q_t.begin(), s->q_t.end(), s->f.begin(), s->q.begin(),
                      l2_dual_prox{sigma, 1.f / (1.f + sigma / s->lambda)});
    // Primal: x_old = x; K^T y summed over the operators; x = x - tau K^T y; over-relax.
    thrust::copy(policy, s->u.begin(), s->u.end(), s->u_old.begin());
    thrust::transform(policy, i0, i1, s->kty.begin(),
                      grad_x_transposed{thrust::raw_pointer_cast(s->px.data()), w});
    thrust::transform(policy, i0, i1, s->kty.begin(), s->kty.begin(),
                      grad_y_transposed_plus{thrust::raw_pointer_cast(s->py.data()), w, n});
    thrust::transform(policy, s->kty.begin(), s->kty.end(), s->q.begin(), s->kty.begin(), add{});
    thrust::transform(policy, s->u.begin(), s->u.end(), s->kty.begin(), s->u.begin(), descend{tau});
    thrust::transform(policy, s->u.begin(), s->u.end(), s->u_old.begin(), s->u_bar.begin(),
                      extrapolate{});
  }
}
} // namespace

extern "C" void rof_thrust_iterate(rof_thrust_solver *s, int iterations) {
  thrust_iterate(thrust::device, s, iterations);
}
extern "C" void rof_thrust_nosync_iterate(rof_thrust_solver *s, int iterations) {
  thrust_iterate(thrust::cuda::par_nosync, s, iterations);
}

extern "C" void rof_thrust_u(const rof_thrust_solver *s, float *u_host) {
  thrust::copy(s->u.begin(), s->u.end(), u_host);
}
extern "C" void rof_thrust_destroy(rof_thrust_solver *s) { delete s; }

// ---- hand-fused CUDA: two kernels per iteration -----------------------------------------
namespace {

constexpr int bx = 32, by = 8;

// Dual update of both terms at one pixel: reads u_bar (and its right and lower
// neighbours), p, q, f; writes p, q.
__global__ void dual_kernel(const float *__restrict__ u_bar, const float *__restrict__ f,
                            float2 *__restrict__ p, float *__restrict__ q, int w, int h,
                            float sigma, float scale) {
  const int x = blockIdx.x * bx + threadIdx.x, y = blockIdx.y * by + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const int i = y * w + x;
  const float c = u_bar[i];
  const float gx = x + 1 < w ? u_bar[i + 1] - c : 0.f;
  const float gy = y + 1 < h ? u_bar[i + w] - c : 0.f;
  float2 a = p[i];
  a.x = a.x + sigma * gx;
  a.y = a.y + sigma * gy;
  const float nrm = sqrtf(a.x * a.x + a.y * a.y);
  if (nrm > 1.f) {
    a.x = (1.f / nrm) * a.x;
    a.y = (1.f / nrm) * a.y;
  }
  p[i] = a;
  q[i] = ((q[i] + sigma * c) - sigma * f[i]) * scale;
}

// Primal update and over-relaxation at one pixel: reads p (and its left and upper
// neighbours), q, u; writes u, u_bar.
__global__ void primal_kernel(const float2 *__restrict__ p, const float *__restrict__ q,
                              float *__restrict__ u, float *__restrict__ u_bar, int w, int h,
                              float tau) {
  const int x = blockIdx.x * bx + threadIdx.x, y = blockIdx.y * by + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const int i = y * w + x;
  const float2 c = p[i];
  float d = 0.f;
  if (x + 1 < w)
    d -= c.x;
  if (x > 0)
    d += p[i - 1].x;
  if (y + 1 < h)
    d -= c.y;
  if (y > 0)
    d += p[i - w].y;
  const float old = u[i];
  const float next = old - tau * (d + q[i]);
  u[i] = next;
  u_bar[i] = 2.f * next - old;
}

} // namespace

struct rof_cuda_solver {
  int w, h;
  float lambda, tau, sigma;
  float *f, *u, *u_bar, *q;
  float2 *p;
};

extern "C" rof_cuda_solver *rof_cuda_create(const float *f_host, std::size_t width,
                                            std::size_t height, float lambda) {
  auto *s = new rof_cuda_solver;
  s->w = static_cast<int>(width);
  s->h = static_cast<int>(height);
  s->lambda = lambda;
  s->tau = s->sigma = 1.f / std::sqrt(8.f + 1.f);
  const std::size_t n = width * height, bytes = n * sizeof(float);
  CHECK(cudaMalloc(&s->f, bytes));
  CHECK(cudaMalloc(&s->u, bytes));
  CHECK(cudaMalloc(&s->u_bar, bytes));
  CHECK(cudaMalloc(&s->q, bytes));
  CHECK(cudaMalloc(&s->p, n * sizeof(float2)));
  CHECK(cudaMemcpy(s->f, f_host, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(s->u, f_host, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(s->u_bar, f_host, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(s->q, 0, bytes));
  CHECK(cudaMemset(s->p, 0, n * sizeof(float2)));
  return s;
}

extern "C" void rof_cuda_iterate(rof_cuda_solver *s, int iterations) {
  const dim3 block(bx, by), grid((s->w + bx - 1) / bx, (s->h + by - 1) / by);
  const float scale = 1.f / (1.f + s->sigma / s->lambda);
  for (int it = 0; it < iterations; ++it) {
    dual_kernel<<<grid, block>>>(s->u_bar, s->f, s->p, s->q, s->w, s->h, s->sigma, scale);
    primal_kernel<<<grid, block>>>(s->p, s->q, s->u, s->u_bar, s->w, s->h, s->tau);
  }
  CHECK(cudaGetLastError());
}

extern "C" void rof_cuda_u(const rof_cuda_solver *s, float *u_host) {
  CHECK(cudaMemcpy(u_host, s->u, sizeof(float) * s->w * s->h, cudaMemcpyDeviceToHost));
}
extern "C" void rof_cuda_destroy(rof_cuda_solver *s) {
  CHECK(cudaFree(s->f));
  CHECK(cudaFree(s->u));
  CHECK(cudaFree(s->u_bar));
  CHECK(cudaFree(s->q));
  CHECK(cudaFree(s->p));
  delete s;
}

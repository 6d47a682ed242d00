// See baselines.h. Every CUDA call is checked; a failure aborts with its message.
#include "baselines.h"

#include <cub/device/device_reduce.cuh>
#include <thrust/device_ptr.h>
#include <thrust/functional.h>
#include <thrust/inner_product.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <cstdio>
#include <cstdlib>

#include "check.h"

namespace {
std::size_t allocated = 0;

thrust::device_ptr<const float> dp(const float *p) { return thrust::device_pointer_cast(p); }
thrust::device_ptr<float> dp(float *p) { return thrust::device_pointer_cast(p); }

struct saxpy_op {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};
struct mult_tuple {
  __host__ __device__ float operator()(const thrust::tuple<float, float> &t) const {
    return thrust::get<0>(t) * thrust::get<1>(t);
  }
};
struct mult_op {
  __host__ __device__ float operator()(float x, float y) const { return x * y; }
};
} // namespace

extern "C" void thrust_vadd(const float *a, const float *b, float *c, std::size_t n) {
  thrust::transform(dp(a), dp(a) + n, dp(b), dp(c), thrust::plus<float>());
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_saxpy(float a, const float *x, const float *y, float *out, std::size_t n) {
  thrust::transform(dp(x), dp(x) + n, dp(y), dp(out), saxpy_op{a});
  CHECK(cudaDeviceSynchronize());
}
extern "C" float thrust_dot(const float *a, const float *b, std::size_t n) {
  return thrust::inner_product(dp(a), dp(a) + n, dp(b), 0.0f);
}
extern "C" float thrust_dot_zip(const float *a, const float *b, std::size_t n) {
  auto first = thrust::make_zip_iterator(thrust::make_tuple(dp(a), dp(b)));
  return thrust::transform_reduce(first, first + n, mult_tuple{}, 0.0f, thrust::plus<float>());
}
extern "C" float thrust_sum(const float *a, std::size_t n) {
  return thrust::reduce(dp(a), dp(a) + n, 0.0f);
}
extern "C" float thrust_dot_unfused(const float *a, const float *b, float *tmp, std::size_t n) {
  thrust::transform(dp(a), dp(a) + n, dp(b), dp(tmp), mult_op{});
  return thrust::reduce(dp(tmp), dp(tmp) + n, 0.0f);
}

// ---- CUB -------------------------------------------------------------------------
namespace {
// a[i] * b[i] as an input iterator (CUB reads it directly: no temporary).
auto products(const float *a, const float *b) {
  return thrust::make_transform_iterator(thrust::make_zip_iterator(thrust::make_tuple(a, b)),
                                         mult_tuple{});
}
void *cub_temp = nullptr;
std::size_t cub_temp_bytes = 0;
float *cub_out = nullptr;
} // namespace

extern "C" void cub_prepare(std::size_t max_n) {
  std::size_t sum_bytes = 0, dot_bytes = 0;
  const float *nil = nullptr;
  CHECK(cub::DeviceReduce::Sum(nullptr, sum_bytes, nil, cub_out, max_n));
  auto prod = products(nil, nil);
  CHECK(cub::DeviceReduce::Sum(nullptr, dot_bytes, prod, cub_out, max_n));
  std::size_t need = sum_bytes > dot_bytes ? sum_bytes : dot_bytes;
  if (need > cub_temp_bytes) {
    if (cub_temp)
      CHECK(cudaFree(cub_temp));
    CHECK(cudaMalloc(&cub_temp, need));
    cub_temp_bytes = need;
    allocated += need;
  }
  if (!cub_out) {
    CHECK(cudaMalloc(&cub_out, sizeof(float)));
    allocated += sizeof(float);
  }
}

static float cub_result() {
  float r;
  CHECK(cudaMemcpy(&r, cub_out, sizeof r, cudaMemcpyDeviceToHost));
  return r;
}

extern "C" float cub_sum(const float *a, std::size_t n) {
  std::size_t bytes = cub_temp_bytes;
  CHECK(cub::DeviceReduce::Sum(cub_temp, bytes, a, cub_out, n));
  return cub_result();
}
extern "C" float cub_dot(const float *a, const float *b, std::size_t n) {
  auto prod = products(a, b);
  std::size_t bytes = cub_temp_bytes;
  CHECK(cub::DeviceReduce::Sum(cub_temp, bytes, prod, cub_out, n));
  return cub_result();
}

// ---- hand-written CUDA ----------------------------------------------------------
namespace {
constexpr int kThreads = 256;

__global__ void vadd_kernel(const float4 *a, const float4 *b, float4 *c, std::size_t n4) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
    float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}
__global__ void saxpy_kernel(float s, const float4 *x, const float4 *y, float4 *o, std::size_t n4) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
    float4 a = x[i], b = y[i];
    o[i] = make_float4(s * a.x + b.x, s * a.y + b.y, s * a.z + b.z, s * a.w + b.w);
  }
}
__global__ void tail_kernel(int op, float s, const float *a, const float *b, float *c,
                            std::size_t from, std::size_t n) {
  std::size_t i = from + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = op == 0 ? a[i] + b[i] : s * a[i] + b[i];
}

__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// One pass: grid-stride float4 loads, warp-shuffle block reduction, one atomic per block.
template <bool Dot>
__global__ void reduce_kernel(const float *a, const float *b, std::size_t n, float *out) {
  float sum = 0;
  std::size_t n4 = n / 4, stride = std::size_t(gridDim.x) * blockDim.x;
  const float4 *a4 = reinterpret_cast<const float4 *>(a), *b4 = reinterpret_cast<const float4 *>(b);
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
    float4 x = a4[i];
    if (Dot) {
      float4 y = b4[i];
      sum += x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
    } else
      sum += x.x + x.y + x.z + x.w;
  }
  for (std::size_t i = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    sum += Dot ? a[i] * b[i] : a[i];
  __shared__ float warps[kThreads / 32];
  sum = warp_sum(sum);
  if (threadIdx.x % 32 == 0)
    warps[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < kThreads / 32 ? warps[threadIdx.x] : 0.f;
    sum = warp_sum(sum);
    if (threadIdx.x == 0)
      atomicAdd(out, sum);
  }
}

int sm_count() {
  static int sms = 0;
  if (!sms) {
    int dev;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  }
  return sms;
}

unsigned grid_for(std::size_t work, int per_sm) {
  std::size_t blocks = (work + kThreads - 1) / kThreads, cap = std::size_t(sm_count()) * per_sm;
  return static_cast<unsigned>(blocks < cap ? (blocks ? blocks : 1) : cap);
}

float *reduce_out = nullptr;

float run_reduce(bool dot, const float *a, const float *b, std::size_t n) {
  if (!reduce_out) {
    CHECK(cudaMalloc(&reduce_out, sizeof(float)));
    allocated += sizeof(float);
  }
  CHECK(cudaMemsetAsync(reduce_out, 0, sizeof(float)));
  unsigned grid = grid_for(n / 4 + 1, 8);
  if (dot)
    reduce_kernel<true><<<grid, kThreads>>>(a, b, n, reduce_out);
  else
    reduce_kernel<false><<<grid, kThreads>>>(a, b, n, reduce_out);
  CHECK(cudaGetLastError());
  float r;
  CHECK(cudaMemcpy(&r, reduce_out, sizeof r, cudaMemcpyDeviceToHost));
  return r;
}

void run_elementwise(int op, float s, const float *a, const float *b, float *c, std::size_t n) {
  std::size_t n4 = n / 4;
  if (n4) {
    unsigned grid = grid_for(n4, 16);
    if (op == 0)
      vadd_kernel<<<grid, kThreads>>>(reinterpret_cast<const float4 *>(a),
                                      reinterpret_cast<const float4 *>(b),
                                      reinterpret_cast<float4 *>(c), n4);
    else
      saxpy_kernel<<<grid, kThreads>>>(s, reinterpret_cast<const float4 *>(a),
                                       reinterpret_cast<const float4 *>(b),
                                       reinterpret_cast<float4 *>(c), n4);
    CHECK(cudaGetLastError());
  }
  if (4 * n4 < n) {
    tail_kernel<<<1, kThreads>>>(op, s, a, b, c, 4 * n4, n);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
}
} // namespace

extern "C" void cuda_vadd(const float *a, const float *b, float *c, std::size_t n) {
  run_elementwise(0, 0.f, a, b, c, n);
}
extern "C" void cuda_saxpy(float a, const float *x, const float *y, float *out, std::size_t n) {
  run_elementwise(1, a, x, y, out, n);
}
extern "C" float cuda_sum(const float *a, std::size_t n) {
  return run_reduce(false, a, nullptr, n);
}
extern "C" float cuda_dot(const float *a, const float *b, std::size_t n) {
  return run_reduce(true, a, b, n);
}
extern "C" void cuda_copy(const float *a, float *b, std::size_t n) {
  // A device-to-device cudaMemcpy does not wait for the copy: wait, as the others do.
  CHECK(cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice));
  CHECK(cudaDeviceSynchronize());
}
extern "C" std::size_t baseline_device_bytes() { return allocated; }

// See nbody.h. The same arithmetic as examples/nbody/nbody.hpp's gravity (1 / sqrtf with
// nvcc's default precise sqrt and division; the SDK's -use_fast_math rsqrtf would compare
// math libraries, not the tiling), blocks of 256 as the SDK. Every CUDA call is checked.
#include "nbody.h"

#include "check.h"

namespace {

constexpr int block = 256;

__device__ float3 interaction(float4 bi, float4 bj, float3 a, float eps2) {
  const float dx = bj.x - bi.x, dy = bj.y - bi.y, dz = bj.z - bi.z;
  const float d2 = dx * dx + dy * dy + dz * dz + eps2;
  const float inv = 1.0f / sqrtf(d2);
  const float s = bj.w * inv * inv * inv;
  a.x += dx * s;
  a.y += dy * s;
  a.z += dz * s;
  return a;
}

__global__ void __launch_bounds__(block) tiled(const float4 *pos, float3 *acc, int n, float eps2) {
  __shared__ float4 tile[block];
  const int i = blockIdx.x * block + threadIdx.x;
  const float4 me = pos[i < n ? i : 0];
  float3 a = make_float3(0.f, 0.f, 0.f);
  for (int t0 = 0; t0 < n; t0 += block) {
    const int j = t0 + threadIdx.x;
    // The SDK pads the last tile with massless bodies: they add nothing.
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < block; ++k)
      a = interaction(me, tile[k], a, eps2);
    __syncthreads();
  }
  if (i < n)
    acc[i] = a;
}

} // namespace

extern "C" void cuda_nbody_accelerations(const float *pos, float *acc, std::size_t n, float eps2) {
  const int blocks = static_cast<int>((n + block - 1) / block);
  tiled<<<blocks, block>>>(reinterpret_cast<const float4 *>(pos), reinterpret_cast<float3 *>(acc),
                           static_cast<int>(n), eps2);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
}

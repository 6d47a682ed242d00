// See shapes.h. Every CUDA call is checked; a failure aborts with its message.
#include "shapes.h"

#include "check.h"

namespace {
__device__ int clampi(int c, int n) { return c < 0 ? 0 : c >= n ? n - 1 : c; }

__global__ void jacobi2d(const float *in, float *out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  auto at = [&](int xx, int yy) { return in[(size_t)clampi(yy, h) * w + clampi(xx, w)]; };
  out[(size_t)y * w + x] =
      0.25f * (at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1)) - at(x, y);
}

__global__ void jacobi3d(const float *in, float *out, int w, int h, int d) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y,
            z = blockIdx.z;
  if (x >= w || y >= h)
    return;
  auto at = [&](int xx, int yy, int zz) {
    return in[((size_t)clampi(zz, d) * h + clampi(yy, h)) * w + clampi(xx, w)];
  };
  out[((size_t)z * h + y) * w + x] = at(x, y, z) + at(x - 1, y, z) + at(x + 1, y, z) +
                                     at(x, y - 1, z) + at(x, y + 1, z) + at(x, y, z - 1) +
                                     at(x, y, z + 1);
}

constexpr int R = 8, T = 16, S = T + 2 * R; // radius, output tile, input tile
__global__ void box17(const float *in, float *out, int w, int h) {
  __shared__ float tile[S][S + 1];
  const int x0 = blockIdx.x * T - R, y0 = blockIdx.y * T - R;
  for (int k = threadIdx.y * T + threadIdx.x; k < S * S; k += T * T) {
    const int tx = k % S, ty = k / S;
    tile[ty][tx] = in[(size_t)clampi(y0 + ty, h) * w + clampi(x0 + tx, w)];
  }
  __syncthreads();
  const int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.f;
  for (int dy = 0; dy <= 2 * R; ++dy)
    for (int dx = 0; dx <= 2 * R; ++dx)
      s += tile[threadIdx.y + dy][threadIdx.x + dx];
  out[(size_t)y * w + x] = s * (1.f / ((2 * R + 1) * (2 * R + 1)));
}
} // namespace

extern "C" void cuda_jacobi2d(const float *in, float *out, std::size_t w, std::size_t h) {
  const dim3 b(32, 8), g((unsigned)((w + 31) / 32), (unsigned)((h + 7) / 8));
  jacobi2d<<<g, b>>>(in, out, (int)w, (int)h);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cuda_jacobi3d(const float *in, float *out, std::size_t w, std::size_t h,
                              std::size_t d) {
  const dim3 b(32, 8), g((unsigned)((w + 31) / 32), (unsigned)((h + 7) / 8), (unsigned)d);
  jacobi3d<<<g, b>>>(in, out, (int)w, (int)h, (int)d);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cuda_box17(const float *in, float *out, std::size_t w, std::size_t h) {
  const dim3 b(T, T), g((unsigned)((w + T - 1) / T), (unsigned)((h + T - 1) / T));
  box17<<<g, b>>>(in, out, (int)w, (int)h);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cuda_copy(const float *in, float *out, std::size_t n) {
  CHECK(cudaMemcpy(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice));
  CHECK(cudaDeviceSynchronize());
}

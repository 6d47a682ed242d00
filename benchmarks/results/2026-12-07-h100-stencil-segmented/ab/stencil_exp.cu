// The throwaway CUDA experiment behind policy::shaped_stencil (2026-12-07): which structure
// of a clamped 5-point (2D) / 7-point (3D) stencil reaches the copy rate on this card.
// Built with nvcc -O3 -std=c++17 -arch=sm_90; not part of the project's build. Output:
// stencil_exp.txt.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t e = (x);                                                                           \
    if (e != cudaSuccess) {                                                                        \
      printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__);                                  \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)
__device__ __forceinline__ int cl(int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

__global__ void naive2(const float *in, float *out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  auto at = [&](int xx, int yy) { return in[(size_t)cl(yy, h) * w + cl(xx, w)]; };
  out[(size_t)y * w + x] =
      0.25f * (at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1)) - at(x, y);
}
// ROWS consecutive rows a thread, all loads first.
template <int ROWS>
__global__ void rows2(const float *__restrict__ in, float *__restrict__ out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x,
            y0 = (blockIdx.y * blockDim.y + threadIdx.y) * ROWS;
  if (x >= w || y0 >= h)
    return;
  float c[ROWS + 2], l[ROWS], r[ROWS];
  const int xl = cl(x - 1, w), xr = cl(x + 1, w);
#pragma unroll
  for (int k = 0; k < ROWS + 2; ++k)
    c[k] = in[(size_t)cl(y0 + k - 1, h) * w + x];
#pragma unroll
  for (int k = 0; k < ROWS; ++k) {
    const size_t row = (size_t)cl(y0 + k, h) * w;
    l[k] = in[row + xl];
    r[k] = in[row + xr];
  }
#pragma unroll
  for (int k = 0; k < ROWS; ++k)
    if (y0 + k < h)
      out[(size_t)(y0 + k) * w + x] = 0.25f * (l[k] + r[k] + c[k] + c[k + 2]) - c[k + 1];
}
// Same without __restrict__ (loads then stores anyway).
template <int ROWS> __global__ void rows2nr(const float *in, float *out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x,
            y0 = (blockIdx.y * blockDim.y + threadIdx.y) * ROWS;
  if (x >= w || y0 >= h)
    return;
  float c[ROWS + 2], l[ROWS], r[ROWS];
  const int xl = cl(x - 1, w), xr = cl(x + 1, w);
#pragma unroll
  for (int k = 0; k < ROWS + 2; ++k)
    c[k] = in[(size_t)cl(y0 + k - 1, h) * w + x];
#pragma unroll
  for (int k = 0; k < ROWS; ++k) {
    const size_t row = (size_t)cl(y0 + k, h) * w;
    l[k] = in[row + xl];
    r[k] = in[row + xr];
  }
#pragma unroll
  for (int k = 0; k < ROWS; ++k)
    if (y0 + k < h)
      out[(size_t)(y0 + k) * w + x] = 0.25f * (l[k] + r[k] + c[k] + c[k + 2]) - c[k + 1];
}
// ROWS rows a thread, block_y rows apart (pacxx's `rows` layout).
template <int ROWS>
__global__ void strided2(const float *__restrict__ in, float *__restrict__ out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x,
            y0 = blockIdx.y * blockDim.y * ROWS + threadIdx.y;
  if (x >= w)
    return;
  float v[ROWS];
#pragma unroll
  for (int k = 0; k < ROWS; ++k) {
    const int y = cl(y0 + k * (int)blockDim.y, h);
    auto at = [&](int xx, int yy) { return in[(size_t)cl(yy, h) * w + cl(xx, w)]; };
    v[k] = 0.25f * (at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1)) - at(x, y);
  }
#pragma unroll
  for (int k = 0; k < ROWS; ++k) {
    const int y = y0 + k * blockDim.y;
    if (y < h)
      out[(size_t)y * w + x] = v[k];
  }
}
__global__ void copyk(const float4 *in, float4 *out, size_t n4) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4;
       i += (size_t)gridDim.x * blockDim.x)
    out[i] = in[i];
}
__global__ void naive3(const float *in, float *out, int w, int h, int d) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y,
            z = blockIdx.z;
  if (x >= w || y >= h)
    return;
  auto at = [&](int xx, int yy, int zz) {
    return in[((size_t)cl(zz, d) * h + cl(yy, h)) * w + cl(xx, w)];
  };
  out[((size_t)z * h + y) * w + x] = at(x, y, z) + at(x - 1, y, z) + at(x + 1, y, z) +
                                     at(x, y - 1, z) + at(x, y + 1, z) + at(x, y, z - 1) +
                                     at(x, y, z + 1);
}
// ZS consecutive planes a thread (z), all loads first.
template <int ZS>
__global__ void zs3(const float *__restrict__ in, float *__restrict__ out, int w, int h, int d) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y,
            z0 = blockIdx.z * ZS;
  if (x >= w || y >= h)
    return;
  const int xl = cl(x - 1, w), xr = cl(x + 1, w), yu = cl(y - 1, h), yd = cl(y + 1, h);
  const size_t plane = (size_t)w * h;
  float c[ZS + 2], o[ZS];
#pragma unroll
  for (int k = 0; k < ZS + 2; ++k)
    c[k] = in[cl(z0 + k - 1, d) * plane + (size_t)y * w + x];
#pragma unroll
  for (int k = 0; k < ZS; ++k) {
    const size_t p = cl(z0 + k, d) * plane;
    o[k] = in[p + (size_t)y * w + xl] + in[p + (size_t)y * w + xr] + in[p + (size_t)yu * w + x] +
           in[p + (size_t)yd * w + x];
  }
#pragma unroll
  for (int k = 0; k < ZS; ++k)
    if (z0 + k < d)
      out[(z0 + k) * plane + (size_t)y * w + x] = c[k + 1] + o[k] + c[k] + c[k + 2];
}
// ZS consecutive planes a thread, marching: a loop over z with the column in registers.
template <int ZS>
__global__ void march3(const float *__restrict__ in, float *__restrict__ out, int w, int h, int d) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y,
            z0 = blockIdx.z * ZS;
  if (x >= w || y >= h)
    return;
  const int xl = cl(x - 1, w), xr = cl(x + 1, w), yu = cl(y - 1, h), yd = cl(y + 1, h);
  const size_t plane = (size_t)w * h;
  float a = in[cl(z0 - 1, d) * plane + (size_t)y * w + x],
        b = in[cl(z0, d) * plane + (size_t)y * w + x];
  const int ze = z0 + ZS < d ? z0 + ZS : d;
  for (int z = z0; z < ze; ++z) {
    const size_t p = (size_t)z * plane;
    const float c = in[cl(z + 1, d) * plane + (size_t)y * w + x];
    out[p + (size_t)y * w + x] = b + in[p + (size_t)y * w + xl] + in[p + (size_t)y * w + xr] +
                                 in[p + (size_t)yu * w + x] + in[p + (size_t)yd * w + x] + a + c;
    a = b;
    b = c;
  }
}

float best(void (*run)(), int reps = 20) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  run();
  CHECK(cudaDeviceSynchronize());
  float bestms = 1e9;
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(a));
    run();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    if (ms < bestms)
      bestms = ms;
  }
  CHECK(cudaGetLastError());
  return bestms * 1000.f;
}
static float *gin, *gout, *gref;
static int W, H, D;
bool same(size_t n) {
  std::vector<float> x(n), y(n);
  CHECK(cudaMemcpy(x.data(), gout, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(y.data(), gref, n * 4, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i)
    if (std::fabs(x[i] - y[i]) > 1e-4f * (1 + std::fabs(y[i]))) {
      printf("  mismatch at %zu: %g vs %g\n", i, x[i], y[i]);
      return false;
    }
  CHECK(cudaMemset(gout, 0, n * 4));
  return true;
}
#define RUN(name, launch, n)                                                                       \
  do {                                                                                             \
    auto f = []() { launch; };                                                                     \
    float us = best(f);                                                                            \
    bool ok = same(n);                                                                             \
    printf("%-28s %9.1f us %s\n", name, us, ok ? "" : "WRONG");                                    \
  } while (0)
int main() {
  int dev;
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, dev));
  printf("%s\n", p.name);
  W = H = 8192;
  size_t n = (size_t)W * H;
  CHECK(cudaMalloc(&gin, n * 4));
  CHECK(cudaMalloc(&gout, n * 4));
  CHECK(cudaMalloc(&gref, n * 4));
  {
    std::vector<float> h(n);
    for (size_t i = 0; i < n; ++i)
      h[i] = float((i * 2654435761u) % 1000) * 0.001f;
    CHECK(cudaMemcpy(gin, h.data(), n * 4, cudaMemcpyHostToDevice));
  }
  naive2<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(gin, gref, W, H);
  CHECK(cudaDeviceSynchronize());
  printf("2D %dx%d\n", W, H);
  {
    auto f = []() { CHECK(cudaMemcpy(gout, gin, (size_t)W * H * 4, cudaMemcpyDeviceToDevice)); };
    printf("%-28s %9.1f us\n", "cudaMemcpy", best(f));
    CHECK(cudaMemset(gout, 0, n * 4));
  }
  {
    auto f = []() {
      copyk<<<132 * 8, 256>>>((const float4 *)gin, (float4 *)gout, (size_t)W * H / 4);
    };
    printf("%-28s %9.1f us\n", "copy kernel float4", best(f));
    CHECK(cudaMemset(gout, 0, n * 4));
  }
  RUN("naive 32x8", (naive2<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(gin, gout, W, H)), n);
  RUN("naive 128x2", (naive2<<<dim3(W / 128, H / 2), dim3(128, 2)>>>(gin, gout, W, H)), n);
  RUN("naive 256x1", (naive2<<<dim3(W / 256, H), dim3(256, 1)>>>(gin, gout, W, H)), n);
  RUN("rows2<2> 32x8", (rows2<2><<<dim3(W / 32, H / 16), dim3(32, 8)>>>(gin, gout, W, H)), n);
  RUN("rows2<4> 32x8", (rows2<4><<<dim3(W / 32, H / 32), dim3(32, 8)>>>(gin, gout, W, H)), n);
  RUN("rows2<8> 32x8", (rows2<8><<<dim3(W / 32, H / 64), dim3(32, 8)>>>(gin, gout, W, H)), n);
  RUN("rows2<4> 64x4", (rows2<4><<<dim3(W / 64, H / 16), dim3(64, 4)>>>(gin, gout, W, H)), n);
  RUN("rows2<4> 128x2", (rows2<4><<<dim3(W / 128, H / 8), dim3(128, 2)>>>(gin, gout, W, H)), n);
  RUN("rows2<8> 128x1", (rows2<8><<<dim3(W / 128, H / 8), dim3(128, 1)>>>(gin, gout, W, H)), n);
  RUN("rows2nr<4> 32x8", (rows2nr<4><<<dim3(W / 32, H / 32), dim3(32, 8)>>>(gin, gout, W, H)), n);
  RUN("strided2<4> 32x8", (strided2<4><<<dim3(W / 32, H / 32), dim3(32, 8)>>>(gin, gout, W, H)), n);
  RUN("strided2<2> 32x8", (strided2<2><<<dim3(W / 32, H / 16), dim3(32, 8)>>>(gin, gout, W, H)), n);
  CHECK(cudaFree(gin));
  CHECK(cudaFree(gout));
  CHECK(cudaFree(gref));
  W = H = D = 512;
  n = (size_t)W * H * D;
  CHECK(cudaMalloc(&gin, n * 4));
  CHECK(cudaMalloc(&gout, n * 4));
  CHECK(cudaMalloc(&gref, n * 4));
  {
    std::vector<float> h(n);
    for (size_t i = 0; i < n; ++i)
      h[i] = float((i * 2654435761u) % 1000) * 0.001f;
    CHECK(cudaMemcpy(gin, h.data(), n * 4, cudaMemcpyHostToDevice));
  }
  naive3<<<dim3(W / 32, H / 8, D), dim3(32, 8)>>>(gin, gref, W, H, D);
  CHECK(cudaDeviceSynchronize());
  printf("3D %d^3\n", W);
  {
    auto f = []() {
      CHECK(cudaMemcpy(gout, gin, (size_t)W * H * D * 4, cudaMemcpyDeviceToDevice));
    };
    printf("%-28s %9.1f us\n", "cudaMemcpy", best(f));
    CHECK(cudaMemset(gout, 0, n * 4));
  }
  RUN("naive3 32x8", (naive3<<<dim3(W / 32, H / 8, D), dim3(32, 8)>>>(gin, gout, W, H, D)), n);
  RUN("zs3<2> 32x8", (zs3<2><<<dim3(W / 32, H / 8, D / 2), dim3(32, 8)>>>(gin, gout, W, H, D)), n);
  RUN("zs3<4> 32x8", (zs3<4><<<dim3(W / 32, H / 8, D / 4), dim3(32, 8)>>>(gin, gout, W, H, D)), n);
  RUN("zs3<8> 32x8", (zs3<8><<<dim3(W / 32, H / 8, D / 8), dim3(32, 8)>>>(gin, gout, W, H, D)), n);
  RUN("zs3<4> 64x4", (zs3<4><<<dim3(W / 64, H / 4, D / 4), dim3(64, 4)>>>(gin, gout, W, H, D)), n);
  RUN("march3<16> 32x8",
      (march3<16><<<dim3(W / 32, H / 8, D / 16), dim3(32, 8)>>>(gin, gout, W, H, D)), n);
  RUN("march3<64> 32x8",
      (march3<64><<<dim3(W / 32, H / 8, D / 64), dim3(32, 8)>>>(gin, gout, W, H, D)), n);
  return 0;
}

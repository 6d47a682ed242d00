// See canny.h. Every CUDA call is checked; a failure aborts with its message.
#include "canny.h"

#include "check.h"

namespace {
constexpr int none = 0, weak = 1, strong = 2;

__device__ int clampi(int c, int n) { return c < 0 ? 0 : c >= n ? n - 1 : c; }

__global__ void blur_x(const std::uint8_t *in, int *out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const std::uint8_t *row = in + (size_t)y * w;
  out[(size_t)y * w + x] = row[clampi(x - 2, w)] + 4 * row[clampi(x - 1, w)] + 6 * row[x] +
                           4 * row[clampi(x + 1, w)] + row[clampi(x + 2, w)];
}

__global__ void blur_y(const int *in, std::uint8_t *out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  auto at = [&](int yy) { return in[(size_t)clampi(yy, h) * w + x]; };
  out[(size_t)y * w + x] = (std::uint8_t)(
      (at(y - 2) + 4 * at(y - 1) + 6 * at(y) + 4 * at(y + 1) + at(y + 2) + 128) >> 8);
}

__global__ void sobel(const std::uint8_t *in, int *mag, int *dir, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  auto B = [&](int dx, int dy) {
    return (int)in[(size_t)clampi(y + dy, h) * w + clampi(x + dx, w)];
  };
  const int gx = (B(1, -1) + 2 * B(1, 0) + B(1, 1)) - (B(-1, -1) + 2 * B(-1, 0) + B(-1, 1));
  const int gy = (B(-1, 1) + 2 * B(0, 1) + B(1, 1)) - (B(-1, -1) + 2 * B(0, -1) + B(1, -1));
  const int ax = abs(gx), ay = abs(gy);
  int d;
  if ((ay << 15) < ax * 13573)
    d = 0;
  else if ((ay << 15) > ax * 79109)
    d = 2;
  else
    d = (gx < 0) == (gy < 0) ? 1 : 3;
  mag[(size_t)y * w + x] = gx * gx + gy * gy;
  dir[(size_t)y * w + x] = d;
}

__global__ void suppress(const int *mag, const int *dir, int *cls, int w, int h, int low2,
                         int high2) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  auto M = [&](int dx, int dy) {
    const int u = x + dx, v = y + dy;
    return u < 0 || v < 0 || u >= w || v >= h ? 0 : mag[(size_t)v * w + u];
  };
  const int m = mag[(size_t)y * w + x], d = dir[(size_t)y * w + x];
  int a, b; // the neighbours across the edge
  switch (d) {
  case 0:
    a = M(-1, 0), b = M(1, 0);
    break;
  case 1:
    a = M(-1, -1), b = M(1, 1);
    break;
  case 2:
    a = M(0, -1), b = M(0, 1);
    break;
  default:
    a = M(1, -1), b = M(-1, 1);
    break;
  }
  const bool maximum = m > a && m >= b;
  cls[(size_t)y * w + x] = !maximum || m <= low2 ? none : m > high2 ? strong : weak;
}

__global__ void promote(const int *in, int *out, int w, int h, int *changed) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const int c = in[(size_t)y * w + x];
  int r = c;
  if (c == weak) {
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int u = x + dx, v = y + dy;
        if (u >= 0 && v >= 0 && u < w && v < h && in[(size_t)v * w + u] == strong)
          r = strong;
      }
    if (r != c)
      *changed = 1;
  }
  out[(size_t)y * w + x] = r;
}

__global__ void to_edges(const int *cls, std::uint8_t *edges, size_t n) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    edges[i] = cls[i] == strong ? 255 : 0;
}

struct context {
  int w, h;
  int *sx, *mag, *dir, *cls, *tmp, *changed;
  std::uint8_t *blurred;
};
} // namespace

extern "C" void *cuda_canny_create(std::size_t w, std::size_t h) {
  auto *c = new context{(int)w, (int)h};
  const size_t n = w * h;
  CHECK(cudaMalloc(&c->sx, n * sizeof(int)));
  CHECK(cudaMalloc(&c->mag, n * sizeof(int)));
  CHECK(cudaMalloc(&c->dir, n * sizeof(int)));
  CHECK(cudaMalloc(&c->cls, n * sizeof(int)));
  CHECK(cudaMalloc(&c->tmp, n * sizeof(int)));
  CHECK(cudaMalloc(&c->changed, sizeof(int)));
  CHECK(cudaMalloc(&c->blurred, n));
  return c;
}

extern "C" void cuda_canny_destroy(void *ctx) {
  auto *c = static_cast<context *>(ctx);
  for (void *p : {(void *)c->sx, (void *)c->mag, (void *)c->dir, (void *)c->cls, (void *)c->tmp,
                  (void *)c->changed, (void *)c->blurred})
    CHECK(cudaFree(p));
  delete c;
}

extern "C" std::size_t cuda_canny(void *ctx, const std::uint8_t *img, std::uint8_t *edges, int low,
                                  int high) {
  auto *c = static_cast<context *>(ctx);
  const int w = c->w, h = c->h;
  const dim3 b(32, 8), g((unsigned)((w + 31) / 32), (unsigned)((h + 7) / 8));
  blur_x<<<g, b>>>(img, c->sx, w, h);
  blur_y<<<g, b>>>(c->sx, c->blurred, w, h);
  sobel<<<g, b>>>(c->blurred, c->mag, c->dir, w, h);
  suppress<<<g, b>>>(c->mag, c->dir, c->cls, w, h, low * low, high * high);
  CHECK(cudaGetLastError());
  std::size_t passes = 0;
  int changed = 1;
  while (changed) {
    CHECK(cudaMemsetAsync(c->changed, 0, sizeof(int)));
    promote<<<g, b>>>(c->cls, c->tmp, w, h, c->changed);
    promote<<<g, b>>>(c->tmp, c->cls, w, h, c->changed);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&changed, c->changed, sizeof(int), cudaMemcpyDeviceToHost));
    ++passes;
  }
  const size_t n = (size_t)w * h;
  to_edges<<<(unsigned)((n + 255) / 256), 256>>>(c->cls, edges, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  return passes;
}

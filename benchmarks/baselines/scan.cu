// See scan.h. Every CUDA call is checked; a failure aborts with its message.
#include "scan.h"

#include <cub/device/device_scan.cuh>
#include <thrust/device_ptr.h>
#include <thrust/functional.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/transform_scan.h>

#include <cstdio>
#include <cstdlib>

#include "check.h"

namespace {
void *temp = nullptr;
std::size_t temp_bytes = 0;

template <class T> thrust::device_ptr<T> dp(T *p) { return thrust::device_pointer_cast(p); }

struct square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};
struct halve {
  __host__ __device__ float operator()(float y) const { return y * 0.5f; }
};

void need(std::size_t bytes) {
  if (bytes > temp_bytes) {
    std::fprintf(stderr, "cub scan: %zu bytes of temporary storage prepared, %zu needed\n",
                 temp_bytes, bytes);
    std::abort();
  }
}
} // namespace

extern "C" void cub_scan_prepare(std::size_t max_n) {
  std::size_t most = 0, b = 0;
  CHECK(cub::DeviceScan::InclusiveSum(nullptr, b, (const float *)nullptr, (float *)nullptr,
                                      (int)max_n));
  most = b > most ? b : most;
  CHECK(cub::DeviceScan::ExclusiveSum(nullptr, b, (const float *)nullptr, (float *)nullptr,
                                      (int)max_n));
  most = b > most ? b : most;
  CHECK(
      cub::DeviceScan::InclusiveSum(nullptr, b, (const int *)nullptr, (int *)nullptr, (int)max_n));
  most = b > most ? b : most;
  if (most > temp_bytes) {
    if (temp)
      CHECK(cudaFree(temp));
    CHECK(cudaMalloc(&temp, most * 2));
    temp_bytes = most * 2;
  }
}

#define CUB_SCAN(name, kind, T)                                                                    \
  extern "C" void name(const T *in, T *out, std::size_t n) {                                       \
    std::size_t b = 0;                                                                             \
    CHECK(cub::DeviceScan::kind(nullptr, b, in, out, (int)n));                                     \
    need(b);                                                                                       \
    CHECK(cub::DeviceScan::kind(temp, b, in, out, (int)n));                                        \
    CHECK(cudaDeviceSynchronize());                                                                \
  }
CUB_SCAN(cub_inclusive_sum_float, InclusiveSum, float)
CUB_SCAN(cub_exclusive_sum_float, ExclusiveSum, float)
CUB_SCAN(cub_inclusive_sum_int, InclusiveSum, int)
CUB_SCAN(cub_exclusive_sum_int, ExclusiveSum, int)

extern "C" void thrust_inclusive_sum_float(const float *in, float *out, std::size_t n) {
  thrust::inclusive_scan(dp(in), dp(in) + n, dp(out));
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_exclusive_sum_float(const float *in, float *out, std::size_t n) {
  thrust::exclusive_scan(dp(in), dp(in) + n, dp(out));
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_inclusive_sum_int(const int *in, int *out, std::size_t n) {
  thrust::inclusive_scan(dp(in), dp(in) + n, dp(out));
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_exclusive_sum_int(const int *in, int *out, std::size_t n) {
  thrust::exclusive_scan(dp(in), dp(in) + n, dp(out));
  CHECK(cudaDeviceSynchronize());
}

extern "C" void thrust_transform_scan_transform(const float *in, float *out, std::size_t n) {
  thrust::transform_inclusive_scan(dp(in), dp(in) + n, dp(out), square{}, thrust::plus<float>());
  thrust::transform(dp(out), dp(out) + n, dp(out), halve{});
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cub_transform_scan_transform(const float *in, float *out, std::size_t n) {
  auto first = thrust::make_transform_iterator(in, square{});
  auto result = thrust::make_transform_output_iterator(out, halve{});
  std::size_t b = 0;
  CHECK(cub::DeviceScan::InclusiveSum(nullptr, b, first, result, (int)n));
  need(b);
  CHECK(cub::DeviceScan::InclusiveSum(temp, b, first, result, (int)n));
  CHECK(cudaDeviceSynchronize());
}

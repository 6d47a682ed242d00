// See reductions.h. Every CUDA call is checked; a failure aborts with its message.
#include "reductions.h"

#include <cub/device/device_reduce.cuh>
#include <thrust/count.h>
#include <thrust/device_ptr.h>
#include <thrust/extrema.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/logical.h>
#include <thrust/reduce.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "check.h"

namespace {

thrust::device_ptr<const float> dp(const float *p) { return thrust::device_pointer_cast(p); }

struct above {
  float threshold;
  __host__ __device__ bool operator()(float x) const { return x > threshold; }
};
// 1 where x > threshold: what CUB's Sum (count_if) and Max (any_of) fold.
struct above_count {
  float threshold;
  __host__ __device__ unsigned long long operator()(float x) const {
    return x > threshold ? 1ull : 0ull;
  }
};
struct above_flag {
  float threshold;
  __host__ __device__ int operator()(float x) const { return x > threshold ? 1 : 0; }
};

auto counts(const float *a, float t) { return thrust::make_transform_iterator(a, above_count{t}); }
auto flags(const float *a, float t) { return thrust::make_transform_iterator(a, above_flag{t}); }

void *temp = nullptr;
std::size_t temp_bytes = 0;
// Results: the count, the flag, the sum, the minimum and its index.
unsigned long long *out_count = nullptr;
int *out_flag = nullptr;
float *out_sum = nullptr, *out_min = nullptr;
std::int64_t *out_index = nullptr;

template <class T> T result(const T *p) {
  T r;
  CHECK(cudaMemcpy(&r, p, sizeof r, cudaMemcpyDeviceToHost));
  return r;
}

} // namespace

extern "C" void red_cub_prepare(std::size_t max_n) {
  const float *nil = nullptr;
  const auto n = static_cast<std::int64_t>(max_n);
  std::size_t b[4] = {0, 0, 0, 0};
  CHECK(cub::DeviceReduce::Sum(nullptr, b[0], counts(nil, 0.f), out_count, n));
  CHECK(cub::DeviceReduce::ArgMin(nullptr, b[1], nil, out_min, out_index, n));
  CHECK(cub::DeviceReduce::Max(nullptr, b[2], flags(nil, 0.f), out_flag, n));
  CHECK(cub::DeviceReduce::Sum(nullptr, b[3], nil, out_sum, n));
  std::size_t need = 0;
  for (std::size_t x : b)
    need = x > need ? x : need;
  if (need > temp_bytes) {
    if (temp)
      CHECK(cudaFree(temp));
    CHECK(cudaMalloc(&temp, need));
    temp_bytes = need;
  }
  if (!out_count) {
    CHECK(cudaMalloc(&out_count, sizeof *out_count));
    CHECK(cudaMalloc(&out_flag, sizeof *out_flag));
    CHECK(cudaMalloc(&out_sum, sizeof *out_sum));
    CHECK(cudaMalloc(&out_min, sizeof *out_min));
    CHECK(cudaMalloc(&out_index, sizeof *out_index));
  }
}

extern "C" std::size_t red_cub_count_if(const float *a, std::size_t n, float threshold) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DeviceReduce::Sum(temp, bytes, counts(a, threshold), out_count,
                               static_cast<std::int64_t>(n)));
  return static_cast<std::size_t>(result(out_count));
}
extern "C" std::size_t red_cub_min_element(const float *a, std::size_t n) {
  std::size_t bytes = temp_bytes;
  CHECK(
      cub::DeviceReduce::ArgMin(temp, bytes, a, out_min, out_index, static_cast<std::int64_t>(n)));
  return static_cast<std::size_t>(result(out_index));
}
extern "C" bool red_cub_any_of(const float *a, std::size_t n, float threshold) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DeviceReduce::Max(temp, bytes, flags(a, threshold), out_flag,
                               static_cast<std::int64_t>(n)));
  return result(out_flag) != 0;
}
extern "C" float red_cub_sum(const float *a, std::size_t n) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DeviceReduce::Sum(temp, bytes, a, out_sum, static_cast<std::int64_t>(n)));
  return result(out_sum);
}

extern "C" std::size_t red_thrust_count_if(const float *a, std::size_t n, float threshold) {
  return static_cast<std::size_t>(thrust::count_if(dp(a), dp(a) + n, above{threshold}));
}
extern "C" std::size_t red_thrust_min_element(const float *a, std::size_t n) {
  return static_cast<std::size_t>(thrust::min_element(dp(a), dp(a) + n) - dp(a));
}
extern "C" bool red_thrust_any_of(const float *a, std::size_t n, float threshold) {
  return thrust::any_of(dp(a), dp(a) + n, above{threshold});
}
extern "C" float red_thrust_sum(const float *a, std::size_t n) {
  return thrust::reduce(dp(a), dp(a) + n, 0.0f);
}

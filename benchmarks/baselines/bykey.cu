// See bykey.h. Every CUDA call is checked; a failure aborts with its message.
#include "bykey.h"

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/adjacent_difference.h>
#include <thrust/binary_search.h>
#include <thrust/device_ptr.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdio>
#include <cstdlib>

#include "check.h"

namespace {
void *temp = nullptr;
std::size_t temp_bytes = 0;
int *runs_out = nullptr;
int *bin_of = nullptr; // Thrust's histogram: the samples' bins
std::size_t bin_of_n = 0;
int *bounds = nullptr; // Thrust's histogram: the upper bounds of bins + 1 bins
int bounds_n = 0;

struct sum_op {
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};

// The bin of a sample as pacxx computes it; `bins` (an extra bin) where outside.
struct to_bin {
  float lower, upper, scale;
  int bins;
  __host__ __device__ int operator()(float x) const {
    if (!(x >= lower && x < upper))
      return bins;
    const int b = static_cast<int>((x - lower) * scale);
    return b < bins ? b : bins - 1;
  }
};
} // namespace

extern "C" void bykey_prepare(std::size_t max_n, int bins) {
  std::size_t rbk = 0, hist = 0;
  CHECK(cub::DeviceReduce::ReduceByKey(
      nullptr, rbk, static_cast<const int *>(nullptr), static_cast<int *>(nullptr),
      static_cast<const float *>(nullptr), static_cast<float *>(nullptr),
      static_cast<int *>(nullptr), sum_op{}, static_cast<int>(max_n)));
  CHECK(cub::DeviceHistogram::HistogramEven(nullptr, hist, static_cast<const float *>(nullptr),
                                            static_cast<int *>(nullptr), bins + 1, 0.f, 1.f,
                                            static_cast<int>(max_n)));
  const std::size_t need = rbk > hist ? rbk : hist;
  if (need > temp_bytes) {
    if (temp)
      CHECK(cudaFree(temp));
    CHECK(cudaMalloc(&temp, need));
    temp_bytes = need;
  }
  if (!runs_out)
    CHECK(cudaMalloc(&runs_out, sizeof(int)));
  if (max_n > bin_of_n) {
    if (bin_of)
      CHECK(cudaFree(bin_of));
    CHECK(cudaMalloc(&bin_of, max_n * sizeof(int)));
    bin_of_n = max_n;
  }
  if (bins + 1 > bounds_n) {
    if (bounds)
      CHECK(cudaFree(bounds));
    CHECK(cudaMalloc(&bounds, (bins + 1) * sizeof(int)));
    bounds_n = bins + 1;
  }
}

extern "C" std::size_t cub_reduce_by_key(const int *keys, const float *values, int *out_keys,
                                         float *out_values, std::size_t n) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DeviceReduce::ReduceByKey(temp, bytes, keys, out_keys, values, out_values, runs_out,
                                       sum_op{}, static_cast<int>(n)));
  int runs = 0;
  CHECK(cudaMemcpy(&runs, runs_out, sizeof runs, cudaMemcpyDeviceToHost));
  return static_cast<std::size_t>(runs);
}

extern "C" std::size_t thrust_reduce_by_key(const int *keys, const float *values, int *out_keys,
                                            float *out_values, std::size_t n) {
  auto k = thrust::device_pointer_cast(keys);
  auto end = thrust::reduce_by_key(k, k + n, thrust::device_pointer_cast(values),
                                   thrust::device_pointer_cast(out_keys),
                                   thrust::device_pointer_cast(out_values));
  return static_cast<std::size_t>(end.first - thrust::device_pointer_cast(out_keys));
}

extern "C" void cub_histogram_even(const float *samples, std::size_t n, int *histogram, int bins,
                                   float lower, float upper) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DeviceHistogram::HistogramEven(temp, bytes, samples, histogram, bins + 1, lower, upper,
                                            static_cast<int>(n)));
  CHECK(cudaDeviceSynchronize());
}

extern "C" void thrust_histogram_even(const float *samples, std::size_t n, int *histogram, int bins,
                                      float lower, float upper) {
  auto s = thrust::device_pointer_cast(samples);
  auto b = thrust::device_pointer_cast(bin_of);
  thrust::transform(s, s + n, b,
                    to_bin{lower, upper, static_cast<float>(bins) / (upper - lower), bins});
  thrust::sort(b, b + n);
  auto ub = thrust::device_pointer_cast(bounds);
  thrust::upper_bound(b, b + n, thrust::counting_iterator<int>(0),
                      thrust::counting_iterator<int>(bins), ub);
  thrust::adjacent_difference(ub, ub + bins, thrust::device_pointer_cast(histogram));
  CHECK(cudaDeviceSynchronize());
}

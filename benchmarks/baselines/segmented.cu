// See segmented.h. Every CUDA call is checked; a failure aborts with its message.
#include "segmented.h"

#include <cub/device/device_segmented_reduce.cuh>

#include "check.h"

namespace {
void *temp = nullptr;
std::size_t temp_bytes = 0;
} // namespace

extern "C" void segmented_prepare(std::size_t max_n, std::size_t max_segments) {
  (void)max_n;
  std::size_t need = 0;
  CHECK(cub::DeviceSegmentedReduce::Sum(
      nullptr, need, static_cast<const float *>(nullptr), static_cast<float *>(nullptr),
      static_cast<int>(max_segments), static_cast<const int *>(nullptr),
      static_cast<const int *>(nullptr)));
  if (need > temp_bytes) {
    if (temp)
      CHECK(cudaFree(temp));
    CHECK(cudaMalloc(&temp, need));
    temp_bytes = need;
  }
}

extern "C" void cub_segmented_sum(const float *values, const int *offsets, float *out,
                                  std::size_t segments) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DeviceSegmentedReduce::Sum(temp, bytes, values, out, static_cast<int>(segments),
                                        offsets, offsets + 1));
  CHECK(cudaDeviceSynchronize());
}

// See segmented.h. Every CUDA call is checked; a failure aborts with its message.
#include "segmented.h"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "check.h"

#include <algorithm>

namespace {
void *temp = nullptr;
std::size_t temp_bytes = 0;
} // namespace

extern "C" void segmented_prepare(std::size_t max_n, std::size_t max_segments) {
  std::size_t need = 0, sort = 0, scan = 0;
  CHECK(cub::DeviceSegmentedReduce::Sum(
      nullptr, need, static_cast<const float *>(nullptr), static_cast<float *>(nullptr),
      static_cast<int>(max_segments), static_cast<const int *>(nullptr),
      static_cast<const int *>(nullptr)));
  CHECK(cub::DeviceSegmentedSort::SortKeys(
      nullptr, sort, static_cast<const unsigned *>(nullptr), static_cast<unsigned *>(nullptr),
      static_cast<int>(max_n), static_cast<int>(max_segments), static_cast<const int *>(nullptr),
      static_cast<const int *>(nullptr)));
  CHECK(cub::DeviceScan::InclusiveSumByKey(nullptr, scan, static_cast<const int *>(nullptr),
                                           static_cast<const float *>(nullptr),
                                           static_cast<float *>(nullptr), static_cast<int>(max_n)));
  need = std::max(need, std::max(sort, scan));
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

extern "C" void cub_segmented_sort(const unsigned *keys, unsigned *out, std::size_t n,
                                   const int *offsets, std::size_t segments) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DeviceSegmentedSort::SortKeys(temp, bytes, keys, out, static_cast<int>(n),
                                           static_cast<int>(segments), offsets, offsets + 1));
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cub_scan_by_key(const int *ids, const float *values, float *out, std::size_t n) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DeviceScan::InclusiveSumByKey(temp, bytes, ids, values, out, static_cast<int>(n)));
  CHECK(cudaDeviceSynchronize());
}

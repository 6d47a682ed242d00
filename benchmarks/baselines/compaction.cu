// See compaction.h. Every CUDA call is checked; a failure aborts with its message.
#include "compaction.h"

#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/device_ptr.h>

#include <cstdio>
#include <cstdlib>

#include "check.h"

namespace {
struct positive {
  __host__ __device__ bool operator()(float v) const { return v > 0.f; }
};
void *temp = nullptr;
std::size_t temp_bytes = 0;
unsigned long long *num_selected = nullptr;
} // namespace

extern "C" void cub_select_prepare(std::size_t max_n) {
  std::size_t need = 0;
  const float *nil = nullptr;
  float *out = nullptr;
  CHECK(cub::DeviceSelect::If(nullptr, need, nil, out, num_selected, max_n, positive{}));
  if (need > temp_bytes) {
    if (temp)
      CHECK(cudaFree(temp));
    CHECK(cudaMalloc(&temp, need));
    temp_bytes = need;
  }
  if (!num_selected)
    CHECK(cudaMalloc(&num_selected, sizeof(unsigned long long)));
}

extern "C" std::size_t cub_select_positive(const float *in, float *out, std::size_t n) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DeviceSelect::If(temp, bytes, in, out, num_selected, n, positive{}));
  unsigned long long c = 0;
  CHECK(cudaMemcpy(&c, num_selected, sizeof c, cudaMemcpyDeviceToHost));
  return static_cast<std::size_t>(c);
}

extern "C" std::size_t thrust_copy_if_positive(const float *in, float *out, std::size_t n) {
  auto first = thrust::device_pointer_cast(in);
  auto result = thrust::device_pointer_cast(out);
  auto end = thrust::copy_if(first, first + n, result, positive{});
  return static_cast<std::size_t>(end - result);
}

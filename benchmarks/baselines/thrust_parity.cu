// See thrust_parity.h. Every CUDA call is checked; a failure aborts with its message.
#include "thrust_parity.h"

#include <cub/device/device_adjacent_difference.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/adjacent_difference.h>
#include <thrust/device_ptr.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/partition.h>
#include <thrust/random.h>
#include <thrust/reduce.h>
#include <thrust/set_operations.h>
#include <thrust/shuffle.h>
#include <thrust/unique.h>

#include <cstdio>
#include <cstdlib>

#include "check.h"

namespace {
struct positive {
  __host__ __device__ bool operator()(float v) const { return v > 0.f; }
};
struct below_quarter {
  __host__ __device__ bool operator()(float v) const { return v < -0.25f; }
};
struct above_quarter {
  __host__ __device__ bool operator()(float v) const { return v > 0.25f; }
};
void *temp = nullptr;
std::size_t temp_bytes = 0;
unsigned long long *num_out = nullptr;
int *num_out_int = nullptr;

void reserve(std::size_t need) {
  if (need <= temp_bytes)
    return;
  if (temp)
    CHECK(cudaFree(temp));
  CHECK(cudaMalloc(&temp, need));
  temp_bytes = need;
}
std::size_t read_count() {
  unsigned long long c = 0;
  CHECK(cudaMemcpy(&c, num_out, sizeof c, cudaMemcpyDeviceToHost));
  return static_cast<std::size_t>(c);
}
} // namespace

extern "C" void cub_parity_prepare(std::size_t max_n) {
  if (!num_out) {
    CHECK(cudaMalloc(&num_out, sizeof(unsigned long long)));
    CHECK(cudaMalloc(&num_out_int, sizeof(int)));
  }
  std::size_t need = 0;
  float *f = nullptr;
  int *k = nullptr;
  unsigned *u = nullptr;
  CHECK(cub::DeviceAdjacentDifference::SubtractLeftCopy(nullptr, need, f, f, max_n));
  reserve(need);
  CHECK(cub::DeviceSelect::UniqueByKey(nullptr, need, k, f, k, f, num_out, max_n));
  reserve(need);
  CHECK(
      cub::DeviceRunLengthEncode::Encode(nullptr, need, k, k, u, num_out, static_cast<int>(max_n)));
  reserve(need);
  CHECK(cub::DevicePartition::If(nullptr, need, f, f, num_out, max_n, positive{}));
  reserve(need);
  CHECK(cub::DevicePartition::If(nullptr, need, f, f, f, f, num_out, max_n, below_quarter{},
                                 above_quarter{}));
  reserve(need);
  CHECK(cub::DeviceRadixSort::SortKeysDescending(nullptr, need, f, f, max_n));
  reserve(need);
}

extern "C" std::size_t cub_partition_three_way(const float *in, float *first, float *second,
                                               float *unselected, std::size_t n) {
  std::size_t bytes = temp_bytes;
  // num_out: two counts (first, second) of 64 bits; cub_parity_prepare allocated 8 bytes,
  // so the pair goes to a buffer of its own.
  static unsigned long long *pair = nullptr;
  if (!pair)
    CHECK(cudaMalloc(&pair, 2 * sizeof(unsigned long long)));
  CHECK(cub::DevicePartition::If(temp, bytes, in, first, second, unselected, pair, n,
                                 below_quarter{}, above_quarter{}));
  unsigned long long c[2];
  CHECK(cudaMemcpy(c, pair, sizeof c, cudaMemcpyDeviceToHost));
  return static_cast<std::size_t>(c[0]);
}

extern "C" void cub_sort_descending(const float *in, float *out, std::size_t n) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DeviceRadixSort::SortKeysDescending(temp, bytes, in, out, n));
  CHECK(cudaDeviceSynchronize());
}

extern "C" void thrust_shuffle(float *v, std::size_t n, unsigned seed) {
  thrust::default_random_engine g(seed);
  thrust::shuffle(thrust::device_ptr<float>(v), thrust::device_ptr<float>(v + n), g);
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cub_adjacent_difference(const float *in, float *out, std::size_t n) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DeviceAdjacentDifference::SubtractLeftCopy(temp, bytes, in, out, n));
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_adjacent_difference(const float *in, float *out, std::size_t n) {
  auto first = thrust::device_pointer_cast(in);
  thrust::adjacent_difference(first, first + n, thrust::device_pointer_cast(out));
  CHECK(cudaDeviceSynchronize());
}

extern "C" std::size_t cub_unique_by_key(const int *keys, const float *values, int *out_keys,
                                         float *out_values, std::size_t n) {
  std::size_t bytes = temp_bytes;
  CHECK(
      cub::DeviceSelect::UniqueByKey(temp, bytes, keys, values, out_keys, out_values, num_out, n));
  return read_count();
}
extern "C" std::size_t thrust_unique_by_key_copy(const int *keys, const float *values,
                                                 int *out_keys, float *out_values, std::size_t n) {
  auto k = thrust::device_pointer_cast(keys);
  auto ok = thrust::device_pointer_cast(out_keys);
  auto end = thrust::unique_by_key_copy(k, k + n, thrust::device_pointer_cast(values), ok,
                                        thrust::device_pointer_cast(out_values));
  return static_cast<std::size_t>(end.first - ok);
}

extern "C" std::size_t cub_run_length_encode(const int *in, int *unique, unsigned *counts,
                                             std::size_t n) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DeviceRunLengthEncode::Encode(temp, bytes, in, unique, counts, num_out,
                                           static_cast<int>(n)));
  return read_count();
}
extern "C" std::size_t thrust_run_length_encode(const int *in, int *unique, unsigned *counts,
                                                std::size_t n) {
  auto k = thrust::device_pointer_cast(in);
  auto u = thrust::device_pointer_cast(unique);
  auto end = thrust::reduce_by_key(k, k + n, thrust::constant_iterator<unsigned>(1), u,
                                   thrust::device_pointer_cast(counts));
  return static_cast<std::size_t>(end.first - u);
}

extern "C" std::size_t cub_partition_positive(const float *in, float *out, std::size_t n) {
  std::size_t bytes = temp_bytes;
  CHECK(cub::DevicePartition::If(temp, bytes, in, out, num_out, n, positive{}));
  return read_count();
}
extern "C" std::size_t thrust_partition_copy_positive(const float *in, float *out_true,
                                                      float *out_false, std::size_t n) {
  auto first = thrust::device_pointer_cast(in);
  auto yes = thrust::device_pointer_cast(out_true);
  auto end = thrust::partition_copy(first, first + n, yes, thrust::device_pointer_cast(out_false),
                                    positive{});
  return static_cast<std::size_t>(end.first - yes);
}

extern "C" std::size_t thrust_set_intersection(const int *a, std::size_t na, const int *b,
                                               std::size_t nb, int *out) {
  auto fa = thrust::device_pointer_cast(a);
  auto fb = thrust::device_pointer_cast(b);
  auto o = thrust::device_pointer_cast(out);
  auto end = thrust::set_intersection(fa, fa + na, fb, fb + nb, o);
  return static_cast<std::size_t>(end - o);
}
#define PACXX_THRUST_SET_OP(name)                                                                  \
  extern "C" std::size_t thrust_##name(const int *a, std::size_t na, const int *b, std::size_t nb, \
                                       int *out) {                                                 \
    auto fa = thrust::device_pointer_cast(a);                                                      \
    auto fb = thrust::device_pointer_cast(b);                                                      \
    auto o = thrust::device_pointer_cast(out);                                                     \
    auto end = thrust::name(fa, fa + na, fb, fb + nb, o);                                          \
    return static_cast<std::size_t>(end - o);                                                      \
  }
PACXX_THRUST_SET_OP(set_union)
PACXX_THRUST_SET_OP(set_difference)
PACXX_THRUST_SET_OP(set_symmetric_difference)
#undef PACXX_THRUST_SET_OP

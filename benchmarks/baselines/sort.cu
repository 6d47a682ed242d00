// See sort.h. Every CUDA call is checked; a failure aborts with its message.
#include "sort.h"

#include <cub/device/device_merge.cuh>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <thrust/binary_search.h>
#include <thrust/device_ptr.h>
#include <thrust/merge.h>
#include <thrust/sort.h>

#include <cuda_profiler_api.h>

#include <cstdio>
#include <cstdlib>

#include "check.h"

namespace {
void *temp = nullptr;
std::size_t temp_bytes = 0;

template <class T> thrust::device_ptr<T> dp(T *p) { return thrust::device_pointer_cast(p); }

struct item_order {
  __host__ __device__ bool operator()(const bench_item &a, const bench_item &b) const {
    return a.group < b.group || (a.group == b.group && a.score > b.score);
  }
};

struct u64_low_order {
  __host__ __device__ bool operator()(unsigned long long a, unsigned long long b) const {
    return unsigned(a) < unsigned(b);
  }
};

struct point_order {
  __host__ __device__ bool operator()(const bench_point &a, const bench_point &b) const {
    return a.z < b.z || (a.z == b.z && a.x < b.x);
  }
};

struct score_order {
  __host__ __device__ bool operator()(const bench_score &a, const bench_score &b) const {
    return a.score > b.score;
  }
};

void need(std::size_t bytes) {
  if (bytes > temp_bytes) {
    std::fprintf(stderr, "cub sort: %zu bytes of temporary storage prepared, %zu needed\n",
                 temp_bytes, bytes);
    std::abort();
  }
}
void grow(std::size_t bytes, std::size_t &most) { most = bytes > most ? bytes : most; }
// DeviceMergeSort::StableSortKeys in place, in the prepared temporary storage.
template <class T, class Order> void cub_merge_sort(T *data, std::size_t n, Order order) {
  std::size_t b = 0;
  CHECK(cub::DeviceMergeSort::StableSortKeys(nullptr, b, data, (std::int64_t)n, order));
  need(b);
  CHECK(cub::DeviceMergeSort::StableSortKeys(temp, b, data, (std::int64_t)n, order));
  CHECK(cudaDeviceSynchronize());
}
} // namespace

extern "C" void bench_profile(int on) { CHECK(on ? cudaProfilerStart() : cudaProfilerStop()); }

extern "C" void cub_sort_prepare(std::size_t max_n) {
  std::size_t most = 0, b = 0;
  const int n = (int)max_n;
  CHECK(cub::DeviceRadixSort::SortKeys(nullptr, b, (const unsigned long long *)nullptr,
                                       (unsigned long long *)nullptr, n));
  grow(b, most);
  CHECK(cub::DeviceRadixSort::SortPairs(nullptr, b, (const unsigned *)nullptr, (unsigned *)nullptr,
                                        (const unsigned *)nullptr, (unsigned *)nullptr, n));
  grow(b, most);
  CHECK(cub::DeviceMergeSort::StableSortKeys(nullptr, b, (bench_item *)nullptr, (std::int64_t)n,
                                             item_order{}));
  grow(b, most);
  CHECK(cub::DeviceMergeSort::StableSortKeys(nullptr, b, (unsigned long long *)nullptr,
                                             (std::int64_t)n, u64_low_order{}));
  grow(b, most);
  CHECK(cub::DeviceMergeSort::StableSortKeys(nullptr, b, (bench_point *)nullptr, (std::int64_t)n,
                                             point_order{}));
  grow(b, most);
  CHECK(cub::DeviceMergeSort::StableSortKeys(nullptr, b, (bench_score *)nullptr, (std::int64_t)n,
                                             score_order{}));
  grow(b, most);
  CHECK(cub::DeviceMerge::MergeKeys(nullptr, b, (const unsigned *)nullptr, (std::int64_t)n,
                                    (const unsigned *)nullptr, (std::int64_t)n,
                                    (unsigned *)nullptr));
  grow(b, most);
  if (most > temp_bytes) {
    if (temp)
      CHECK(cudaFree(temp));
    CHECK(cudaMalloc(&temp, most * 2));
    temp_bytes = most * 2;
  }
}

#define CUB_SORT_KEYS(name, T)                                                                     \
  extern "C" void name(const T *in, T *out, std::size_t n) {                                       \
    std::size_t b = 0;                                                                             \
    CHECK(cub::DeviceRadixSort::SortKeys(nullptr, b, in, out, (int)n));                            \
    need(b);                                                                                       \
    CHECK(cub::DeviceRadixSort::SortKeys(temp, b, in, out, (int)n));                               \
    CHECK(cudaDeviceSynchronize());                                                                \
  }
CUB_SORT_KEYS(cub_sort_keys_u32, unsigned)
CUB_SORT_KEYS(cub_sort_keys_u64, unsigned long long)
CUB_SORT_KEYS(cub_sort_keys_f32, float)

extern "C" void cub_sort_keys_u32_bits(const unsigned *in, unsigned *out, std::size_t n,
                                       int begin_bit, int end_bit) {
  std::size_t b = 0;
  CHECK(cub::DeviceRadixSort::SortKeys(nullptr, b, in, out, (int)n, begin_bit, end_bit));
  need(b);
  CHECK(cub::DeviceRadixSort::SortKeys(temp, b, in, out, (int)n, begin_bit, end_bit));
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cub_sort_pairs_u32(const unsigned *keys_in, unsigned *keys_out,
                                   const unsigned *values_in, unsigned *values_out, std::size_t n) {
  std::size_t b = 0;
  CHECK(cub::DeviceRadixSort::SortPairs(nullptr, b, keys_in, keys_out, values_in, values_out,
                                        (int)n));
  need(b);
  CHECK(cub::DeviceRadixSort::SortPairs(temp, b, keys_in, keys_out, values_in, values_out, (int)n));
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cub_merge_sort_items(bench_item *data, std::size_t n) {
  cub_merge_sort(data, n, item_order{});
}

extern "C" void cub_merge_sort_u64_low(unsigned long long *data, std::size_t n) {
  cub_merge_sort(data, n, u64_low_order{});
}

extern "C" void cub_merge_sort_points(bench_point *data, std::size_t n) {
  cub_merge_sort(data, n, point_order{});
}

extern "C" void cub_merge_sort_scores(bench_score *data, std::size_t n) {
  cub_merge_sort(data, n, score_order{});
}

extern "C" void cub_merge_u32(const unsigned *a, std::size_t na, const unsigned *b_in,
                              std::size_t nb, unsigned *out) {
  std::size_t b = 0;
  CHECK(cub::DeviceMerge::MergeKeys(nullptr, b, a, (std::int64_t)na, b_in, (std::int64_t)nb, out));
  need(b);
  CHECK(cub::DeviceMerge::MergeKeys(temp, b, a, (std::int64_t)na, b_in, (std::int64_t)nb, out));
  CHECK(cudaDeviceSynchronize());
}

extern "C" void thrust_sort_u32(unsigned *data, std::size_t n) {
  thrust::sort(dp(data), dp(data) + n);
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_sort_u64(unsigned long long *data, std::size_t n) {
  thrust::sort(dp(data), dp(data) + n);
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_sort_f32(float *data, std::size_t n) {
  thrust::sort(dp(data), dp(data) + n);
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_sort_pairs_u32(unsigned *keys, unsigned *values, std::size_t n) {
  thrust::sort_by_key(dp(keys), dp(keys) + n, dp(values));
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_sort_items(bench_item *data, std::size_t n) {
  thrust::stable_sort(dp(data), dp(data) + n, item_order{});
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_sort_u64_low(unsigned long long *data, std::size_t n) {
  thrust::stable_sort(dp(data), dp(data) + n, u64_low_order{});
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_sort_points(bench_point *data, std::size_t n) {
  thrust::stable_sort(dp(data), dp(data) + n, point_order{});
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_sort_scores(bench_score *data, std::size_t n) {
  thrust::stable_sort(dp(data), dp(data) + n, score_order{});
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_lower_bound_u32(const unsigned *sorted, std::size_t n,
                                       const unsigned *queries, std::size_t q, std::size_t *out) {
  thrust::lower_bound(dp(sorted), dp(sorted) + n, dp(queries), dp(queries) + q, dp(out));
  CHECK(cudaDeviceSynchronize());
}
extern "C" void thrust_merge_u32(const unsigned *a, std::size_t na, const unsigned *b,
                                 std::size_t nb, unsigned *out) {
  thrust::merge(dp(a), dp(a) + na, dp(b), dp(b) + nb, dp(out));
  CHECK(cudaDeviceSynchronize());
}

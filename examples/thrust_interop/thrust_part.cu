// The Thrust half of the interop example: a thrust::device_vector and a CUDA stream that
// the pacxx half uses (pacxx::queue::adopt, gpu::device_span), and Thrust algorithms on
// pacxx's memory (gpu::vector::native_handle). Compiled by nvcc.
#include "thrust_part.h"

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <cstdio>

namespace {
thrust::device_vector<float> *data = nullptr;

bool ok(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return true;
  std::fprintf(stderr, "thrust_part: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

struct fill_op {
  __host__ __device__ float operator()(std::size_t i) const { return float(i % 1000) * 0.001f; }
};
struct square_op {
  __host__ __device__ float operator()(float v) const { return v * v; }
};
struct to_double {
  __host__ __device__ double operator()(float v) const { return v; }
};
} // namespace

extern "C" float *thrust_make_data(std::size_t n, void **stream) {
  cudaStream_t s = nullptr;
  if (!ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"))
    return nullptr;
  try {
    data = new thrust::device_vector<float>(n);
    thrust::transform(thrust::cuda::par.on(s), thrust::counting_iterator<std::size_t>(0),
                      thrust::counting_iterator<std::size_t>(n), data->begin(), fill_op{});
  } catch (const std::exception &e) {
    std::fprintf(stderr, "thrust_part: %s\n", e.what());
    return nullptr;
  }
  *stream = s;
  return thrust::raw_pointer_cast(data->data());
}

extern "C" double thrust_sum(const float *p, std::size_t n, void *stream) {
  auto s = static_cast<cudaStream_t>(stream);
  thrust::device_ptr<const float> first(p);
  return thrust::transform_reduce(thrust::cuda::par.on(s), first, first + n, to_double{}, 0.0,
                                  thrust::plus<double>());
}

extern "C" void thrust_square(float *p, std::size_t n, void *stream) {
  auto s = static_cast<cudaStream_t>(stream);
  thrust::device_ptr<float> first(p);
  thrust::transform(thrust::cuda::par.on(s), first, first + n, first, square_op{});
}

extern "C" void thrust_release(void *stream) {
  delete data;
  data = nullptr;
  ok(cudaStreamDestroy(static_cast<cudaStream_t>(stream)), "cudaStreamDestroy");
}

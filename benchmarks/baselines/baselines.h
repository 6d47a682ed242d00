// The baselines pacxx is measured against, compiled by nvcc into one library linked
// into the benchmark programs: Thrust (its best API for each task), CUB with
// preallocated temporary storage, and hand-written CUDA. All pointers are device
// pointers in the CUDA primary context (the one pacxx uses); every function returns
// when its result is complete (reductions: on the host; transforms: written).
#pragma once
#include <cstddef>

extern "C" {
// Thrust
void thrust_vadd(const float *a, const float *b, float *c, std::size_t n);             // transform
void thrust_saxpy(float a, const float *x, const float *y, float *out, std::size_t n); // transform
float thrust_dot(const float *a, const float *b, std::size_t n);     // inner_product
float thrust_dot_zip(const float *a, const float *b, std::size_t n); // transform_reduce over zip
float thrust_sum(const float *a, std::size_t n);                     // reduce
// The paper's Listing 3: transform into a temporary, then reduce (two kernels).
float thrust_dot_unfused(const float *a, const float *b, float *tmp, std::size_t n);

// CUB DeviceReduce with temporary storage allocated once, up front.
void cub_prepare(std::size_t max_n); // allocates the temporary storage for up to max_n
float cub_sum(const float *a, std::size_t n);
float cub_dot(const float *a, const float *b, std::size_t n);

// Hand-written, optimised CUDA.
void cuda_vadd(const float *a, const float *b, float *c, std::size_t n);
void cuda_saxpy(float a, const float *x, const float *y, float *out, std::size_t n);
float cuda_sum(const float *a, std::size_t n);
float cuda_dot(const float *a, const float *b, std::size_t n);

// Device-to-device copy of n floats (the bandwidth reference).
void cuda_copy(const float *a, float *b, std::size_t n);
// Bytes of device memory the CUDA runtime has allocated for the baselines so far.
std::size_t baseline_device_bytes();
}

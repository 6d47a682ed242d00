// Scan baselines (nvcc-compiled, linked into benchmarks/scan): CUB DeviceScan with
// temporary storage allocated once, and Thrust. Device pointers in the CUDA primary
// context; every function returns when its output is written.
#pragma once
#include <cstddef>

extern "C" {
void cub_scan_prepare(std::size_t max_n); // temporary storage for up to max_n elements
void cub_inclusive_sum_float(const float *in, float *out, std::size_t n);
void cub_exclusive_sum_float(const float *in, float *out, std::size_t n);
void cub_inclusive_sum_int(const int *in, int *out, std::size_t n);
void cub_exclusive_sum_int(const int *in, int *out, std::size_t n);
void thrust_inclusive_sum_float(const float *in, float *out, std::size_t n);
void thrust_exclusive_sum_float(const float *in, float *out, std::size_t n);
void thrust_inclusive_sum_int(const int *in, int *out, std::size_t n);
void thrust_exclusive_sum_int(const int *in, int *out, std::size_t n);
// out = g(inclusive_scan(f(in))) with f(x) = x * x and g(y) = y * 0.5f, as a Thrust user
// writes it: transform_inclusive_scan, then transform.
void thrust_transform_scan_transform(const float *in, float *out, std::size_t n);
// The same with CUB: a transform iterator in, a transform output iterator out (one pass).
void cub_transform_scan_transform(const float *in, float *out, std::size_t n);
}

// The Thrust half of examples/thrust_interop (thrust_part.cu, compiled by nvcc), as the
// pacxx half (main.cpp, compiled by pacxx++) sees it: plain C functions over device
// pointers and a stream, no CUDA or Thrust types.
#pragma once
#include <cstddef>

extern "C" {
// A thrust::device_vector<float> of n elements, x[i] = (i % 1000) * 0.001f, filled on
// a new non-blocking stream; returns its device pointer and the stream (a cudaStream_t,
// which is a CUstream). Returns nullptr (and prints why) on a CUDA error.
float *thrust_make_data(std::size_t n, void **stream);
// thrust::reduce of n floats at p on the stream (waits for it).
double thrust_sum(const float *p, std::size_t n, void *stream);
// x[i] = x[i] * x[i] with thrust::transform on the stream (does not wait).
void thrust_square(float *p, std::size_t n, void *stream);
// Frees what thrust_make_data made.
void thrust_release(void *stream);
}

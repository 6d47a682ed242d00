// The baselines of benchmarks/reductions.cpp, compiled by nvcc into one object linked
// into it: Thrust (its algorithm of the same name) and CUB DeviceReduce with temporary
// storage allocated once, up front (red_cub_prepare). All pointers are device pointers
// in the CUDA primary context (the one pacxx uses); every function returns when its
// result is on the host.
//
// The predicates are the benchmark's: count_if counts x > threshold, any_of asks whether
// some x > threshold; min_element is the first smallest (CUB ArgMin, thrust::min_element).
#pragma once
#include <cstddef>

extern "C" {
// CUB DeviceReduce: Sum over a transform iterator (count_if), ArgMin (min_element), Max
// over a transform iterator (any_of: CUB has no search that stops early), Sum.
void red_cub_prepare(std::size_t max_n); // temporary storage for up to max_n floats
std::size_t red_cub_count_if(const float *a, std::size_t n, float threshold);
std::size_t red_cub_min_element(const float *a, std::size_t n);
bool red_cub_any_of(const float *a, std::size_t n, float threshold);
float red_cub_sum(const float *a, std::size_t n);

// Thrust
std::size_t red_thrust_count_if(const float *a, std::size_t n, float threshold);
std::size_t red_thrust_min_element(const float *a, std::size_t n);
bool red_thrust_any_of(const float *a, std::size_t n, float threshold);
float red_thrust_sum(const float *a, std::size_t n);
}

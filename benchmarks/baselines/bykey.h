// The baselines of benchmarks/bykey.cpp, compiled by nvcc into one object (as
// baselines.cu): CUB with temporary storage allocated once, up front, and Thrust. All
// pointers are device pointers in the CUDA primary context (the one pacxx uses); every
// function returns when its result is complete (the run count on the host, the
// histogram written).
#pragma once
#include <cstddef>

extern "C" {
// Allocates CUB's temporary storage (and the run-count slot) for up to max_n elements
// and `bins` bins.
void bykey_prepare(std::size_t max_n, int bins);

// reduce_by_key over int keys and float values with plus; returns the number of runs.
std::size_t cub_reduce_by_key(const int *keys, const float *values, int *out_keys,
                              float *out_values, std::size_t n);
std::size_t thrust_reduce_by_key(const int *keys, const float *values, int *out_keys,
                                 float *out_values, std::size_t n);

// `bins` bins of equal width over [lower, upper) of float samples. CUB counts in int (its
// usual counter type; pacxx's counters are 64 bits).
void cub_histogram_even(const float *samples, std::size_t n, int *histogram, int bins, float lower,
                        float upper);
// Thrust has no histogram: its dense-histogram example (bin indices by transform, sort,
// upper_bound, adjacent_difference), through a temporary of n ints preallocated here.
void thrust_histogram_even(const float *samples, std::size_t n, int *histogram, int bins,
                           float lower, float upper);
}

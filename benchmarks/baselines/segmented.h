// The baselines of benchmarks/segmented.cpp, compiled by nvcc into one object: CUB's
// DeviceSegmentedReduce::Sum with its temporary storage allocated once, up front. All
// pointers are device pointers in the CUDA primary context (the one pacxx uses); every
// function returns when its result is complete.
#pragma once
#include <cstddef>

extern "C" {
// Allocates CUB's temporary storage for up to max_n values and max_segments segments.
void segmented_prepare(std::size_t max_n, std::size_t max_segments);
// out[s] = sum of values[offsets[s], offsets[s + 1]) for s < segments.
void cub_segmented_sum(const float *values, const int *offsets, float *out, std::size_t segments);
}

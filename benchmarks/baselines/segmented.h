// The baselines of benchmarks/segmented.cpp, compiled by nvcc into one object: CUB's
// DeviceSegmentedReduce::Sum, DeviceSegmentedSort::SortKeys (32-bit unsigned keys) and
// DeviceScan::InclusiveSumByKey (the segmented scan's nearest CUB call: a key per
// element, the segment ids, made before timing), their temporary storage allocated once,
// up front. All
// pointers are device pointers in the CUDA primary context (the one pacxx uses); every
// function returns when its result is complete.
#pragma once
#include <cstddef>

extern "C" {
// Allocates CUB's temporary storage for up to max_n values and max_segments segments.
void segmented_prepare(std::size_t max_n, std::size_t max_segments);
// out[s] = sum of values[offsets[s], offsets[s + 1]) for s < segments.
void cub_segmented_sum(const float *values, const int *offsets, float *out, std::size_t segments);
// out = keys sorted ascending within each segment [offsets[s], offsets[s + 1]) (not
// stable: CUB's SortKeys; equal 32-bit keys are indistinguishable).
void cub_segmented_sort(const unsigned *keys, unsigned *out, std::size_t n, const int *offsets,
                        std::size_t segments);
// out[i] = sum of values[j] for the j <= i of i's run of equal ids.
void cub_scan_by_key(const int *ids, const float *values, float *out, std::size_t n);
}

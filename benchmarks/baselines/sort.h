// Sorting baselines (nvcc-compiled, linked into benchmarks/sort): CUB DeviceRadixSort,
// DeviceMergeSort and DeviceMerge with temporary storage allocated once, and Thrust.
// Device pointers in the CUDA primary context; every function returns when its output
// is written.
#pragma once
#include <cstddef>

// The record of the comparator sorts: ordered by (group, score descending).
struct bench_item {
  int group;
  float score;
  unsigned id;
};

// A 16-byte record: points ordered by (z, then x), as a user's particles.
struct bench_point {
  float x, y, z;
  unsigned id;
};

// An 8-byte record: scores ordered from the highest, as a leaderboard.
struct bench_score {
  float score;
  unsigned id;
};

extern "C" {
void cub_sort_prepare(std::size_t max_n); // temporary storage for up to max_n elements
// The profiler's collection on (1) or off (0): ncu --profile-from-start off then profiles
// only what runs between (sort.cpp: the timed loop of PACXX_BENCH_PROFILE_N).
void bench_profile(int on);
void cub_sort_keys_u32(const unsigned *in, unsigned *out, std::size_t n);
void cub_sort_keys_u32_bits(const unsigned *in, unsigned *out, std::size_t n, int begin_bit,
                            int end_bit);
void cub_sort_keys_u64(const unsigned long long *in, unsigned long long *out, std::size_t n);
void cub_sort_keys_f32(const float *in, float *out, std::size_t n);
void cub_sort_pairs_u32(const unsigned *keys_in, unsigned *keys_out, const unsigned *values_in,
                        unsigned *values_out, std::size_t n);
void cub_merge_sort_items(bench_item *data, std::size_t n); // DeviceMergeSort::StableSortKeys
// 64-bit keys ordered by their low 32 bits alone (u64_low_order), stably: a comparator
// sort of 8-byte elements.
void cub_merge_sort_u64_low(unsigned long long *data, std::size_t n);
void cub_merge_sort_points(bench_point *data, std::size_t n); // point_order, stably
void cub_merge_sort_scores(bench_score *data, std::size_t n); // score_order, stably
void cub_merge_u32(const unsigned *a, std::size_t na, const unsigned *b, std::size_t nb,
                   unsigned *out); // DeviceMerge::MergeKeys
// In place (thrust::sort, thrust::sort_by_key).
void thrust_sort_u32(unsigned *data, std::size_t n);
void thrust_sort_u64(unsigned long long *data, std::size_t n);
void thrust_sort_f32(float *data, std::size_t n);
void thrust_sort_pairs_u32(unsigned *keys, unsigned *values, std::size_t n);
void thrust_sort_items(bench_item *data, std::size_t n); // thrust::stable_sort, comparator
void thrust_sort_u64_low(unsigned long long *data, std::size_t n); // thrust::stable_sort
void thrust_sort_points(bench_point *data, std::size_t n);         // thrust::stable_sort
void thrust_sort_scores(bench_score *data, std::size_t n);         // thrust::stable_sort
void thrust_lower_bound_u32(const unsigned *sorted, std::size_t n, const unsigned *queries,
                            std::size_t q, std::size_t *out);
void thrust_merge_u32(const unsigned *a, std::size_t na, const unsigned *b, std::size_t nb,
                      unsigned *out);
}

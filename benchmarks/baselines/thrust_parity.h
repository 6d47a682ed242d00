// Baselines of the Thrust-parity benchmark (issue 38; compiled by nvcc into
// thrust_parity_baselines.o and linked into thrust_parity): CUB with temporary storage
// allocated once, up front (cub_parity_prepare), and Thrust. Pointers are device
// pointers in the CUDA primary context (the one pacxx uses). Every function returns once
// its result is complete; those that produce a count return it on the host.
#pragma once
#include <cstddef>

extern "C" {
void cub_parity_prepare(std::size_t max_n); // temporary storage for up to max_n elements

// out[0] = in[0], out[i] = in[i] - in[i - 1] (floats).
void cub_adjacent_difference(const float *in, float *out, std::size_t n);
void thrust_adjacent_difference(const float *in, float *out, std::size_t n);

// The first (key, value) of every run of equal int keys; returns the number of runs.
std::size_t cub_unique_by_key(const int *keys, const float *values, int *out_keys,
                              float *out_values, std::size_t n);
std::size_t thrust_unique_by_key_copy(const int *keys, const float *values, int *out_keys,
                                      float *out_values, std::size_t n);

// The runs of int keys: their keys and lengths; returns the number of runs.
std::size_t cub_run_length_encode(const int *in, int *unique, unsigned *counts, std::size_t n);
std::size_t thrust_run_length_encode(const int *in, int *unique, unsigned *counts, std::size_t n);

// The floats > 0 to out_true, the others to out_false; returns the number > 0. CUB's
// DevicePartition::If writes both parts to one output (the rejected ones reversed at its
// end), so it is given out_true with room for all n.
std::size_t cub_partition_positive(const float *in, float *out, std::size_t n);
std::size_t thrust_partition_copy_positive(const float *in, float *out_true, float *out_false,
                                           std::size_t n);

// The sorted intersection of sorted int ranges a and b (std's multiset semantics);
// returns its size. CUB has no set operations.
std::size_t thrust_set_intersection(const int *a, std::size_t na, const int *b, std::size_t nb,
                                    int *out);
// The same for set_union, set_difference and set_symmetric_difference.
std::size_t thrust_set_union(const int *a, std::size_t na, const int *b, std::size_t nb, int *out);
std::size_t thrust_set_difference(const int *a, std::size_t na, const int *b, std::size_t nb,
                                  int *out);
std::size_t thrust_set_symmetric_difference(const int *a, std::size_t na, const int *b,
                                            std::size_t nb, int *out);

// Three-way: floats < -0.25 to first, > 0.25 to second, the rest to unselected (CUB's
// DevicePartition::If with two predicates); returns the number < -0.25.
std::size_t cub_partition_three_way(const float *in, float *first, float *second, float *unselected,
                                    std::size_t n);

// All n floats sorted descending into out (CUB DeviceRadixSort::SortKeysDescending): the
// full sort that top_k and nth_element must beat.
void cub_sort_descending(const float *in, float *out, std::size_t n);

// thrust::shuffle of n floats in place with thrust::default_random_engine(seed).
void thrust_shuffle(float *v, std::size_t n, unsigned seed);
}

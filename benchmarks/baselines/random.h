// Baselines of the random-number benchmark (issue 38; compiled by nvcc into
// random_baselines.o and linked into random): cuRAND's host API and Thrust's engine.
// Pointers are device pointers in the CUDA primary context (the one pacxx uses). Every
// function returns once its result is complete.
#pragma once
#include <cstddef>

extern "C" {
// Creates the cuRAND generator (CURAND_RNG_PSEUDO_PHILOX4_32_10, seeded with seed) once;
// later calls do nothing.
void curand_prepare(unsigned long long seed);

// n floats uniform in (0, 1] written to out by curandGenerateUniform with the generator
// of curand_prepare (each call continues its stream).
void curand_uniform(float *out, std::size_t n);

// out[i] = thrust::uniform_real_distribution<float>(0, 1) of
// thrust::default_random_engine(seed) after discard(i), for i < n (n < 2^32): a
// thrust::transform over a counting_iterator, as Thrust's examples draw one number per
// element.
void thrust_engine_uniform(float *out, std::size_t n, unsigned seed);
}

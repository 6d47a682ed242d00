// The baseline of benchmarks/fluids.cpp, compiled by nvcc: Jos Stam's stable fluids as a
// CUDA user ports "Real-Time Fluid Dynamics for Games": each of Stam's loops over the
// N x N inside cells one kernel (a thread per cell, 32 x 8 blocks), set_bnd one kernel
// of N + 2 threads, the solves Jacobi iterations ping-ponged through a scratch array
// (as examples/fluids/fluids.hpp, so both compute the same fields), every launch on
// the default stream, one synchronisation after the steps. Its own buffers.
#pragma once
#include <cstddef>

extern "C" {
// An n x n fluid at rest with the constant sources su, sv, sd ((n + 2)^2 floats each, on
// the host).
void *cuda_fluids_create(std::size_t n, const float *su, const float *sv, const float *sd, float dt,
                         float diff, float visc, int iterations);
void cuda_fluids_destroy(void *ctx);
// k steps (vel_step, dens_step); returns when they are done.
void cuda_fluids_run(void *ctx, std::size_t k);
// The fields u, v and the density, copied to the host ((n + 2)^2 floats each).
void cuda_fluids_state(void *ctx, float *u, float *v, float *dens);
}

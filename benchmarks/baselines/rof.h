// The baselines of benchmarks/rof.cpp, compiled by nvcc into one object linked into it:
// the same ROF iteration (Chambolle-Pock over the dual of TV and of the L2 data term,
// tau = sigma = 1/3, theta = 1, as examples/rof) written
//   - FlexBox style with Thrust (rof_thrust_*): one thrust::transform / for_each per
//     operation of a module (each gradient direction, its transpose, each prox, each
//     vector update), thrust::device_vector temporaries, no fusion across modules.
//     Thrust's default policy, which FlexBox uses, waits for the device at the end of
//     every call; rof_thrust_nosync_iterate runs the same calls under
//     thrust::cuda::par_nosync, to show how much of the difference is traffic alone;
//   - by hand in CUDA (rof_cuda_*): the iteration in two kernels, the fewest that the
//     data dependencies allow without recomputation.
// Both own their device memory (cudaMalloc, in the primary context pacxx uses too).
// Kernel launches are counted, not typed in: the benchmark is linked with
// -Wl,--wrap for the CUDA runtime's launch entry points (__cudaLaunchKernel, which
// nvcc's <<<>>> stubs call in CUDA 13, cudaLaunchKernel, cudaLaunchKernelExC), and the
// wrappers in rof.cu count every launch made through them (Thrust's included).
#pragma once
#include <cstddef>

extern "C" {
struct rof_thrust_solver;
rof_thrust_solver *rof_thrust_create(const float *f_host, std::size_t width, std::size_t height,
                                     float lambda);
void rof_thrust_iterate(rof_thrust_solver *s, int iterations);
void rof_thrust_nosync_iterate(rof_thrust_solver *s, int iterations);
void rof_thrust_u(const rof_thrust_solver *s, float *u_host);
void rof_thrust_destroy(rof_thrust_solver *s);

struct rof_cuda_solver;
rof_cuda_solver *rof_cuda_create(const float *f_host, std::size_t width, std::size_t height,
                                 float lambda);
void rof_cuda_iterate(rof_cuda_solver *s, int iterations);
void rof_cuda_u(const rof_cuda_solver *s, float *u_host);
void rof_cuda_destroy(rof_cuda_solver *s);

void rof_synchronize();
std::size_t rof_launches();          // kernel launches through the CUDA runtime so far
std::size_t rof_device_free_bytes(); // cudaMemGetInfo's free memory
// Milliseconds per device-to-device cudaMemcpy of bytes (median of reps, CUDA events).
double rof_copy_ms(std::size_t bytes, int reps);
}

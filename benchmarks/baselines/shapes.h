// The baselines of benchmarks/shapes.cpp, compiled by nvcc: naive hand-written CUDA
// stencils with clamped borders (a thread per point, 32 x 8 blocks), a hand-tiled
// shared-memory 17 x 17 box filter, and the device-to-device copy. All pointers are
// device pointers in the CUDA primary context (the one pacxx uses); every function
// returns when its result is complete.
#pragma once
#include <cstddef>

extern "C" {
// out(x, y) = 0.25 (in(x-1, y) + in(x+1, y) + in(x, y-1) + in(x, y+1)) - in(x, y), clamped.
void cuda_jacobi2d(const float *in, float *out, std::size_t w, std::size_t h);
// out = the sum of the point and its six face neighbours, clamped.
void cuda_jacobi3d(const float *in, float *out, std::size_t w, std::size_t h, std::size_t d);
// out(x, y) = the mean of the 17 x 17 box around (x, y), clamped; 16 x 16 output tiles
// with a 32 x 32 input tile in shared memory.
void cuda_box17(const float *in, float *out, std::size_t w, std::size_t h);
// cudaMemcpy of n floats, device to device.
void cuda_copy(const float *in, float *out, std::size_t n);
}

// The baseline of benchmarks/nbody.cpp, compiled by nvcc: the CUDA SDK's tiled all-pairs
// N-body kernel (nbody_kernel.cuh's pattern: a thread per body, the bodies staged through
// shared memory a block-sized tile at a time). Pointers are device pointers in the CUDA
// primary context (the one pacxx uses); the function returns when acc is written.
#pragma once
#include <cstddef>

extern "C" {
// acc[3 i .. 3 i + 2] = sum over j of m_j (p_j - p_i) / (|p_j - p_i|^2 + eps2)^(3/2) for the
// n bodies pos[4 j .. 4 j + 3] = (x, y, z, m): pos as float4s, acc as float3s.
void cuda_nbody_accelerations(const float *pos, float *acc, std::size_t n, float eps2);
}

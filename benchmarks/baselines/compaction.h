// Compaction baselines (compiled by nvcc into compaction.o, linked into the compaction
// benchmark): CUB DeviceSelect::If with temporary storage allocated once, up front,
// and thrust::copy_if. Pointers are device pointers in the CUDA primary context (the
// one pacxx uses); each function returns the number selected, on the host (as
// gpu::copy_if does).
#pragma once
#include <cstddef>

extern "C" {
// Selects the elements > 0 of in into out.
void cub_select_prepare(std::size_t max_n); // temporary storage for up to max_n elements
std::size_t cub_select_positive(const float *in, float *out, std::size_t n);
std::size_t thrust_copy_if_positive(const float *in, float *out, std::size_t n);
}

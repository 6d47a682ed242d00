// The baseline of benchmarks/canny.cpp, compiled by nvcc: Canny edge detection as a CUDA
// user writes it from the same description as examples/canny/canny.hpp (the same integer
// arithmetic, so the edge maps agree exactly): a kernel per stage, a thread per pixel
// (32 x 8 blocks), clamped reads by hand; hysteresis as two ping-pong passes that set a
// flag where a pixel changes, the flag read back after every double pass. Pointers are
// device pointers in the CUDA primary context (the one pacxx uses).
#pragma once
#include <cstddef>
#include <cstdint>

extern "C" {
// Scratch for images of w x h pixels (cudaMalloc'd once, outside the timings).
void *cuda_canny_create(std::size_t w, std::size_t h);
void cuda_canny_destroy(void *ctx);
// edges[i] = 255 where pixel i of img is an edge, else 0 (thresholds on the Sobel
// magnitude, as canny::params). Returns the double passes of hysteresis; returns when
// edges is written.
std::size_t cuda_canny(void *ctx, const std::uint8_t *img, std::uint8_t *edges, int low, int high);
}

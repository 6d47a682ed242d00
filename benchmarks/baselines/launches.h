// Launch-cost baselines (nvcc-compiled, linked into benchmarks/launches): the same
// 2^16-element axpy kernel launched back to back with cudaLaunchKernel on a stream, and
// the same launches captured once into a CUDA graph and replayed. Device pointers in
// the CUDA primary context; every function returns when its launches have finished.
#pragma once
#include <cstddef>

extern "C" {
// `count` launches of y = a * x + y (n elements) on the legacy default stream, then a
// synchronisation.
void cuda_axpy_launches(float a, const float *x, float *y, std::size_t n, int count);
// Captures `count` such launches into a graph (kept until the next prepare), once.
void cuda_axpy_graph_prepare(float a, const float *x, float *y, std::size_t n, int count);
// One replay of the prepared graph, then a synchronisation.
void cuda_axpy_graph_run();
}

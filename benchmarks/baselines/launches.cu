// See launches.h. Every CUDA call is checked; a failure aborts with its message.
#include "launches.h"

#include <cuda_runtime.h>

#include "check.h"

namespace {
__global__ void axpy(float a, const float *x, float *y, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

constexpr unsigned block = 256;
unsigned blocks(std::size_t n) { return static_cast<unsigned>((n + block - 1) / block); }

cudaGraphExec_t exec = nullptr;
cudaStream_t capture_stream = nullptr;
} // namespace

extern "C" void cuda_axpy_launches(float a, const float *x, float *y, std::size_t n, int count) {
  for (int k = 0; k < count; ++k)
    axpy<<<blocks(n), block>>>(a, x, y, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cuda_axpy_graph_prepare(float a, const float *x, float *y, std::size_t n,
                                        int count) {
  if (exec)
    CHECK(cudaGraphExecDestroy(exec));
  if (!capture_stream)
    CHECK(cudaStreamCreateWithFlags(&capture_stream, cudaStreamNonBlocking));
  cudaGraph_t g = nullptr;
  CHECK(cudaStreamBeginCapture(capture_stream, cudaStreamCaptureModeRelaxed));
  for (int k = 0; k < count; ++k)
    axpy<<<blocks(n), block, 0, capture_stream>>>(a, x, y, n);
  CHECK(cudaStreamEndCapture(capture_stream, &g));
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaGraphDestroy(g));
}

extern "C" void cuda_axpy_graph_run() {
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
}

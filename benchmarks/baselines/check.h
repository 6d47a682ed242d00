// CHECK(call): every CUDA call of the baselines is checked; a failure aborts with the
// call, its place and CUDA's message.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e = (call);                                                                        \
    if (e != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e));   \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)

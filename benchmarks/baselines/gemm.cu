// See gemm.h. cuBLAS is column-major: a row-major m x n matrix is its column-major
// n x m transpose, so C = A B is computed as C^T = B^T A^T and y = A x as A^T's
// transposed product. Every call is checked; a failure aborts with its message.
#include "gemm.h"

#include <cstdio>
#include <cstdlib>

#include <cublas_v2.h>

#include "check.h"

#define CHECK_BLAS(call)                                                                           \
  do {                                                                                             \
    cublasStatus_t s = (call);                                                                     \
    if (s != CUBLAS_STATUS_SUCCESS) {                                                              \
      std::fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call, int(s));    \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)

namespace {
cublasHandle_t handle = nullptr;
cublasHandle_t tensor_handle = nullptr; // default math: tensor cores allowed
} // namespace

extern "C" void gemm_prepare() {
  if (handle)
    return;
  CHECK_BLAS(cublasCreate(&handle));
  CHECK_BLAS(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH));
  CHECK_BLAS(cublasCreate(&tensor_handle));
  CHECK_BLAS(cublasSetMathMode(tensor_handle, CUBLAS_DEFAULT_MATH));
}

static void gemm_ex(const float *a, const float *b, float *c, int m, int n, int k,
                    cublasComputeType_t compute) {
  const float one = 1.f, zero = 0.f;
  CHECK_BLAS(cublasGemmEx(tensor_handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_32F, n,
                          a, CUDA_R_32F, k, &zero, c, CUDA_R_32F, n, compute, CUBLAS_GEMM_DEFAULT));
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cublas_gemm_tf32(const float *a, const float *b, float *c, int m, int n, int k) {
  gemm_ex(a, b, c, m, n, k, CUBLAS_COMPUTE_32F_FAST_TF32);
}

extern "C" void cublas_gemm_bf16(const float *a, const float *b, float *c, int m, int n, int k) {
  gemm_ex(a, b, c, m, n, k, CUBLAS_COMPUTE_32F_FAST_16BF);
}

extern "C" void cublas_sgemm(const float *a, const float *b, float *c, int m, int n, int k) {
  const float one = 1.f, zero = 0.f;
  CHECK_BLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n));
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cublas_dgemm(const double *a, const double *b, double *c, int m, int n, int k) {
  const double one = 1., zero = 0.;
  CHECK_BLAS(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n));
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cublas_sgemm_batched(const float *a, const float *b, float *c, int m, int n, int k,
                                     int batch) {
  const float one = 1.f, zero = 0.f;
  CHECK_BLAS(cublasSgemmStridedBatched(
      handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, static_cast<long long>(k) * n, a, k,
      static_cast<long long>(m) * k, &zero, c, n, static_cast<long long>(m) * n, batch));
  CHECK(cudaDeviceSynchronize());
}

extern "C" void cublas_sgemv(const float *a, const float *x, float *y, int m, int n) {
  const float one = 1.f, zero = 0.f;
  CHECK_BLAS(cublasSgemv(handle, CUBLAS_OP_T, n, m, &one, a, n, x, 1, &zero, y, 1));
  CHECK(cudaDeviceSynchronize());
}

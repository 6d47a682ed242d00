// The baselines of benchmarks/gemm.cpp, compiled by nvcc into one object: cuBLAS SGEMM,
// DGEMM and SGEMV with one handle made up front, in pedantic math mode (FP32 stays FP32:
// no TF32 tensor cores), on the default stream. Matrices are row-major device arrays in
// the CUDA primary context (the one pacxx uses); every function returns when its result
// is complete.
#pragma once

extern "C" {
// Creates the handle (once).
void gemm_prepare();
// c (m x n) = a (m x k) * b (k x n), row-major.
void cublas_sgemm(const float *a, const float *b, float *c, int m, int n, int k);
void cublas_dgemm(const double *a, const double *b, double *c, int m, int n, int k);
// The same for `batch` products, matrix z of each at z * its size (strided batched).
void cublas_sgemm_batched(const float *a, const float *b, float *c, int m, int n, int k, int batch);
// c = a * b on tensor cores from float data (cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32 /
// _FAST_16BF: the inputs converted to TF32 / BF16 inside cuBLAS, FP32 accumulation), with
// a second handle in default math mode.
void cublas_gemm_tf32(const float *a, const float *b, float *c, int m, int n, int k);
void cublas_gemm_bf16(const float *a, const float *b, float *c, int m, int n, int k);
// y (m) = a (m x n, row-major) * x (n).
void cublas_sgemv(const float *a, const float *x, float *y, int m, int n);
}

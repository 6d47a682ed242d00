// Warp matrix multiply-accumulate on tensor cores (device code), and the roundings of
// FP32 to the formats they multiply (host and device):
//
//   pacxx::round_tf32(x)   x rounded to TF32 (8-bit exponent, 10-bit mantissa)
//   pacxx::round_bf16(x)   x rounded to BF16 (8-bit exponent, 7-bit mantissa)
//   pacxx::mma_supported() true where the device runs mma.sync (CUDA sm_80 and newer)
//   pacxx::mma_tf32_m16n8k8(d, a, b)    d += A (16 x 8) * B (8 x 8), FP32 accumulators
//   pacxx::mma_bf16_m16n8k16(d, a, b)   d += A (16 x 16) * B (16 x 8), FP32 accumulators
//   pacxx::mma_f64_m8n8k4(d, a, b)      d += A (8 x 4) * B (4 x 8) in FP64 (DMMA)
//   pacxx::pack_bf16_rn(lo, hi)         a word of two BF16 values, rounded (device)
//
// Both roundings are round-to-nearest-even on the mantissa, done in software on both
// sides so that a GPU result and a host reference see the same inputs (the hardware's
// cvt.rna.tf32.f32 rounds ties away from zero, and mma.sync on unconverted FP32 simply
// ignores the low 13 bits). Infinities stay infinite, NaN stays NaN, and a finite value
// that rounds past the largest one becomes an infinity, as IEEE rounding does.
//
// The fragments are PTX's (ISA, "Matrix Fragments for mma.m16n8k8" and ".m16n8k16"):
// with g = lane / 4 and t = lane % 4, a lane holds for TF32 a = {A[g][t], A[g+8][t],
// A[g][t+4], A[g+8][t+4]}, b = {B[t][g], B[t+4][g]}; for BF16 (two a word, the lower
// column or row in the low half) a = {A[g][2t..2t+1], A[g+8][2t..2t+1], A[g][2t+8..2t+9],
// A[g+8][2t+8..2t+9]}, b = {B[2t..2t+1][g], B[2t+8..2t+9][g]}; and the accumulators
// d = {C[g][2t], C[g][2t+1], C[g+8][2t], C[g+8][2t+1]}. All 32 lanes call together, and
// only where mma_supported() is true: it is a constant after the JIT, so
// `if (pacxx::mma_supported()) ... else ...` keeps one path. On OpenCL (a warp of one
// lane) there are no tensor cores; gpu::gemm emulates TF32 and BF16 there by rounding
// its inputs with these functions and accumulating in FP32.
#pragma once
#include <cstring>

#include "pacxx/builtins.hpp"

namespace pacxx {

namespace detail {
inline unsigned word_of_float(float x) {
  unsigned u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
inline float float_of_word(unsigned u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}
// x with its low `drop` mantissa bits rounded off (to nearest, ties to even). Branch
// free: gemm rounds every element of its tiles, and the branch this had for infinities
// and NaN, right after each global load, made ptxas wait for each load in turn (TF32
// and BF16 gemm ran at 30 and 17 TFLOP/s on the H100, no faster than SIMT FP32).
inline unsigned round_mantissa_bits(unsigned u, unsigned drop) {
  const unsigned low = (1u << drop) - 1u;
  // Adding half an ulp less one, plus the kept lsb, carries exactly when the dropped
  // part is above half, or half with an odd lsb; a carry out of the mantissa bumps the
  // exponent, which is the correctly rounded result (up to infinity).
  const unsigned rounded = (u + (low >> 1) + ((u >> drop) & 1u)) & ~low;
  // Infinity or NaN: keep NaN a NaN after the cut.
  const unsigned special = (u & low) != 0 ? (u | (1u << 22)) & ~low : u;
  return (u & 0x7f800000u) == 0x7f800000u ? special : rounded;
}
} // namespace detail

/// x rounded to TF32 (10 mantissa bits) to nearest, ties to even; the result is a float
/// whose low 13 mantissa bits are zero. Host and device.
inline float round_tf32(float x) {
  return detail::float_of_word(detail::round_mantissa_bits(detail::word_of_float(x), 13));
}
/// x rounded to BF16 (7 mantissa bits) to nearest, ties to even; the result is a float
/// whose low 16 bits are zero. Host and device.
inline float round_bf16(float x) {
  return detail::float_of_word(detail::round_mantissa_bits(detail::word_of_float(x), 16));
}

/// Whether the device runs warp mma on tensor cores (device code; a constant after the
/// JIT: true on CUDA sm_80 and newer, false on OpenCL and older CUDA devices).
inline bool mma_supported() { return __pacxx_mma_supported() != 0; }

/// d += A * B for the warp, m16n8k8, TF32 operands (each word one TF32 value, a float
/// rounded by round_tf32), FP32 accumulators; fragments as in this header's comment.
/// Device code, all lanes together, only where mma_supported().
inline void mma_tf32_m16n8k8(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  __pacxx_mma_tf32_m16n8k8(d, a, b);
}
/// d += A * B for the warp, m16n8k16, BF16 operands two to a word (pack_bf16), FP32
/// accumulators. Device code, all lanes together, only where mma_supported().
inline void mma_bf16_m16n8k16(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  __pacxx_mma_bf16_m16n8k16(d, a, b);
}
/// d += A (8 x 4) * B (4 x 8) for the warp in FP64 (DMMA, mma.sync m8n8k4 f64: IEEE
/// double fused multiply-adds): a lane holds a = A[g][t], b = B[t][g] and d = {C[g][2t],
/// C[g][2t+1]}. Device code, all lanes together, only where mma_supported().
inline void mma_f64_m8n8k4(double (&d)[2], const double (&a)[1], const double (&b)[1]) {
  __pacxx_mma_f64_m8n8k4(d, a, b);
}
/// lo and hi rounded to BF16 (round_bf16's rounding) and packed into one word, lo in the
/// low half: one instruction on the tensor-core devices (cvt.rn.bf16x2.f32). Device
/// code, only where mma_supported().
inline unsigned pack_bf16_rn(float lo, float hi) { return __pacxx_pack_bf16x2_rn(lo, hi); }
/// The word of two BF16 values (already rounded by round_bf16): lo in the low half.
inline unsigned pack_bf16(float lo, float hi) {
  return (detail::word_of_float(lo) >> 16) | (detail::word_of_float(hi) & 0xffff0000u);
}

} // namespace pacxx

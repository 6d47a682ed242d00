// Dense linear algebra over gpu::md views (issue 36), BLAS's semantics:
//
//   gpu::gemm(A, B, C, alpha, beta)          C = alpha * A * B + beta * C
//   gpu::gemm_batched(A, B, C, alpha, beta)  the same for every plane z of 3D views
//   gpu::gemv(A, x, y, alpha, beta)          y = alpha * A * x + beta * y
//
// A matrix is a 2D md view whose rows are its y and columns its x: an m x k matrix A
// (m rows of k) is gpu::md(a, k, m), B (k x n) gpu::md(b, n, k), C (m x n)
// gpu::md(c, n, m). Any operand may be gpu::transposed of a row-major view (column-major
// in BLAS's terms) or strided; it is read in place through its range and offset, never
// copied. C (and y) must be writable and must not overlap A, B (x). The element type is
// C's (y's); alpha and beta are converted to it. As in BLAS, beta == 0 means C is not
// read (NaN or garbage in C is not propagated), and alpha == 0 means A and B are not
// read. Extents that do not fit together are a pacxx::error naming the call, thrown
// before anything runs: C is unchanged. Empty shapes are fine (k == 0 scales C by beta).
//
// gemm is CUTLASS's SIMT GEMM in pacxx's parts: blocks of 256 threads (128 for the double
// tile) own a tile of C
// (pacxx::policy::gemm: 128 x 128 for large problems, 128 x 64 for large problems in
// doubles, 64 x 64 for small ones), walk k in steps of block_k with A's and B's tiles
// double-buffered in shared memory (pacxx::block_tile: the next tile's loads in flight during the
// current tile's arithmetic, one barrier a step), and each thread accumulates a register micro-tile
// (8 x 8 or 4 x 4) from vector reads of shared memory. Tiles at the edges are padded
// with zeros on load and masked on store, so every size works (1 x 1, primes). The
// launch is one kernel; grids stride in y and z past CUDA's 65535 blocks.
//
// gemv: a warp per row of a row-major A (a work-item per row on OpenCL), a thread per
// row of a column-major one (pacxx::policy::gemv).
//
// Tensor cores on request: gpu::gemm(A, B, C, alpha, beta, gpu::math::tf32) (or
// gpu::math::bf16) rounds A's and B's elements to TF32 (BF16) to nearest, ties to even,
// multiplies them exactly and accumulates in FP32. On CUDA sm_80 and newer (the H100
// included) that is warp mma.sync (pacxx/block/mma.hpp): each warp of the block owns a
// (block_m / 2) x (block_n / warps * 2) part of C's tile as m16n8 accumulator fragments,
// fed from the same double-buffered shared tiles (block_k 16, rows padded by 8 floats so
// a fragment's 32 reads fall in 32 banks), TF32 inputs rounded on their way into shared
// memory, BF16 ones as fragments are packed (cvt.rn.bf16x2). Elsewhere (OpenCL/PoCL, older CUDA
// devices) the SIMT kernel above runs on the same rounded inputs: the same products, summed in FP32
// in another order. The precision is that of the rounded inputs: TF32 keeps 11 significant bits
// (relative error of an input up to 2^-11), BF16 8 (2^-8); the sum then carries FP32's rounding,
// bounded by about k * 2^-24 * sum |a b|. gpu::math::fp32, the default, is exact FP32.
//
// double takes the FP64 tensor cores (DMMA, mma.sync m8n8k4 f64) on CUDA sm_80+ by
// default: IEEE FP64 fused multiply-adds, so as exact as the SIMT tile (gemm_dmma).
//
// Not here yet (issue 36): cp.async and multi-stage pipelines, a fragment-native shared
// layout for the mma paths (they issue about 12 instructions an mma on the H100, most of
// them loading and rounding tiles), Hopper's wgmma (LLVM 15 cannot emit it).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/block/mma.hpp"
#include "pacxx/block/tile.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/thread.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/tune.hpp"
#include "pacxx/view/md.hpp"

namespace gpu {

/// The arithmetic of gpu::gemm and gpu::gemm_batched (their last, optional argument).
namespace math {
/// Exact FP32 (or the element type's own arithmetic): the default.
struct fp32_t {};
/// A's and B's elements rounded to TF32 (to nearest, ties to even: 11 significant bits),
/// products exact, sums in FP32: tensor cores (mma.sync) on CUDA sm_80 and newer, the
/// same rounding emulated elsewhere. float only.
struct tf32_t {};
/// As tf32_t with BF16 (8 significant bits) inputs. float only.
struct bf16_t {};
/// Exact FP32 (the default).
constexpr fp32_t fp32{};
/// TF32 inputs, FP32 accumulation (tensor cores where the device has them).
constexpr tf32_t tf32{};
/// BF16 inputs, FP32 accumulation (tensor cores where the device has them).
constexpr bf16_t bf16{};
} // namespace math

namespace detail {
// The arithmetic's part of a tuning family's name: each is tuned apart.
inline const char *math_name(math::fp32_t) { return ""; }
inline const char *math_name(math::tf32_t) { return "/tf32"; }
inline const char *math_name(math::bf16_t) { return "/bf16"; }

template <class M> struct is_gemm_math : std::false_type {};
template <> struct is_gemm_math<math::fp32_t> : std::true_type {};
template <> struct is_gemm_math<math::tf32_t> : std::true_type {};
template <> struct is_gemm_math<math::bf16_t> : std::true_type {};

// How the tiles' elements are rounded on their way into shared memory.
struct round_none {
  template <class X> static X apply(X x) { return x; }
};
struct round_to_tf32 {
  static float apply(float x) { return pacxx::round_tf32(x); }
};
struct round_to_bf16 {
  static float apply(float x) { return pacxx::round_bf16(x); }
};

template <class M, std::size_t D> struct is_md_of_rank : std::false_type {};
template <class V, class L, std::size_t D>
struct is_md_of_rank<md_view<V, std::integral_constant<std::size_t, D>, L>, D> : std::true_type {};

template <class M, class L> using has_layout = std::is_same<typename M::layout, L>;

inline std::string dims(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

// The largest power of two up to 16 that divides `bytes`; vector_alignment: the one
// that divides the sizes of a, b, c and d elements of T, so the alignment that any sum
// of multiples of them keeps from a 16-byte aligned base.
constexpr std::size_t pow2_dividing(std::size_t bytes, std::size_t cap = 16) {
  return bytes % cap == 0 ? cap : pow2_dividing(bytes, cap / 2);
}
constexpr std::size_t min_of(std::size_t a, std::size_t b) { return a < b ? a : b; }
template <class T>
constexpr std::size_t vector_alignment(std::size_t a, std::size_t b, std::size_t c, std::size_t d) {
  return min_of(min_of(pow2_dividing(sizeof(T) * a), pow2_dividing(sizeof(T) * b)),
                min_of(pow2_dividing(sizeof(T) * c), pow2_dividing(sizeof(T) * d)));
}

// A thread's fragment of one row of a shared-memory tile: G groups of V consecutive
// elements, the groups Apart elements apart, each group's first element Align-byte
// aligned, so that each group is one vector load.
template <unsigned G, unsigned V, unsigned Apart, std::size_t Align, class T>
inline void load_fragment(const T *row, T (&f)[G * V]) {
#pragma unroll
  for (unsigned g = 0; g < G; ++g) {
    const T *p = static_cast<const T *>(__builtin_assume_aligned(row + g * Apart, Align));
#pragma unroll
    for (unsigned i = 0; i < V; ++i)
      f[g * V + i] = p[i];
  }
}

// The operand tiles of the k step at k0 of C's tile (m0, n0) into registers (device
// code): both hold k in rows, A's element (r, col) being a(k0 + r, m0 + col) and B's
// b(n0 + col, k0 + r), read from the tile's first element by the views' strides
// (block_tile::fetch_strided).
template <class TA, class TB, class MA, class MB>
__attribute__((always_inline)) inline void
fetch_operands(TA &ta, TB &tb, const MA &a, const MB &b, std::size_t k0, std::size_t m0,
               std::size_t n0, std::size_t z, std::size_t m, std::size_t n, std::size_t k) {
  std::ptrdiff_t sa[3], sb[3];
  a.strides(sa);
  b.strides(sb);
  ta.fetch_strided(a.iterator_at(k0, m0, z), sa[0], sa[1], k - k0, m - m0);
  tb.fetch_strided(b.iterator_at(n0, k0, z), sb[1], sb[0], k - k0, n - n0);
}

// C's tile at block tile (by, bx) of plane z, under policy P (device code; every
// thread of the block calls it). a(x, y, z) is A's element at row y, column x.
template <class P, class R, class T, class MA, class MB, class MC>
inline void gemm_block_tile(const MA &a, const MB &b, const MC &c, std::size_t m, std::size_t n,
                            std::size_t k, std::size_t by, std::size_t bx, std::size_t z, T alpha,
                            T beta) {
  constexpr unsigned BM = P::block_m, BN = P::block_n, BK = P::block_k;
  constexpr unsigned TM = P::thread_m, TN = P::thread_n;
  constexpr unsigned TY = BM / TM, TX = BN / TN, threads = TX * TY;
  static_assert(TX % 8 == 0 && TY % 4 == 0, "policy::gemm: a warp covers 4 x 8 threads");
  // Rows (columns) of a thread's micro-tile come in groups of V consecutive ones, the
  // groups TY * VM (TX * VN) apart: each group is one vector read of shared memory.
  constexpr unsigned VM = TM < 4 ? TM : 4, VN = TN < 4 ? TN : 4;
  constexpr unsigned GM = TM / VM, GN = TN / VN;
  // Both tiles hold k in rows: A's as BK x BM (transposed on the way in), B's as
  // BK x BN. Threads walk the source's contiguous direction.
  constexpr bool a_down = has_layout<MA, md_layout::row_major>::value;
  constexpr bool b_down = has_layout<MB, md_layout::column_major>::value;
  using tile_a = pacxx::block_tile<T, BK, BM, threads, a_down, a_down ? 4 : 0>;
  using tile_b = pacxx::block_tile<T, BK, BN, threads, b_down, b_down ? 4 : 0>;
  tile_a ta;
  tile_b tb;

  const unsigned l = unsigned(pacxx::Thread::get().local.x), lane = l % 32, w = l / 32;
  const unsigned ty = (w / (TX / 8)) * 4 + lane / 8, tx = (w % (TX / 8)) * 8 + lane % 8;
  const unsigned row0 = ty * VM, col0 = tx * VN;
  const std::size_t m0 = by * BM, n0 = bx * BN;

  // The alignment of each group's first element in shared memory (at most 16 bytes),
  // told to the compiler so that a group's reads become one vector load (ld.shared.v4
  // for floats); without it they stayed four scalar loads (ptxas, sm_90).
  constexpr std::size_t align_a =
      vector_alignment<T>(VM, TY * VM, tile_a::pitch, tile_a::stage_size);
  constexpr std::size_t align_b =
      vector_alignment<T>(VN, TX * VN, tile_b::pitch, tile_b::stage_size);

  // Rounded (gemm_tile_tensor's emulation of TF32/BF16) as they go into shared memory,
  // after the arithmetic on the current stage: rounding in fetch made each load wait.
  auto round = [](T x) { return R::apply(x); };
  auto fetch = [&](std::size_t k0) { fetch_operands(ta, tb, a, b, k0, m0, n0, z, m, n, k); };

  T acc[TM][TN];
#pragma unroll
  for (unsigned i = 0; i < TM; ++i)
#pragma unroll
    for (unsigned j = 0; j < TN; ++j)
      acc[i][j] = T();

  const std::size_t steps = k / BK + (k % BK != 0);
  if (steps > 0) {
    fetch(0);
    ta.commit(0, round);
    tb.commit(0, round);
    pacxx::barrier();
  }
  for (std::size_t s = 0; s < steps; ++s) {
    const bool more = s + 1 < steps;
    if (more)
      fetch((s + 1) * BK);
    const T *as = ta.stage(unsigned(s & 1)) + row0, *bs = tb.stage(unsigned(s & 1)) + col0;
#pragma unroll
    for (unsigned kk = 0; kk < BK; ++kk) {
      T af[TM], bf[TN];
      load_fragment<GM, VM, TY * VM, align_a>(as + kk * tile_a::pitch, af);
      load_fragment<GN, VN, TX * VN, align_b>(bs + kk * tile_b::pitch, bf);
#pragma unroll
      for (unsigned i = 0; i < TM; ++i)
#pragma unroll
        for (unsigned j = 0; j < TN; ++j)
          acc[i][j] += af[i] * bf[j];
    }
    if (more) {
      ta.commit(unsigned((s + 1) & 1), round);
      tb.commit(unsigned((s + 1) & 1), round);
    }
    // All reads of this stage are done before the next step refills it, and the
    // other stage is complete before it is read.
    pacxx::barrier();
  }

#pragma unroll
  for (unsigned g = 0; g < GM; ++g)
#pragma unroll
    for (unsigned ii = 0; ii < VM; ++ii) {
      const std::size_t i = m0 + g * TY * VM + row0 + ii;
      if (i >= m)
        continue;
#pragma unroll
      for (unsigned h = 0; h < GN; ++h)
#pragma unroll
        for (unsigned jj = 0; jj < VN; ++jj) {
          const std::size_t j = n0 + h * TX * VN + col0 + jj;
          if (j >= n)
            continue;
          const T v = alpha * acc[g * VM + ii][h * VN + jj];
          // beta == 0: C is not read (BLAS), so NaN in C does not propagate.
          if (beta == T())
            c(j, i, z) = v;
          else
            c(j, i, z) = v + beta * T(c(j, i, z));
        }
    }
}

// Fragments of the warp mma (pacxx/block/mma.hpp) read from a shared tile that holds k
// in rows (pitch apart) and m (or n) along them, elements already rounded: row, col is
// the fragment's first m (n) and kk its first k. g = lane / 4, t = lane % 4. Each kind
// says its element type, its mma tile (tile_m x 8 x k), the words of its fragments,
// the depth of its shared tiles, and where accumulator e of a lane lies (rows g +
// acc_row(e), columns 2 t + (e & 1) of the mma tile).
struct mma_tf32 {
  using value = float;
  using word = unsigned;
  static constexpr unsigned k = 8, tile_m = 16, a_words = 4, b_words = 2, accs = 4;
  static constexpr unsigned block_k = 16; // 2 x 17 KiB of shared tiles at 128 x 128
  using round = round_to_tf32;            // the SIMT emulation's rounding into shared memory
  using tile_round = round_to_tf32;       // the mma path's
  static unsigned acc_row(unsigned e) { return (e >> 1) * 8; }
  static void load_a(const float *s, unsigned pitch, unsigned kk, unsigned row, unsigned t,
                     unsigned (&f)[4]) {
    const float *p = s + (kk + t) * pitch + row, *q = p + 4 * pitch;
    f[0] = pacxx::detail::word_of_float(p[0]);
    f[1] = pacxx::detail::word_of_float(p[8]);
    f[2] = pacxx::detail::word_of_float(q[0]);
    f[3] = pacxx::detail::word_of_float(q[8]);
  }
  static void load_b(const float *s, unsigned pitch, unsigned kk, unsigned col, unsigned t,
                     unsigned (&f)[2]) {
    const float *p = s + (kk + t) * pitch + col;
    f[0] = pacxx::detail::word_of_float(p[0]);
    f[1] = pacxx::detail::word_of_float(p[4 * pitch]);
  }
  static void mma(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
    pacxx::mma_tf32_m16n8k8(d, a, b);
  }
};
struct mma_bf16 {
  using value = float;
  using word = unsigned;
  static constexpr unsigned k = 16, tile_m = 16, a_words = 4, b_words = 2, accs = 4;
  static constexpr unsigned block_k = 16;
  // The SIMT emulation rounds on the way into shared memory; the mma path keeps FP32
  // tiles and rounds as it packs each fragment word (cvt.rn.bf16x2: one instruction for
  // two elements, where rounding each element in integer code took about twelve).
  using round = round_to_bf16;
  using tile_round = round_none;
  static unsigned acc_row(unsigned e) { return (e >> 1) * 8; }
  static void load_a(const float *s, unsigned pitch, unsigned kk, unsigned row, unsigned t,
                     unsigned (&f)[4]) {
    const float *p = s + (kk + 2 * t) * pitch + row, *q = p + 8 * pitch;
    f[0] = pacxx::pack_bf16_rn(p[0], p[pitch]);
    f[1] = pacxx::pack_bf16_rn(p[8], p[pitch + 8]);
    f[2] = pacxx::pack_bf16_rn(q[0], q[pitch]);
    f[3] = pacxx::pack_bf16_rn(q[8], q[pitch + 8]);
  }
  static void load_b(const float *s, unsigned pitch, unsigned kk, unsigned col, unsigned t,
                     unsigned (&f)[2]) {
    const float *p = s + (kk + 2 * t) * pitch + col;
    f[0] = pacxx::pack_bf16_rn(p[0], p[pitch]);
    f[1] = pacxx::pack_bf16_rn(p[8 * pitch], p[9 * pitch]);
  }
  static void mma(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
    pacxx::mma_bf16_m16n8k16(d, a, b);
  }
};
// FP64 on the tensor cores (DMMA, mma.sync m8n8k4 f64): IEEE double arithmetic (PTX ISA:
// the precision of its element-wise multiplications and additions is that of an f64
// fused multiply-add, rounded to nearest), so the result is an FP64 GEMM like the SIMT
// tile's, summed in another order. Nothing is rounded on the way in.
struct mma_f64 {
  using value = double;
  using word = double;
  static constexpr unsigned k = 4, tile_m = 8, a_words = 1, b_words = 1, accs = 2;
  static constexpr unsigned block_k = 8; // 2 x 17 KiB of shared tiles at 128 x 128
  using round = round_none;
  using tile_round = round_none;
  static unsigned acc_row(unsigned) { return 0; }
  static void load_a(const double *s, unsigned pitch, unsigned kk, unsigned row, unsigned t,
                     double (&f)[1]) {
    f[0] = s[(kk + t) * pitch + row];
  }
  static void load_b(const double *s, unsigned pitch, unsigned kk, unsigned col, unsigned t,
                     double (&f)[1]) {
    f[0] = s[(kk + t) * pitch + col];
  }
  static void mma(double (&d)[2], const double (&a)[1], const double (&b)[1]) {
    pacxx::mma_f64_m8n8k4(d, a, b);
  }
};

// C's tile at block tile (by, bx) of plane z on tensor cores (device code, CUDA sm_80+):
// the block's threads / 32 warps in 2 rows, each warp a WM x WN part of the tile as
// FM x FN mma tiles of K::tile_m x 8. A's and B's tiles are K::block_k deep (or the
// policy's block_k, deeper), rounded by K::tile_round as they go into shared memory
// (block_tile::commit; BF16 rounds as it packs fragments instead). The rows of both
// tiles are padded by 8 elements: a fragment's reads (rows t, columns g: t * pitch + g) then fall
// in different banks (32 for floats; for doubles the two halves of the warp take two wavefronts
// anyway).
template <class P, class K, class MA, class MB, class MC>
__attribute__((always_inline)) inline void
gemm_block_tile_mma(const MA &a, const MB &b, const MC &c, std::size_t m, std::size_t n,
                    std::size_t k, std::size_t by, std::size_t bx, std::size_t z,
                    typename K::value alpha, typename K::value beta) {
  using V = typename K::value;
  using W = typename K::word;
  constexpr unsigned BM = P::block_m, BN = P::block_n;
  // The kind's depth, or the policy's where that is deeper (a tuning candidate) and its
  // two stages of both tiles stay within the 48 KiB of a static allocation: fewer
  // barriers and longer arithmetic between a tile's loads and their use.
  constexpr bool deeper = P::block_k > K::block_k && P::block_k % K::k == 0 &&
                          2 * P::block_k * (BM + BN + 16) * sizeof(V) <= 48 * 1024;
  constexpr unsigned BK = deeper ? unsigned(P::block_k) : K::block_k;
  constexpr unsigned threads = (BM / P::thread_m) * (BN / P::thread_n), warps = threads / 32;
  constexpr unsigned WARPS_M = 2, WARPS_N = warps / WARPS_M;
  constexpr unsigned WM = BM / WARPS_M, WN = BN / WARPS_N, FM = WM / K::tile_m, FN = WN / 8;
  static_assert(warps % WARPS_M == 0 && WM % K::tile_m == 0 && WN % 8 == 0 && BK % K::k == 0,
                "policy::gemm: the block tile must split into warps of whole mma tiles");
  constexpr bool a_down = has_layout<MA, md_layout::row_major>::value;
  constexpr bool b_down = has_layout<MB, md_layout::column_major>::value;
  using tile_a = pacxx::block_tile<V, BK, BM, threads, a_down, 8>;
  using tile_b = pacxx::block_tile<V, BK, BN, threads, b_down, 8>;
  using R = typename K::tile_round;
  tile_a ta;
  tile_b tb;

  const unsigned l = unsigned(pacxx::Thread::get().local.x), lane = l % 32, w = l / 32;
  const unsigned g = lane / 4, t = lane % 4;
  const unsigned wm0 = (w / WARPS_N) * WM, wn0 = (w % WARPS_N) * WN;
  const std::size_t m0 = by * BM, n0 = bx * BN;

  // always_inline: a call kept the tiles' registers and the views on the stack (496
  // bytes, shared reads generic; ptxas, sm_90).
  // Rounded to TF32/BF16 as they go into shared memory, after the mma on the current
  // stage: rounded in fetch, each global load was waited for in turn.
  auto round = [](V x) __attribute__((always_inline)) { return R::apply(x); };
  auto fetch = [&](std::size_t k0) __attribute__((always_inline)) {
    fetch_operands(ta, tb, a, b, k0, m0, n0, z, m, n, k);
  };

  V acc[FM][FN][K::accs];
#pragma unroll
  for (unsigned i = 0; i < FM; ++i)
#pragma unroll
    for (unsigned j = 0; j < FN; ++j)
#pragma unroll
      for (unsigned e = 0; e < K::accs; ++e)
        acc[i][j][e] = V();

  const std::size_t steps = k / BK + (k % BK != 0);
  if (steps > 0) {
    fetch(0);
    ta.commit(0, round);
    tb.commit(0, round);
    pacxx::barrier();
  }
  for (std::size_t s = 0; s < steps; ++s) {
    const bool more = s + 1 < steps;
    if (more)
      fetch((s + 1) * BK);
    const V *as = ta.stage(unsigned(s & 1)), *bs = tb.stage(unsigned(s & 1));
#pragma unroll
    for (unsigned kk = 0; kk < BK; kk += K::k) {
      W af[FM][K::a_words], bf[FN][K::b_words];
#pragma unroll
      for (unsigned i = 0; i < FM; ++i)
        K::load_a(as, unsigned(tile_a::pitch), kk, wm0 + i * K::tile_m + g, t, af[i]);
#pragma unroll
      for (unsigned j = 0; j < FN; ++j)
        K::load_b(bs, unsigned(tile_b::pitch), kk, wn0 + j * 8 + g, t, bf[j]);
#pragma unroll
      for (unsigned i = 0; i < FM; ++i)
#pragma unroll
        for (unsigned j = 0; j < FN; ++j)
          K::mma(acc[i][j], af[i], bf[j]);
    }
    if (more) {
      ta.commit(unsigned((s + 1) & 1), round);
      tb.commit(unsigned((s + 1) & 1), round);
    }
    pacxx::barrier();
  }

#pragma unroll
  for (unsigned i = 0; i < FM; ++i)
#pragma unroll
    for (unsigned e = 0; e < K::accs; ++e) {
      const std::size_t r = m0 + wm0 + i * K::tile_m + g + K::acc_row(e);
      if (r >= m)
        continue;
#pragma unroll
      for (unsigned j = 0; j < FN; ++j) {
        const std::size_t col = n0 + wn0 + j * 8 + 2 * t + (e & 1);
        if (col >= n)
          continue;
        const V v = alpha * acc[i][j][e];
        if (beta == V())
          c(col, r, z) = v;
        else
          c(col, r, z) = v + beta * V(c(col, r, z));
      }
    }
}

// Tensor cores where the device has them, else the SIMT tile on the same (rounded)
// inputs: mma_supported() is a JIT constant, so one path stays.
template <class P, class K, class MA, class MB, class MC>
__attribute__((always_inline)) inline void
gemm_tile_tensor(const MA &a, const MB &b, const MC &c, std::size_t m, std::size_t n, std::size_t k,
                 std::size_t by, std::size_t bx, std::size_t z, typename K::value alpha,
                 typename K::value beta) {
  if (pacxx::mma_supported())
    gemm_block_tile_mma<P, K>(a, b, c, m, n, k, by, bx, z, alpha, beta);
  else
    gemm_block_tile<P, typename K::round>(a, b, c, m, n, k, by, bx, z, alpha, beta);
}

// DGEMM takes DMMA where the device has it: as exact as the SIMT tile (see mma_f64) and
// twice its peak on the H100 (67 against 34 TFLOP/s FP64, NVIDIA's data sheet; cuBLAS's
// 46 TFLOP/s DGEMM is above the SIMT peak). detail::gemm_dmma = false keeps SIMT.
constexpr bool gemm_dmma = true;

// One block tile in the arithmetic the caller asked for (gemm_launch's kernel).
template <class P, class T, class MA, class MB, class MC>
inline void gemm_tile(math::fp32_t, std::false_type, const MA &a, const MB &b, const MC &c,
                      std::size_t m, std::size_t n, std::size_t k, std::size_t by, std::size_t bx,
                      std::size_t z, T alpha, T beta) {
  gemm_block_tile<P, round_none>(a, b, c, m, n, k, by, bx, z, alpha, beta);
}
template <class P, class MA, class MB, class MC>
inline void gemm_tile(math::fp32_t, std::true_type, const MA &a, const MB &b, const MC &c,
                      std::size_t m, std::size_t n, std::size_t k, std::size_t by, std::size_t bx,
                      std::size_t z, double alpha, double beta) {
  gemm_tile_tensor<P, mma_f64>(a, b, c, m, n, k, by, bx, z, alpha, beta);
}
template <class P, class D, class T, class MA, class MB, class MC>
inline void gemm_tile(math::tf32_t, D, const MA &a, const MB &b, const MC &c, std::size_t m,
                      std::size_t n, std::size_t k, std::size_t by, std::size_t bx, std::size_t z,
                      T alpha, T beta) {
  gemm_tile_tensor<P, mma_tf32>(a, b, c, m, n, k, by, bx, z, alpha, beta);
}
template <class P, class D, class T, class MA, class MB, class MC>
inline void gemm_tile(math::bf16_t, D, const MA &a, const MB &b, const MC &c, std::size_t m,
                      std::size_t n, std::size_t k, std::size_t by, std::size_t bx, std::size_t z,
                      T alpha, T beta) {
  gemm_tile_tensor<P, mma_bf16>(a, b, c, m, n, k, by, bx, z, alpha, beta);
}

template <class P, class Math, class T, class MA, class MB, class MC>
void gemm_launch(const MA &a, const MB &b, const MC &c, std::size_t m, std::size_t n, std::size_t k,
                 std::size_t batch, T alpha, T beta) {
  constexpr std::size_t threads = (P::block_m / P::thread_m) * (P::block_n / P::thread_n);
  const std::size_t tiles_m = pacxx::detail::ceil_div(m, P::block_m);
  const std::size_t tiles_n = pacxx::detail::ceil_div(n, P::block_n);
  constexpr std::size_t most = pacxx::policy::shaped::max_blocks_yz;
  const pacxx::dim grid(tiles_n, tiles_m < most ? tiles_m : most, batch < most ? batch : most);
  pacxx::kernel(
      [alpha, beta](const MA &a, const MB &b, const MC &c, std::size_t m, std::size_t n,
                    std::size_t k, std::size_t batch) {
        // The mma tile keeps 4 x FM x FN accumulators and its fragments: no occupancy
        // bound that would squeeze its registers (FP32's bound is for the SIMT tile).
        constexpr unsigned min_blocks = !std::is_same<Math, math::fp32_t>::value ? 0
                                        : sizeof(T) <= 4                         ? P::min_blocks
                                                         : P::min_blocks_8_bytes;
        if (min_blocks > 0)
          pacxx::launch_bounds(unsigned(threads), min_blocks);
        using dmma = std::integral_constant<bool, gemm_dmma && std::is_same<T, double>::value>;
        const pacxx::Block blk = pacxx::Block::get();
        const pacxx::index3 g = pacxx::Grid::get().size;
        const std::size_t tiles_m = m / P::block_m + (m % P::block_m != 0);
        for (std::size_t z = blk.index.z; z < batch; z += g.z)
          for (std::size_t by = blk.index.y; by < tiles_m; by += g.y)
            gemm_tile<P>(Math(), dmma(), a, b, c, m, n, k, by, blk.index.x, z, alpha, beta);
      },
      pacxx::launch_config{grid, {threads}})(a, b, c, m, n, k, batch);
}

template <class Math, class MA, class MB, class MC, class T>
void gemm_checked(const MA &a, const MB &b, const MC &c, std::size_t batch, T alpha, T beta,
                  const char *what) {
  const std::size_t m = c.height(), n = c.width(), k = a.width();
  if (a.height() != m || b.width() != n || b.height() != k)
    throw pacxx::error(std::string(what) + ": A is " + dims(a.height(), a.width()) + ", B " +
                       dims(b.height(), b.width()) + " and C " + dims(m, n) +
                       " (rows x columns); A * B needs A's columns = B's rows, and C must be "
                       "A's rows x B's columns; C is unchanged");
  if (m == 0 || n == 0 || batch == 0)
    return;
  // alpha == 0: A and B are not read (BLAS); the k loop is empty and C = beta * C.
  const std::size_t kk = alpha == T() ? 0 : k;
  // The policy is tuned (pacxx/tune.hpp; policy::tuning::gemm, policy::gemm first). Only a
  // call with beta = 0 explores: its result does not depend on C, so a trial may write it.
  auto launch = [&](auto policy) {
    using G = decltype(policy);
    using L = typename std::conditional<sizeof(T) == 8, typename G::large_8_bytes,
                                        typename G::large>::type;
    const std::size_t large_tiles =
        pacxx::detail::ceil_div(m, L::block_m) * pacxx::detail::ceil_div(n, L::block_n) * batch;
    // A matrix smaller than a large tile would leave most of its threads idle (a batch of
    // 64 x 64 products takes small tiles however many there are).
    if (m >= L::block_m && n >= L::block_n && large_tiles >= G::large_min_tiles)
      gemm_launch<L, Math>(a, b, c, m, n, kk, batch, alpha, beta);
    else
      gemm_launch<typename G::small, Math>(a, b, c, m, n, kk, batch, alpha, beta);
  };
  using Space = pacxx::policy::tuning::gemm;
  const std::string family = "gpu::gemm/" + std::to_string(sizeof(T)) + detail::math_name(Math{}) +
                             (batch > 1 ? "/batched" : "");
  const std::uint64_t size =
      pacxx::tune::size_class(m, n, kk) << 8 | pacxx::tune::size_class(batch);
  const std::size_t choice = beta == T() ? pacxx::tune::choose<Space>(family, size, launch)
                                         : pacxx::tune::stored<Space>(family, size);
  pacxx::tune::invoke<Space>(choice, launch);
}

template <class M>
using md_value_t = typename std::decay<decltype(std::declval<const M &>()(0, 0, 0))>::type;

} // namespace detail

/// C = alpha * A * B + beta * C over 2D gpu::md views (BLAS's semantics: beta == 0 does
/// not read C, alpha == 0 does not read A and B), in exact arithmetic of C's element
/// type, or as `math` asks: gpu::math::tf32 or gpu::math::bf16 round A's and B's
/// elements to TF32 / BF16 (nearest, ties to even) and accumulate in FP32, on tensor
/// cores (mma.sync) where the device has them (float C only). Shapes that do not fit
/// are a pacxx::error, C unchanged.
template <class MA, class MB, class MC, class Alpha, class Beta, class Math = math::fp32_t>
void gemm(const MA &A, const MB &B, const MC &C, Alpha alpha, Beta beta, Math math = Math()) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::gemm", A);
  (void)math;
  static_assert(detail::is_md_of_rank<MA, 2>::value && detail::is_md_of_rank<MB, 2>::value &&
                    detail::is_md_of_rank<MC, 2>::value,
                "gpu::gemm: A, B and C must be 2D gpu::md views (gpu::md(a, columns, rows), "
                "gpu::transposed(...)); gpu::gemm_batched takes 3D ones");
  using T = detail::md_value_t<MC>;
  static_assert(std::is_arithmetic<T>::value, "gpu::gemm: C's elements must be arithmetic");
  static_assert(detail::is_gemm_math<Math>::value,
                "gpu::gemm: the arithmetic is gpu::math::fp32, gpu::math::tf32 or gpu::math::bf16");
  static_assert(std::is_same<Math, math::fp32_t>::value || std::is_same<T, float>::value,
                "gpu::gemm: gpu::math::tf32 and gpu::math::bf16 need a float C");
  detail::gemm_checked<Math>(A, B, C, 1, T(alpha), T(beta), "gpu::gemm");
}

/// Plane z of C = alpha * plane z of A * plane z of B + beta * plane z of C, for every z
/// (one launch) of 3D gpu::md views of equal depth; `math` as for gpu::gemm.
template <class MA, class MB, class MC, class Alpha, class Beta, class Math = math::fp32_t>
void gemm_batched(const MA &A, const MB &B, const MC &C, Alpha alpha, Beta beta,
                  Math math = Math()) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::gemm_batched", A);
  (void)math;
  static_assert(detail::is_md_of_rank<MA, 3>::value && detail::is_md_of_rank<MB, 3>::value &&
                    detail::is_md_of_rank<MC, 3>::value,
                "gpu::gemm_batched: A, B and C must be 3D gpu::md views (plane z = matrix z)");
  using T = detail::md_value_t<MC>;
  static_assert(std::is_arithmetic<T>::value, "gpu::gemm_batched: C's elements must be arithmetic");
  static_assert(detail::is_gemm_math<Math>::value, "gpu::gemm_batched: the arithmetic is "
                                                   "gpu::math::fp32, gpu::math::tf32 or "
                                                   "gpu::math::bf16");
  static_assert(std::is_same<Math, math::fp32_t>::value || std::is_same<T, float>::value,
                "gpu::gemm_batched: gpu::math::tf32 and gpu::math::bf16 need a float C");
  if (A.depth() != C.depth() || B.depth() != C.depth())
    throw pacxx::error("gpu::gemm_batched: A, B and C hold " + std::to_string(A.depth()) + ", " +
                       std::to_string(B.depth()) + " and " + std::to_string(C.depth()) +
                       " matrices (their depths must be equal); C is unchanged");
  detail::gemm_checked<Math>(A, B, C, C.depth(), T(alpha), T(beta), "gpu::gemm_batched");
}

namespace detail {

// y[i] for a row-major A: a warp per row (device code in a block of B threads).
template <class P, class T, class MA, class X, class Y>
void gemv_by_warp(const MA &a, const X &x, const Y &y, std::size_t m, std::size_t n, T alpha,
                  T beta) {
  constexpr std::size_t per_block = P::block / 32;
  pacxx::kernel(
      [alpha, beta](const MA &a, const X &xv, const Y &yv, std::size_t m, std::size_t n) {
        const std::size_t l = pacxx::Thread::get().local.x, W = pacxx::warp::size();
        if (W == 1 && l >= per_block) // a warp of one: the first per_block threads work
          return;
        const std::size_t i = pacxx::Block::get().index.x * per_block + l / W, lane = l % W;
        auto xr = xv;
        auto xf = ranges::begin(xr);
        using DX = ranges::range_difference_t<X>;
        T s = T();
        if (i < m) {
          std::size_t j = lane;
          // P::items loads in flight before they are summed.
          for (; j + (P::items - 1) * W < n; j += P::items * W) {
            T p[P::items];
#pragma unroll
            for (std::size_t q = 0; q < P::items; ++q)
              p[q] = T(a(j + q * W, i)) * T(*(xf + static_cast<DX>(j + q * W)));
#pragma unroll
            for (std::size_t q = 0; q < P::items; ++q)
              s += p[q];
          }
          for (; j < n; j += W)
            s += T(a(j, i)) * T(*(xf + static_cast<DX>(j)));
        }
        s = pacxx::warp::reduce(s, std::plus<T>(), static_cast<unsigned>(W));
        if (lane == 0 && i < m) {
          auto yr = yv;
          auto yi = ranges::begin(yr) + static_cast<ranges::range_difference_t<Y>>(i);
          // beta == 0: y is not read (BLAS).
          *yi = beta == T() ? alpha * s : alpha * s + beta * T(*yi);
        }
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(m, per_block)}, {P::block}})(a, x, y, m, n);
}

// y[i] for any other A: a thread per row (coalesced where A is column-major).
template <class P, class T, class MA, class X, class Y>
void gemv_by_thread(const MA &a, const X &x, const Y &y, std::size_t m, std::size_t n, T alpha,
                    T beta) {
  pacxx::kernel(
      [alpha, beta](const MA &a, const X &xv, const Y &yv, std::size_t m, std::size_t n) {
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i >= m)
          return;
        auto xr = xv;
        auto xf = ranges::begin(xr);
        using DX = ranges::range_difference_t<X>;
        T s = T();
        std::size_t j = 0;
        for (; j + P::items <= n; j += P::items) {
          T p[P::items];
#pragma unroll
          for (std::size_t q = 0; q < P::items; ++q)
            p[q] = T(a(j + q, i)) * T(*(xf + static_cast<DX>(j + q)));
#pragma unroll
          for (std::size_t q = 0; q < P::items; ++q)
            s += p[q];
        }
        for (; j < n; ++j)
          s += T(a(j, i)) * T(*(xf + static_cast<DX>(j)));
        auto yr = yv;
        auto yi = ranges::begin(yr) + static_cast<ranges::range_difference_t<Y>>(i);
        *yi = beta == T() ? alpha * s : alpha * s + beta * T(*yi);
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(m, P::block)}, {P::block}})(a, x, y, m, n);
}

} // namespace detail

// y = alpha * A * x + beta * y: A an m x n 2D md view (gpu::md(a, n, m), or transposed),
// x a device range of n elements, y a writable one of m (a gpu::vector, a view over one).
template <class MA, class X, class Y, class Alpha, class Beta>
void gemv(const MA &A, X &&x, Y &&y, Alpha alpha, Beta beta) {
  static_assert(detail::is_md_of_rank<MA, 2>::value,
                "gpu::gemv: A must be a 2D gpu::md view (gpu::md(a, columns, rows))");
  auto xv = pacxx::detail::device_view(std::forward<X>(x));
  auto yv = pacxx::detail::device_view(std::forward<Y>(y));
  using T = ranges::range_value_t<decltype(yv)>;
  static_assert(std::is_arithmetic<T>::value, "gpu::gemv: y's elements must be arithmetic");
  const std::size_t m = A.height(), n = A.width();
  const std::size_t xn = pacxx::detail::device_size(xv), yn = pacxx::detail::device_size(yv);
  if (xn != n || yn != m)
    throw pacxx::error("gpu::gemv: A is " + detail::dims(m, n) + " (rows x columns), x has " +
                       std::to_string(xn) + " elements and y " + std::to_string(yn) +
                       " (x needs A's columns, y A's rows); y is unchanged");
  if (m == 0)
    return;
  const T a = T(alpha), b = T(beta);
  const std::size_t nn = a == T() ? 0 : n; // alpha == 0: A and x are not read
  constexpr bool rows = detail::has_layout<MA, md_layout::row_major>::value;
  auto launch = [&](auto policy) {
    using P = decltype(policy);
    if (rows)
      detail::gemv_by_warp<P>(A, xv, yv, m, nn, a, b);
    else
      detail::gemv_by_thread<P>(A, xv, yv, m, nn, a, b);
  };
  // Tuned (pacxx/tune.hpp; policy::tuning::gemv, policy::gemv first). Only a call with
  // beta = 0 explores: its result does not depend on y, so a trial may write it.
  using Space = pacxx::policy::tuning::gemv;
  const std::string family =
      "gpu::gemv/" + std::to_string(sizeof(T)) + (rows ? "/rows" : "/columns");
  const std::uint64_t size = pacxx::tune::size_class(m, nn);
  const std::size_t choice = b == T() ? pacxx::tune::choose<Space>(family, size, launch)
                                      : pacxx::tune::stored<Space>(family, size);
  pacxx::tune::invoke<Space>(choice, launch);
}

} // namespace gpu

// Device builtins. These are declarations only: the offline compiler keeps calls to
// them in the kernel IR and the runtime's JIT maps each one to the target's intrinsic
// (NVPTX special registers, OpenCL work-item functions). On the host they are never
// reached; libpacxx defines host versions that abort with a clear message.
#pragma once
#include <cstddef>

extern "C" {
// The thread's index in the grid along dim (0: x, 1: y, 2: z).
std::size_t __pacxx_global_id(int dim);
// The thread's index in its block along dim.
std::size_t __pacxx_local_id(int dim);
// The block's index in the grid along dim.
std::size_t __pacxx_group_id(int dim);
// The block's size (threads) along dim.
std::size_t __pacxx_local_size(int dim);
// The grid's size (blocks) along dim.
std::size_t __pacxx_num_groups(int dim);
// A block barrier that also orders shared and global memory accesses (CUDA
// __syncthreads, OpenCL barrier); every thread of the block must reach it.
void __pacxx_barrier();
// One static block of shared (OpenCL: local) memory per call site in the kernel.
void *__pacxx_shared_memory(std::size_t bytes, std::size_t align);
// The block's dynamic shared memory (size given at launch).
void *__pacxx_dynamic_shared_memory();

// Warps: the threads of a block that run in lock step and can exchange registers.
// 32 on CUDA. On OpenCL pacxx uses no sub-groups, so a warp is one work-item (size 1,
// lane 0) and the block primitives (pacxx/block/) exchange through shared memory
// instead; both are constants after the JIT, so the unused path folds away.
// The lanes of a warp (32 on CUDA, 1 on OpenCL).
unsigned __pacxx_warp_size();
// This thread's lane in its warp.
unsigned __pacxx_lane_id();
// Shuffles of 32-bit words among all lanes of the warp (every lane must call them):
// up/down read the lane `delta` below/above (a lane with none keeps its own value), idx
// reads lane `lane`. On a warp of one they return v.
// @{
unsigned __pacxx_shfl_up(unsigned v, unsigned delta);
unsigned __pacxx_shfl_down(unsigned v, unsigned delta);
unsigned __pacxx_shfl_idx(unsigned v, unsigned lane);
// @}
// Bit l set where lane l's pred is nonzero (all lanes of the warp must call it).
unsigned __pacxx_ballot(int pred);
// Bit l set where lane l's v has the bit of `bit` (a mask of one bit) as this lane's v
// has it (all lanes must call it): what a match of several bits intersects, bit by bit
// (pacxx::warp::match). On CUDA CUB's four-instruction form (test, ballot, predicated
// not), which LLVM 15 does not find from a ballot and a select; 1 on a warp of one.
unsigned __pacxx_ballot_agree(unsigned v, unsigned bit);
// Waits for every lane of the warp and orders their shared-memory accesses before it
// before those after it (CUDA __syncwarp; nothing on a warp of one). All lanes must call
// it.
void __pacxx_warp_sync();
// Orders this thread's global memory accesses before and after it for every thread of
// the device (CUDA __threadfence): what single-pass algorithms publish between blocks.
void __pacxx_thread_fence();
// Suspends the thread for about ns nanoseconds (CUDA __nanosleep; nothing on OpenCL):
// spin loops that wait for other blocks back off with it.
void __pacxx_nanosleep(unsigned ns);
// The kernel that calls it is launched with at most max_threads threads a block and
// should fit min_blocks blocks on a multiprocessor (CUDA __launch_bounds__: the JIT
// annotates the kernel, so ptxas budgets registers for it); both must be constants.
// Nothing on OpenCL.
void __pacxx_launch_bounds(unsigned max_threads, unsigned min_blocks);

// Warp matrix multiply-accumulate on tensor cores (pacxx/block/mma.hpp). 1 where the
// device has PTX mma.sync for TF32, BF16 and FP64 (CUDA sm_80 and newer, which LLVM 15's
// NVPTX reaches; the PTX runs on sm_90), 0 elsewhere (OpenCL, older CUDA devices); a
// constant after the JIT, so code guarded by it folds to one path.
int __pacxx_mma_supported();
// d[0..3] += A * B for one warp, PTX mma.sync.aligned.row.col with FP32 accumulators:
// m16n8k8 with TF32 operands (a[0..3] and b[0..1] hold one TF32 value in each 32-bit
// word) or m16n8k16 with BF16 operands (two BF16 values a word, the lower-indexed one
// in the low half). Each lane holds its fragment as PTX's ISA lays it out. All 32 lanes
// must call it together, and only where __pacxx_mma_supported() is 1: a call that
// survives the JIT's optimiser on another device is a pacxx::error of the compile.
// @{
void __pacxx_mma_tf32_m16n8k8(float *d, const unsigned *a, const unsigned *b);
void __pacxx_mma_bf16_m16n8k16(float *d, const unsigned *a, const unsigned *b);
// @}
// d[0..1] += A (8 x 4) * B (4 x 8) in FP64 (mma.sync m8n8k4 f64, DMMA): a lane holds one
// element of A and of B and two of C.
void __pacxx_mma_f64_m8n8k4(double *d, const double *a, const double *b);
// lo and hi rounded to BF16 (to nearest, ties to even) and packed into one word, lo in
// the low half (PTX cvt.rn.bf16x2.f32, sm_80): one instruction for what takes a dozen
// in integer code. Only where __pacxx_mma_supported() is 1, as the mma builtins.
unsigned __pacxx_pack_bf16x2_rn(float lo, float hi);

// Shared ownership of a host object for views that own what they view (a temporary
// gpu::vector piped into a view; pacxx/detail/owner.hpp). On the host these count
// references and destroy the object with the last one. A view is sent to a kernel as
// bytes and a kernel's copies of it are byte copies that own nothing, so the JIT
// removes retain and release from device code; owner_new has no meaning there.
// @{
void *__pacxx_owner_new(void *object, void (*destroy)(void *));
void __pacxx_owner_retain(void *owner);
void __pacxx_owner_release(void *owner);
// @}
}

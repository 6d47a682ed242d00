// Host definitions of the device builtins. Kernel code is compiled for the host too
// (it is ordinary C++), so the symbols must exist; running them there is a bug.
#include "pacxx/builtins.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

[[noreturn]] static void device_only(const char *name) {
  std::fprintf(stderr,
               "pacxx: %s is a device builtin and was called on the host; kernels run "
               "only through pacxx::kernel launches\n",
               name);
  std::abort();
}

extern "C" {
std::size_t __pacxx_global_id(int) { device_only("pacxx::Thread::get()"); }
std::size_t __pacxx_local_id(int) { device_only("pacxx::Thread::get()"); }
std::size_t __pacxx_group_id(int) { device_only("pacxx::Block::get()"); }
std::size_t __pacxx_local_size(int) { device_only("pacxx::Block::get()"); }
std::size_t __pacxx_num_groups(int) { device_only("pacxx::Grid::get()"); }
void __pacxx_barrier() { device_only("pacxx::barrier()"); }
void *__pacxx_shared_memory(std::size_t, std::size_t) { device_only("pacxx::shared_memory"); }
void *__pacxx_dynamic_shared_memory() { device_only("pacxx::dynamic_shared_memory"); }
unsigned __pacxx_warp_size() { device_only("pacxx::warp"); }
unsigned __pacxx_lane_id() { device_only("pacxx::warp"); }
unsigned __pacxx_shfl_up(unsigned, unsigned) { device_only("pacxx::warp shuffle"); }
unsigned __pacxx_shfl_down(unsigned, unsigned) { device_only("pacxx::warp shuffle"); }
unsigned __pacxx_shfl_idx(unsigned, unsigned) { device_only("pacxx::warp shuffle"); }
unsigned __pacxx_ballot(int) { device_only("pacxx::warp ballot"); }
unsigned __pacxx_ballot_agree(unsigned, unsigned) { device_only("pacxx::warp::match"); }
void __pacxx_launch_bounds(unsigned, unsigned) { device_only("pacxx::launch_bounds"); }
void __pacxx_warp_sync() { device_only("pacxx::warp::sync()"); }
void __pacxx_thread_fence() { device_only("pacxx::thread_fence()"); }
void __pacxx_nanosleep(unsigned) { device_only("pacxx::nanosleep()"); }
int __pacxx_mma_supported() { device_only("pacxx::mma_supported()"); }
void __pacxx_mma_tf32_m16n8k8(float *, const unsigned *, const unsigned *) {
  device_only("pacxx::mma_tf32_m16n8k8");
}
void __pacxx_mma_bf16_m16n8k16(float *, const unsigned *, const unsigned *) {
  device_only("pacxx::mma_bf16_m16n8k16");
}
unsigned __pacxx_pack_bf16x2_rn(float, float) { device_only("pacxx::pack_bf16_rn"); }
void __pacxx_mma_f64_m8n8k4(double *, const double *, const double *) {
  device_only("pacxx::mma_f64_m8n8k4");
}
}

// Outside a kernel there is nothing to stage: the value itself.
extern "C" {
long long __pacxx_stage_int(long long v) { return v; }
float __pacxx_stage_float(float v) { return v; }
double __pacxx_stage_double(double v) { return v; }
}

// Shared ownership for owning views (pacxx/detail/owner.hpp). A control block per
// owned object; the count starts at the creator's one reference.
namespace {
struct owner_block {
  std::atomic<std::size_t> refs{1};
  void *object;
  void (*destroy)(void *);
};
} // namespace

extern "C" {
void *__pacxx_owner_new(void *object, void (*destroy)(void *)) {
  return new owner_block{{1}, object, destroy}; // bad_alloc: the caller still owns object
}
void __pacxx_owner_retain(void *owner) {
  static_cast<owner_block *>(owner)->refs.fetch_add(1, std::memory_order_relaxed);
}
void __pacxx_owner_release(void *owner) {
  auto *b = static_cast<owner_block *>(owner);
  // acq_rel: every use of the object by other owners happens before its destruction.
  if (b->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    b->destroy(b->object);
    delete b;
  }
}
}

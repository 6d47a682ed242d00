// Host definitions of the device builtins. Kernel code is compiled for the host too
// (it is ordinary C++), so the symbols must exist; running them there is a bug.
#include "pacxx/builtins.hpp"

#include <cstdio>
#include <cstdlib>

[[noreturn]] static void device_only(const char *name) {
  std::fprintf(stderr, "pacxx: %s is a device builtin and was called on the host; kernels run "
                       "only through pacxx::kernel launches\n", name);
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
}

// Outside a kernel there is nothing to stage: the value itself.
extern "C" {
long long __pacxx_stage_int(long long v) { return v; }
float __pacxx_stage_float(float v) { return v; }
double __pacxx_stage_double(double v) { return v; }
}

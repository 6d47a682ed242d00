// Device builtins. These are declarations only: the offline compiler keeps calls to
// them in the kernel IR and the runtime's JIT maps each one to the target's intrinsic
// (NVPTX special registers, OpenCL work-item functions). On the host they are never
// reached; libpacxx defines host versions that abort with a clear message.
#pragma once
#include <cstddef>

extern "C" {
std::size_t __pacxx_global_id(int dim);
std::size_t __pacxx_local_id(int dim);
std::size_t __pacxx_group_id(int dim);
std::size_t __pacxx_local_size(int dim);
std::size_t __pacxx_num_groups(int dim);
void __pacxx_barrier();
// One static block of shared (OpenCL: local) memory per call site in the kernel.
void *__pacxx_shared_memory(std::size_t bytes, std::size_t align);
// The block's dynamic shared memory (size given at launch).
void *__pacxx_dynamic_shared_memory();

// Shared ownership of a host object for views that own what they view (a temporary
// gpu::vector piped into a view; pacxx/detail/owner.hpp). On the host these count
// references and destroy the object with the last one. A view is sent to a kernel as
// bytes and a kernel's copies of it are byte copies that own nothing, so the JIT
// removes retain and release from device code; owner_new has no meaning there.
void *__pacxx_owner_new(void *object, void (*destroy)(void *));
void __pacxx_owner_retain(void *owner);
void __pacxx_owner_release(void *owner);
}

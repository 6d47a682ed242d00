// The host side of pacxx: what headers call in libpacxx (device memory, launches,
// synchronisation). Users normally reach these through gpu::vector and pacxx::kernel.
#pragma once
#include <cstddef>
#include <memory>

#include "pacxx/error.hpp"

namespace pacxx {

// Launch shape: blocks per grid dimension and threads per block dimension.
struct dim {
  std::size_t x = 1; // the first (fastest) dimension
  std::size_t y = 1; // the second dimension
  std::size_t z = 1; // the third dimension
  dim() = default;
  // x by y by z (a 1D shape by default).
  dim(std::size_t x_, std::size_t y_ = 1, std::size_t z_ = 1) : x(x_), y(y_), z(z_) {}
};

// How a kernel is launched: its grid, its blocks and its dynamic shared memory.
struct launch_config {
  dim grid;                             // number of blocks
  dim block;                            // threads per block
  std::size_t dynamic_shared_bytes = 0; // shared memory per block beyond the static
  launch_config() = default;
  // A grid of g blocks of b threads, with `shared` bytes of dynamic shared memory each.
  launch_config(dim g, dim b, std::size_t shared = 0)
      : grid(g), block(b), dynamic_shared_bytes(shared) {}
};

// Waits for every kernel and copy issued so far on the current device, on every queue.
void synchronize();

// Gives the device memory that the pool keeps unused back to the driver, after the work
// that used it (as CUB's CachingDeviceAllocator::FreeAllCached). Live buffers are not
// touched, and later allocations fill the pool again. For a program that moves between
// phases of very different sizes, or that hands the memory to other code: the driver
// then places the next large buffers afresh. Measured on the H100 (2026-11-26,
// benchmarks/results/2026-11-26-h100-small-reductions): sort_by_key of 2^27 u32 pairs
// took 5.09 ms in a process whose pool held the blocks of eight smaller sorts, and
// 4.69 ms with them given back first (4.71-4.87 in a process that sorted 2^27 alone).
void release_cached_memory();

/// Makes every kernel of the program that has no staged values (pacxx::stage; with
/// PACXX_STAGING=0 every kernel) ready on the current device ahead of its first launch:
/// loaded from the disk cache, or JIT-compiled on `threads` threads at once (0: one per
/// core) and stored there. A program with hundreds of kernels otherwise compiles them
/// one at a time, each at its first launch. Kernels that fail to compile are left for
/// their launch to report. Returns the kernels made ready. PACXX_PREFETCH=N does this
/// at the program's first kernel compilation; PACXX_PREFILL=1 does it and ends the
/// process, to fill the disk cache ahead of a first run (docs/graphs.md).
std::size_t prefetch(std::size_t threads = 0);

// What the runtime did since start (or the last reset_stats()).
struct runtime_stats {
  std::size_t kernel_launches = 0;    // kernels launched (an empty grid is not)
  std::size_t jit_compilations = 0;   // kernel variants compiled by the JIT
  std::size_t memory_cache_hits = 0;  // launches whose variant was loaded already
  std::size_t disk_cache_hits = 0;    // variants loaded from the disk cache
  std::size_t device_allocations = 0; // all of them, pool_hits included
  std::size_t pool_hits = 0;          // the ones served by reusing freed memory
  std::size_t bytes_to_device = 0;    // bytes copied from the host to the device
  std::size_t bytes_to_host = 0;      // bytes copied from the device to the host
  std::size_t pinned_allocations = 0; // gpu::pinned_vector and futures' result slots
  std::size_t pinned_bytes = 0;       // bytes of pinned host memory handed out
  // Kernel variants (one per set of staged values) unloaded because their kernel had
  // PACXX_KERNEL_VARIANTS others used more recently; launching one again reloads it
  // from the disk cache or compiles it.
  std::size_t memory_cache_evictions = 0;
  // Levels now, not counts (reset_stats() leaves them): kernel variants kept loaded in
  // memory, device memory the pool keeps unused for reuse (bounded by PACXX_POOL_MB),
  // and device memory handed out and not yet freed (both in the pool's rounded sizes).
  std::size_t kernel_variants_loaded = 0; // kernel variants loaded (a level)
  std::size_t pool_cached_bytes = 0;      // freed device memory kept for reuse (a level)
  std::size_t device_bytes_in_use = 0;    // device memory handed out (a level)
};

// The native handles of the selected device: CUDA: the CUdevice (as an integer), the
// primary CUcontext, null (the legacy default stream: pacxx's default queue); OpenCL:
// the cl_device_id, cl_context and the default cl_command_queue. For interop with code
// that uses the driver itself (pacxx::queue::adopt, gpu::device_span).
struct native_handles_t {
  const char *backend = "";      // "cuda" or "opencl"
  void *device = nullptr;        // the CUdevice (an integer) or cl_device_id
  void *context = nullptr;       // the CUcontext or cl_context
  void *default_queue = nullptr; // null (CUDA's legacy stream) or the cl_command_queue
};
// The native handles of the selected device (see native_handles_t).
native_handles_t native_handles();
// What the runtime did since it started or since the last reset_stats().
runtime_stats stats();
// Sets the counts of stats() to zero (the levels stay).
void reset_stats();

namespace detail {
void *device_allocate(std::size_t bytes);
void device_free(void *p) noexcept;
void copy_to_device(void *dst, const void *src, std::size_t bytes);
void copy_to_host(void *dst, const void *src, std::size_t bytes); // waits for the kernels before it
void copy_on_device(void *dst, const void *src, std::size_t bytes);
// Sets bytes of device memory to `byte` on the current queue; returns at once.
void fill_on_device(void *dst, unsigned char byte, std::size_t bytes);
// Copies on the current queue that return at once (truly asynchronous with pinned
// memory): both ends must stay valid until the queue has done them.
void copy_to_device_async(void *dst, const void *src, std::size_t bytes);
void copy_to_host_async(void *dst, const void *src, std::size_t bytes);

// Pinned (page-locked) host memory from the runtime's pinned pool.
void *host_allocate(std::size_t bytes);
void host_free(void *p) noexcept;

// Queues (pacxx/queue.hpp wraps these): a queue is an opaque runtime object; null is
// the device's default queue. The current queue is per host thread: every launch, copy
// and algorithm goes there.
void *queue_create();
void *queue_adopt(void *native);
void queue_destroy(void *q) noexcept; // waits for its work first
void queue_wait(void *q);
void *queue_native(void *q);
void *queue_record(void *q); // an event after all work enqueued on q so far
void queue_wait_event(void *q, void *event);
void event_wait(void *event); // throws the device's error if the work before it failed
bool event_ready(void *event);
void event_release(void *event) noexcept;
// The native event of an event (itself, or for an event recorded in pacxx::capture that
// of its graph's latest launch; null before the first).
void *replay_event_native(void *event) noexcept;
// Whether this thread is recording a graph (pacxx::capture); capture_hold keeps p alive
// as long as that graph (what its replays write into: a future's result), else nothing.
bool capturing() noexcept;
void capture_hold(std::shared_ptr<void> p);
void *current_queue() noexcept;
void *set_current_queue(void *q) noexcept; // returns the previous one

// Launches the kernel whose host entry is `entry` (an instantiation of
// pacxx::detail::kernel_entry registered by the offline compiler) with the given
// argument bytes. Asynchronous.
void launch(const void *entry, const void *args, std::size_t size, std::size_t align,
            const launch_config &config);
} // namespace detail
} // namespace pacxx

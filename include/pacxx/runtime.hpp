// The host side of pacxx: what headers call in libpacxx (device memory, launches,
// synchronisation). Users normally reach these through gpu::vector and pacxx::kernel.
#pragma once
#include <cstddef>

#include "pacxx/error.hpp"

namespace pacxx {

// Launch shape: blocks per grid dimension and threads per block dimension.
struct dim {
  std::size_t x = 1, y = 1, z = 1;
  dim() = default;
  dim(std::size_t x_, std::size_t y_ = 1, std::size_t z_ = 1) : x(x_), y(y_), z(z_) {}
};

struct launch_config {
  dim grid;  // number of blocks
  dim block; // threads per block
  std::size_t dynamic_shared_bytes = 0;
  launch_config() = default;
  launch_config(dim g, dim b, std::size_t shared = 0)
      : grid(g), block(b), dynamic_shared_bytes(shared) {}
};

// Waits for every kernel launched so far on the current device.
void synchronize();

// What the runtime did since start (or the last reset_stats()).
struct runtime_stats {
  std::size_t kernel_launches = 0;
  std::size_t jit_compilations = 0;
  std::size_t memory_cache_hits = 0;
  std::size_t disk_cache_hits = 0;
  std::size_t device_allocations = 0; // all of them, pool_hits included
  std::size_t pool_hits = 0;          // the ones served by reusing freed memory
  std::size_t bytes_to_device = 0;
  std::size_t bytes_to_host = 0;
};
runtime_stats stats();
void reset_stats();

namespace detail {
void *device_allocate(std::size_t bytes);
void device_free(void *p) noexcept;
void copy_to_device(void *dst, const void *src, std::size_t bytes);
void copy_to_host(void *dst, const void *src, std::size_t bytes); // waits for the kernels before it
void copy_on_device(void *dst, const void *src, std::size_t bytes);

// Launches the kernel whose host entry is `entry` (an instantiation of
// pacxx::detail::kernel_entry registered by the offline compiler) with the given
// argument bytes. Asynchronous.
void launch(const void *entry, const void *args, std::size_t size, std::size_t align,
            const launch_config &config);
} // namespace detail
} // namespace pacxx

// The device memory pool: freed device memory is kept and handed out again, as CUB's
// caching allocator does. A driver allocation of a large buffer and its free cost tens
// of microseconds to milliseconds (and cuMemFree waits for the device), which a
// gpu::async that returns a new gpu::vector per call would pay every time.
//
// Reuse is safe without waiting: every backend runs its kernels and copies in order on
// one queue (CUDA's legacy stream, an in-order OpenCL queue), so work on a reused block
// starts after all work on it by its previous owner.
#pragma once
#include <cstddef>
#include <map>
#include <mutex>
#include <unordered_map>

#include "backends/backend.hpp"

namespace pacxx {
namespace rt {

class memory_pool {
public:
  // At most max_cached bytes are kept unused; 0 turns the pool off.
  memory_pool(device &dev, std::size_t max_cached) : dev_(dev), max_cached_(max_cached) {}
  ~memory_pool() { release(); }
  memory_pool(const memory_pool &) = delete;
  memory_pool &operator=(const memory_pool &) = delete;

  // `reused` tells whether the block came from the pool (no driver allocation).
  void *allocate(std::size_t bytes, bool &reused);
  void deallocate(void *p) noexcept;
  // Gives every unused block back to the driver.
  void release() noexcept;

  // Sizes are rounded up to quarter powers of two (at most 25% more), so that blocks
  // of nearby sizes can be reused for each other.
  static std::size_t bin(std::size_t bytes);

private:
  device &dev_;
  const std::size_t max_cached_;
  std::size_t cached_ = 0;
  std::mutex mutex_;
  std::unordered_map<void *, std::size_t> live_; // block -> its size
  std::multimap<std::size_t, void *> unused_;    // size -> block
};

} // namespace rt
} // namespace pacxx

// The memory pool: freed device memory (or pinned host memory) is kept and handed out
// again, as CUB's caching allocator does. A driver allocation of a large buffer and its
// free cost tens of microseconds to milliseconds (and cuMemFree waits for the device),
// which a gpu::async that returns a new gpu::vector per call would pay every time.
//
// Reuse without waiting is safe while all work runs in order on the default queue
// (CUDA's legacy stream, an in-order OpenCL queue): work on a reused block starts after
// all work on it by its previous owner. Once the program has queues of its own
// (pacxx::queue), a freed block may still be in use on any of them: the runtime's
// `fence` then gives one event per live queue, recorded at the free, and the block is
// handed out again only when all of them have completed (without the pool: the free
// waits for them).
#pragma once
#include <cstddef>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "backends/backend.hpp"

namespace pacxx {
namespace rt {

class memory_pool {
public:
  // Events marking all work enqueued so far that may use a freed block (empty: none).
  using fence_maker = std::function<std::vector<void *>()>;

  // At most max_cached bytes are kept unused; 0 turns the pool off. host: pinned host
  // memory (device::allocate_host) instead of device memory. A freed block that would
  // take the pool over max_cached gives back the blocks freed longest ago until it fits
  // (a block larger than max_cached is given back itself). Keeping the old blocks
  // instead, as CUB's caching allocator does, left a pool full of buffers that a
  // program had used once, so the sizes it used now missed every time: a merge sort's
  // 2-4 GiB scratch at 2^28 after other sizes had filled the pool took 34.8 ms where
  // it took 33.6 with hits (H100, 2026-11-26, the same as with the pool off;
  // benchmarks/results/2026-11-26-h100-wide-shared).
  memory_pool(device &dev, std::size_t max_cached, bool host = false)
      : dev_(dev), max_cached_(max_cached), host_(host) {}
  ~memory_pool() { release(); }
  memory_pool(const memory_pool &) = delete;
  memory_pool &operator=(const memory_pool &) = delete;

  // Set once, before the first deallocate.
  void set_fence(fence_maker f) { fence_ = std::move(f); }

  // `reused` tells whether the block came from the pool (no driver allocation).
  void *allocate(std::size_t bytes, bool &reused);
  void deallocate(void *p) noexcept;
  // Gives every unused block back to the driver (waiting for their fences).
  void release() noexcept;

  // Bytes kept unused for reuse (at most max_cached) and bytes handed out and not yet
  // freed, both in the pool's rounded sizes.
  struct usage {
    std::size_t cached, live;
  };
  usage current_usage();

  // Sizes are rounded up to quarter powers of two (at most 25% more), so that blocks
  // of nearby sizes can be reused for each other.
  static std::size_t bin(std::size_t bytes);

private:
  struct block {
    void *p;
    std::size_t size;
    std::vector<void *> fence; // events; empty once completed
  };
  using block_list = std::list<block>;
  device &dev_;
  const std::size_t max_cached_;
  const bool host_;
  fence_maker fence_;
  std::size_t cached_ = 0, live_bytes_ = 0;
  std::mutex mutex_;
  std::unordered_map<void *, std::size_t> live_;             // block -> its size
  block_list unused_;                                        // oldest freed first
  std::multimap<std::size_t, block_list::iterator> by_size_; // into unused_

  void *driver_allocate(std::size_t bytes);
  void driver_free(void *p) noexcept;
  bool fence_done(block &b) noexcept; // releases the events once done
  void wait_fence(std::vector<void *> &fence) noexcept;
  void forget(block_list::iterator b) noexcept; // drops b from unused_ and by_size_
  void release_locked() noexcept;
};

} // namespace rt
} // namespace pacxx

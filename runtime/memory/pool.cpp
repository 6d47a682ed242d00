#include "memory/pool.hpp"

#include <new>

#include "pacxx/error.hpp"

namespace pacxx {
namespace rt {

std::size_t memory_pool::bin(std::size_t bytes) {
  if (bytes <= 512)
    return 512;
  int e = 63 - __builtin_clzll(static_cast<unsigned long long>(bytes - 1)); // 2^e < bytes
  if (e < 2 || e >= 62)
    return bytes;
  const std::size_t step = std::size_t(1) << (e - 2);
  return (bytes + step - 1) / step * step;
}

void *memory_pool::driver_allocate(std::size_t bytes) {
  return host_ ? dev_.allocate_host(bytes) : dev_.allocate(bytes);
}

void memory_pool::driver_free(void *p) noexcept {
  if (host_)
    dev_.deallocate_host(p);
  else
    dev_.deallocate(p);
}

bool memory_pool::fence_done(block &b) noexcept {
  for (void *e : b.fence) {
    try {
      if (!dev_.event_done(e))
        return false;
    } catch (...) { // the work before it failed: it is over all the same
    }
  }
  for (void *e : b.fence)
    dev_.release_event(e);
  b.fence.clear();
  return true;
}

void memory_pool::wait_fence(std::vector<void *> &fence) noexcept {
  for (void *e : fence) {
    try {
      dev_.wait_event(e);
    } catch (...) {
    }
    dev_.release_event(e);
  }
  fence.clear();
}

void memory_pool::forget(block_list::iterator b) noexcept {
  auto range = by_size_.equal_range(b->size);
  for (auto it = range.first; it != range.second; ++it)
    if (it->second == b) {
      by_size_.erase(it);
      break;
    }
  cached_ -= b->size;
  unused_.erase(b);
}

void *memory_pool::allocate(std::size_t bytes, bool &reused) {
  reused = false;
  if (bytes == 0)
    return nullptr;
  const std::size_t size = max_cached_ ? bin(bytes) : bytes;
  std::lock_guard<std::mutex> lock(mutex_);
  void *p = nullptr;
  auto range = by_size_.equal_range(size);
  for (auto it = range.first; it != range.second; ++it)
    if (fence_done(*it->second)) {
      p = it->second->p;
      forget(it->second);
      reused = true;
      break;
    }
  if (!p) {
    try {
      p = driver_allocate(size);
    } catch (const error &) {
      if (unused_.empty())
        throw;
      // Out of memory, perhaps because of what the pool keeps: give that back, retry.
      release_locked();
      p = driver_allocate(size);
    }
  }
  try {
    live_.emplace(p, size);
  } catch (...) {
    driver_free(p);
    throw;
  }
  live_bytes_ += size;
  return p;
}

void memory_pool::deallocate(void *p) noexcept {
  if (!p)
    return;
  // The fence is taken before the lock: recording events may take the queues' lock.
  std::vector<void *> fence;
  if (fence_) {
    try {
      fence = fence_();
    } catch (...) { // no events: wait for the whole device instead
      try {
        dev_.synchronize();
      } catch (...) {
      }
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.find(p);
  if (it == live_.end()) {
    wait_fence(fence);
    return; // not ours, or freed twice: handing it out again would corrupt memory
  }
  const std::size_t size = it->second;
  live_.erase(it);
  live_bytes_ -= size;
  if (size <= max_cached_) {
    // Room for it: the blocks freed longest ago go back to the driver first.
    while (cached_ + size > max_cached_ && !unused_.empty()) {
      const auto oldest = unused_.begin();
      wait_fence(oldest->fence);
      driver_free(oldest->p);
      forget(oldest);
    }
    // Out of host memory for the bookkeeping: the block goes back instead, after its
    // fence (a failed insertion into a list leaves the element where it was).
    block b{p, size, std::move(fence)};
    bool listed = false;
    try {
      unused_.push_back(std::move(b));
      listed = true;
      by_size_.emplace(size, std::prev(unused_.end()));
      cached_ += size;
      return;
    } catch (const std::bad_alloc &) {
      if (listed) {
        fence = std::move(unused_.back().fence);
        unused_.pop_back();
      } else {
        fence = std::move(b.fence);
      }
    }
  }
  wait_fence(fence);
  driver_free(p);
}

void memory_pool::release_locked() noexcept {
  for (auto &b : unused_) {
    wait_fence(b.fence);
    driver_free(b.p);
  }
  unused_.clear();
  by_size_.clear();
  cached_ = 0;
}

memory_pool::usage memory_pool::current_usage() {
  std::lock_guard<std::mutex> lock(mutex_);
  return {cached_, live_bytes_};
}

void memory_pool::release() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  release_locked();
}

} // namespace rt
} // namespace pacxx

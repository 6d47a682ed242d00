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

void *memory_pool::allocate(std::size_t bytes, bool &reused) {
  reused = false;
  if (bytes == 0)
    return nullptr;
  const std::size_t size = max_cached_ ? bin(bytes) : bytes;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = unused_.find(size);
  void *p = nullptr;
  if (it != unused_.end()) {
    p = it->second;
    unused_.erase(it);
    cached_ -= size;
    reused = true;
  } else {
    try {
      p = dev_.allocate(size);
    } catch (const error &) {
      if (unused_.empty())
        throw;
      // Out of memory, perhaps because of what the pool keeps: give that back, retry.
      for (auto &b : unused_)
        dev_.deallocate(b.second);
      unused_.clear();
      cached_ = 0;
      p = dev_.allocate(size);
    }
  }
  try {
    live_.emplace(p, size);
  } catch (...) {
    dev_.deallocate(p);
    throw;
  }
  return p;
}

void memory_pool::deallocate(void *p) noexcept {
  if (!p)
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.find(p);
  if (it == live_.end())
    return; // not ours, or freed twice: handing it out again would corrupt memory
  const std::size_t size = it->second;
  live_.erase(it);
  if (cached_ + size <= max_cached_) {
    try {
      unused_.emplace(size, p);
      cached_ += size;
      return;
    } catch (const std::bad_alloc &) {
    }
  }
  dev_.deallocate(p);
}

void memory_pool::release() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto &b : unused_)
    dev_.deallocate(b.second);
  unused_.clear();
  cached_ = 0;
}

} // namespace rt
} // namespace pacxx

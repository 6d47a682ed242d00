// The counters behind pacxx::stats(). One set, owned by the runtime singleton
// (runtime.cpp); the kernel cache counts compilations, disk hits, evictions and the
// variants it keeps (a level, not reset by reset_stats()), the launch counts
// launches and memory cache hits, the memory entry points count allocations and copies.
#pragma once
#include <atomic>
#include <cstddef>

namespace pacxx {
namespace rt {

struct counters {
  std::atomic<std::size_t> launches{0}, compilations{0}, cache_hits{0}, disk_hits{0},
      allocations{0}, pool_hits{0}, to_device{0}, to_host{0}, pinned_allocations{0},
      pinned_bytes{0}, evictions{0}, variants_loaded{0};
};

} // namespace rt
} // namespace pacxx

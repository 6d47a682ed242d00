// The kernel cache: compiled variants in memory, keyed by (kernel entry, device, values
// of its pacxx::stage calls), each compiled once however many threads ask for it; on a
// memory miss the disk cache (cache/), then the JIT (jit/). Owns the disk cache and the
// disk key of a variant (cache_key). Owned by the runtime singleton (runtime.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "backends/backend.hpp"
#include "cache/disk_cache.hpp"
#include "config.hpp"
#include "jit/jit.hpp"
#include "registry.hpp"
#include "stats.hpp"

// Internal to libpacxx: not exported (exports.map exports pacxx::*), so calls between
// the runtime's units bind directly, as they did inside one file.
#pragma GCC visibility push(hidden)

namespace pacxx {
namespace rt {

class kernel_cache {
public:
  struct cached_kernel {
    std::once_flag once;
    std::unique_ptr<loaded_kernel> kernel;
    jit::kernel_info info;
  };
  // Where kernel_for found the variant (the trace says it).
  enum class origin { memory, disk, jit };

  // stats: counts compilations and disk hits.
  kernel_cache(const configuration &c, counters &stats)
      : stats_(stats), disk_(disk_cache::from_configuration(c)), dump_dir_(c.dump_dir) {}

  // The variant for this launch: memory, else disk, else JIT (then stored on disk).
  // staged: null when staging is off. args_size/args_align: the launch's; a disk entry
  // for another layout is rebuilt. from: where it was found; note: what the trace adds
  // (a disk entry rebuilt or not stored).
  cached_kernel &kernel_for(const void *entry, device &dev,
                            const std::vector<std::uint64_t> *staged, std::size_t args_size,
                            std::size_t args_align, origin &from, std::string &note);

  // The disk cache's line for pacxx-info.
  std::string describe_disk() const { return disk_.describe(); }

private:
  counters &stats_;
  // A compiled kernel is one variant: (kernel, device, values of its pacxx::stage calls).
  struct variant_key {
    const void *entry;
    device *dev;
    std::vector<std::uint64_t> staged;
    bool operator<(const variant_key &o) const {
      return std::tie(entry, dev, staged) < std::tie(o.entry, o.dev, o.staged);
    }
  };
  std::mutex cache_mutex_;
  std::map<variant_key, std::unique_ptr<cached_kernel>> cache_;
  disk_cache disk_;
  std::string dump_dir_;

  std::string cache_key(const registered_kernel &k, device &dev,
                        const std::vector<std::uint64_t> *staged) const;
};

} // namespace rt
} // namespace pacxx

#pragma GCC visibility pop

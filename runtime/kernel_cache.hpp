// The kernel cache: compiled variants in memory, keyed by (kernel entry, device, values
// of its pacxx::stage calls), each compiled once however many threads ask for it; on a
// memory miss the disk cache (cache/), then the JIT (jit/). Owns the disk cache and the
// disk key of a variant (cache_key). Owned by the runtime singleton (runtime.cpp).
//
// At most `max_variants` (PACXX_KERNEL_VARIANTS, default 256) variants of one kernel on
// one device stay loaded: a kernel whose staged values take many values (a
// pacxx::stage(n) loop bound over thousands of sizes) would otherwise keep a loaded
// module per value for the life of the process. Past the bound the variant used longest
// ago is unloaded (counters::evictions); launching it again is a miss that reloads it
// from the disk cache, else compiles it again. A launch holds its variant (shared_ptr),
// so eviction by another thread never unloads a kernel while it is being launched.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
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
    std::atomic<bool> ready{false}; // kernel and info are set (launches skip call_once)
    std::unique_ptr<loaded_kernel> kernel;
    jit::kernel_info info;
  };
  // Where kernel_for found the variant (the trace says it).
  enum class origin { memory, disk, jit };

  // stats: counts compilations, disk hits, evictions and the variants loaded.
  kernel_cache(const configuration &c, counters &stats)
      : stats_(stats), max_variants_(c.kernel_variants), disk_(disk_cache::from_configuration(c)),
        dump_dir_(c.dump_dir), trace_(c.trace), staging_(c.staging), unroll_(c.unroll),
        prefetch_threads_(c.prefetch_threads), prefill_(c.prefill) {}

  // The variant for this launch: memory, else disk, else JIT (then stored on disk).
  // staged: null when staging is off. args_size/args_align: the launch's; a disk entry
  // for another layout is rebuilt. from: where it was found; note: what the trace adds
  // (a disk entry rebuilt or not stored).
  // The caller's reference keeps the variant loaded even if it is evicted meanwhile.
  std::shared_ptr<cached_kernel> kernel_for(const void *entry, device &dev,
                                            const std::vector<std::uint64_t> *staged,
                                            std::size_t args_size, std::size_t args_align,
                                            origin &from, std::string &note);

  // What prefetch did: kernels made ready, by where they came from, and those whose
  // compilation failed (their launches will report it).
  struct prefetch_report {
    std::size_t kernels = 0, in_memory = 0, from_disk = 0, compiled = 0, failed = 0;
    std::string first_failure;
  };
  // Makes every registered kernel without staged values (with staging off: every
  // kernel) ready on dev, on `threads` threads (0: one per core): loaded from the disk
  // cache or JIT-compiled (and stored there). Each compilation has its own LLVMContext
  // (jit::compile); the cache's lock and each variant's once_flag make the threads'
  // work and concurrent launches' meet once per variant.
  // With PACXX_PREFILL=1 a prefetch (this one, or the first miss's) ends the process.
  prefetch_report prefetch(device &dev, std::size_t threads);

  // The disk cache's line for pacxx-info.
  std::string describe_disk() const { return disk_.describe(); }

private:
  counters &stats_;
  // A compiled kernel is one variant: (kernel, device, values of its pacxx::stage calls).
  struct variant_key {
    const void *entry;
    device *dev;
    std::vector<std::uint64_t> staged;
  };
  // A launch's key without copying its staged values (a lookup that finds the variant,
  // as almost every launch does, allocates nothing).
  struct variant_probe {
    const void *entry;
    device *dev;
    const std::uint64_t *staged;
    std::size_t count;
  };
  struct variant_less {
    using is_transparent = void;
    static variant_probe probe(const variant_key &k) {
      return {k.entry, k.dev, k.staged.data(), k.staged.size()};
    }
    static const variant_probe &probe(const variant_probe &p) { return p; }
    template <class A, class B> bool operator()(const A &a, const B &b) const {
      const variant_probe &x = probe(a), &y = probe(b);
      if (x.entry != y.entry)
        return std::less<const void *>()(x.entry, y.entry);
      if (x.dev != y.dev)
        return std::less<device *>()(x.dev, y.dev);
      return std::lexicographical_compare(x.staged, x.staged + x.count, y.staged,
                                          y.staged + y.count);
    }
  };
  // The variants of one kernel on one device, used most recently first.
  struct slot;
  using variant_map = std::map<variant_key, slot, variant_less>;
  using recency = std::list<variant_map::iterator>;
  struct slot {
    std::shared_ptr<cached_kernel> kernel;
    recency *group;             // the kernel's list in recency_
    recency::iterator in_group; // this variant in it
  };
  const std::size_t max_variants_;
  std::mutex cache_mutex_;
  variant_map cache_;
  std::map<std::pair<const void *, device *>, recency> recency_;
  disk_cache disk_;
  std::string dump_dir_;
  const bool trace_, staging_, unroll_;
  const std::size_t prefetch_threads_;
  const bool prefill_;
  std::atomic<bool> prefetched_{false}; // PACXX_PREFETCH / PACXX_PREFILL ran (or runs)

  // At the first miss: PACXX_PREFETCH's prefetch, or PACXX_PREFILL's.
  void prefetch_on_first_miss(device &dev);
  prefetch_report prefetch_all(device &dev, std::size_t threads);
  // PACXX_PREFILL's end: a summary line, then _exit.
  [[noreturn]] void end_prefill(device &dev, const prefetch_report &r);

  void load(cached_kernel &c, const void *entry, device &dev,
            const std::vector<std::uint64_t> *staged, std::size_t args_size, std::size_t args_align,
            origin &from, std::string &note);
  std::string cache_key(const registered_kernel &k, device &dev,
                        const std::vector<std::uint64_t> *staged) const;
};

} // namespace rt
} // namespace pacxx

#pragma GCC visibility pop

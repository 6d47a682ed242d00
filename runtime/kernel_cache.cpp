#include "kernel_cache.hpp"

#include "cache/kernel_entry.hpp"
#include "support/build_id.hpp"
#include "trace.hpp"

#include "llvm/Config/llvm-config.h"

#include "pacxx/error.hpp"

#include <optional>
#include <string_view>

namespace pacxx {
namespace rt {
namespace {

// A disk cache entry (cache/kernel_entry.hpp): what the launch needs to know of the
// kernel, then its binary.
std::string pack_entry(const jit::kernel_info &info, const std::string &binary) {
  return pack_kernel_entry({info.args_size, info.args_align, info.display, binary});
}

} // namespace

// Everything the binary depends on: versions, the device and its driver, the device
// code of the program, the kernel, its staged values and the options.
// The GNU build id of libpacxx itself (support/build_id.hpp): every rebuild of the JIT
// gets new cache keys, so no binary compiled by another build of it is ever reused.
std::string kernel_cache::cache_key(const registered_kernel &k, device &dev,
                                    const std::vector<std::uint64_t> *staged) const {
  static const std::string build = library_build_id();
  std::vector<std::string_view> parts = {"pacxx " PACXX_VERSION, build, "LLVM " LLVM_VERSION_STRING,
                                         dev.backend_name()};
  std::string name = dev.name(), arch = dev.arch(), driver = dev.driver_version();
  parts.insert(parts.end(), {name, arch, driver, k.entry});
  std::string values = staged ? std::string(reinterpret_cast<const char *>(staged->data()),
                                            staged->size() * sizeof(std::uint64_t))
                              : std::string("not staged");
  parts.push_back(values);
  for (std::string_view image : registry::get().program().images())
    parts.push_back(image);
  return cache_digest(parts);
}

// Loads (disk cache) or compiles a new variant, once however many threads ask.
void kernel_cache::load(cached_kernel &c, const void *entry, device &dev,
                        const std::vector<std::uint64_t> *staged, std::size_t args_size,
                        std::size_t args_align, origin &from, std::string &note) {
  cached_kernel *ck = &c;
  std::call_once(ck->once, [&] {
    const registered_kernel *k = registry::get().find(entry);
    // Disk cache (skipped when dumping: a dump needs the compilation).
    std::string key;
    if (disk_.enabled()) {
      key = cache_key(*k, dev, staged);
      std::optional<std::string> hit;
      if (dump_dir_.empty())
        hit = disk_.load(key, &note);
      std::string why;
      std::optional<kernel_entry> e;
      if (hit)
        e = unpack_kernel_entry(*hit, &why);
      // The key binds the entry to this kernel; its layout must still match the launch
      // (an entry is data from disk): any mismatch is a miss that recompiles and
      // replaces it, never an error on every run.
      if (e && (e->args_size != args_size || e->args_align != args_align)) {
        note = "disk cache entry is for " + std::to_string(e->args_size) +
               " bytes of arguments "
               "aligned to " +
               std::to_string(e->args_align) + ", the launch has " + std::to_string(args_size) +
               " aligned to " + std::to_string(args_align) + "; rebuilt";
        e.reset();
      } else if (hit && !e) {
        note = "disk cache entry malformed (" + why + "), rebuilt";
      }
      if (e) {
        try {
          ck->kernel = dev.load_binary(e->binary, jit::kernel_symbol);
          ck->info.args_size = e->args_size;
          ck->info.args_align = e->args_align;
          ck->info.display = std::move(e->display);
          stats_.disk_hits++;
          from = origin::disk;
          return;
        } catch (const error &err) { // e.g. a driver update: rebuild and replace it
          note = std::string("disk cache entry not loadable, rebuilt: ") + err.what();
        }
      }
    }
    jit::compiled_kernel c = jit::compile(registry::get().program(), k->module, k->entry,
                                          dev.target(), dev.arch(), staged);
    if (!dump_dir_.empty())
      dump(dump_dir_, c, dev, staged);
    std::string binary;
    try {
      binary = dev.build_binary(c.code);
      ck->kernel = dev.load_binary(binary, jit::kernel_symbol);
    } catch (const error &e) {
      throw error(std::string(e.what()) + "\n  (kernel '" + c.info.display + "')");
    }
    ck->info = c.info;
    if (disk_.enabled()) {
      std::string problem;
      if (!disk_.store(key, pack_entry(c.info, binary), &problem) && note.empty())
        note = "not stored in the disk cache: " + problem;
    }
    stats_.compilations++;
    from = origin::jit;
  });
  ck->ready.store(true, std::memory_order_release);
}

std::shared_ptr<kernel_cache::cached_kernel>
kernel_cache::kernel_for(const void *entry, device &dev, const std::vector<std::uint64_t> *staged,
                         std::size_t args_size, std::size_t args_align, origin &from,
                         std::string &note) {
  std::shared_ptr<cached_kernel> ck, evicted;
  {
    std::lock_guard<std::mutex> lock(cache_mutex_);
    const variant_probe probe{entry, &dev, staged ? staged->data() : nullptr,
                              staged ? staged->size() : 0};
    std::pair<variant_map::iterator, bool> found{cache_.find(probe), false};
    if (found.first == cache_.end())
      found = cache_.try_emplace({entry, &dev, staged ? *staged : std::vector<std::uint64_t>{}});
    slot &s = found.first->second;
    if (found.second) { // a new variant: first in its kernel's list; the last may go
      try {
        s.kernel = std::make_shared<cached_kernel>();
        s.group = &recency_[{entry, &dev}];
        s.group->push_front(found.first);
      } catch (...) {
        cache_.erase(found.first);
        throw;
      }
      s.in_group = s.group->begin();
      stats_.variants_loaded++;
      if (s.group->size() > max_variants_) {
        // Unloaded when its last launch has let go of it, outside the lock.
        variant_map::iterator oldest = s.group->back();
        s.group->pop_back();
        evicted = std::move(oldest->second.kernel);
        cache_.erase(oldest);
        stats_.variants_loaded--;
        stats_.evictions++;
      }
    } else if (s.in_group != s.group->begin()) {
      s.group->splice(s.group->begin(), *s.group, s.in_group);
    }
    ck = s.kernel;
  }
  const bool made_room = evicted != nullptr;
  evicted.reset();
  from = origin::memory;
  // Threads asking for the same new kernel wait for one compilation.
  if (!ck->ready.load(std::memory_order_acquire))
    load(*ck, entry, dev, staged, args_size, args_align, from, note);
  if (made_room)
    note += std::string(note.empty() ? "" : "; ") +
            "the variant of this kernel used longest ago was unloaded (at most " +
            std::to_string(max_variants_) + ", PACXX_KERNEL_VARIANTS)";
  return ck;
}

} // namespace rt
} // namespace pacxx

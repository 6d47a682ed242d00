#include "kernel_cache.hpp"

#include "cache/kernel_entry.hpp"
#include "support/build_id.hpp"
#include "trace.hpp"

#include "llvm/Config/llvm-config.h"

#include "pacxx/error.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string_view>
#include <thread>

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
// code of the program, the kernel, its staged values and the options (PACXX_UNROLL).
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
  parts.push_back(unroll_ ? "unrolled" : "not unrolled");
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
                                          dev.target(), dev.arch(), staged, unroll_);
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
  if (!ck->ready.load(std::memory_order_acquire)) {
    if ((prefetch_threads_ || prefill_) && !prefetched_.load(std::memory_order_relaxed))
      prefetch_on_first_miss(dev);
    load(*ck, entry, dev, staged, args_size, args_align, from, note);
  }
  if (made_room)
    note += std::string(note.empty() ? "" : "; ") +
            "the variant of this kernel used longest ago was unloaded (at most " +
            std::to_string(max_variants_) + ", PACXX_KERNEL_VARIANTS)";
  return ck;
}

kernel_cache::prefetch_report kernel_cache::prefetch(device &dev, std::size_t threads) {
  // The workers' own misses must not start PACXX_PREFETCH's prefetch again.
  prefetched_.store(true);
  if (prefill_) {
    if (!disk_.enabled())
      throw error("pacxx: PACXX_PREFILL=1 fills the disk cache, which is off (" + disk_.describe() +
                  ")");
    end_prefill(dev, prefetch_all(dev, threads));
  }
  return prefetch_all(dev, threads);
}

kernel_cache::prefetch_report kernel_cache::prefetch_all(device &dev, std::size_t threads) {
  struct task {
    const void *entry;
    jit::kernel_info info;
  };
  std::vector<task> tasks;
  {
    // The argument layout of each kernel, from its module's metadata (one parse per
    // module; the disk cache checks its entries against it).
    registry &reg = registry::get();
    std::map<std::size_t, std::map<std::string, jit::kernel_info>> layouts;
    for (const auto &k : reg.kernels()) {
      if (staging_ && !k.second->stages.empty())
        continue; // its variants depend on launches' values
      auto m = layouts.find(k.second->module);
      if (m == layouts.end()) {
        m = layouts.emplace(k.second->module, std::map<std::string, jit::kernel_info>()).first;
        for (jit::kernel_info &i : reg.program().kernels(k.second->module))
          m->second.emplace(i.entry, std::move(i));
      }
      auto i = m->second.find(k.second->entry);
      if (i != m->second.end())
        tasks.push_back({k.first, i->second});
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  prefetch_report report;
  report.kernels = tasks.size();
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, tasks.size());
  std::atomic<std::size_t> next{0};
  std::mutex report_mutex;
  const std::vector<std::uint64_t> none;
  auto work = [&] {
    for (std::size_t t; (t = next.fetch_add(1)) < tasks.size();) {
      origin from = origin::memory;
      std::string note, failure;
      try {
        kernel_for(tasks[t].entry, dev, staging_ ? &none : nullptr, tasks[t].info.args_size,
                   tasks[t].info.args_align, from, note);
      } catch (const std::exception &e) {
        failure = e.what();
      }
      std::lock_guard<std::mutex> lock(report_mutex);
      if (!failure.empty()) {
        // Not an error here: a kernel the program never launches may not compile
        // (the launch that needs one reports it).
        if (report.failed++ == 0)
          report.first_failure = failure;
      } else if (from == origin::jit) {
        report.compiled++;
      } else if (from == origin::disk) {
        report.from_disk++;
      } else {
        report.in_memory++;
      }
    }
  };
  std::vector<std::thread> pool;
  try {
    for (std::size_t i = 1; i < threads; ++i)
      pool.emplace_back(work);
  } catch (const std::system_error &) { // fewer threads than asked: the others do it
  }
  work();
  for (std::thread &t : pool)
    t.join();
  if (trace_)
    std::fprintf(stderr,
                 "pacxx: prefetch of %zu kernels without staged values on %zu threads in %.3f "
                 "ms: %zu compiled, %zu from disk cache, %zu loaded already, %zu failed\n",
                 report.kernels, pool.size() + 1, ms_since(t0), report.compiled, report.from_disk,
                 report.in_memory, report.failed);
  return report;
}

void kernel_cache::prefetch_on_first_miss(device &dev) {
  if (prefetched_.exchange(true))
    return; // another thread's miss started it (its kernels are compiled once anyway)
  prefetch(dev, prefetch_threads_);
}

void kernel_cache::end_prefill(device &dev, const prefetch_report &r) {
  std::fprintf(stderr,
               "pacxx: PACXX_PREFILL: %zu kernels without staged values for %s: %zu compiled "
               "and stored, %zu already in the disk cache, %zu failed%s%s\n  (%s)\n",
               r.kernels, dev.name().c_str(), r.compiled, r.from_disk, r.failed,
               r.failed ? "; the first: " : "", r.first_failure.c_str(), disk_.describe().c_str());
  std::fflush(stderr);
  // Ends here, at the program's first compilation or its pacxx::prefetch call: the run
  // was for the cache. _exit, as this may be inside a launch of any thread (no
  // destructors, no atexit); a store of another thread cut short leaves a temporary
  // file, never a partial entry (disk_cache stores by rename).
  _exit(r.failed ? 1 : 0);
}

} // namespace rt
} // namespace pacxx

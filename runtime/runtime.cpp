// The public entry of the runtime: the one runtime singleton and what pacxx's API and
// tools call on it (pacxx::synchronize, stats, detail::device_allocate and the copies,
// launch, scratch). The work is done by its units: devices.hpp (discovery, selection,
// memory pool), kernel_cache.hpp (memory -> disk -> JIT), launch.hpp (staged values,
// limit checks, backend launch), trace.hpp (PACXX_TRACE, PACXX_DUMP_DIR),
// support/build_id.hpp; config.hpp reads the environment.
#include "runtime.hpp"

#include "config.hpp"
#include "devices.hpp"
#include "kernel_cache.hpp"
#include "launch.hpp"
#include "memory/pool.hpp"
#include "stats.hpp"

#include "pacxx/error.hpp"
#include "pacxx/runtime.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace pacxx {
namespace rt {
namespace {

// The environment, read once. A malformed value is kept as the error, which
// device_selection::current() raises on first use of a device, before any setting is used.
struct loaded_configuration {
  configuration c;
  std::string error;
};
loaded_configuration load_configuration() {
  loaded_configuration l;
  try {
    l.c = read_configuration();
  } catch (const error &e) {
    l.error = e.what();
  }
  return l;
}

class runtime {
public:
  static runtime &get() {
    static runtime r;
    return r;
  }

  // Members in dependency order: the kernel cache (loaded kernels) is destroyed before
  // the device selection (pool, then devices).
  const loaded_configuration config = load_configuration();
  counters stats;
  device_selection devices{config.c, config.error};
  kernel_cache kernels{config.c, stats};
  launcher launches{devices, kernels, stats, config.c};

  device &current() { return devices.current(); }
  memory_pool &pool() { return devices.pool(); }

  std::string describe_configuration() const {
    if (!config.error.empty())
      throw error(config.error);
    const configuration &c = config.c;
    std::string s = "device: " + (c.device.empty() ? std::string("default") : c.device) + "\n";
    s += std::string("trace: ") + (c.trace ? "on" : "off") +
         ", staging: " + (c.staging ? "on" : "off") + "\n";
    s += "dump directory: " + (c.dump_dir.empty() ? std::string("none") : c.dump_dir) + "\n";
    s += "memory pool: " +
         (c.pool_mb ? "at most " + std::to_string(*c.pool_mb) + " MB"
                    : std::string("at most a quarter of the device's memory")) +
         "\n";
    return s + kernels.describe_disk() + "\n";
  }
};

} // namespace

std::vector<device_description> describe_devices(std::vector<std::string> &notes) {
  return runtime::get().devices.describe(notes);
}

std::string selected_device_id() {
  device_selection &d = runtime::get().devices;
  d.current();
  return d.current_id();
}

std::string describe_configuration() { return runtime::get().describe_configuration(); }

} // namespace rt

void synchronize() { rt::runtime::get().current().synchronize(); }

runtime_stats stats() {
  rt::counters &c = rt::runtime::get().stats;
  runtime_stats s;
  s.kernel_launches = c.launches;
  s.jit_compilations = c.compilations;
  s.memory_cache_hits = c.cache_hits;
  s.disk_cache_hits = c.disk_hits;
  s.device_allocations = c.allocations;
  s.pool_hits = c.pool_hits;
  s.bytes_to_device = c.to_device;
  s.bytes_to_host = c.to_host;
  return s;
}

void reset_stats() {
  rt::counters &c = rt::runtime::get().stats;
  c.launches = c.compilations = c.cache_hits = c.disk_hits = c.allocations = c.pool_hits =
      c.to_device = c.to_host = 0;
}

namespace detail {

void *device_allocate(std::size_t bytes) {
  rt::runtime &r = rt::runtime::get();
  bool reused = false;
  void *p = r.pool().allocate(bytes, reused);
  if (bytes) {
    r.stats.allocations++;
    if (reused)
      r.stats.pool_hits++;
  }
  return p;
}

void device_free(void *p) noexcept {
  if (!p)
    return;
  try {
    rt::runtime::get().pool().deallocate(p);
  } catch (...) { // no device: p cannot be ours
  }
}

void copy_to_device(void *dst, const void *src, std::size_t bytes) {
  rt::runtime &r = rt::runtime::get();
  r.current().copy_to_device(dst, src, bytes);
  r.stats.to_device += bytes;
}

void copy_to_host(void *dst, const void *src, std::size_t bytes) {
  rt::runtime &r = rt::runtime::get();
  r.current().copy_to_host(dst, src, bytes);
  r.stats.to_host += bytes;
}

void copy_on_device(void *dst, const void *src, std::size_t bytes) {
  rt::runtime::get().current().copy_on_device(dst, src, bytes);
}

void launch(const void *entry, const void *args, std::size_t size, std::size_t align,
            const launch_config &config) {
  rt::runtime::get().launches.launch(entry, args, size, align, config);
}

namespace {
// One buffer per host thread: algorithms on several threads never share it.
struct scratch_buffer {
  void *data = nullptr;
  std::size_t bytes = 0;
  ~scratch_buffer() { device_free(data); }
};
} // namespace

void *scratch(std::size_t bytes) {
  thread_local scratch_buffer buffer;
  if (bytes > buffer.bytes) {
    device_free(buffer.data);
    buffer.data = nullptr;
    buffer.bytes = 0;
    std::size_t grown = bytes < 4096 ? 4096 : bytes; // small reductions share one size
    buffer.data = device_allocate(grown);
    buffer.bytes = grown;
  }
  return buffer.data;
}

} // namespace detail
} // namespace pacxx

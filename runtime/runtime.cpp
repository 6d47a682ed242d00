// The runtime core: picks the device, owns the kernel cache, launches, counts.
#include "runtime.hpp"

#include "cache/disk_cache.hpp"
#include "cache/kernel_entry.hpp"
#include "config.hpp"
#include "jit/jit.hpp"
#include "memory/pool.hpp"
#include "registry.hpp"

#include "llvm/Config/llvm-config.h"

#include "pacxx/runtime.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <unistd.h>
#include <link.h>
#include <cstring>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <tuple>

namespace pacxx {
namespace rt {
namespace {

// The environment, read once. A malformed value is kept as the error, which
// current() raises on first use of a device, before any setting below is used.
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

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

struct counters {
  std::atomic<std::size_t> launches{0}, compilations{0}, cache_hits{0}, disk_hits{0},
      allocations{0}, pool_hits{0}, to_device{0}, to_host{0};
};

// A disk cache entry (cache/kernel_entry.hpp): what the launch needs to know of the
// kernel, then its binary.
std::string pack_entry(const jit::kernel_info &info, const std::string &binary) {
  return pack_kernel_entry({info.args_size, info.args_align, info.display, binary});
}

class runtime {
public:
  static runtime &get() {
    static runtime r;
    return r;
  }

  device &current() {
    std::call_once(select_once_, [this] { select(); });
    if (!current_)
      throw error(selection_error_);
    return *current_;
  }
  memory_pool &pool() {
    current();
    if (!pool_)
      throw error(selection_error_);
    return *pool_;
  }
  std::string current_id() {
    current();
    return current_id_;
  }

  counters stats;

  void launch(const void *entry, const void *args, std::size_t size, std::size_t align,
              const launch_config &cfg);

  std::string describe_configuration() const {
    if (!config_.error.empty())
      throw error(config_.error);
    const configuration &c = config_.c;
    std::string s = "device: " + (c.device.empty() ? std::string("default") : c.device) + "\n";
    s += std::string("trace: ") + (c.trace ? "on" : "off") + ", staging: " + (c.staging ? "on" : "off") + "\n";
    s += "dump directory: " + (c.dump_dir.empty() ? std::string("none") : c.dump_dir) + "\n";
    s += "memory pool: " + (c.pool_mb ? "at most " + std::to_string(*c.pool_mb) + " MB"
                                      : std::string("at most a quarter of the device's memory")) + "\n";
    return s + disk_.describe() + "\n";
  }

  std::vector<device_description> describe(std::vector<std::string> &notes) {
    discover();
    notes = notes_;
    std::vector<device_description> out;
    for (std::size_t i = 0; i < devices_.size(); ++i)
      out.push_back({ids_[i], devices_[i]->name(), devices_[i]->arch(),
                     devices_[i]->driver_version(), devices_[i]->memory_bytes()});
    return out;
  }

private:
  struct cached_kernel {
    std::once_flag once;
    std::unique_ptr<loaded_kernel> kernel;
    jit::kernel_info info;
  };
  enum class origin { memory, disk, jit };

  std::once_flag discover_once_, select_once_;
  std::vector<std::unique_ptr<device>> devices_;
  std::vector<std::string> ids_, notes_;
  device *current_ = nullptr;
  std::string current_id_, selection_error_;
  std::unique_ptr<memory_pool> pool_; // after devices_: destroyed before them
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
  const loaded_configuration config_ = load_configuration();
  bool trace_ = config_.c.trace;
  bool staging_ = config_.c.staging;
  disk_cache disk_{disk_cache::from_configuration(config_.c)};
  std::string dump_dir_ = config_.c.dump_dir;

  void discover() {
    std::call_once(discover_once_, [this] {
      auto add = [this](std::vector<std::unique_ptr<device>> found, const char *backend) {
        for (std::size_t i = 0; i < found.size(); ++i) {
          ids_.push_back(std::string(backend) + ":" + std::to_string(i));
          devices_.push_back(std::move(found[i]));
        }
      };
      add(discover_cuda(notes_), "cuda");
      add(discover_opencl(notes_), "opencl");
    });
  }

  std::string device_list() const {
    std::string s;
    for (std::size_t i = 0; i < devices_.size(); ++i)
      s += "\n  " + ids_[i] + "  " + devices_[i]->name();
    if (devices_.empty())
      s += "\n  (none)";
    for (const std::string &n : notes_)
      s += "\n  note: " + n;
    return s;
  }

  void select() {
    if (!config_.error.empty()) {
      selection_error_ = config_.error;
      return;
    }
    choose();
    if (!current_)
      return;
    // PACXX_POOL_MB bounds the unused device memory kept for reuse (0: none); default
    // a quarter of the device's memory.
    std::size_t max_cached = current_->memory_bytes() / 4;
    if (config_.c.pool_mb)
      max_cached = *config_.c.pool_mb << 20;
    pool_ = std::make_unique<memory_pool>(*current_, max_cached);
  }

  // PACXX_DEVICE=cuda|opencl[:index]; default: the first CUDA device, else OpenCL.
  void choose() {
    discover();
    if (config_.c.device_backend.empty()) {
      if (!devices_.empty()) {
        current_ = devices_[0].get(); // CUDA devices come first
        current_id_ = ids_[0];
      } else
        selection_error_ = "pacxx: no device found. Devices present:" + device_list();
      return;
    }
    const std::string &want = config_.c.device;
    std::string id = config_.c.device_backend + ":" + std::to_string(config_.c.device_index);
    for (std::size_t i = 0; i < devices_.size(); ++i)
      if (ids_[i] == id) {
        current_ = devices_[i].get();
        current_id_ = id;
        return;
      }
    selection_error_ = "pacxx: PACXX_DEVICE=" + want +
                       " names no device on this machine. Devices present:" + device_list();
  }

  // args_size/args_align: the launch's; a disk entry for another layout is rebuilt.
  cached_kernel &kernel_for(const void *entry, device &dev, const std::vector<std::uint64_t> *staged,
                            std::size_t args_size, std::size_t args_align, origin &from,
                            std::string &note);
  std::string cache_key(const registered_kernel &k, device &dev,
                        const std::vector<std::uint64_t> *staged) const;
  void dump(const jit::compiled_kernel &c, const device &dev,
            const std::vector<std::uint64_t> *staged) const;
  void check_limits(const launch_limits &l, const std::string &kernel,
                    const launch_config &cfg) const;
};

std::string file_stem(const jit::kernel_info &info) {
  std::string s;
  for (char c : info.display) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (ok)
      s += c;
    else if (!s.empty() && s.back() != '_')
      s += '_';
    if (s.size() > 60)
      break;
  }
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>()(info.entry));
  return s + hash;
}

// Writes one dump file. O_NOFOLLOW: a symbolic link planted under the expected name
// (the dump directory may be shared, e.g. under /tmp) is refused, never followed to
// overwrite whatever it points at.
static void write_dump_file(const std::string &path, const std::string &bytes) {
  auto fail = [&](const char *what) {
    const int e = errno;
    std::string why = e == ELOOP ? "it is a symbolic link, which pacxx does not follow"
                                 : std::strerror(e);
    return error("pacxx: PACXX_DUMP_DIR: cannot " + std::string(what) + " " + path + ": " + why);
  };
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    throw fail("create");
  for (std::size_t done = 0; done < bytes.size();) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error e = fail("write");
      ::close(fd);
      throw e;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0)
    throw fail("write"); // e.g. a deferred ENOSPC or EIO
}

void runtime::dump(const jit::compiled_kernel &c, const device &dev,
                   const std::vector<std::uint64_t> *staged) const {
  std::error_code ec;
  std::filesystem::create_directories(dump_dir_, ec);
  if (ec)
    throw error("pacxx: PACXX_DUMP_DIR: cannot create the directory " + dump_dir_ + ": " +
                ec.message());
  std::string stem = dump_dir_ + "/" + file_stem(c.info);
  if (staged && !staged->empty()) { // one file per variant
    char h[17];
    std::uint64_t x = 1469598103934665603ull;
    for (std::uint64_t v : *staged)
      x = (x ^ v) * 1099511628211ull;
    std::snprintf(h, sizeof h, "%016llx", static_cast<unsigned long long>(x));
    stem += std::string("-staged") + h;
  }
  bool spir = dev.target() == ir_target::spir;
  write_dump_file(stem + (spir ? ".spir.ll" : ".nvptx.ll"), c.ir);
  write_dump_file(stem + (spir ? ".spir.bc" : ".ptx"), c.code);
}

// Everything the binary depends on: versions, the device and its driver, the device
// code of the program, the kernel, its staged values and the options.
// The GNU build id of libpacxx itself: every rebuild of the JIT gets new cache keys,
// so no binary compiled by another build of it is ever reused.
static std::string library_build_id() {
  Dl_info self{};
  if (!dladdr(reinterpret_cast<void *>(&library_build_id), &self))
    return "unknown build";
  struct search {
    const void *base;
    std::string id;
  } s{self.dli_fbase, "unknown build"};
  dl_iterate_phdr(
      [](dl_phdr_info *info, std::size_t, void *data) {
        auto *s = static_cast<search *>(data);
        if (reinterpret_cast<const void *>(info->dlpi_addr) != s->base)
          return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE)
            continue;
          const char *p = reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
          const char *end = p + ph.p_memsz;
          while (p + sizeof(ElfW(Nhdr)) <= end) {
            auto *n = reinterpret_cast<const ElfW(Nhdr) *>(p);
            const char *name = p + sizeof(ElfW(Nhdr));
            const char *desc = name + ((n->n_namesz + 3) & ~3u);
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
              s->id.assign(desc, n->n_descsz);
              return 1;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &s);
  return s.id;
}

std::string runtime::cache_key(const registered_kernel &k, device &dev,
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

runtime::cached_kernel &runtime::kernel_for(const void *entry, device &dev,
                                            const std::vector<std::uint64_t> *staged,
                                            std::size_t args_size, std::size_t args_align,
                                            origin &from, std::string &note) {
  cached_kernel *ck;
  {
    std::lock_guard<std::mutex> lock(cache_mutex_);
    auto &slot = cache_[{entry, &dev, staged ? *staged : std::vector<std::uint64_t>{}}];
    if (!slot)
      slot.reset(new cached_kernel);
    ck = slot.get();
  }
  from = origin::memory;
  // Threads asking for the same new kernel wait for one compilation.
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
        note = "disk cache entry is for " + std::to_string(e->args_size) + " bytes of arguments "
               "aligned to " + std::to_string(e->args_align) + ", the launch has " +
               std::to_string(args_size) + " aligned to " + std::to_string(args_align) + "; rebuilt";
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
          stats.disk_hits++;
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
      dump(c, dev, staged);
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
    stats.compilations++;
    from = origin::jit;
  });
  return *ck;
}

static std::string triple(std::size_t x, std::size_t y, std::size_t z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

// Every launch is checked here, before the driver sees it: CUDA answers an over-limit
// launch with a bare error code, and PoCL asserts (ending the process) on too much
// local memory. The limits were queried when the kernel was loaded: no driver call.
void runtime::check_limits(const launch_limits &l, const std::string &kernel,
                           const launch_config &cfg) const {
  const dim &g = cfg.grid, &b = cfg.block;
  const std::string who = "pacxx: kernel '" + kernel + "' ";
  if (cfg.dynamic_shared_bytes > l.dynamic_shared)
    throw error(who + "asks for " + std::to_string(cfg.dynamic_shared_bytes) +
                " bytes of dynamic shared memory; " + current_id_ + " allows at most " +
                std::to_string(l.dynamic_shared) + " per block");
  // Per dimension first, so that the product below cannot overflow.
  if (b.x > l.block.x || b.y > l.block.y || b.z > l.block.z ||
      b.x * b.y * b.z > l.threads_per_block)
    throw error(who + "launched with block " + triple(b.x, b.y, b.z) + "; " + current_id_ +
                " allows at most " + std::to_string(l.threads_per_block) +
                " threads per block for this kernel and " + triple(l.block.x, l.block.y, l.block.z) +
                " per dimension");
  if (g.x > l.grid.x || g.y > l.grid.y || g.z > l.grid.z)
    throw error(who + "launched with grid " + triple(g.x, g.y, g.z) + "; " + current_id_ +
                " allows at most " + triple(l.grid.x, l.grid.y, l.grid.z) + " blocks per dimension");
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  if ((b.x && g.x > max / b.x) || (b.y && g.y > max / b.y) || (b.z && g.z > max / b.z))
    throw error(who + "launched with grid " + triple(g.x, g.y, g.z) + " and block " +
                triple(b.x, b.y, b.z) + ": grid * block threads in a dimension exceed " +
                std::to_string(max) + ", the most " + current_id_ + " can index");
}

void runtime::launch(const void *entry, const void *args, std::size_t size, std::size_t align,
                     const launch_config &cfg) {
  device &dev = current();
  auto t0 = std::chrono::steady_clock::now();
  const registered_kernel *k = registry::get().find(entry);
  if (!k)
    throw error("pacxx: launch of a kernel that no module registered; was its translation "
                "unit compiled with pacxx++?");
  // The host computes the kernel's staged values from this launch's arguments and shape.
  std::vector<std::uint64_t> staged;
  if (staging_)
    for (abi::stage_stub stub : k->stages)
      staged.push_back(stub(args, &cfg));
  origin from;
  std::string note;
  cached_kernel &ck = kernel_for(entry, dev, staging_ ? &staged : nullptr, size, align, from, note);
  if (from == origin::memory)
    stats.cache_hits++;
  double compile_ms = ms_since(t0);
  if (ck.info.args_size != size || ck.info.args_align != align)
    throw error("pacxx: kernel '" + ck.info.display + "' was compiled for " +
                std::to_string(ck.info.args_size) + " bytes of arguments but launched with " +
                std::to_string(size));
  const dim &g = cfg.grid, &b = cfg.block;
  if (b.x == 0 || b.y == 0 || b.z == 0)
    throw error("pacxx: kernel '" + ck.info.display + "' launched with an empty block");
  check_limits(ck.kernel->limits, ck.info.display, cfg);
  auto t1 = std::chrono::steady_clock::now();
  if (g.x && g.y && g.z) { // an empty grid has nothing to run
    try {
      dev.launch(*ck.kernel, {g.x, g.y, g.z}, {b.x, b.y, b.z}, cfg.dynamic_shared_bytes, args, size);
    } catch (const error &e) {
      throw error(std::string(e.what()) + "\n  (kernel '" + ck.info.display + "')");
    }
    stats.launches++;
  }
  if (trace_) {
    static const char *const how[] = {"cached, lookup", "from disk cache in", "compiled in"};
    std::string values;
    for (std::uint64_t v : staged)
      values += (values.empty() ? " staged " : ",") + std::to_string(static_cast<long long>(v));
    std::fprintf(stderr,
                 "pacxx: launch '%s' grid (%zu,%zu,%zu) block (%zu,%zu,%zu) shared %zu on %s:%s "
                 "%s %.3f ms, launch %.3f ms%s%s\n",
                 ck.info.display.c_str(), g.x, g.y, g.z, b.x, b.y, b.z, cfg.dynamic_shared_bytes,
                 current_id_.c_str(), values.c_str(), how[static_cast<int>(from)], compile_ms,
                 ms_since(t1), note.empty() ? "" : "; ", note.c_str());
  }
}

} // namespace

std::vector<device_description> describe_devices(std::vector<std::string> &notes) {
  return runtime::get().describe(notes);
}

std::string selected_device_id() { return runtime::get().current_id(); }

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
  c.launches = c.compilations = c.cache_hits = c.disk_hits = c.allocations = c.pool_hits = c.to_device =
      c.to_host = 0;
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
  rt::runtime::get().launch(entry, args, size, align, config);
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

#include "launch.hpp"
#include "tools.hpp"

#include "registry.hpp"
#include "trace.hpp"

#include "pacxx/error.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace pacxx {
namespace rt {
namespace {

std::string triple(std::size_t x, std::size_t y, std::size_t z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

} // namespace

// Every launch is checked here, before the driver sees it: CUDA answers an over-limit
// launch with a bare error code, and PoCL asserts (ending the process) on too much
// local memory. The limits were queried when the kernel was loaded: no driver call.
void launcher::check_limits(const launch_limits &l, const std::string &kernel,
                            const launch_config &cfg) const {
  const std::string &id = devices_.current_id();
  const dim &g = cfg.grid, &b = cfg.block;
  // Only the error paths build strings: this runs on every launch.
  auto who = [&] { return "pacxx: kernel '" + kernel + "' "; };
  if (cfg.dynamic_shared_bytes > l.dynamic_shared)
    throw error(who() + "asks for " + std::to_string(cfg.dynamic_shared_bytes) +
                " bytes of dynamic shared memory; " + id + " allows at most " +
                std::to_string(l.dynamic_shared) + " per block");
  // Per dimension first, so that the product below cannot overflow.
  if (b.x > l.block.x || b.y > l.block.y || b.z > l.block.z ||
      b.x * b.y * b.z > l.threads_per_block)
    throw error(who() + "launched with block " + triple(b.x, b.y, b.z) + "; " + id +
                " allows at most " + std::to_string(l.threads_per_block) +
                " threads per block for this kernel and " +
                triple(l.block.x, l.block.y, l.block.z) + " per dimension");
  if (g.x > l.grid.x || g.y > l.grid.y || g.z > l.grid.z)
    throw error(who() + "launched with grid " + triple(g.x, g.y, g.z) + "; " + id +
                " allows at most " + triple(l.grid.x, l.grid.y, l.grid.z) +
                " blocks per dimension");
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  if ((b.x && g.x > max / b.x) || (b.y && g.y > max / b.y) || (b.z && g.z > max / b.z))
    throw error(who() + "launched with grid " + triple(g.x, g.y, g.z) + " and block " +
                triple(b.x, b.y, b.z) + ": grid * block threads in a dimension exceed " +
                std::to_string(max) + ", the most " + id + " can index");
}

const char *graph_command::what() const {
  switch (kind) {
  case kernel:
    return "a kernel launch";
  case copy:
    return "a copy on the device";
  case fill:
    return "a fill of device memory";
  case upload:
    return "a copy to the device";
  case download:
    return "a copy to the host";
  }
  return "?";
}

void graph_command::issue(device &dev, void *queue) const {
  switch (kind) {
  case kernel:
    try {
      dev.launch(*variant->kernel, grid, block, shared, args.data(), args_size, queue);
    } catch (const error &e) {
      throw error(std::string(e.what()) + "\n  (kernel '" + variant->info.display +
                  "', replayed by a pacxx::graph)");
    }
    return;
  case copy:
    dev.copy_on_device(dst, src, bytes, queue);
    return;
  case fill:
    dev.fill_on_device(dst, byte, bytes, queue);
    return;
  case upload:
    dev.copy_to_device(dst, src, bytes, queue, true);
    return;
  case download:
    dev.copy_to_host(dst, src, bytes, queue, true);
    return;
  }
}

void launcher::launch(const void *entry, const void *args, std::size_t size, std::size_t align,
                      const launch_config &cfg, void *queue, std::vector<graph_command> *record) {
  device &dev = devices_.current();
  // Timed for PACXX_TRACE only (its lines or its timeline): reading the clock cost about
  // as much as the rest of the runtime's work for a launch whose kernel is loaded (perf
  // on the build machine).
  using clock = std::chrono::steady_clock;
  const bool timed = trace_ || events_.on();
  const clock::time_point t0 = timed ? clock::now() : clock::time_point();
  const registered_kernel *k = registry::get().find(entry);
  if (!k)
    throw error("pacxx: launch of a kernel that no module registered; was its translation "
                "unit compiled with pacxx++?");
  // The host computes the kernel's staged values from this launch's arguments and shape.
  // Reused by this thread's launches (cleared, its capacity kept): no allocation for
  // the staged values of a launch, which the kernel cache looks up without copying.
  __attribute__((tls_model("initial-exec"))) thread_local std::vector<std::uint64_t> staged;
  staged.clear();
  if (staging_)
    for (abi::stage_stub stub : k->stages)
      staged.push_back(stub(args, &cfg));
  kernel_cache::origin from;
  std::string note;
  // Held until the launch is issued: an eviction by another thread cannot unload it.
  std::shared_ptr<kernel_cache::cached_kernel> held =
      kernels_.kernel_for(entry, dev, staging_ ? &staged : nullptr, size, align, from, note);
  kernel_cache::cached_kernel &ck = *held;
  if (from == kernel_cache::origin::memory)
    stats_.cache_hits++;
  const double compile_ms = trace_ ? ms_since(t0) : 0;
  if (ck.info.args_size != size || ck.info.args_align != align)
    throw error("pacxx: kernel '" + ck.info.display + "' was compiled for " +
                std::to_string(ck.info.args_size) + " bytes of arguments but launched with " +
                std::to_string(size));
  const dim &g = cfg.grid, &b = cfg.block;
  if (b.x == 0 || b.y == 0 || b.z == 0)
    throw error("pacxx: kernel '" + ck.info.display + "' launched with an empty block");
  check_limits(ck.kernel->limits, ck.info.display, cfg);
  const clock::time_point t1 = timed ? clock::now() : clock::time_point();
  if (record) {
    if (g.x && g.y && g.z) {
      graph_command c;
      c.kind = graph_command::kernel;
      c.variant = std::move(held);
      c.grid = {g.x, g.y, g.z};
      c.block = {b.x, b.y, b.z};
      c.shared = cfg.dynamic_shared_bytes;
      c.args.resize((size + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
      std::memcpy(c.args.data(), args, size);
      c.args_size = size;
      record->push_back(std::move(c));
    }
    if (trace_)
      trace_launch(ck.info.display, cfg, devices_.current_id(), staged, from, compile_ms, t1,
                   note.empty() ? "captured by pacxx::capture" : note + "; captured");
    // A capture compiles or loads its kernels (the replays are not in the timeline).
    if (events_.on() && from != kernel_cache::origin::memory)
      events_.range(from == kernel_cache::origin::disk ? "disk cache" : "jit", ck.info.display,
                    queue, t0, t1, "\"captured\": true");
    return;
  }
  if (g.x && g.y && g.z) { // an empty grid has nothing to run
    // Tools and NVTX (tools.hpp): one relaxed load when none listens.
    tools::range_info ti{tools::event::launch, ck.info.display.c_str(),
                         g.x * g.y * g.z * b.x * b.y * b.z, queue, 0};
    const bool tooled = tools_on();
    if (tooled)
      tool_begin(ti);
    // The timeline's device times: markers around the launch (timeline.hpp).
    void *m0 = events_.on() ? dev.timing_marker(queue) : nullptr;
    try {
      dev.launch(*ck.kernel, {g.x, g.y, g.z}, {b.x, b.y, b.z}, cfg.dynamic_shared_bytes, args, size,
                 queue);
    } catch (const error &e) {
      dev.release_timing_marker(m0);
      if (tooled)
        tool_end(ti);
      throw error(std::string(e.what()) + "\n  (kernel '" + ck.info.display + "')");
    }
    if (m0)
      events_.device_range("kernel", ck.info.display, queue, dev, m0, dev.timing_marker(queue), "");
    if (tooled)
      tool_end(ti);
    stats_.launches++;
  }
  if (trace_)
    trace_launch(ck.info.display, cfg, devices_.current_id(), staged, from, compile_ms, t1, note);
  if (events_.on()) {
    // The variant's compilation or load from the disk cache, then the launch; the key
    // (the variant) is the queue's: the track is that of the queue launched on.
    if (from != kernel_cache::origin::memory)
      events_.range(from == kernel_cache::origin::disk ? "disk cache" : "jit", ck.info.display,
                    queue, t0, t1, "");
    events_.range("launch", ck.info.display, queue, t1, timeline::clock::now(),
                  "\"grid\": [" + std::to_string(g.x) + ", " + std::to_string(g.y) + ", " +
                      std::to_string(g.z) + "], \"block\": [" + std::to_string(b.x) + ", " +
                      std::to_string(b.y) + ", " + std::to_string(b.z) +
                      "], \"dynamic_shared_bytes\": " + std::to_string(cfg.dynamic_shared_bytes));
  }
}

} // namespace rt
} // namespace pacxx

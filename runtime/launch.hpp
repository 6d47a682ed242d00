// Launch: a kernel's staged values from its host stubs, the variant from the kernel
// cache, the checks against the kernel's and device's limits, the backend launch, the
// counters, and the trace line. Owned by the runtime singleton (runtime.cpp).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "config.hpp"
#include "devices.hpp"
#include "kernel_cache.hpp"
#include "stats.hpp"
#include "timeline.hpp"

#include "pacxx/runtime.hpp"

// Internal to libpacxx: not exported (exports.map exports pacxx::*), so calls between
// the runtime's units bind directly, as they did inside one file.
#pragma GCC visibility push(hidden)

namespace pacxx {
namespace rt {

// One operation of a pacxx::graph, recorded by pacxx::capture with everything a replay
// needs ready: the loaded kernel variant (held, so that the kernel cache cannot unload
// it while the graph lives), the checked shape and the argument bytes.
struct graph_command {
  enum kind_t { kernel, copy, fill, upload, download } kind = kernel;
  std::shared_ptr<kernel_cache::cached_kernel> variant;
  dim3 grid, block;
  std::size_t shared = 0;
  std::vector<std::max_align_t> args; // the payload, aligned for any type
  std::size_t args_size = 0;
  void *dst = nullptr;       // copy, fill, upload
  const void *src = nullptr; // copy; upload: pinned host memory owned by the graph
                             // (download: dst is pinned host memory the graph holds)
  std::size_t bytes = 0;
  unsigned char byte = 0; // fill

  // What pacxx::graph::update compares: the operation and, for a kernel, which one.
  const char *what() const;
  // Enqueues the operation on `queue` (a native queue) of dev.
  void issue(device &dev, void *queue) const;
};

class launcher {
public:
  launcher(device_selection &devices, kernel_cache &kernels, counters &stats, timeline &events,
           const configuration &c)
      : devices_(devices), kernels_(kernels), stats_(stats), events_(events), trace_(c.trace),
        staging_(c.staging) {}

  // entry: the kernel's host entry address; args: size bytes aligned to align; queue:
  // a native queue, null for the device's default queue. record: where pacxx::capture
  // keeps the launch instead of issuing it (queue is then unused).
  void launch(const void *entry, const void *args, std::size_t size, std::size_t align,
              const launch_config &cfg, void *queue, std::vector<graph_command> *record = nullptr);

private:
  device_selection &devices_;
  kernel_cache &kernels_;
  counters &stats_;
  timeline &events_;
  bool trace_, staging_;

  void check_limits(const launch_limits &l, const std::string &kernel,
                    const launch_config &cfg) const;
};

} // namespace rt
} // namespace pacxx

#pragma GCC visibility pop

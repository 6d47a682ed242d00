// Launch: a kernel's staged values from its host stubs, the variant from the kernel
// cache, the checks against the kernel's and device's limits, the backend launch, the
// counters, and the trace line. Owned by the runtime singleton (runtime.cpp).
#pragma once
#include <cstddef>
#include <string>

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

class launcher {
public:
  launcher(device_selection &devices, kernel_cache &kernels, counters &stats, timeline &events,
           const configuration &c)
      : devices_(devices), kernels_(kernels), stats_(stats), events_(events), trace_(c.trace),
        staging_(c.staging) {}

  // entry: the kernel's host entry address; args: size bytes aligned to align; queue:
  // a native queue, null for the device's default queue.
  void launch(const void *entry, const void *args, std::size_t size, std::size_t align,
              const launch_config &cfg, void *queue);

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

// Trace and dump: the PACXX_TRACE line printed for each launch, and the files written
// under PACXX_DUMP_DIR for each compilation (final LLVM IR and PTX or SPIR).
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "jit/jit.hpp"
#include "kernel_cache.hpp"

#include "pacxx/runtime.hpp"

// Internal to libpacxx: not exported (exports.map exports pacxx::*), so calls between
// the runtime's units bind directly, as they did inside one file.
#pragma GCC visibility push(hidden)

namespace pacxx {
namespace rt {

inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Writes the kernel's IR and code into dir (created if missing), one pair of files per
// variant; throws pacxx::error naming the file that could not be written.
void dump(const std::string &dir, const jit::compiled_kernel &c, const device &dev,
          const std::vector<std::uint64_t> *staged);

// The trace line of one launch on stderr. compile_ms: the kernel look-up; launched: when
// the launch began (the line gives the time since).
void trace_launch(const std::string &kernel, const launch_config &cfg, const std::string &device_id,
                  const std::vector<std::uint64_t> &staged, kernel_cache::origin from,
                  double compile_ms, std::chrono::steady_clock::time_point launched,
                  const std::string &note);

} // namespace rt
} // namespace pacxx

#pragma GCC visibility pop

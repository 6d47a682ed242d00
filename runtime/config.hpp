// The runtime's configuration: the only place that reads PACXX_* variables (and
// XDG_CACHE_HOME / HOME for the cache's default directory).
//
// One rule for every variable: unset or empty means the default; any other value
// must be well formed, and a malformed one is a pacxx::error naming the variable, the
// value and what is accepted, never a silent default (a typo such as PACXX_TRACE=yes
// or PACXX_CACHE_MAX_MB=1G would otherwise go unnoticed). Every malformed variable is
// reported at once, one line each, so fixing the environment takes one round.
//
// Accepted values (the rules for switches and megabytes are support/environment.hpp's,
// which the compiler plugin follows too):
//   switches (PACXX_TRACE, PACXX_STAGING, PACXX_CACHE)  exactly 0 or 1; no yes/on/true,
//       so that there is one spelling to document, test and grep for
//   PACXX_TRACE also takes timeline:FILE (a trace-event file, timeline.hpp) instead
//   megabytes (PACXX_POOL_MB, PACXX_CACHE_MAX_MB)      decimal digits, 0 included,
//       at most what fits in bytes (size_t / uint64_t); no sign, unit or spaces
//   counts (PACXX_KERNEL_VARIANTS)                     decimal digits, from 1 to 1000000
//   PACXX_PREFETCH      threads, decimal digits from 0 to 1024 (0: off)
//   PACXX_PREFILL       a switch
//   PACXX_DEVICE        cuda or opencl, optionally :index (decimal)
//   PACXX_DUMP_DIR, PACXX_CACHE_DIR, PACXX_TUNE_REPORT  any path
//   PACXX_TUNE          0 (built-in policies), 1 (stored tuning results, the default) or
//       explore (explore what is not stored yet; runtime/tune/tune.hpp)
//   PACXX_TUNE_BUDGET_MS  decimal digits, from 1 to 86400000: an exploration's time
//   PACXX_TOOLS_LIBRARY  a tool's shared library (pacxx/tools.hpp), as dlopen takes it
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace pacxx::rt {

struct configuration {
  // PACXX_DEVICE as written, and parsed; an empty backend means the default device
  // (the first CUDA device, else OpenCL).
  std::string device, device_backend;
  std::size_t device_index = 0;
  bool trace = false;        // PACXX_TRACE
  std::string timeline;      // PACXX_TRACE=timeline:FILE; empty: no timeline
  bool staging = true;       // PACXX_STAGING
  bool unroll = true;        // PACXX_UNROLL: the JIT unrolls loops
  std::string dump_dir;      // PACXX_DUMP_DIR; empty: no dumps
  std::string tools_library; // PACXX_TOOLS_LIBRARY; empty: none
  // PACXX_POOL_MB; nullopt: the runtime's default (a quarter of the device's memory).
  std::optional<std::size_t> pool_mb;
  bool cache = true; // PACXX_CACHE
  // $PACXX_CACHE_DIR, else $XDG_CACHE_HOME/pacxx (absolute only, as the XDG spec
  // says), else $HOME/.cache/pacxx; empty when none is set (cache_dir_why says so).
  std::string cache_dir, cache_dir_why;
  std::optional<std::uint64_t> cache_max_mb; // PACXX_CACHE_MAX_MB
  // PACXX_KERNEL_VARIANTS: the most variants (sets of staged values) of one kernel kept
  // loaded in memory per device; past it the one used longest ago is unloaded.
  std::size_t kernel_variants = default_kernel_variants;
  // PACXX_PREFETCH=N: at the program's first kernel compilation, every kernel without
  // staged values is compiled (or loaded from the disk cache) on N threads, as
  // pacxx::prefetch(N) does; 0 (the default): each kernel when first launched.
  std::size_t prefetch_threads = 0;
  // PACXX_PREFILL=1: at the first kernel compilation, prefetch into the disk cache
  // (on PACXX_PREFETCH threads, else one per core), print what was done and end the
  // process (exit status 0, or 1 if a kernel failed to compile).
  bool prefill = false;
  static constexpr std::size_t max_prefetch_threads = 1024;
  // PACXX_TUNE: 0 built-in policies, 1 stored results, 2 explore (runtime/tune/).
  int tune = 1;
  // PACXX_TUNE_BUDGET_MS: the time one exploration (a kernel family, device and size
  // class) may take before it stops timing further candidates. JIT compilations count:
  // PoCL compiles a candidate in about 0.5 s, the CUDA path in about 25 ms.
  std::uint64_t tune_budget_ms = default_tune_budget_ms;
  static constexpr std::uint64_t default_tune_budget_ms = 10000;
  // PACXX_TUNE_REPORT: a file every tuning decision of the process is appended to (the
  // record as text); empty: none. pacxx-tune sets it.
  std::string tune_report;
  static constexpr std::size_t default_kernel_variants = 256, max_kernel_variants = 1000000;
};

// How a variable is looked up: returns nullptr when unset (std::getenv by default;
// tests pass a map).
using env_lookup = std::function<const char *(const char *name)>;

// Reads and checks every variable; throws pacxx::error listing every malformed one.
// Reads the environment anew on each call (the runtime calls it once per process).
configuration read_configuration(const env_lookup &lookup = {});

// The parsers behind it, for tests and for the rare caller that needs one variable.
// `name` and `value` appear in the error message.
bool parse_switch(const char *name, const std::string &value);
std::uint64_t parse_megabytes(const char *name, const std::string &value, std::uint64_t max_mb);
std::uint64_t parse_count(const char *name, const std::string &value, std::uint64_t min,
                          std::uint64_t max);

} // namespace pacxx::rt

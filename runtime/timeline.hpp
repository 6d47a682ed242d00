// PACXX_TRACE=timeline:FILE: what the runtime did, as a Chrome trace-event file (opens
// in Perfetto and chrome://tracing): one track per queue (the default queue and each
// pacxx::queue in the order they were first used) with a range for every kernel launch
// (the kernel named as the PACXX_TRACE line names it), its JIT compilation or disk-cache
// load, every copy and every device allocation, with
// sizes. Times are the host's: a launch's range is the time to issue it, not the
// kernel's time on the device (launches are asynchronous; a copy back to the host waits
// for the kernels before it, so the wait shows in the copy's range).
//
// Events are kept in memory and the file is written once, when the runtime shuts down
// at the program's exit; a program that dies before has no file.
#pragma once
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

// Internal to libpacxx: not exported (exports.map exports pacxx::*).
#pragma GCC visibility push(hidden)

namespace pacxx {
namespace rt {

class timeline {
public:
  using clock = std::chrono::steady_clock;
  // path: the file to write; empty: off, and every call below returns at once.
  explicit timeline(std::string path);
  ~timeline(); // writes the file (a failure is one line on stderr: no exceptions at exit)
  timeline(const timeline &) = delete;
  timeline &operator=(const timeline &) = delete;

  bool on() const { return !path_.empty(); }
  // A range [begin, end) on queue's track (null: the default queue). cat: launch, jit,
  // disk cache, copy, allocation. args: JSON members without braces ("\"bytes\": 4"), or "".
  void range(const char *cat, const std::string &name, const void *queue, clock::time_point begin,
             clock::time_point end, const std::string &args);

  // The file's text so far (the tests read it without a process exit).
  std::string json();

private:
  const std::string path_;
  const clock::time_point start_ = clock::now();
  std::mutex mutex_;
  std::vector<std::string> events_;
  std::unordered_map<const void *, int> tracks_; // queue -> tid, in order of first use
};

// name as a JSON string literal, quotes included.
std::string json_string(const std::string &name);

} // namespace rt
} // namespace pacxx

#pragma GCC visibility pop

// PACXX_TRACE=timeline:FILE: what the runtime did, as a Chrome trace-event file (opens
// in Perfetto and chrome://tracing): one track per queue (the default queue and each
// pacxx::queue in the order they were first used) with a range for every kernel launch
// (the kernel named as the PACXX_TRACE line names it), its JIT compilation or disk-cache
// load, every copy and every device allocation, with sizes. Those times are the host's:
// a launch's range is the time to issue it (launches are asynchronous; a copy back to
// the host waits for the kernels before it, so the wait shows in the copy's range).
// Where the backend has timing markers (CUDA events with timing, OpenCL profiling
// queues) each queue has a second track, "(device)", with the kernels and graph replays
// as the device ran them: markers recorded before and after each, read when the runtime
// shuts down (or every max_pending launches, which waits for the device then), placed
// on the host's clock through one anchor marker that the host waited for at the first
// launch.
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

class device;

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

  // Device times: from and to are timing markers of dev (device::timing_marker) recorded
  // on queue around the work; the timeline owns them (null ones: the call does nothing
  // but release the other). cat: kernel, graph.
  void device_range(const char *cat, const std::string &name, const void *queue, device &dev,
                    void *from, void *to, const std::string &args);
  // Reads the pending markers (waits for the device) and releases them; the runtime
  // calls it before its devices go. Errors (a failed device) drop the device ranges.
  void resolve() noexcept;

  // The file's text so far (the tests read it without a process exit).
  std::string json();

private:
  struct pending {
    const char *cat;
    std::string name, args;
    const void *queue;
    void *from, *to;
  };
  static constexpr std::size_t max_pending = 1 << 16;
  void resolve_locked() noexcept;

  const std::string path_;
  const clock::time_point start_ = clock::now();
  std::mutex mutex_;
  std::vector<std::string> events_;
  std::unordered_map<const void *, int> tracks_; // queue -> tid, in order of first use
  // Device tracks: queue -> tid (device_tid_base + n).
  static constexpr int device_tid_base = 1000;
  std::unordered_map<const void *, int> device_tracks_;
  std::vector<pending> pending_;
  device *dev_ = nullptr;
  void *anchor_ = nullptr; // the first marker; the host waited for it at anchor_host_
  clock::time_point anchor_host_;
  int track_locked(const void *queue);
};

// name as a JSON string literal, quotes included.
std::string json_string(const std::string &name);

} // namespace rt
} // namespace pacxx

#pragma GCC visibility pop

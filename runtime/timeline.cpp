#include "timeline.hpp"

#include "backends/backend.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <utility>

namespace pacxx {
namespace rt {

std::string json_string(const std::string &name) {
  std::string s = "\"";
  for (char ch : name) {
    unsigned char u = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      s += '\\';
      s += ch;
    } else if (u < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", u);
      s += esc;
    } else {
      s += ch;
    }
  }
  return s + "\"";
}

timeline::timeline(std::string path) : path_(std::move(path)) {}

void timeline::range(const char *cat, const std::string &name, const void *queue,
                     clock::time_point begin, clock::time_point end, const std::string &args) {
  if (!on())
    return;
  using us = std::chrono::duration<double, std::micro>;
  char times[96];
  std::snprintf(times, sizeof times, "\"ts\": %.3f, \"dur\": %.3f", us(begin - start_).count(),
                us(end - begin).count());
  std::lock_guard<std::mutex> lock(mutex_);
  const int track = track_locked(queue);
  events_.push_back(
      "{\"name\": " + json_string(name) + ", \"cat\": " + json_string(cat) + ", \"ph\": \"X\", " +
      times + ", \"pid\": 1, \"tid\": " + std::to_string(track) + ", \"args\": {" + args + "}}");
}

int timeline::track_locked(const void *queue) {
  return tracks_.emplace(queue, static_cast<int>(tracks_.size())).first->second;
}

void timeline::device_range(const char *cat, const std::string &name, const void *queue,
                            device &dev, void *from, void *to, const std::string &args) {
  if (!from || !to) {
    dev.release_timing_marker(from);
    dev.release_timing_marker(to);
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  dev_ = &dev;
  if (!anchor_) {
    // The host's clock for the device's: the host waits for the first marker once.
    try {
      dev.wait_event(from);
    } catch (...) {
    }
    anchor_ = from;
    anchor_host_ = clock::now();
  }
  track_locked(queue); // the host track first: the device track is named after it
  if (device_tracks_.find(queue) == device_tracks_.end())
    device_tracks_.emplace(queue, device_tid_base + static_cast<int>(device_tracks_.size()));
  pending_.push_back(pending{cat, name, args, queue, from, to});
  if (pending_.size() >= max_pending)
    resolve_locked();
}

void timeline::resolve() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!dev_)
    return;
  resolve_locked();
  dev_->release_timing_marker(anchor_);
  anchor_ = nullptr;
}

void timeline::resolve_locked() noexcept {
  using us = std::chrono::duration<double, std::micro>;
  bool failed = false;
  for (pending &p : pending_) {
    if (!failed) {
      try {
        const double b = dev_->timing_ms(anchor_, p.from), e = dev_->timing_ms(anchor_, p.to);
        const double ts = us(anchor_host_ - start_).count() + b * 1e3;
        char times[96];
        std::snprintf(times, sizeof times, "\"ts\": %.3f, \"dur\": %.3f", ts,
                      e > b ? (e - b) * 1e3 : 0.0);
        events_.push_back("{\"name\": " + json_string(p.name) + ", \"cat\": " + json_string(p.cat) +
                          ", \"ph\": \"X\", " + times +
                          ", \"pid\": 1, \"tid\": " + std::to_string(device_tracks_[p.queue]) +
                          ", \"args\": {" + p.args + "}}");
      } catch (...) {
        failed = true; // a failed device: no more times from it
      }
    }
    if (p.from != anchor_)
      dev_->release_timing_marker(p.from);
    dev_->release_timing_marker(p.to);
  }
  pending_.clear();
}

std::string timeline::json() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string s = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  s += "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": \"pacxx\"}}";
  // One named track per queue: Perfetto and chrome://tracing show thread names.
  for (const auto &t : tracks_)
    s += ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": " +
         std::to_string(t.second) + ", \"args\": {\"name\": " +
         json_string(t.first ? "queue " + std::to_string(t.second) : "default queue") + "}}";
  for (const auto &t : device_tracks_)
    s += ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": " +
         std::to_string(t.second) + ", \"args\": {\"name\": " +
         json_string((t.first ? "queue " + std::to_string(tracks_[t.first]) : "default queue") +
                     " (device)") +
         "}}";
  for (const std::string &e : events_)
    s += ",\n" + e;
  return s + "\n]}\n";
}

timeline::~timeline() {
  if (!on())
    return;
  std::ofstream out(path_, std::ios::binary | std::ios::trunc);
  out << json();
  out.close();
  if (!out)
    std::fprintf(stderr, "pacxx: PACXX_TRACE=timeline:%s: cannot write the file (%s)\n",
                 path_.c_str(), std::strerror(errno));
}

} // namespace rt
} // namespace pacxx

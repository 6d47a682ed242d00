#include "timeline.hpp"

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
  auto track = tracks_.emplace(queue, static_cast<int>(tracks_.size())).first->second;
  events_.push_back(
      "{\"name\": " + json_string(name) + ", \"cat\": " + json_string(cat) + ", \"ph\": \"X\", " +
      times + ", \"pid\": 1, \"tid\": " + std::to_string(track) + ", \"args\": {" + args + "}}");
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

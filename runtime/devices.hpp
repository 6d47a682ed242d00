// Device discovery and selection: the devices of every backend on this machine, their
// ids ("cuda:0", "opencl:1") and the notes of backends that offer none, the choice
// PACXX_DEVICE makes (or the default), and the memory pool of the chosen device.
// Owned by the runtime singleton (runtime.cpp); discovery and selection run once.
#pragma once
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "config.hpp"
#include "memory/pool.hpp"
#include "runtime.hpp"

#include "pacxx/error.hpp"

// Internal to libpacxx: not exported (exports.map exports pacxx::*), so calls between
// the runtime's units bind directly, as they did inside one file.
#pragma GCC visibility push(hidden)

namespace pacxx {
namespace rt {

// Set before the first backend is initialised (discovery): from then on this process
// has driver state that a child made by fork() cannot use (runtime.cpp).
extern std::atomic<bool> drivers_initialised;

class device_selection {
public:
  // config_error: why the environment was refused ("" if it was not); raised by
  // current() on first use of a device, before any setting is used.
  device_selection(const configuration &c, const std::string &config_error)
      : config_(c), config_error_(config_error) {}

  // The selected device; throws pacxx::error saying why there is none.
  device &current() {
    // Once selected, without std::call_once: its thread-local state cost a
    // __tls_get_addr call on every launch (perf on the build machine).
    if (selected_.load(std::memory_order_acquire) && current_)
      return *current_;
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
  // The pool if a device was selected already (null otherwise): never selects one.
  memory_pool *pool_if_selected() const { return selected_.load() ? pool_.get() : nullptr; }
  // The selected device's id; only after current() returned.
  const std::string &current_id() const { return current_id_; }

  std::vector<device_description> describe(std::vector<std::string> &notes);

private:
  const configuration &config_;
  const std::string &config_error_;
  std::once_flag discover_once_, select_once_;
  std::vector<std::unique_ptr<device>> devices_;
  std::vector<std::string> ids_, notes_;
  device *current_ = nullptr;
  std::string current_id_, selection_error_;
  std::unique_ptr<memory_pool> pool_; // after devices_: destroyed before them
  std::atomic<bool> selected_{false}; // select() has run

  void discover();
  std::string device_list() const;
  void select();
  void choose();
};

} // namespace rt
} // namespace pacxx

#pragma GCC visibility pop

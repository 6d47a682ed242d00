#include "devices.hpp"

namespace pacxx {
namespace rt {

std::atomic<bool> drivers_initialised{false};

std::vector<device_description> device_selection::describe(std::vector<std::string> &notes) {
  discover();
  notes = notes_;
  std::vector<device_description> out;
  for (std::size_t i = 0; i < devices_.size(); ++i)
    out.push_back({ids_[i], devices_[i]->name(), devices_[i]->arch(), devices_[i]->driver_version(),
                   devices_[i]->memory_bytes()});
  return out;
}

void device_selection::discover() {
  std::call_once(discover_once_, [this] {
    drivers_initialised = true;
    auto add = [this](std::vector<std::unique_ptr<device>> found, const char *backend) {
      for (std::size_t i = 0; i < found.size(); ++i) {
        ids_.push_back(std::string(backend) + ":" + std::to_string(i));
        devices_.push_back(std::move(found[i]));
      }
    };
    add(discover_cuda(notes_), "cuda");
    add(discover_opencl(notes_), "opencl");
  });
}

std::string device_selection::device_list() const {
  std::string s;
  for (std::size_t i = 0; i < devices_.size(); ++i)
    s += "\n  " + ids_[i] + "  " + devices_[i]->name();
  if (devices_.empty())
    s += "\n  (none)";
  for (const std::string &n : notes_)
    s += "\n  note: " + n;
  return s;
}

void device_selection::select() {
  struct mark {
    std::atomic<bool> &selected;
    ~mark() { selected = true; }
  } done{selected_};
  if (!config_error_.empty()) {
    selection_error_ = config_error_;
    return;
  }
  choose();
  if (!current_)
    return;
  if (!config_.timeline.empty())
    current_->enable_timing(); // before any work: OpenCL makes its queues with profiling
  // PACXX_POOL_MB bounds the unused device memory kept for reuse (0: none); default
  // a quarter of the device's memory.
  std::size_t max_cached = current_->memory_bytes() / 4;
  if (config_.pool_mb)
    max_cached = *config_.pool_mb << 20;
  pool_ = std::make_unique<memory_pool>(*current_, max_cached);
}

// PACXX_DEVICE=cuda|opencl[:index]; default: the first CUDA device, else OpenCL.
void device_selection::choose() {
  discover();
  if (config_.device_backend.empty()) {
    if (!devices_.empty()) {
      current_ = devices_[0].get(); // CUDA devices come first
      current_id_ = ids_[0];
    } else
      selection_error_ = "pacxx: no device found. Devices present:" + device_list();
    return;
  }
  const std::string &want = config_.device;
  std::string id = config_.device_backend + ":" + std::to_string(config_.device_index);
  for (std::size_t i = 0; i < devices_.size(); ++i)
    if (ids_[i] == id) {
      current_ = devices_[i].get();
      current_id_ = id;
      return;
    }
  selection_error_ = "pacxx: PACXX_DEVICE=" + want +
                     " names no device on this machine. Devices present:" + device_list();
}

} // namespace rt
} // namespace pacxx

// pacxx-info: the backends and devices pacxx sees on this machine, and the settings
// of the PACXX_* variables (a malformed one is reported here as at the first launch).
#include "runtime.hpp"

#include <cstdio>
#include <exception>

int main() {
  std::vector<std::string> notes;
  std::vector<pacxx::rt::device_description> devices = pacxx::rt::describe_devices(notes);
  std::printf("pacxx devices:\n");
  for (const auto &d : devices)
    std::printf("  %-10s %s\n             arch %s, %.1f GiB, driver %s\n", d.id.c_str(),
                d.name.c_str(), d.arch.c_str(), d.memory_bytes / 1073741824.0, d.driver.c_str());
  if (devices.empty())
    std::printf("  (none)\n");
  for (const std::string &n : notes)
    std::printf("note: %s\n", n.c_str());
  try {
    std::printf("configuration:\n");
    std::string config = pacxx::rt::describe_configuration();
    for (std::size_t start = 0, end; start < config.size(); start = end + 1) {
      end = config.find('\n', start);
      if (end == std::string::npos)
        end = config.size();
      std::printf("  %s\n", config.substr(start, end - start).c_str());
    }
  } catch (const std::exception &e) {
    std::printf("  error in the environment:\n%s\n", e.what());
    return 1;
  }
  try {
    std::printf("selected (PACXX_DEVICE or default): %s\n",
                pacxx::rt::selected_device_id().c_str());
  } catch (const std::exception &e) {
    std::printf("selected: none\n%s\n", e.what());
    return 1;
  }
  return 0;
}

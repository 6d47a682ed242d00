// pacxx-info: the backends and devices pacxx sees on this machine, and the settings
// of the PACXX_* variables (a malformed one is reported here as at the first launch);
// --cache and --clear-cache: the kernel cache on disk. Usage: see help below.
#include "cache/disk_cache.hpp"
#include "runtime.hpp"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

static const char help[] =
    "usage: pacxx-info [--cache | --clear-cache | --help]\n"
    "  (no option)    the backends and devices pacxx sees, the settings of the PACXX_*\n"
    "                 variables and the device a program would use\n"
    "  --cache        the kernel cache on disk: location, entries, size, bound\n"
    "  --clear-cache  delete the cache's entries (only pacxx's own files in its\n"
    "                 kernels-v2/ subdirectory; nothing else in the directory)\n"
    "  --help         this text\n"
    "The environment read by pacxx programs (and here): PACXX_DEVICE=cuda|opencl[:index],\n"
    "PACXX_TRACE, PACXX_DUMP_DIR, PACXX_STAGING, PACXX_CACHE, PACXX_CACHE_DIR,\n"
    "PACXX_CACHE_MAX_MB, PACXX_POOL_MB, PACXX_KERNEL_VARIANTS (docs/configuration.md).\n";

static std::string megabytes(std::uint64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f MB", bytes / 1048576.0);
  return b;
}

// --cache and --clear-cache. The directory is the one programs would use with this
// environment, whether or not the cache is on (an old cache may still be cleared).
static int cache_command(bool clear) {
  pacxx::rt::disk_cache cache;
  std::printf("%s\n", cache.describe().c_str());
  if (cache.directory().empty())
    return 0;
  std::string problem;
  if (clear) {
    pacxx::rt::disk_cache::usage removed = cache.clear(&problem);
    if (!problem.empty()) {
      std::fprintf(stderr, "pacxx-info: %s\n", problem.c_str());
      return 1;
    }
    std::printf("removed %llu entries (%s) from %s\n",
                static_cast<unsigned long long>(removed.entries), megabytes(removed.bytes).c_str(),
                cache.entries_directory().c_str());
    return 0;
  }
  pacxx::rt::disk_cache::usage u = cache.measure(&problem);
  std::printf("location: %s\nentries: %llu\nsize: %llu bytes (%s)\nbound: %llu MB\n",
              cache.entries_directory().c_str(), static_cast<unsigned long long>(u.entries),
              static_cast<unsigned long long>(u.bytes), megabytes(u.bytes).c_str(),
              static_cast<unsigned long long>(cache.max_bytes() >> 20));
  if (!problem.empty()) {
    std::fprintf(stderr, "pacxx-info: %s\n", problem.c_str());
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 2 ||
      (argc == 2 && std::strcmp(argv[1], "--cache") != 0 &&
       std::strcmp(argv[1], "--clear-cache") != 0 && std::strcmp(argv[1], "--help") != 0)) {
    std::fprintf(stderr, "%s", help);
    return 2;
  }
  if (argc == 2 && std::strcmp(argv[1], "--help") == 0) {
    std::printf("%s", help);
    return 0;
  }
  if (argc == 2) {
    try {
      return cache_command(std::strcmp(argv[1], "--clear-cache") == 0);
    } catch (const std::exception &e) { // a malformed PACXX_* variable
      std::fprintf(stderr, "pacxx-info: error in the environment:\n%s\n", e.what());
      return 1;
    }
  }
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

#include "trace.hpp"

#include "pacxx/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <unistd.h>

namespace pacxx {
namespace rt {
namespace {

std::string file_stem(const jit::kernel_info &info) {
  std::string s;
  for (char c : info.display) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (ok)
      s += c;
    else if (!s.empty() && s.back() != '_')
      s += '_';
    if (s.size() > 60)
      break;
  }
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>()(info.entry));
  return s + hash;
}

// Writes one dump file. O_NOFOLLOW: a symbolic link planted under the expected name
// (the dump directory may be shared, e.g. under /tmp) is refused, never followed to
// overwrite whatever it points at.
void write_dump_file(const std::string &path, const std::string &bytes) {
  auto fail = [&](const char *what) {
    const int e = errno;
    std::string why =
        e == ELOOP ? "it is a symbolic link, which pacxx does not follow" : std::strerror(e);
    return error("pacxx: PACXX_DUMP_DIR: cannot " + std::string(what) + " " + path + ": " + why);
  };
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    throw fail("create");
  for (std::size_t done = 0; done < bytes.size();) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error e = fail("write");
      ::close(fd);
      throw e;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0)
    throw fail("write"); // e.g. a deferred ENOSPC or EIO
}

} // namespace

void dump(const std::string &dir, const jit::compiled_kernel &c, const device &dev,
          const std::vector<std::uint64_t> *staged) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw error("pacxx: PACXX_DUMP_DIR: cannot create the directory " + dir + ": " + ec.message());
  std::string stem = dir + "/" + file_stem(c.info);
  if (staged && !staged->empty()) { // one file per variant
    char h[17];
    std::uint64_t x = 1469598103934665603ull;
    for (std::uint64_t v : *staged)
      x = (x ^ v) * 1099511628211ull;
    std::snprintf(h, sizeof h, "%016llx", static_cast<unsigned long long>(x));
    stem += std::string("-staged") + h;
  }
  bool spir = dev.target() == ir_target::spir;
  write_dump_file(stem + (spir ? ".spir.ll" : ".nvptx.ll"), c.ir);
  write_dump_file(stem + (spir ? ".spir.bc" : ".ptx"), c.code);
}

void trace_launch(const std::string &kernel, const launch_config &cfg, const std::string &device_id,
                  const std::vector<std::uint64_t> &staged, kernel_cache::origin from,
                  double compile_ms, std::chrono::steady_clock::time_point launched,
                  const std::string &note) {
  static const char *const how[] = {"cached, lookup", "from disk cache in", "compiled in"};
  const dim &g = cfg.grid, &b = cfg.block;
  std::string values;
  for (std::uint64_t v : staged)
    values += (values.empty() ? " staged " : ",") + std::to_string(static_cast<long long>(v));
  std::fprintf(stderr,
               "pacxx: launch '%s' grid (%zu,%zu,%zu) block (%zu,%zu,%zu) shared %zu on %s:%s "
               "%s %.3f ms, launch %.3f ms%s%s\n",
               kernel.c_str(), g.x, g.y, g.z, b.x, b.y, b.z, cfg.dynamic_shared_bytes,
               device_id.c_str(), values.c_str(), how[static_cast<int>(from)], compile_ms,
               ms_since(launched), note.empty() ? "" : "; ", note.c_str());
}

} // namespace rt
} // namespace pacxx

// See tools.hpp and pacxx/tools.hpp.
#include "tools.hpp"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

#include "pacxx/runtime.hpp"

#ifdef PACXX_HAVE_NVTX
// NVTX v3 is header-only: the first call looks for the injection library that a
// profiler names in NVTX_INJECTION64_PATH (Nsight Systems and Nsight Compute set it) and
// dlopens it; without one every call returns at once. CUDA 13 has no libnvToolsExt to
// link (only these headers and libnvtx3interop), so nothing is linked here.
#include <nvtx3/nvToolsExt.h>
#endif

namespace pacxx {
namespace detail {
// 1 until the runtime has started and decided (the first algorithm starts it).
std::atomic<int> tools_listening{1};
} // namespace detail

namespace rt {

std::atomic<bool> tools_active{false};

namespace {
std::mutex callbacks_mutex;
tools::callbacks installed; // under callbacks_mutex
// Written at the runtime's start and shutdown, read by set_callbacks from any thread.
std::atomic<bool> timeline_listens{false}, nvtx_listens{false};
std::atomic<bool> started{false}; // start_tools has run: tools_listening is decided
void *library = nullptr;
std::atomic<std::uint64_t> next_id{1};

tools::callbacks current_callbacks() {
  std::lock_guard<std::mutex> lock(callbacks_mutex);
  return installed;
}

bool any(const tools::callbacks &c) { return c.begin || c.end; }
} // namespace

void update_listening() {
  const bool tool = any(current_callbacks()) || nvtx_listens;
  tools_active = tool;
  if (started) // else the runtime's start decides (the timeline is not known yet)
    detail::tools_listening = tool || timeline_listens;
}

void start_tools(const std::string &path, bool timeline_on) {
  timeline_listens = timeline_on;
  started = true;
#ifdef PACXX_HAVE_NVTX
  // Only under a profiler: else the algorithms would call into the runtime for nothing.
  const char *injection = std::getenv("NVTX_INJECTION64_PATH");
  nvtx_listens = injection && *injection;
#endif
  if (!path.empty()) {
    // The tool's own failures are reported and the program runs on without it, as
    // Kokkos Tools does: a profiler must not change whether a program runs.
    library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      std::fprintf(stderr, "pacxx: PACXX_TOOLS_LIBRARY=%s cannot be opened: %s\n", path.c_str(),
                   dlerror());
    } else if (auto init = reinterpret_cast<void (*)(tools::callbacks *)>(
                   dlsym(library, "pacxx_tools_init"))) {
      tools::callbacks c;
      init(&c);
      std::lock_guard<std::mutex> lock(callbacks_mutex);
      installed = c;
    } else {
      std::fprintf(stderr,
                   "pacxx: PACXX_TOOLS_LIBRARY=%s has no function pacxx_tools_init "
                   "(extern \"C\" void pacxx_tools_init(pacxx::tools::callbacks *))\n",
                   path.c_str());
    }
  }
  update_listening();
}

void stop_tools() noexcept {
  {
    std::lock_guard<std::mutex> lock(callbacks_mutex);
    installed = tools::callbacks{};
  }
  nvtx_listens = false;
  timeline_listens = false;
  tools_active = false;
  detail::tools_listening = 0;
  if (library)
    if (auto fini = reinterpret_cast<void (*)()>(dlsym(library, "pacxx_tools_finalize")))
      fini();
  // The library stays loaded: code it registered (atexit handlers) may still run.
}

void tool_begin(tools::range_info &info) noexcept {
  info.id = next_id.fetch_add(1, std::memory_order_relaxed);
  if (!tools_on())
    return;
#ifdef PACXX_HAVE_NVTX
  if (nvtx_listens && info.kind == tools::event::algorithm)
    nvtxRangePushA(info.name);
#endif
  const tools::callbacks c = current_callbacks();
  if (c.begin)
    c.begin(c.data, info);
}

void tool_end(const tools::range_info &info) noexcept {
  if (!tools_on())
    return;
  const tools::callbacks c = current_callbacks();
  if (c.end)
    c.end(c.data, info);
#ifdef PACXX_HAVE_NVTX
  if (nvtx_listens && info.kind == tools::event::algorithm)
    nvtxRangePop();
#endif
}

} // namespace rt

namespace tools {

void set_callbacks(const callbacks &c) {
  {
    std::lock_guard<std::mutex> lock(rt::callbacks_mutex);
    rt::installed = c;
  }
  rt::update_listening();
}

callbacks get_callbacks() { return rt::current_callbacks(); }

} // namespace tools
} // namespace pacxx

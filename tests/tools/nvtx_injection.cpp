// A fake NVTX injection library (what Nsight Systems and Nsight Compute name in
// NVTX_INJECTION64_PATH), so that the runtime's NVTX ranges are tested without a
// profiler: NVTX's headers in libpacxx dlopen it and call InitializeInjectionNvtx2,
// which installs nvtxRangePushA and nvtxRangePop; at exit it prints the ranges pushed,
// by name, and whether every push was popped (tests/CMakeLists.txt, env_nvtx).
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <string>

namespace {

struct ranges_seen {
  std::mutex mutex;
  std::map<std::string, int> pushed;
  int pushes = 0, pops = 0, depth = 0, problems = 0;
  ~ranges_seen() {
    std::string names;
    for (const auto &p : pushed)
      names += (names.empty() ? "" : ", ") + p.first + " " + std::to_string(p.second);
    std::printf("fake NVTX injection: %d pushes (%s), %d pops, %s\n", pushes, names.c_str(), pops,
                pushes == pops && problems == 0 ? "balanced" : "UNBALANCED");
    std::fflush(stdout);
  }
};
ranges_seen seen;

int NVTX_API push(const char *message) {
  std::lock_guard<std::mutex> lock(seen.mutex);
  seen.pushes++;
  seen.pushed[message ? message : "(null)"]++;
  return seen.depth++;
}

int NVTX_API pop() {
  std::lock_guard<std::mutex> lock(seen.mutex);
  seen.pops++;
  if (seen.depth == 0)
    seen.problems++;
  return seen.depth ? --seen.depth : -1;
}

} // namespace

extern "C" NVTX_DYNAMIC_EXPORT int NVTX_API InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get) {
  auto callbacks = static_cast<const NvtxExportTableCallbacks *>(get(NVTX_ETID_CALLBACKS));
  if (!callbacks)
    return 0;
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) || !table ||
      size <= NVTX_CBID_CORE_RangePop)
    return 0;
  *table[NVTX_CBID_CORE_RangePushA] = reinterpret_cast<NvtxFunctionPointer>(push);
  *table[NVTX_CBID_CORE_RangePop] = reinterpret_cast<NvtxFunctionPointer>(pop);
  return 1; // success
}

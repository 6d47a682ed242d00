// Module registry; __pacxx_register_module is what compiled programs call at start-up.
#include "registry.hpp"

#include "pacxx/detail/abi.hpp"

#include <cstdio>
#include <cstdlib>

namespace pacxx {
namespace rt {

registry &registry::get() {
  static registry r; // constructed on first registration, before main
  return r;
}

const registered_kernel *registry::find(const void *entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = kernels_.find(entry);
  return it == kernels_.end() ? nullptr : &it->second;
}

std::vector<std::pair<const void *, const registered_kernel *>> registry::kernels() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::pair<const void *, const registered_kernel *>> out;
  out.reserve(kernels_.size());
  for (const auto &k : kernels_)
    out.emplace_back(k.first, &k.second);
  return out;
}

void registry::add(const char *bitcode, std::size_t size, const abi::kernel_record *kernels,
                   std::size_t n) {
  std::size_t module = program_.add(bitcode, size);
  std::lock_guard<std::mutex> lock(mutex_);
  for (std::size_t i = 0; i < n; ++i)
    kernels_.emplace(
        kernels[i].host_entry,
        registered_kernel{module, kernels[i].name,
                          std::vector<abi::stage_stub>(
                              kernels[i].stages, kernels[i].stages + kernels[i].stage_count)});
}

} // namespace rt
} // namespace pacxx

using namespace pacxx;

extern "C" void __pacxx_register_module(const void *header, const abi::kernel_record *kernels,
                                        std::size_t n) {
  auto *h = static_cast<const abi::module_header *>(header);
  if (h->magic != abi::module_magic || h->version != abi::module_version) {
    // Before main: no one could catch an exception.
    std::fprintf(stderr,
                 "pacxx: a device module in this program was built by an incompatible "
                 "pacxx++ (version %u, runtime expects %u)\n",
                 h->version, abi::module_version);
    std::abort();
  }
  rt::registry::get().add(reinterpret_cast<const char *>(h + 1), h->size, kernels, n);
}

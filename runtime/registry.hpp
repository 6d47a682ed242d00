// The module registry: device modules and kernels registered by the constructors the
// offline compiler adds to each translation unit.
#pragma once
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "jit/jit.hpp"
#include "pacxx/detail/abi.hpp"

namespace pacxx {
namespace rt {

struct registered_kernel {
  std::size_t module;
  std::string entry;                   // mangled kernel_entry<P>
  std::vector<abi::stage_stub> stages; // host stubs of its pacxx::stage values
};

class registry {
public:
  static registry &get();
  jit::program &program() { return program_; }
  // The kernel whose host entry address is `entry`, or null.
  const registered_kernel *find(const void *entry);
  // Every kernel registered so far: (host entry, its registration), which stays valid
  // (registrations are never removed).
  std::vector<std::pair<const void *, const registered_kernel *>> kernels();
  // One translation unit's module and kernels; a kernel already known (the same
  // template instantiated in several units) keeps its first registration.
  void add(const char *bitcode, std::size_t size, const abi::kernel_record *kernels, std::size_t n);

private:
  std::mutex mutex_;
  jit::program program_;
  std::unordered_map<const void *, registered_kernel> kernels_;
};

} // namespace rt
} // namespace pacxx

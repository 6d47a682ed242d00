// The JIT: links the device modules a kernel needs, lowers them to a target (PTX for
// CUDA, SPIR for OpenCL) and optimises. Everything here runs in libpacxx, with LLVM
// linked statically and hidden.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace pacxx {
namespace jit {

// The name of the one kernel in every compiled module.
constexpr const char *kernel_symbol = "pacxx_kernel";

struct kernel_info {
  std::string entry;   // mangled name of kernel_entry<P>
  std::string display; // what the user calls it: "(lambda at file.cpp:12:7)"
  std::uint64_t args_size = 0, args_align = 1;
};

// The kernels a device module describes in its !pacxx.kernels (decoded by
// support/kernel_metadata.hpp); throws pacxx::error when that is malformed.
std::vector<kernel_info> kernels_in(const llvm::Module &m);

struct compiled_kernel {
  kernel_info info;
  std::string code; // PTX text or SPIR bitcode
  std::string ir;   // final LLVM IR, for PACXX_DUMP_DIR
};

// A problem found when linking device modules: a call to a function whose body is in
// no device module. notes: lines "file:line:col: note: ...\n" that follow the error
// (where the user's code launched the kernel), or empty.
struct link_problem {
  std::string callee, location, kernel, notes;
};

// All device modules of a process (or of a program file, for tools).
class program {
public:
  // `bitcode` must outlive the program (it lives in the executable's data).
  std::size_t add(const char *bitcode, std::size_t size);
  std::size_t size() const { return modules_.size(); }
  std::vector<kernel_info> kernels(std::size_t module) const;

  // The kernel's module with everything it calls linked in. A body missing everywhere
  // throws pacxx::error, or is reported in *problems when that is given.
  std::unique_ptr<llvm::Module> link(llvm::LLVMContext &ctx, std::size_t module,
                                     const std::string &entry,
                                     std::vector<link_problem> *problems = nullptr) const;
  // Every unresolved call of every kernel, for the link-time check.
  std::vector<link_problem> check() const;
  // The bytes of every device module, for cache keys: a kernel's code depends on the
  // modules it links, so any change to the program's device code changes the key.
  std::vector<std::string_view> images() const;

private:
  struct image {
    const char *data;
    std::size_t size;
  };
  std::vector<image> modules_;
  mutable std::mutex index_mutex_;
  mutable std::map<std::string, std::size_t> definitions_; // external symbol -> module
  mutable std::size_t indexed_ = 0;
  void index() const;
  std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &ctx, std::size_t module) const;
  std::vector<link_problem> resolve(llvm::Module &m, std::size_t module) const;
};

// Compiler-style lines, one error per distinct problem ("file:line:col: error: pacxx:
// kernel ... calls ...") and its notes.
std::string describe_link_problems(const std::vector<link_problem> &problems);

// Compiles one kernel for a device of the given target and architecture
// ("sm_90" for CUDA, ignored for SPIR). `staged` holds the values of the kernel's
// pacxx::stage calls (raw bits, in id order), or is null to compute them at run time.
// unroll false (PACXX_UNROLL=0): no loop is unrolled, neither by the optimiser's own
// choice nor by #pragma unroll (see optimize() in compile.cpp for why one would).
compiled_kernel compile(const program &p, std::size_t module, const std::string &entry,
                        rt::ir_target target, const std::string &arch,
                        const std::vector<std::uint64_t> *staged = nullptr, bool unroll = true);

// "sm_86": the highest architecture LLVM 15's NVPTX backend knows, not above the device's.
std::string nvptx_arch_for(const std::string &device_arch);

} // namespace jit
} // namespace pacxx

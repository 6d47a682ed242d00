// The interface of a JIT target: what jit::compile asks of NVPTX (jit/nvptx/), SPIR
// (jit/spir/) and any target added later (one folder, one case in make_target).
// compile() links the kernel's modules, substitutes staged values and inlines, then:
//
//   kernel = t->lower(m, entry, info);  // triple, data layout, the kernel wrapper,
//                                       // builtins, library calls, address spaces
//   optimize(m, t->machine(), unroll);  // O3 (with the target's passes, if any)
//   t->after_optimize(m, *kernel, unroll); // what the optimiser introduced
//   code = t->emit(m);                  // PTX text, SPIR bitcode, ...
#pragma once
#include <memory>
#include <string>

#include "jit/jit.hpp"

namespace llvm {
class Function;
class Module;
class TargetMachine;
} // namespace llvm

namespace pacxx {
namespace jit {

class target {
public:
  virtual ~target() = default;

  // Sets the module's triple and data layout, wraps `entry` in the kernel function
  // `kernel_symbol` with the target's signature and returns it, and maps the pacxx
  // builtins, the C library and address spaces to the target.
  virtual llvm::Function *lower(llvm::Module &m, llvm::Function &entry,
                                const kernel_info &info) = 0;
  // The target machine whose passes the O3 pipeline adds, or null (created on first
  // use, after lowering; owned by the target).
  virtual llvm::TargetMachine *machine() { return nullptr; }
  // Runs after O3, before the final verification and the IR dump; unroll: as O3 ran
  // (PACXX_UNROLL), for a target that optimises again.
  virtual void after_optimize(llvm::Module &, llvm::Function & /*kernel*/, bool /*unroll*/) {}
  // The code the backend loads.
  virtual std::string emit(llvm::Module &m) = 0;
  // Whether the target runs recursive device code (CUDA does, with a call stack in
  // local memory; SPIR forbids it and PoCL's kernel compiler recursed without end on
  // it, SIGSEGV: compile() rejects such a module before the backend sees it).
  virtual bool allows_recursion() const { return true; }
};

// The target for an IR target of a backend; `arch` is the device's ("sm_90" for CUDA,
// ignored for SPIR). The only place that chooses by rt::ir_target.
std::unique_ptr<target> make_target(rt::ir_target t, const std::string &arch);

// The targets, each in its folder.
std::unique_ptr<target> make_nvptx_target(const std::string &arch);
std::unique_ptr<target> make_spir_target();

} // namespace jit
} // namespace pacxx

// Helpers shared by the targets' lowerings (jit/nvptx/, jit/spir/; see target.hpp).
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "jit/jit.hpp"
#include "pacxx/detail/abi.hpp"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace llvm {
class TargetMachine;
}

namespace pacxx {
namespace jit {

// Calls every handler for each call of the function `name` (the call is then erased
// if the handler replaced all its uses and returned true).
void for_each_call(llvm::Module &m, llvm::StringRef name,
                   const std::function<llvm::Value *(llvm::CallInst &)> &replace);

// The dimension argument of an id builtin (0, 1 or 2).
unsigned dimension_of(llvm::CallInst &call);

// The C library (abi::lib_functions). lower_library replaces the calls that a target
// has no function for by IR of its own (integer abs, div, nan, scalbln, lround and lrint,
// and on OpenCL the private temporaries of frexp, modf and remquo); map_math then
// renames the rest, and the LLVM math intrinsics a target cannot lower, to what
// `target_name(base, is_float, shape)` returns (empty: leave the call alone).
void lower_library(llvm::Module &m, bool opencl);
void map_math(llvm::Module &m, llvm::CallingConv::ID cc,
              const std::function<std::string(llvm::StringRef base, bool is_float,
                                              abi::lib_shape shape)> &target_name,
              bool map_intrinsics);

// Links into `m` the definitions of the complex functions it calls (abi::is_complex:
// __mulsc3, cexpf, ...) from the device library (jit/device_library/), compiled for
// x86-64 like the kernels' own IR; throws, naming `kernel`, if a call's signature is not
// the library's.
void link_device_library(llvm::Module &m, const std::string &kernel);

// Moves every constant global from the generic address space to `as`.
void move_constants(llvm::Module &m, unsigned as);

// Each __pacxx_shared_memory(bytes, align) call becomes its own block of memory in
// address space 3.
void lower_static_shared_memory(llvm::Module &m);

// The O3 pipeline (with the target's own passes when tm is given); unroll false: no
// loop unrolled (PACXX_UNROLL=0, compile.cpp says why).
void optimize(llvm::Module &m, llvm::TargetMachine *tm, bool unroll);

// Everything internal but the kernel, so the optimiser may drop and specialise it.
void internalize_except(llvm::Module &m, llvm::Function &kernel);

} // namespace jit
} // namespace pacxx

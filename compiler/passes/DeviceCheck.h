// DeviceCheck: what a kernel reaches, and whether all of it can run on a GPU.
#pragma once
#include <string>
#include <vector>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Instructions.h"

namespace pacxx {

struct DeviceDiagnostic {
  const llvm::Instruction *At; // may be null (then Fn locates it)
  const llvm::Function *Fn;
  std::string Message;
};

// Call to a function this translation unit does not define (resolved at link).
struct ExternCall {
  const llvm::Instruction *At;
  std::string Callee;
};

struct DeviceClosure {
  llvm::SetVector<const llvm::Function *> Functions;     // defined, reached
  llvm::SetVector<const llvm::GlobalVariable *> Globals; // constant, copied to the device
  std::vector<ExternCall> ExternCalls;
  std::vector<DeviceDiagnostic> Errors;
  // For each reached function but the root: the instruction that first called (or took
  // the address of) it. Followed from any function, these lead back to the root: the
  // call path that diagnostics walk to find the user's code (Diagnostics.h).
  llvm::DenseMap<const llvm::Function *, const llvm::Instruction *> ReachedFrom;
};

// True for functions the JIT provides: pacxx builtins, LLVM intrinsics, C math.
bool isDeviceProvided(llvm::StringRef Name);

// A call into UBSan's runtime (__ubsan_handle_*, from -fsanitize=undefined): its checks
// are stripped from device code (KernelExtraction's stripSanitizerChecks).
inline bool isSanitizerHandler(llvm::StringRef Name) { return Name.startswith("__ubsan_handle_"); }

// A landing pad that only runs destructors or terminates (noexcept): dead on a device.
bool isCleanupOrTerminatePad(const llvm::LandingPadInst &LP);

// Walks everything reachable from Root and checks it.
DeviceClosure collectDeviceClosure(const llvm::Function &Root);

// "file:line:col" of an instruction (or of its function), "" when unknown.
std::string sourceLocation(const llvm::Instruction *I, const llvm::Function *F);

} // namespace pacxx

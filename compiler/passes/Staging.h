// Staging: multi-staging for one kernel (pacxx::stage). In the device module the
// kernel's path to each stage call is inlined and each stage(v) becomes a placeholder
// __pacxx_staged_<type>(id, v); in the host module a stub recomputes v from the launch's
// argument bytes and configuration. Values that depend on thread ids or device memory
// are diagnosed.
#pragma once
#include <string>
#include <vector>

#include "DeviceCheck.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

namespace pacxx {

struct StagingResult {
  std::vector<llvm::Function *> Stubs; // in the host module, in id order
  std::vector<DeviceDiagnostic> Errors;
};

// Debug: print each value that cannot be staged, with the kernel, to stderr
// (KernelExtractionOptions::DebugStaging).
StagingResult stageKernel(llvm::Module &Host, llvm::Function &DeviceEntry, bool Debug = false);

} // namespace pacxx

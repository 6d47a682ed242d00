// KernelExtraction: the offline compiler's one pass. It runs on each translation unit
// before host optimisation, clones every pacxx kernel entry and all it reaches into a
// device module, rejects what cannot run on a GPU (DeviceCheck), embeds the module's
// bitcode into the host object and registers it with the runtime at start-up.
#pragma once
#include "llvm/IR/PassManager.h"

#include <string>

namespace pacxx {

// The pass's switches. In clang (pacxx++, -fpass-plugin) nothing can pass options to a
// plugin pass, so the defaults come from the environment the driver sets; in opt they
// are pass options: -passes='pacxx-kernel-extraction<strip-debug;print-device>'.
struct KernelExtractionOptions {
  // Drop the debug information the driver added for diagnostics from the host module
  // (default: PACXX_STRIP_DEBUG=1, set by pacxx++ unless the user asked for -g).
  bool StripDebug = false;
  // Print the device module, exactly as it is embedded, to stdout: the only way to see
  // it as text, since the host module holds it as bitcode (for tests and debugging).
  bool PrintDevice = false;
  // Print why a staged value could not be computed before the launch, with the kernel's
  // IR, to stderr (default: PACXX_DEBUG_STAGING=1; for debugging Staging itself).
  bool DebugStaging = false;
  // A malformed PACXX_STRIP_DEBUG or PACXX_DEBUG_STAGING, one line each, in the
  // runtime's words (support/environment.hpp: a switch is 0 or 1, unset or empty is the
  // default); the pass reports it as an error and changes nothing.
  std::string EnvironmentError;
  static KernelExtractionOptions fromEnvironment();
};

class KernelExtractionPass : public llvm::PassInfoMixin<KernelExtractionPass> {
public:
  KernelExtractionPass() : Options(KernelExtractionOptions::fromEnvironment()) {}
  explicit KernelExtractionPass(KernelExtractionOptions O) : Options(O) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; } // also at -O0 and under optnone

private:
  KernelExtractionOptions Options;
};

} // namespace pacxx

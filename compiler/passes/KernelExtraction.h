// KernelExtraction: the offline compiler's one pass. It runs on each translation unit
// before host optimisation, clones every pacxx kernel entry and all it reaches into a
// device module, rejects what cannot run on a GPU (DeviceCheck), embeds the module's
// bitcode into the host object and registers it with the runtime at start-up.
#pragma once
#include "llvm/IR/PassManager.h"

namespace pacxx {

class KernelExtractionPass : public llvm::PassInfoMixin<KernelExtractionPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; } // also at -O0 and under optnone
};

} // namespace pacxx

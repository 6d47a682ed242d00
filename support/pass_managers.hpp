// The new pass manager's four analysis managers, registered and cross-registered: the
// set-up that every place running LLVM passes needs (the plugin's Staging pass, the
// JIT's inliner and O3 pipeline).
//
// Why here: the plugin (compiler/) resolves LLVM against clang's shared libLLVM and
// links nothing of the runtime, and libpacxx links LLVM statically and hidden; so
// this is header-only, compiled into each with its own LLVM. It is not under
// include/pacxx: public headers never include LLVM.
#pragma once
#include "llvm/Passes/PassBuilder.h"

#include <functional>

namespace pacxx {
namespace support {

struct analysis_managers {
  // Declared in this order so that they are destroyed module first, loop last.
  llvm::LoopAnalysisManager loop;
  llvm::FunctionAnalysisManager function;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager module;

  // `first` may register function analyses of its own before pb's defaults (the
  // first registration of an analysis wins, e.g. a TargetLibraryAnalysis).
  explicit analysis_managers(
      llvm::PassBuilder &pb,
      const std::function<void(llvm::FunctionAnalysisManager &)> &first = nullptr) {
    if (first)
      first(function);
    pb.registerModuleAnalyses(module);
    pb.registerCGSCCAnalyses(cgscc);
    pb.registerFunctionAnalyses(function);
    pb.registerLoopAnalyses(loop);
    pb.crossRegisterProxies(loop, function, cgscc, module);
  }
  analysis_managers(const analysis_managers &) = delete;
  analysis_managers &operator=(const analysis_managers &) = delete;
};

} // namespace support
} // namespace pacxx

// Registers the pacxx passes: with clang at pipeline start (`clang++ -fpass-plugin=
// libPacxxPass.so`, how pacxx++ runs it), and by name for opt, so that the pass can be
// tested on IR as LLVM's passes are:
//   opt -load-pass-plugin=libPacxxPass.so -passes='pacxx-kernel-extraction<OPTS>'
// OPTS, separated by ';': strip-debug, no-strip-debug, print-device (see
// KernelExtractionOptions). Without options the environment's defaults apply.
#include "KernelExtraction.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

static Expected<pacxx::KernelExtractionOptions> parseOptions(StringRef Params) {
  pacxx::KernelExtractionOptions O = pacxx::KernelExtractionOptions::fromEnvironment();
  while (!Params.empty()) {
    StringRef Name;
    std::tie(Name, Params) = Params.split(';');
    if (Name == "strip-debug")
      O.StripDebug = true;
    else if (Name == "no-strip-debug")
      O.StripDebug = false;
    else if (Name == "print-device")
      O.PrintDevice = true;
    else
      return make_error<StringError>("invalid pacxx-kernel-extraction option '" + Name +
                                         "' (use strip-debug, no-strip-debug, print-device)",
                                     inconvertibleErrorCode());
  }
  return O;
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "pacxx", "0.1", [](PassBuilder &PB) {
            PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
              MPM.addPass(pacxx::KernelExtractionPass());
            });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
                  // LLVM 15 has no public helper for "name<params>"; parse it here.
                  StringRef Params;
                  if (Name.consume_front("pacxx-kernel-extraction")) {
                    if (!Name.empty() && !(Name.consume_front("<") && Name.consume_back(">")))
                      return false;
                    Params = Name;
                  } else {
                    return false;
                  }
                  auto O = parseOptions(Params);
                  if (!O) {
                    errs() << toString(O.takeError()) << "\n";
                    return false;
                  }
                  MPM.addPass(pacxx::KernelExtractionPass(*O));
                  return true;
                });
          }};
}

// KernelExtraction: see KernelExtraction.h.
#include "KernelExtraction.h"

#include "DeviceCheck.h"
#include "Diagnostics.h"
#include "Staging.h"
#include "environment.hpp"
#include "kernel_metadata.hpp"
#include "pacxx/detail/abi.hpp"

#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstdlib>
#include <optional>
#include <utility>

using namespace llvm;

namespace pacxx {
namespace {

// "(lambda at file.cpp:14:7)" or "main::$_0": the first template argument of the
// payload, i.e. the user's callable, which is how users know their kernels.
std::string kernelDisplayName(const Function &Entry) {
  std::string Full;
  if (const DISubprogram *SP = Entry.getSubprogram())
    Full = SP->getName().str();
  if (Full.find("payload<") == std::string::npos)
    Full = demangle(Entry.getName().str());
  size_t Begin = Full.find("payload<");
  if (Begin == std::string::npos)
    return Full;
  Begin += strlen("payload<");
  int Depth = 0;
  for (size_t I = Begin; I < Full.size(); ++I) {
    char Ch = Full[I];
    if (Ch == '<' || Ch == '(' || Ch == '[' || Ch == '{')
      ++Depth;
    else if (Ch == '>' || Ch == ')' || Ch == ']' || Ch == '}') {
      if (Depth == 0)
        return Full.substr(Begin, I - Begin);
      --Depth;
    } else if (Ch == ',' && Depth == 0)
      return Full.substr(Begin, I - Begin);
  }
  return Full;
}

// Size and alignment of the payload, from the attributes clang puts on the
// kernel_entry(const P&) parameter.
bool payloadLayout(const Function &Entry, uint64_t &Size, uint64_t &Align) {
  if (Entry.arg_size() != 1)
    return false;
  Size = Entry.getParamDereferenceableBytes(0);
  MaybeAlign A = Entry.getParamAlign(0);
  Align = A ? A->value() : 1;
  return Size != 0;
}

// Attributes that describe the host (CPU, frame layout, -O0) and must not reach a
// GPU target; the runtime optimises device code itself.
void stripHostAttributes(Function &F) {
  if (F.hasFnAttribute(Attribute::OptimizeNone)) {
    F.removeFnAttr(Attribute::OptimizeNone);
    F.removeFnAttr(Attribute::NoInline);
  }
  for (Attribute::AttrKind K : {Attribute::UWTable, Attribute::StackProtect,
                                Attribute::StackProtectStrong, Attribute::StackProtectReq})
    F.removeFnAttr(K);
  for (const char *K : {"target-cpu", "target-features", "tune-cpu", "frame-pointer",
                        "stack-protector-buffer-size", "min-legal-vector-width", "probe-stack"})
    F.removeFnAttr(K);
}

// Nothing throws on a device: invokes become calls, cleanup pads disappear.
void removeExceptionHandling(Function &F) {
  SmallVector<InvokeInst *, 8> Invokes;
  for (BasicBlock &BB : F)
    if (auto *II = dyn_cast<InvokeInst>(BB.getTerminator()))
      Invokes.push_back(II);
  for (InvokeInst *II : Invokes)
    changeToCall(II);
  if (!Invokes.empty())
    removeUnreachableBlocks(F);
  if (F.hasPersonalityFn())
    F.setPersonalityFn(nullptr);
}

// How diagnostics name a kernel: the GPU STL algorithm that launches it
// ("gpu::transform"), else what kernelDisplayName says ("(lambda at file.cpp:14:7)").
std::string diagnosticName(const std::string &Display, const LaunchSite &Launch) {
  return Launch.Algorithm.empty() ? Display : Launch.Algorithm;
}

// Prints a diagnostic at the user's line (Diagnostics.h), once: the kernels of one
// algorithm call (a sort has several) reach the same user code, and a function pointer
// given to it is called in several places of the library, all reported at the call of
// the algorithm. Returns whether the error was new.
bool printDiagnostic(const DeviceDiagnostic &D, const std::string &Kernel,
                     const ReachedFromMap &ReachedFrom, const LaunchSite &Launch,
                     StringSet<> &Printed) {
  PlacedDiagnostic P = placeDiagnostic(D.At, D.Fn, ReachedFrom, Launch);
  std::string Text;
  raw_string_ostream OS(Text);
  OS << (P.Location.empty() ? "<unknown location>" : P.Location) << ": error: pacxx: kernel '"
     << diagnosticName(Kernel, Launch) << "' " << D.Message;
  if (!P.Function.empty())
    OS << " in '" << P.Function << "'";
  OS.flush();
  if (!Printed.insert(Text).second)
    return false;
  errs() << Text << "\n" << P.Notes;
  return true;
}

// UBSan (-fsanitize=undefined) in device code. Its checks call __ubsan_handle_* of the
// host's sanitizer runtime with static data in mutable host globals; neither exists on
// a device. The checks are stripped, not supported: a device-side report would need a
// runtime of its own and a way back to the host, and turning them into traps would end
// the process on PoCL and poison the CUDA context without saying which check failed.
// Each check leaves the code as it would be without the sanitizer: the branch to the
// handler's block goes, then the check's computation (which would otherwise keep, e.g.,
// ptrtoint of every checked alloca alive and block SROA, which staging relies on). A
// recoverable check (the default) continues to the checked code; a check that does
// not return (-fno-sanitize-recover, __builtin_unreachable, a missing return) was
// `unreachable` after the call, which is what that path means without the sanitizer.
// -fsanitize=function's per-function type data (func_sanitize metadata pointing at
// host RTTI) goes too: kernels make no indirect calls. Host code keeps every check.
void stripSanitizerChecks(Module &Dev) {
  SmallVector<CallBase *, 16> Calls;
  for (Function &F : Dev) {
    F.setMetadata("func_sanitize", nullptr);
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (isSanitizerHandler(Callee->getName()))
            Calls.push_back(CB);
  }
  SmallPtrSet<BasicBlock *, 16> Handlers;
  for (CallBase *CB : Calls) {
    Handlers.insert(CB->getParent());
    SmallVector<Value *, 4> Args(CB->args());
    CB->eraseFromParent(); // handlers return void: no uses
    for (Value *A : Args)
      RecursivelyDeleteTriviallyDeadInstructions(A);
  }
  for (BasicBlock *H : Handlers) {
    // The handler's block is now empty: `br label %cont` or `unreachable`.
    Instruction *T = H->getTerminator();
    if (H->size() != 1)
      continue; // something else happens there: leave the branch to it
    BasicBlock *Cont = isa<BranchInst>(T) && cast<BranchInst>(T)->isUnconditional()
                           ? cast<BranchInst>(T)->getSuccessor(0)
                           : nullptr;
    if (!Cont && !isa<UnreachableInst>(T))
      continue;
    SmallVector<BasicBlock *, 2> Preds(predecessors(H));
    for (BasicBlock *P : Preds) {
      auto *Br = dyn_cast<BranchInst>(P->getTerminator());
      if (!Br || !Br->isConditional())
        continue;
      BasicBlock *Other = Br->getSuccessor(0) == H ? Br->getSuccessor(1) : Br->getSuccessor(0);
      if (Other == H || (Cont && Other != Cont))
        continue; // not a check's shape: leave it
      Value *Cond = Br->getCondition();
      BranchInst::Create(Other, Br);
      Br->eraseFromParent();
      RecursivelyDeleteTriviallyDeadInstructions(Cond);
    }
    if (pred_empty(H)) {
      if (Cont)
        Cont->removePredecessor(H);
      H->eraseFromParent();
    }
  }
}

struct KernelInfo {
  Function *Entry;
  std::string Display;
  uint64_t Size, Align;
  std::vector<Function *> Stages; // host stubs of its pacxx::stage values
  LaunchSite Launch;              // for diagnostics
  ReachedFromMap ReachedFrom;     // of its DeviceClosure, for diagnostics
};

std::unique_ptr<Module> buildDeviceModule(Module &M, const SetVector<const Function *> &Fns,
                                          const SetVector<const GlobalVariable *> &Globals,
                                          ValueToValueMapTy &VMap) {
  SmallPtrSet<const GlobalValue *, 32> Keep;
  Keep.insert(Fns.begin(), Fns.end());
  Keep.insert(Globals.begin(), Globals.end());
  std::unique_ptr<Module> Dev =
      CloneModule(M, VMap, [&](const GlobalValue *GV) { return Keep.count(GV) != 0; });
  stripSanitizerChecks(*Dev); // first: its static data then becomes unused below

  // CloneModule declares everything it did not copy; drop what nothing uses.
  SmallVector<GlobalValue *, 64> Dead;
  for (GlobalVariable &GV : Dev->globals())
    if (GV.getName().startswith("llvm.") || (GV.isDeclaration() && GV.use_empty()))
      Dead.push_back(&GV);
  for (GlobalValue *GV : Dead)
    GV->eraseFromParent();
  Dead.clear();
  for (GlobalAlias &GA : Dev->aliases())
    Dead.push_back(&GA);
  for (GlobalValue *GV : Dead) {
    GV->replaceAllUsesWith(UndefValue::get(GV->getType()));
    GV->eraseFromParent();
  }
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function &F : make_early_inc_range(*Dev))
      if (F.isDeclaration() && F.use_empty()) {
        F.eraseFromParent();
        Changed = true;
      }
  }
  for (Function &F : *Dev) {
    if (F.isDeclaration())
      continue;
    stripHostAttributes(F);
    removeExceptionHandling(F);
    F.setComdat(nullptr);
  }
  for (GlobalVariable &GV : Dev->globals()) {
    GV.setComdat(nullptr);
    // Only constant globals reach a kernel, and range-v3's boxes of empty objects,
    // which no code reads or writes: on the device all of them are constants.
    if (GV.hasInitializer())
      GV.setConstant(true);
  }
  for (StringRef Flag : {"uwtable", "frame-pointer", "PIE Level", "PIC Level"})
    if (Metadata *Old = Dev->getModuleFlag(Flag)) {
      (void)Old;
      NamedMDNode *Flags = Dev->getModuleFlagsMetadata();
      for (unsigned I = 0; I < Flags->getNumOperands(); ++I) {
        MDNode *Op = Flags->getOperand(I);
        if (cast<MDString>(Op->getOperand(1))->getString() == Flag) {
          // Rebuild the flags without this one.
          SmallVector<MDNode *, 8> KeepOps;
          for (unsigned J = 0; J < Flags->getNumOperands(); ++J)
            if (J != I)
              KeepOps.push_back(Flags->getOperand(J));
          Flags->clearOperands();
          for (MDNode *N : KeepOps)
            Flags->addOperand(N);
          break;
        }
      }
    }
  return Dev;
}

// Stores the bitcode in the program and registers it (and the kernels' host entry
// addresses) with the runtime from a constructor.
void embedAndRegister(Module &M, StringRef Bitcode, ArrayRef<KernelInfo> Kernels) {
  LLVMContext &Ctx = M.getContext();
  Type *I8 = Type::getInt8Ty(Ctx), *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  PointerType *Ptr = PointerType::getUnqual(Ctx);

  std::string Padded = Bitcode.str();
  Padded.resize((Padded.size() + 7) / 8 * 8, '\0');
  auto *Data = ConstantDataArray::getRaw(Padded, Padded.size(), I8);
  auto *Ty = StructType::get(Ctx, {I32, I32, I64, Data->getType()});
  auto *Init = ConstantStruct::get(Ty, {ConstantInt::get(I32, abi::module_magic),
                                        ConstantInt::get(I32, abi::module_version),
                                        ConstantInt::get(I64, Bitcode.size()), Data});
  auto *Blob =
      new GlobalVariable(M, Ty, true, GlobalValue::PrivateLinkage, Init, "__pacxx_device_module");
  Blob->setSection(abi::section_name);
  Blob->setAlignment(Align(8));
  appendToUsed(M, {Blob});

  auto *RecTy = StructType::get(Ctx, {Ptr, Ptr, Ptr, I64});
  SmallVector<Constant *, 8> Recs;
  for (const KernelInfo &K : Kernels) {
    Constant *Name = ConstantDataArray::getString(Ctx, K.Entry->getName());
    auto *NameGV = new GlobalVariable(M, Name->getType(), true, GlobalValue::PrivateLinkage, Name,
                                      "__pacxx_kernel_name");
    NameGV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    Constant *Stages = ConstantPointerNull::get(Ptr);
    if (!K.Stages.empty()) {
      auto *StagesTy = ArrayType::get(Ptr, K.Stages.size());
      SmallVector<Constant *, 4> Stubs(K.Stages.begin(), K.Stages.end());
      Stages = new GlobalVariable(M, StagesTy, true, GlobalValue::PrivateLinkage,
                                  ConstantArray::get(StagesTy, Stubs), "__pacxx_stage_stubs");
    }
    Recs.push_back(ConstantStruct::get(
        RecTy, {K.Entry, NameGV, Stages, ConstantInt::get(I64, K.Stages.size())}));
  }
  auto *TableTy = ArrayType::get(RecTy, Recs.size());
  auto *Table = new GlobalVariable(M, TableTy, true, GlobalValue::PrivateLinkage,
                                   ConstantArray::get(TableTy, Recs), "__pacxx_kernel_table");

  FunctionCallee Register =
      M.getOrInsertFunction(abi::register_module_function,
                            FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, I64}, false));
  Function *Ctor = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                    GlobalValue::InternalLinkage, "__pacxx_register", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
  B.CreateCall(Register, {Blob, Table, ConstantInt::get(I64, Recs.size())});
  B.CreateRetVoid();
  // Priority 101, the first one a program may use: the kernels are registered before any
  // dynamic initialisation of the program's own objects (65535), so that a static
  // gpu::vector<T> v(n, value) at namespace scope, whose constructor launches a fill
  // kernel, finds its kernel registered whichever unit instantiated it.
  appendToGlobalCtors(M, Ctor, 101);
}

// Kernel code never runs on the host: the host keeps each kernel entry only as an
// address to launch by, and drops the code that only kernels reached. (So a kernel
// may call a function that only the device side of the program defines.)
void removeKernelCodeFromHost(Module &M, ArrayRef<KernelInfo> Kernels) {
  LLVMContext &Ctx = M.getContext();
  for (const KernelInfo &K : Kernels) {
    Function *F = K.Entry;
    GlobalValue::LinkageTypes Linkage = F->getLinkage();
    Comdat *C = F->getComdat();
    F->deleteBody();
    F->setLinkage(Linkage); // instantiations shared by units must still merge
    F->setComdat(C);
    IRBuilder<> B(BasicBlock::Create(Ctx, "", F));
    B.CreateCall(Intrinsic::getDeclaration(&M, Intrinsic::trap));
    B.CreateUnreachable();
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &F : make_early_inc_range(M))
      if (!F.isDeclaration() && F.use_empty() && F.isDiscardableIfUnused()) {
        F.eraseFromParent();
        Changed = true;
      }
  }
}

} // namespace

PreservedAnalyses KernelExtractionPass::run(Module &M, ModuleAnalysisManager &) {
  if (!Options.EnvironmentError.empty()) {
    M.getContext().diagnose(DiagnosticInfoInlineAsm(Options.EnvironmentError, DS_Error));
    return PreservedAnalyses::all();
  }
  std::vector<KernelInfo> Kernels;
  SetVector<const Function *> Fns;
  SetVector<const GlobalVariable *> Globals;
  std::vector<support::extern_call_metadata> Externs;
  StringSet<> SeenExterns, Printed;
  unsigned ErrorCount = 0;

  for (Function &F : M) {
    if (F.isDeclaration() || !F.getName().startswith(abi::kernel_entry_prefix))
      continue;
    KernelInfo K{&F, kernelDisplayName(F), 0, 0, {}, LaunchSite(), ReachedFromMap()};
    if (!payloadLayout(F, K.Size, K.Align)) {
      errs() << sourceLocation(nullptr, &F) << ": error: pacxx: cannot determine the argument "
             << "layout of kernel '" << K.Display << "'\n";
      ++ErrorCount;
      continue;
    }
    DeviceClosure C = collectDeviceClosure(F);
    K.ReachedFrom = std::move(C.ReachedFrom);
    if (!C.Errors.empty() || !C.ExternCalls.empty())
      K.Launch = findLaunchSite(F);
    for (const DeviceDiagnostic &D : C.Errors)
      ErrorCount += printDiagnostic(D, K.Display, K.ReachedFrom, K.Launch, Printed);
    Fns.insert(C.Functions.begin(), C.Functions.end());
    Globals.insert(C.Globals.begin(), C.Globals.end());
    for (const ExternCall &E : C.ExternCalls) {
      PlacedDiagnostic P = placeDiagnostic(E.At, nullptr, K.ReachedFrom, K.Launch);
      support::extern_call_metadata X{E.Callee, P.Location, diagnosticName(K.Display, K.Launch),
                                      P.Notes};
      if (SeenExterns.insert(X.callee + "|" + X.location + "|" + X.kernel + "|" + X.notes).second)
        Externs.push_back(X);
    }
    Kernels.push_back(std::move(K));
  }

  // Functions other translation units' kernels may call: every externally visible
  // definition that can run on a device. Those that cannot are silently left out;
  // a kernel that calls one fails at link with "body nowhere in the program".
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasExternalLinkage() || F.getName() == "main" ||
        F.getName().startswith(abi::kernel_entry_prefix) || Fns.count(&F))
      continue;
    DeviceClosure C = collectDeviceClosure(F);
    if (!C.Errors.empty())
      continue;
    Fns.insert(C.Functions.begin(), C.Functions.end());
    Globals.insert(C.Globals.begin(), C.Globals.end());
  }

  if (ErrorCount) {
    M.getContext().diagnose(DiagnosticInfoInlineAsm(
        "pacxx: " + Twine(ErrorCount) + " construct(s) in kernel code cannot run on a GPU",
        DS_Error));
    return PreservedAnalyses::all();
  }
  if (Kernels.empty() && Fns.empty())
    return PreservedAnalyses::all();

  ValueToValueMapTy VMap;
  std::unique_ptr<Module> Dev = buildDeviceModule(M, Fns, Globals, VMap);
  for (KernelInfo &K : Kernels) {
    StagingResult SR = stageKernel(M, *cast<Function>(VMap[K.Entry]), Options.DebugStaging);
    if (!SR.Errors.empty() && !K.Launch.At)
      K.Launch = findLaunchSite(*K.Entry);
    for (const DeviceDiagnostic &D : SR.Errors) // in the inlined clone: no ReachedFrom
      ErrorCount += printDiagnostic(D, K.Display, ReachedFromMap(), K.Launch, Printed);
    K.Stages = SR.Stubs;
  }
  if (ErrorCount) {
    M.getContext().diagnose(DiagnosticInfoInlineAsm(
        "pacxx: " + Twine(ErrorCount) + " staged value(s) cannot be computed before the launch",
        DS_Error));
    return PreservedAnalyses::all();
  }
  for (const KernelInfo &K : Kernels)
    support::add_kernel(*Dev, {K.Entry->getName().str(), K.Display, K.Size, K.Align});
  for (const support::extern_call_metadata &E : Externs)
    support::add_extern_call(*Dev, E);
  // Where each device function is defined, for the JIT's messages (abi::md_source):
  // the line tables go with StripDebugInfo below.
  for (Function &F : *Dev)
    if (!F.isDeclaration()) {
      std::string Loc = sourceLocation(nullptr, &F);
      if (!Loc.empty())
        F.setMetadata(abi::md_source,
                      MDNode::get(F.getContext(), {MDString::get(F.getContext(), Loc)}));
    }
  StripDebugInfo(*Dev);
  if (Options.PrintDevice)
    Dev->print(outs(), nullptr);

  std::string Bitcode;
  raw_string_ostream OS(Bitcode);
  WriteBitcodeToFile(*Dev, OS);
  OS.flush();
  embedAndRegister(M, Bitcode, Kernels);
  removeKernelCodeFromHost(M, Kernels);

  // The driver adds line tables so diagnostics can name lines; drop them unless the
  // user asked for debug information.
  if (Options.StripDebug)
    StripDebugInfo(M);
  return PreservedAnalyses::none();
}

KernelExtractionOptions KernelExtractionOptions::fromEnvironment() {
  KernelExtractionOptions O;
  for (auto [Name, Switch] : {std::pair{"PACXX_STRIP_DEBUG", &O.StripDebug},
                              std::pair{"PACXX_DEBUG_STAGING", &O.DebugStaging}}) {
    const char *V = std::getenv(Name);
    if (!V || !*V)
      continue;
    if (std::optional<bool> On = support::switch_value(V))
      *Switch = *On;
    else
      O.EnvironmentError +=
          (O.EnvironmentError.empty() ? "" : "\n") + support::not_a_switch(Name, V);
  }
  return O;
}

} // namespace pacxx

// Staging: see Staging.h.
#include "Staging.h"

#include "pacxx/detail/abi.hpp"
#include "pass_managers.hpp"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cstdlib>

using namespace llvm;

namespace pacxx {
namespace {

bool isStageCall(const Instruction &I) {
  if (auto *CB = dyn_cast<CallBase>(&I))
    if (const Function *F = CB->getCalledFunction())
      for (const char *N : abi::stage_builtins)
        if (F->getName() == N)
          return true;
  return false;
}

bool callsStage(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (isStageCall(I))
      return true;
  return false;
}

// Flattens the kernel (what the JIT does anyway) so that each staged value is one
// expression over the entry's argument bytes, then turns locals into SSA values.
void inlineStagePaths(Function &Entry) {
  // Bounded: a recursive function would otherwise be inlined forever.
  for (unsigned Round = 0, Changed = true; Changed && Round < 64; ++Round) {
    Changed = false;
    SmallVector<CallBase *, 16> Calls;
    for (Instruction &I : instructions(Entry))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (Callee != &Entry && !Callee->isDeclaration())
            Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      InlineFunctionInfo IFI;
      Changed |= InlineFunction(*CB, IFI).isSuccess();
    }
  }
  // -O0 code keeps every value in memory; make it SSA and fold ?: into selects.
  PassBuilder PB;
  pacxx::support::analysis_managers AM(PB);
  FunctionPassManager FPM;
  FPM.addPass(SROAPass());
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(InstCombinePass());
  FPM.run(Entry, AM.function);
}

// The computation of a staged value, checked to be computable on the host.
struct Slice {
  SetVector<Instruction *> Insts;
  const Instruction *Error = nullptr;
  std::string Why;
};

bool isLaunchShape(const Function *F) {
  return F && (F->getName() == "__pacxx_local_size" || F->getName() == "__pacxx_num_groups");
}

// Whether Ptr addresses the launch's argument bytes (the entry's parameter).
bool addressesArguments(Value *Ptr, Argument *Args) {
  Ptr = Ptr->stripPointerCasts();
  while (auto *GEP = dyn_cast<GEPOperator>(Ptr))
    Ptr = GEP->getPointerOperand()->stripPointerCasts();
  return Ptr == Args;
}

void collect(Value *V, Argument *Args, Slice &S) {
  if (S.Error || isa<Constant>(V) || V == Args)
    return;
  auto *I = dyn_cast<Instruction>(V);
  if (!I) {
    S.Why = "depends on something other than the kernel's arguments and launch shape";
    return;
  }
  if (S.Insts.count(I))
    return;
  auto Fail = [&](const char *Why) {
    S.Error = I;
    S.Why = Why;
  };
  if (auto *CB = dyn_cast<CallBase>(I)) {
    const Function *F = CB->getCalledFunction();
    if (F && F->getName().startswith(abi::builtin_prefix) && !isLaunchShape(F))
      return Fail("depends on the thread or block index (a staged value must be known before "
                  "the launch)");
    bool Pure = F && (isLaunchShape(F) || F->isIntrinsic() ||
                      abi::is_device_provided(F->getName().data(), F->getName().size()));
    if (!Pure || isa<DbgInfoIntrinsic>(I))
      return Fail("calls a function (a staged value may use arithmetic, math functions, "
                  "captured values, kernel arguments and the launch shape)");
  } else if (auto *LI = dyn_cast<LoadInst>(I)) {
    if (!addressesArguments(LI->getPointerOperand(), Args))
      return Fail("reads device or local memory (a staged value must be computable from the "
                  "kernel's arguments and captures on the host)");
  } else if (isa<PHINode>(I) || isa<AllocaInst>(I) || I->mayHaveSideEffects()) {
    return Fail("depends on control flow or memory of the kernel");
  }
  for (Value *Op : I->operands())
    collect(Op, Args, S);
  S.Insts.insert(I);
}

// uint64_t stub(const void *args, const void *config): the staged value on the host.
Function *makeStub(Module &Host, Function &Entry, const Slice &S, Value *Staged, unsigned Id) {
  LLVMContext &Ctx = Host.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  PointerType *Ptr = PointerType::getUnqual(Ctx);
  Function *Stub =
      Function::Create(FunctionType::get(I64, {Ptr, Ptr}, false), GlobalValue::InternalLinkage,
                       abi::stage_stub_prefix + Twine(Id), Host);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Stub));
  ValueToValueMapTy VM;
  VM[Entry.getArg(0)] = Stub->getArg(0);
  // Device-module globals and functions are the host module's by name.
  auto HostValue = [&](Value *V) -> Value * {
    if (auto *GV = dyn_cast<GlobalValue>(V))
      if (GlobalValue *H = Host.getNamedValue(GV->getName()))
        return H;
    return nullptr;
  };
  for (Instruction &I : instructions(Entry)) {
    if (!S.Insts.count(&I))
      continue;
    Value *New;
    auto *CB = dyn_cast<CallBase>(&I);
    if (CB && isLaunchShape(CB->getCalledFunction())) {
      // pacxx::launch_config: grid {x, y, z} then block {x, y, z} (abi.hpp's layout).
      unsigned Dim = cast<ConstantInt>(CB->getArgOperand(0))->getZExtValue();
      bool Block = CB->getCalledFunction()->getName() == "__pacxx_local_size";
      std::uint64_t Offset = (Block ? abi::launch_config_block : abi::launch_config_grid) +
                             Dim * abi::launch_config_field;
      Value *Addr = B.CreateConstGEP1_64(B.getInt8Ty(), Stub->getArg(1), Offset);
      New = B.CreateZExtOrTrunc(B.CreateLoad(I64, Addr), I.getType());
    } else {
      Instruction *C = I.clone();
      C->setDebugLoc(DebugLoc());
      for (Use &Op : C->operands()) {
        if (Value *Mapped = VM.lookup(Op.get()))
          Op.set(Mapped);
        else if (Value *H = HostValue(Op.get()))
          Op.set(H);
      }
      if (auto *Call = dyn_cast<CallBase>(C))
        if (Function *F = Call->getCalledFunction())
          if (!F->isIntrinsic() && F->getParent() != &Host)
            Call->setCalledFunction(Host.getOrInsertFunction(F->getName(), F->getFunctionType()));
      B.Insert(C);
      New = C;
    }
    VM[&I] = New;
  }
  Value *V = VM.lookup(Staged);
  if (!V)
    V = Staged; // a constant
  Type *T = V->getType();
  if (T->isFloatTy())
    V = B.CreateZExt(B.CreateBitCast(V, B.getInt32Ty()), I64);
  else if (T->isDoubleTy())
    V = B.CreateBitCast(V, I64);
  else
    V = B.CreateSExtOrTrunc(V, I64);
  B.CreateRet(V);
  return Stub;
}

} // namespace

StagingResult stageKernel(Module &Host, Function &Entry, bool Debug) {
  StagingResult R;
  bool Any = false;
  for (Function &F : *Entry.getParent())
    Any |= !F.isDeclaration() && callsStage(F);
  if (!Any)
    return R;
  inlineStagePaths(Entry);

  SmallVector<CallInst *, 4> Stages;
  for (Instruction &I : instructions(Entry))
    if (isStageCall(I))
      Stages.push_back(cast<CallInst>(&I));
  Module &Dev = *Entry.getParent();
  for (CallInst *Call : Stages) {
    unsigned Id = R.Stubs.size();
    Value *V = Call->getArgOperand(0);
    Slice S;
    collect(V, Entry.getArg(0), S);
    if (S.Error || !S.Why.empty()) {
      if (Debug)
        errs() << "pacxx: staging failed at " << *(S.Error ? S.Error : Call) << "\n" << Entry;
      // Reported at the stage call: the user's line (DeviceCheck picks the frame).
      R.Errors.push_back({Call, &Entry, "stages a value that " + S.Why});
      continue;
    }
    R.Stubs.push_back(makeStub(Host, Entry, S, V, Id));
    std::string Name = std::string(abi::staged_prefix) + (V->getType()->isFloatTy()    ? "float"
                                                          : V->getType()->isDoubleTy() ? "double"
                                                                                       : "int");
    Type *I32 = Type::getInt32Ty(Dev.getContext());
    FunctionCallee Placeholder =
        Dev.getOrInsertFunction(Name, FunctionType::get(V->getType(), {I32, V->getType()}, false));
    IRBuilder<> B(Call);
    CallInst *New = B.CreateCall(Placeholder, {B.getInt32(Id), V});
    New->setDebugLoc(Call->getDebugLoc());
    Call->replaceAllUsesWith(New);
    Call->eraseFromParent();
  }
  return R;
}

} // namespace pacxx

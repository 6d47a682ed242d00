// DeviceCheck: collects what a kernel reaches and diagnoses constructs that cannot
// run on a GPU (virtual calls, function pointers, exceptions, mutable host globals,
// long double, inline asm).
#include "DeviceCheck.h"

#include "pacxx/detail/abi.hpp"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace pacxx {

bool isDeviceProvided(StringRef Name) { return abi::is_device_provided(Name.data(), Name.size()); }

// Clang may record a file relative to some directory; users want the path they know.
static std::string fullPath(StringRef Dir, StringRef File) {
  if (File.startswith("/") || Dir.empty())
    return File.str();
  return (Dir + "/" + File).str();
}

// Of an inlined location, the innermost frame in the user's code rather than in the
// pacxx headers (which implement stage, kernel entries and the algorithms).
static const DILocation *userFrame(const DILocation *L) {
  for (const DILocation *F = L; F; F = F->getInlinedAt())
    if (fullPath(F->getDirectory(), F->getFilename()).find("/include/pacxx/") == std::string::npos)
      return F;
  return L;
}

std::string sourceLocation(const Instruction *I, const Function *F) {
  std::string S;
  raw_string_ostream OS(S);
  if (I)
    if (const DILocation *L = userFrame(I->getDebugLoc())) {
      OS << fullPath(L->getDirectory(), L->getFilename()) << ':' << L->getLine() << ':'
         << L->getColumn();
      return OS.str();
    }
  if (F)
    if (const DISubprogram *SP = F->getSubprogram()) {
      OS << fullPath(SP->getDirectory(), SP->getFilename()) << ':' << SP->getLine();
      return OS.str();
    }
  return S;
}

static bool containsLongDouble(Type *T) {
  if (T->isX86_FP80Ty() || T->isFP128Ty() || T->isPPC_FP128Ty())
    return true;
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), containsLongDouble);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return containsLongDouble(AT->getElementType());
  if (auto *VT = dyn_cast<VectorType>(T))
    return containsLongDouble(VT->getElementType());
  return false;
}

static std::string readable(StringRef Mangled) { return demangle(Mangled.str()); }

// A C++ virtual call, as clang emits it: the callee is loaded from a slot of a
// vtable that was itself loaded from the object (gep ptr, %vtable, N or slot 0).
static bool isVirtualCall(const CallBase &CB) {
  auto *Callee = dyn_cast<LoadInst>(CB.getCalledOperand()->stripPointerCasts());
  if (!Callee)
    return false;
  const Value *Slot = Callee->getPointerOperand();
  if (auto *GEP = dyn_cast<GetElementPtrInst>(Slot)) {
    if (!GEP->getSourceElementType()->isPointerTy())
      return false;
    Slot = GEP->getPointerOperand();
  }
  return isa<LoadInst>(Slot);
}

// A landing pad that only runs destructors, or terminates (noexcept): on a device
// nothing throws, so the pad is dead and the invoke becomes a call.
bool isCleanupOrTerminatePad(const LandingPadInst &LP) {
  bool OnlyCatchAll = true;
  for (unsigned I = 0; I < LP.getNumClauses(); ++I)
    if (!LP.isCatch(I) || !isa<ConstantPointerNull>(LP.getClause(I)))
      OnlyCatchAll = false;
  if (LP.getNumClauses() == 0)
    return true;
  if (!OnlyCatchAll)
    return false;
  for (const Instruction &I : *LP.getParent())
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *F = CB->getCalledFunction())
        if (F->getName() == "__clang_call_terminate" || F->getName() == "_ZSt9terminatev")
          return true;
  return false;
}

// range-v3 keeps empty, trivial function objects (and view adaptors) in one static
// member per type, ranges::box<T, Tag, coalesce>::value, and calls them through it. An
// empty object has no state to read or write, so the device gets its own copy.
static bool isEmptyObjectBox(const GlobalVariable &GV) {
  std::string Name = demangle(GV.getName().str());
  return Name.rfind("ranges::box<", 0) == 0 &&
         Name.find("(ranges::detail::box_compress)2>::value") != std::string::npos;
}

namespace {
class Walker {
  DeviceClosure &C;
  SmallVector<const Function *, 16> Work;
  SmallPtrSet<const Constant *, 32> SeenConstants;

public:
  explicit Walker(DeviceClosure &C) : C(C) {}

  void error(const Instruction *I, const Function *F, const Twine &Msg) {
    C.Errors.push_back({I, F, Msg.str()});
  }

  void addFunction(const Function *F, const Instruction *From) {
    if (!F->isDeclaration() && C.Functions.insert(F)) {
      if (From)
        C.ReachedFrom.try_emplace(F, From);
      Work.push_back(F);
    }
  }

  // Globals and functions referenced from a constant (a global's initialiser or an
  // instruction operand).
  void visitConstant(const Constant *K, const Instruction *At, const Function *In) {
    if (!SeenConstants.insert(K).second && !isa<GlobalVariable>(K))
      return;
    if (auto *GV = dyn_cast<GlobalVariable>(K)) {
      if (GV->getName().startswith("llvm."))
        return;
      if ((!GV->isConstant() && !isEmptyObjectBox(*GV)) || !GV->hasInitializer() ||
          GV->isThreadLocal()) {
        std::string Name = GV->getName().str();
        error(At, In,
              "uses the mutable host global '" + readable(Name) +
                  "' (only constant globals with initialisers are copied to the device)");
        return;
      }
      if (C.Globals.insert(GV))
        visitConstant(GV->getInitializer(), At, In);
      return;
    }
    if (auto *F = dyn_cast<Function>(K)) {
      addFunction(F, At);
      return;
    }
    for (const Use &U : K->operands())
      if (auto *Op = dyn_cast<Constant>(U.get()))
        visitConstant(Op, At, In);
  }

  // Returns whether the call's constant arguments need a visit.
  bool visitCall(const CallBase &CB, const Function *In) {
    if (CB.isInlineAsm()) {
      error(&CB, In, "uses inline assembly");
      return false;
    }
    const Function *Callee = dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
    if (!Callee) {
      if (isVirtualCall(CB))
        error(&CB, In, "makes a virtual call (no vtables on the device)");
      else
        error(&CB, In, "calls through a function pointer");
      return true;
    }
    StringRef Name = Callee->getName();
    if (Name.startswith("llvm.eh.")) // part of a try/catch, diagnosed at its landing pad
      return false;
    // A UBSan check: stripped from device code (see stripSanitizerChecks), so neither
    // the handler nor its static data (a mutable host global) reaches a device.
    if (isSanitizerHandler(Name))
      return false;
    if (Name == "__cxa_throw" || Name == "__cxa_rethrow" || Name == "__cxa_allocate_exception") {
      if (Name != "__cxa_allocate_exception")
        error(&CB, In, "throws an exception (throw)");
      return false; // its typeinfo argument is no further problem
    }
    if (Callee->isDeclaration()) {
      if (!isDeviceProvided(Name) && Name != "__cxa_begin_catch" && Name != "__cxa_end_catch" &&
          Name != "_ZSt9terminatev")
        C.ExternCalls.push_back({&CB, Name.str()});
      return true;
    }
    addFunction(Callee, &CB);
    return true;
  }

  void visitFunction(const Function &F) {
    bool ReportedLongDouble = false;
    const Instruction *LongDoubleAt = nullptr;
    if (containsLongDouble(F.getFunctionType())) {
      error(nullptr, &F, "uses long double in the signature of '" + readable(F.getName()) + "'");
      ReportedLongDouble = true;
    }
    for (const BasicBlock &BB : F) {
      if (auto *LP = BB.getLandingPadInst())
        if (!isCleanupOrTerminatePad(*LP)) {
          // Point at the call inside the try block, which has a useful location.
          const Instruction *At = LP;
          for (const BasicBlock *Pred : predecessors(&BB))
            if (isa<InvokeInst>(Pred->getTerminator()) && Pred->getTerminator()->getDebugLoc())
              At = Pred->getTerminator();
          error(At, &F, "catches exceptions (try/catch)");
        }
      if (BB.isLandingPad() && !isCleanupOrTerminatePad(*BB.getLandingPadInst()))
        continue; // the handler's typeinfo references are part of the same error
      for (const Instruction &I : BB) {
        // A cleanup pad runs only when something throws, which nothing does on a device.
        if (BB.isLandingPad() && isCleanupOrTerminatePad(*BB.getLandingPadInst()))
          break;
        bool LongDouble = containsLongDouble(I.getType());
        if (auto *AI = dyn_cast<AllocaInst>(&I))
          LongDouble |= containsLongDouble(AI->getAllocatedType());
        for (const Use &U : I.operands())
          LongDouble |= containsLongDouble(U->getType());
        if (LongDouble) {
          // Once per function (every use of the value would repeat it), at the first
          // place with a source line (allocas have none).
          if (!ReportedLongDouble && I.getDebugLoc()) {
            error(&I, &F, "uses long double (no device supports it)");
            ReportedLongDouble = true;
          } else if (!LongDoubleAt)
            LongDoubleAt = &I;
          continue;
        }
        if (auto *CB = dyn_cast<CallBase>(&I)) {
          if (!visitCall(*CB, &F))
            continue;
          for (const Use &Arg : CB->args())
            if (auto *K = dyn_cast<Constant>(Arg.get()))
              visitConstant(K, &I, &F);
          continue;
        }
        for (const Use &U : I.operands())
          if (auto *K = dyn_cast<Constant>(U.get()))
            visitConstant(K, &I, &F);
      }
    }
    if (LongDoubleAt && !ReportedLongDouble)
      error(LongDoubleAt, &F, "uses long double (no device supports it)");
  }

  void run(const Function &Root) {
    addFunction(&Root, nullptr);
    while (!Work.empty()) {
      const Function *F = Work.pop_back_val();
      visitFunction(*F);
    }
  }
};
} // namespace

DeviceClosure collectDeviceClosure(const Function &Root) {
  DeviceClosure C;
  Walker(C).run(Root);
  return C;
}

} // namespace pacxx

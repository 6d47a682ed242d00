// Diagnostics: see Diagnostics.h.
#include "Diagnostics.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <deque>

using namespace llvm;

namespace pacxx {
namespace {

// Clang may record a file relative to some directory; users want the path they know.
std::string fullPath(StringRef Dir, StringRef File) {
  if (File.startswith("/") || Dir.empty())
    return File.str();
  return (Dir + "/" + File).str();
}

std::string locationOf(const DILocation &L) {
  return fullPath(L.getDirectory(), L.getFilename()) + ":" + std::to_string(L.getLine()) + ":" +
         std::to_string(L.getColumn());
}

// One frame of a call path: a source position and the (mangled) function it is in.
struct Frame {
  std::string File, Function;
  unsigned Line = 0, Column = 0;
  std::string location() const {
    std::string S = File + ":" + std::to_string(Line);
    if (Column)
      S += ":" + std::to_string(Column);
    return S;
  }
};

// Whose code a frame is in. System headers (the C++ library, range-v3) get no notes of
// their own: the user's frames around them say where the user's code is.
enum class Owner { Unknown, Pacxx, System, User };

Owner ownerOf(const Frame &F) {
  if (F.File.empty() || F.Line == 0)
    return Owner::Unknown;
  if (isPacxxHeader(F.File))
    return Owner::Pacxx;
  if (StringRef(F.File).startswith("/usr/"))
    return Owner::System;
  return Owner::User;
}

// The frames of instruction I in function F, innermost first: its location and the
// inlined-at chain; F's own line where I is null or has no location.
void appendFrames(const Instruction *I, const Function &F, SmallVectorImpl<Frame> &Out) {
  if (I && I->getDebugLoc()) {
    for (const DILocation *L = I->getDebugLoc(); L; L = L->getInlinedAt()) {
      Frame Fr;
      Fr.File = fullPath(L->getDirectory(), L->getFilename());
      Fr.Line = L->getLine();
      Fr.Column = L->getColumn();
      if (!L->getInlinedAt())
        Fr.Function = F.getName().str();
      else if (const DISubprogram *SP = L->getScope()->getSubprogram())
        Fr.Function = (SP->getLinkageName().empty() ? SP->getName() : SP->getLinkageName()).str();
      Out.push_back(Fr);
    }
    return;
  }
  Frame Fr;
  Fr.Function = F.getName().str();
  if (const DISubprogram *SP = F.getSubprogram()) {
    Fr.File = fullPath(SP->getDirectory(), SP->getFilename());
    Fr.Line = SP->getLine();
  }
  Out.push_back(Fr);
}

// "gpu::transform" of the mangled name of gpu::transform<...>(...), split as the
// Itanium demangler does: the declaration context ("gpu") and the base name without
// template arguments ("transform"). False when Mangled is no function's name.
bool functionName(StringRef Mangled, std::string &Context, std::string &Base) {
  ItaniumPartialDemangler D;
  const std::string Name = Mangled.str(); // the demangler's nodes point into it
  if (D.partialDemangle(Name.c_str()) || !D.isFunction())
    return false;
  size_t N = 0;
  char *Ctx = D.getFunctionDeclContextName(nullptr, &N);
  char *B = D.getFunctionBaseName(nullptr, &N);
  bool Ok = Ctx && B;
  if (Ok) {
    Context = Ctx;
    Base = B;
  }
  std::free(Ctx);
  std::free(B);
  return Ok;
}

// An entry point of the GPU STL a user calls by name: in namespace gpu (or gpu::action,
// gpu::views...), not in a detail namespace, not an operator or a lambda.
bool isAlgorithm(const std::string &Context, const std::string &Base) {
  return (Context == "gpu" || StringRef(Context).startswith("gpu::")) &&
         Context.find("detail") == std::string::npos &&
         Context.find_first_of("<('{") == std::string::npos &&
         !StringRef(Base).startswith("operator");
}

// Functions whose code uses V (a global's address): through constant expressions and
// initialisers of constants, to the instructions.
void usersOf(const Value &V, SmallVectorImpl<const Function *> &Out, unsigned Depth = 0) {
  if (Depth > 8)
    return;
  for (const User *U : V.users()) {
    if (auto *I = dyn_cast<Instruction>(U))
      Out.push_back(I->getFunction());
    else if (isa<Constant>(U) && !isa<GlobalValue>(U))
      usersOf(*U, Out, Depth + 1);
  }
}

bool inPacxxHeaders(const Function &F) {
  const DISubprogram *SP = F.getSubprogram();
  return SP && isPacxxHeader(fullPath(SP->getDirectory(), SP->getFilename()));
}

} // namespace

bool isPacxxHeader(StringRef Path) { return Path.contains("/include/pacxx/"); }

LaunchSite findLaunchSite(const Function &Entry) {
  LaunchSite Site;
  // Up the host call graph from the launcher, through pacxx's headers only: Toward[G]
  // is the function G calls on the way to the launch (null for the launcher).
  DenseMap<const Function *, const Function *> Toward;
  std::deque<const Function *> Queue;
  SmallVector<const Function *, 4> Launchers;
  usersOf(Entry, Launchers);
  for (const Function *L : Launchers)
    if (L != &Entry && inPacxxHeaders(*L) && Toward.try_emplace(L, nullptr).second)
      Queue.push_back(L);
  const CallBase *UserCall = nullptr;
  const Function *Called = nullptr;
  while (!Queue.empty() && !UserCall && Toward.size() < 10000) {
    const Function *G = Queue.front();
    Queue.pop_front();
    for (const User *U : G->users()) {
      auto *CB = dyn_cast<CallBase>(U);
      if (!CB || CB->getCalledOperand() != G)
        continue;
      const Function *Caller = CB->getFunction();
      if (!Caller->getSubprogram())
        continue; // no line tables: nowhere to point at
      if (!inPacxxHeaders(*Caller)) {
        if (CB->getDebugLoc()) {
          UserCall = CB;
          Called = G;
          break;
        }
        continue;
      }
      if (Toward.try_emplace(Caller, G).second)
        Queue.push_back(Caller);
    }
  }
  if (!UserCall)
    return Site;
  Site.At = UserCall->getDebugLoc();
  // The algorithm: the first of the functions on the way from the user's call to the
  // launch that users call by name (the user may have called an operator| that calls
  // gpu::reduce). pacxx::kernel's launcher called directly is a raw kernel.
  std::string Context, Base, FirstName;
  if (functionName(Called->getName(), Context, Base)) {
    if (StringRef(Context).startswith("pacxx::kernel_launcher<"))
      return Site;
    FirstName = Context.empty() ? Base : Context + "::" + Base;
  } else {
    FirstName = demangle(Called->getName().str());
  }
  for (const Function *G = Called; G; G = Toward.lookup(G))
    if (functionName(G->getName(), Context, Base) && isAlgorithm(Context, Base)) {
      Site.Algorithm = Context + "::" + Base;
      return Site;
    }
  Site.Algorithm = FirstName;
  return Site;
}

PlacedDiagnostic placeDiagnostic(const Instruction *At, const Function *Fn,
                                 const ReachedFromMap &ReachedFrom, const LaunchSite &Launch) {
  PlacedDiagnostic D;
  SmallVector<Frame, 16> Frames;
  const Function *F = At ? At->getFunction() : Fn;
  const Instruction *I = At;
  SmallPtrSet<const Function *, 16> Seen;
  while (F && Frames.size() < 256) {
    appendFrames(I, *F, Frames);
    if (!Seen.insert(F).second)
      break;
    I = ReachedFrom.lookup(F);
    F = I ? I->getFunction() : nullptr;
  }
  if (Frames.empty())
    return D;

  raw_string_ostream Notes(D.Notes);
  const bool Algorithm = Launch.At && !Launch.Algorithm.empty();
  // The error: at the innermost frame outside pacxx's headers.
  size_t Err = 0;
  while (Err < Frames.size() &&
         (ownerOf(Frames[Err]) == Owner::Pacxx || ownerOf(Frames[Err]) == Owner::Unknown))
    ++Err;
  if (Err == Frames.size()) {
    // All of it is the library's (a function pointer given to an algorithm that calls
    // it): the error is at the user's call of the algorithm.
    size_t Known = 0;
    while (Known < Frames.size() && ownerOf(Frames[Known]) == Owner::Unknown)
      ++Known;
    if (Algorithm) {
      D.Location = locationOf(*Launch.At);
      if (Known < Frames.size())
        Notes << Frames[Known].location() << ": note: in pacxx's code of " << Launch.Algorithm
              << " here\n";
      Notes.flush();
      return D;
    }
    Err = Known < Frames.size() ? Known : 0;
    if (!Frames[Err].File.empty())
      D.Location = Frames[Err].location();
    D.Function = demangle(Frames[Err].Function);
    return D;
  }
  D.Location = Frames[Err].location();
  D.Function = demangle(Frames[Err].Function);
  // The user's frames around it, outwards (the function passed to the algorithm and
  // what it calls on the way).
  for (size_t J = Err + 1; J < Frames.size(); ++J)
    if (ownerOf(Frames[J]) == Owner::User)
      Notes << Frames[J].location() << ": note: called from here\n";
  if (Algorithm) {
    // The user's function is "passed to" the algorithm when pacxx's code calls it
    // directly; otherwise (a view's function, called by range-v3) the kernel runs it.
    size_t Last = Err;
    while (Last + 1 < Frames.size() && ownerOf(Frames[Last + 1]) != Owner::Pacxx)
      ++Last;
    bool Passed = ownerOf(Frames[Last]) == Owner::User && Last + 1 < Frames.size();
    Notes << locationOf(*Launch.At) << ": note: in "
          << (Passed ? "the function passed to " : "a kernel of ") << Launch.Algorithm
          << (Passed ? " here" : " launched here") << "\n";
  }
  Notes.flush();
  return D;
}

} // namespace pacxx

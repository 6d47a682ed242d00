// Diagnostics: where in the user's code an error in device code belongs, and how to say
// it as a compiler would.
//
// A kernel of the GPU STL (gpu::transform, gpu::sort...) is a lambda in pacxx's headers
// that calls the user's functions. An error found in it is reported at the innermost
// frame of the call path (kernel entry -> ... -> the offending instruction; line-table
// inlined-at chains and DeviceClosure::ReachedFrom) that is not in pacxx's headers, with
// a note at each of the user's frames around it, and a note at the host call in the
// user's code that launched the kernel, naming the algorithm. The host call is found
// from the kernel entry's address, which the launcher (pacxx::kernel_launcher) passes to
// the runtime: up the host call graph to the first caller outside pacxx's headers.
#pragma once
#include <string>

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"

namespace pacxx {

// A file of pacxx's own headers (".../include/pacxx/...").
bool isPacxxHeader(llvm::StringRef Path);

// Where the user's code launches a kernel (host side).
struct LaunchSite {
  const llvm::DILocation *At = nullptr; // the call in the user's code; null: not found
  // The GPU STL algorithm called there, demangled without template arguments
  // ("gpu::transform"); empty for a raw pacxx::kernel (the user's lambda is the kernel).
  std::string Algorithm;
};

// The first host call outside pacxx's headers that leads to a launch of Entry.
LaunchSite findLaunchSite(const llvm::Function &Entry);

// A device-code problem placed in the user's code: "Location: error: ..." (Location may
// be empty: unknown), then Notes, zero or more whole lines "file:line:col: note: ...\n".
struct PlacedDiagnostic {
  std::string Location;
  std::string Function; // demangled, where the error is; empty when it is the library's
  std::string Notes;
};

using ReachedFromMap = llvm::DenseMap<const llvm::Function *, const llvm::Instruction *>;

// Places a problem at instruction At (or, when At is null, at function Fn) of a kernel
// launched at Launch. ReachedFrom is the kernel's DeviceClosure::ReachedFrom.
PlacedDiagnostic placeDiagnostic(const llvm::Instruction *At, const llvm::Function *Fn,
                                 const ReachedFromMap &ReachedFrom, const LaunchSite &Launch);

} // namespace pacxx

// link_device_library: the definitions of the C99 complex functions that std::complex
// calls in kernels (__mulsc3, cexpf, ...), from jit/device_library/complex.cpp. That
// file is compiled by clang++-15 for x86-64 to bitcode at build time, for the same
// reason the kernels' IR is x86-64 IR: the definitions then have exactly the types
// clang gave the calls (float _Complex as <2 x float>, ...), whatever the target. Written
// in C++ and compiled rather than built here with IRBuilder: the special values of
// Annex G are many branches that read as they are specified in C, and the compiled
// functions call hypot, exp, atan2, ... which each target's lowering maps to its own
// math afterwards, as it does for a kernel's calls.
#include "jit/lowering.hpp"

#include "pacxx/detail/abi.hpp"
#include "pacxx/error.hpp"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace llvm;

// The bitcode, embedded at build time (device_library.S).
extern "C" const char pacxx_device_library_begin[], pacxx_device_library_end[];

namespace pacxx {
namespace jit {

static std::string type_name(Type *t) {
  std::string s;
  raw_string_ostream os(s);
  t->print(os);
  return os.str();
}

// The library's functions are compiled for a host CPU: its attributes (CPU, features,
// frame layout) must not reach a GPU target, where they would also keep the functions
// from being inlined into kernels, which have none. "no-builtins" (from -ffreestanding)
// goes too: the JIT lets the optimiser assume no C library anywhere.
static void strip_host_attributes(Module &lib) {
  for (Function &f : lib) {
    for (const char *k : {"target-cpu", "target-features", "tune-cpu", "frame-pointer",
                          "stack-protector-buffer-size", "min-legal-vector-width", "no-builtins"})
      f.removeFnAttr(k);
    f.removeFnAttr(Attribute::UWTable);
    for (User *u : f.users())
      if (auto *c = dyn_cast<CallBase>(u))
        c->removeFnAttrs(
            AttributeMask().addAttribute(Attribute::NoBuiltin).addAttribute("no-builtins"));
  }
}

void link_device_library(Module &m, const std::string &kernel) {
  std::vector<Function *> wanted;
  for (Function &f : m) {
    bool is_float = false;
    const StringRef name = f.getName();
    const abi::lib_function *lf = abi::find_lib_function(name.data(), name.size(), &is_float);
    if (f.isDeclaration() && !f.use_empty() && lf && abi::is_complex(lf->shape))
      wanted.push_back(&f);
  }
  if (wanted.empty())
    return;
  const std::size_t size = pacxx_device_library_end - pacxx_device_library_begin;
  auto buf = MemoryBuffer::getMemBuffer(StringRef(pacxx_device_library_begin, size),
                                        "pacxx-device-library", false);
  Expected<std::unique_ptr<Module>> lib = parseBitcodeFile(buf->getMemBufferRef(), m.getContext());
  if (!lib)
    throw error("pacxx: cannot read the JIT's device library: " + toString(lib.takeError()));
  for (Function *f : wanted) {
    Function *def = (*lib)->getFunction(f->getName());
    if (!def || def->isDeclaration())
      throw error("pacxx: internal error: the device library does not define '" +
                  f->getName().str() + "'");
    // Not the C function (a kernel's own extern "C" function of that name, or IR from a
    // compiler with another ABI): linking would call it with the wrong types.
    if (def->getFunctionType() != f->getFunctionType())
      throw error("pacxx: kernel '" + kernel + "' calls '" + f->getName().str() + "' as " +
                  type_name(f->getFunctionType()) + ", which is not the C library's " +
                  type_name(def->getFunctionType()));
  }
  strip_host_attributes(**lib);
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  if (Linker::linkModules(m, std::move(*lib), Linker::LinkOnlyNeeded))
    throw error("pacxx: linking the JIT's device library failed");
}

} // namespace jit
} // namespace pacxx

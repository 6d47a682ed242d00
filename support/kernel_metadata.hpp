// The named metadata of a device module (abi.hpp names it), encoded and decoded in one
// place: KernelExtraction writes it, the JIT (program.cpp, compile.cpp) and the pass's
// unit tests read it.
//   !pacxx.kernels       !{!"mangled entry", i64 payload_size, i64 payload_align, !"readable name"}
//   !pacxx.extern_calls  !{!"callee", !"file:line:col", !"readable kernel name", !"notes"}
// A change to either layout is a change to the contract: bump abi::module_version.
//
// Header-only for the reason pass_managers.hpp gives: the plugin and libpacxx each
// compile it against their own LLVM.
#pragma once
#include "pacxx/detail/abi.hpp"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pacxx {
namespace support {

// One kernel of the module: its entry kernel_entry<P> and the payload P it takes.
struct kernel_metadata {
  std::string entry;   // mangled name of kernel_entry<P>
  std::string display; // what the user calls it: "(lambda at file.cpp:12:7)"
  std::uint64_t args_size = 0, args_align = 1;
};

// A call from kernel code to a function the unit does not define, resolved against the
// other units when the program is linked. `notes`: whole lines "file:line:col: note: ...\n"
// to print after the error (the user's frames and the algorithm call that launched the
// kernel), or empty.
struct extern_call_metadata {
  std::string callee, location, kernel, notes;
};

namespace detail {

inline std::optional<std::string> md_string(const llvm::MDNode &n, unsigned i) {
  if (auto *s = llvm::dyn_cast_or_null<llvm::MDString>(n.getOperand(i).get()))
    return s->getString().str();
  return std::nullopt;
}

inline std::optional<std::uint64_t> md_u64(const llvm::MDNode &n, unsigned i) {
  if (auto *c = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(n.getOperand(i).get()))
    return c->getZExtValue();
  return std::nullopt;
}

} // namespace detail

inline void add_kernel(llvm::Module &m, const kernel_metadata &k) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  auto u64 = [&](std::uint64_t v) {
    return llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i64, v));
  };
  m.getOrInsertNamedMetadata(abi::md_kernels)
      ->addOperand(
          llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, k.entry), u64(k.args_size),
                                  u64(k.args_align), llvm::MDString::get(ctx, k.display)}));
}

inline void add_extern_call(llvm::Module &m, const extern_call_metadata &c) {
  llvm::LLVMContext &ctx = m.getContext();
  m.getOrInsertNamedMetadata(abi::md_extern_calls)
      ->addOperand(llvm::MDNode::get(
          ctx, {llvm::MDString::get(ctx, c.callee), llvm::MDString::get(ctx, c.location),
                llvm::MDString::get(ctx, c.kernel), llvm::MDString::get(ctx, c.notes)}));
}

// nullopt when a node is malformed (not written by this encoder); an empty list when
// the module has none.
inline std::optional<kernel_metadata> decode_kernel(const llvm::MDNode &n) {
  if (n.getNumOperands() != 4)
    return std::nullopt;
  auto entry = detail::md_string(n, 0), display = detail::md_string(n, 3);
  auto size = detail::md_u64(n, 1), align = detail::md_u64(n, 2);
  if (!entry || !display || !size || !align)
    return std::nullopt;
  return kernel_metadata{*entry, *display, *size, *align};
}

inline std::optional<extern_call_metadata> decode_extern_call(const llvm::MDNode &n) {
  if (n.getNumOperands() != 4)
    return std::nullopt;
  auto callee = detail::md_string(n, 0), location = detail::md_string(n, 1),
       kernel = detail::md_string(n, 2), notes = detail::md_string(n, 3);
  if (!callee || !location || !kernel || !notes)
    return std::nullopt;
  return extern_call_metadata{*callee, *location, *kernel, *notes};
}

namespace detail {
template <class T, class Decode>
std::optional<std::vector<T>> read_all(const llvm::Module &m, const char *name, Decode decode) {
  std::vector<T> out;
  if (const llvm::NamedMDNode *md = m.getNamedMetadata(name))
    for (const llvm::MDNode *n : md->operands()) {
      std::optional<T> x = decode(*n);
      if (!x)
        return std::nullopt;
      out.push_back(std::move(*x));
    }
  return out;
}
} // namespace detail

inline std::optional<std::vector<kernel_metadata>> read_kernels(const llvm::Module &m) {
  return detail::read_all<kernel_metadata>(m, abi::md_kernels, decode_kernel);
}

inline std::optional<std::vector<extern_call_metadata>> read_extern_calls(const llvm::Module &m) {
  return detail::read_all<extern_call_metadata>(m, abi::md_extern_calls, decode_extern_call);
}

// Removes both from a module (the JIT, once it has read them: no target wants them).
inline void erase_kernel_metadata(llvm::Module &m) {
  for (const char *name : {abi::md_kernels, abi::md_extern_calls})
    if (llvm::NamedMDNode *md = m.getNamedMetadata(name))
      md->eraseFromParent();
}

} // namespace support
} // namespace pacxx

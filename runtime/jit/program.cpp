// jit::program: the device modules of a process, and linking them for one kernel.
#include "jit/jit.hpp"

#include "kernel_metadata.hpp"

#include "pacxx/detail/abi.hpp"
#include "pacxx/error.hpp"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <optional>
#include <set>

using namespace llvm;

namespace pacxx {
namespace jit {

// Same rule as the offline compiler's DeviceCheck: what the JIT itself provides.
static bool provided(StringRef name) { return abi::is_device_provided(name.data(), name.size()); }

std::vector<std::string_view> program::images() const {
  std::lock_guard<std::mutex> lock(index_mutex_);
  std::vector<std::string_view> out;
  for (const image &im : modules_)
    out.emplace_back(im.data, im.size);
  return out;
}

std::size_t program::add(const char *bitcode, std::size_t size) {
  std::lock_guard<std::mutex> lock(index_mutex_);
  modules_.push_back({bitcode, size});
  return modules_.size() - 1;
}

std::unique_ptr<Module> program::parse(LLVMContext &ctx, std::size_t module) const {
  const image &im = modules_.at(module);
  auto buffer =
      MemoryBuffer::getMemBuffer(StringRef(im.data, im.size), "pacxx-device-module", false);
  Expected<std::unique_ptr<Module>> m = parseBitcodeFile(buffer->getMemBufferRef(), ctx);
  if (!m)
    throw error("pacxx: cannot read device module " + std::to_string(module) + ": " +
                toString(m.takeError()));
  return std::move(*m);
}

std::vector<kernel_info> kernels_in(const Module &m) {
  std::optional<std::vector<support::kernel_metadata>> md = support::read_kernels(m);
  if (!md)
    throw error("pacxx: internal error: malformed !" + std::string(abi::md_kernels) +
                " in a device module");
  std::vector<kernel_info> out;
  for (const support::kernel_metadata &k : *md)
    out.push_back({k.entry, k.display, k.args_size, k.args_align});
  return out;
}

std::vector<kernel_info> program::kernels(std::size_t module) const {
  LLVMContext ctx;
  std::unique_ptr<Module> m = parse(ctx, module);
  return kernels_in(*m);
}

// Which module defines each externally visible function (built once, lazily: most
// programs never need it).
void program::index() const {
  std::lock_guard<std::mutex> lock(index_mutex_);
  for (; indexed_ < modules_.size(); ++indexed_) {
    LLVMContext ctx;
    std::unique_ptr<Module> m = parse(ctx, indexed_);
    for (const Function &f : *m)
      if (!f.isDeclaration() && f.hasExternalLinkage())
        definitions_.emplace(f.getName().str(), indexed_);
  }
}

// Links into `m` the modules that define what it calls; returns what no module defines.
std::vector<link_problem> program::resolve(Module &m, std::size_t module) const {
  std::set<std::size_t> linked{module};
  for (;;) {
    index();
    std::set<std::size_t> wanted;
    for (const Function &f : m)
      if (f.isDeclaration() && !f.use_empty() && !provided(f.getName())) {
        std::lock_guard<std::mutex> lock(index_mutex_);
        auto it = definitions_.find(f.getName().str());
        if (it != definitions_.end() && !linked.count(it->second))
          wanted.insert(it->second);
      }
    if (wanted.empty())
      break;
    for (std::size_t w : wanted) {
      linked.insert(w);
      if (Linker::linkModules(m, parse(m.getContext(), w), Linker::LinkOnlyNeeded))
        throw error("pacxx: linking device module " + std::to_string(w) + " failed");
    }
  }
  std::vector<link_problem> problems;
  std::set<std::string> missing;
  for (const Function &f : m)
    if (f.isDeclaration() && !f.use_empty() && !provided(f.getName()))
      missing.insert(f.getName().str());
  std::optional<std::vector<support::extern_call_metadata>> calls = support::read_extern_calls(m);
  if (!calls)
    throw error("pacxx: internal error: malformed !" + std::string(abi::md_extern_calls) +
                " in device module " + std::to_string(module));
  for (const std::string &callee : missing) {
    bool described = false;
    for (const support::extern_call_metadata &c : *calls)
      if (c.callee == callee) {
        problems.push_back({callee, c.location, c.kernel, c.notes});
        described = true;
      }
    if (!described)
      problems.push_back({callee, "", "", ""});
  }
  return problems;
}

// Keeps only the kernel and what it reaches: other kernels and the definitions the
// unit exports for other units would otherwise pull in modules this kernel never needs.
static void prune_to(Module &m, Function &entry) {
  for (bool changed = true; changed;) {
    changed = false;
    for (Function &g : make_early_inc_range(m))
      if (&g != &entry && g.use_empty()) {
        g.eraseFromParent();
        changed = true;
      }
    for (GlobalVariable &g : make_early_inc_range(m.globals()))
      if (g.use_empty()) {
        g.eraseFromParent();
        changed = true;
      }
  }
}

// Each problem once: the kernels of one algorithm call (a sort has several) and every
// kernel of a module checked at link report the same call.
static std::string describe(const std::vector<link_problem> &problems) {
  std::string msg;
  std::set<std::string> seen;
  for (const link_problem &p : problems) {
    std::string one = (p.location.empty() ? std::string("<unknown location>") : p.location) +
                      ": error: pacxx: kernel '" + p.kernel + "' calls '" + demangle(p.callee) +
                      "' whose body is nowhere in the program (or cannot run on a device)\n" +
                      p.notes;
    if (seen.insert(one).second)
      msg += one;
  }
  return msg;
}

// Reads only the function bodies that `entry` can reach. A unit's module holds
// every kernel of the unit, and reading all of it (bitcode, attribute upgrade and the
// reader's verifier) for each kernel made the JIT of a program quadratic in its kernel
// count. Measured 2026-11-27 on the 2-core CI-like machine (under load): pacxx-kernels
// --ptx on stl_sort_test (143 kernels) 85 s before, 22.5 s after; on
// stl_segmented_scan_sort_test (293 kernels) 182 s before, 27 s after; same PTX.
// This is llvm-extract's recipe: materialise what is used, turn the rest into
// declarations (out of their comdats), then finish the module.
static void materialize_reachable(Module &m, Function &entry, std::size_t module) {
  auto check = [module](Error e) {
    if (e)
      throw error("pacxx: cannot read device module " + std::to_string(module) + ": " +
                  toString(std::move(e)));
  };
  check(entry.materialize());
  for (bool changed = true; changed;) {
    changed = false;
    for (Function &g : m)
      if (g.isMaterializable() && !g.use_empty()) {
        check(g.materialize());
        changed = true;
      }
  }
  for (Function &g : m)
    if (g.isMaterializable()) {
      g.deleteBody();
      g.setComdat(nullptr);
    }
  check(m.materializeAll());
}

std::unique_ptr<Module> program::link(LLVMContext &ctx, std::size_t module,
                                      const std::string &entry,
                                      std::vector<link_problem> *problems) const {
  const image &im = modules_.at(module);
  Expected<std::unique_ptr<Module>> lazy = getLazyBitcodeModule(
      MemoryBufferRef(StringRef(im.data, im.size), "pacxx-device-module"), ctx);
  if (!lazy)
    throw error("pacxx: cannot read device module " + std::to_string(module) + ": " +
                toString(lazy.takeError()));
  std::unique_ptr<Module> m = std::move(*lazy);
  Function *f = m->getFunction(entry);
  if (!f || f->isDeclaration())
    throw error("pacxx: kernel " + entry + " is not in device module " + std::to_string(module));
  materialize_reachable(*m, *f, module);
  prune_to(*m, *f);
  std::vector<link_problem> missing = resolve(*m, module);
  if (problems)
    *problems = std::move(missing);
  else if (!missing.empty())
    throw error("pacxx: kernel cannot be linked:\n" + describe(missing));
  return m;
}

std::vector<link_problem> program::check() const {
  std::vector<link_problem> all;
  for (std::size_t i = 0; i < modules_.size(); ++i)
    for (const kernel_info &k : kernels(i)) {
      LLVMContext ctx;
      std::vector<link_problem> p;
      link(ctx, i, k.entry, &p);
      all.insert(all.end(), p.begin(), p.end());
    }
  return all;
}

std::string describe_link_problems(const std::vector<link_problem> &problems) {
  return describe(problems);
}

} // namespace jit
} // namespace pacxx

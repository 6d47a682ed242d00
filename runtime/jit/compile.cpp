// jit::compile: link, lower to the target, optimise, emit. Target-independent steps
// live here; nvptx.cpp and spir.cpp hold what differs.
#include "jit/jit.hpp"
#include "jit/lowering.hpp"

#include "pacxx/detail/abi.hpp"
#include "pacxx/error.hpp"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/ADT/Triple.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"

using namespace llvm;

namespace pacxx {
namespace jit {

void for_each_call(Module &m, StringRef name, const std::function<Value *(CallInst &)> &replace) {
  Function *f = m.getFunction(name);
  if (!f)
    return;
  SmallVector<CallInst *, 16> calls;
  for (User *u : f->users())
    if (auto *c = dyn_cast<CallInst>(u))
      calls.push_back(c);
  for (CallInst *c : calls) {
    Value *v = replace(*c);
    if (v && v != c) {
      c->replaceAllUsesWith(v);
      c->eraseFromParent();
    }
  }
  if (f->use_empty())
    f->eraseFromParent();
}

unsigned dimension_of(CallInst &call) {
  auto *d = dyn_cast<ConstantInt>(call.getArgOperand(0));
  if (!d || d->getZExtValue() > 2)
    throw error("pacxx: a thread or block index builtin was called with a dimension that is not "
                "0, 1 or 2 known at compile time");
  return static_cast<unsigned>(d->getZExtValue());
}

// "llvm.sin.f32" -> ("sin", float); "sinf" -> ("sin", float); "sin" -> ("sin", double).
static bool math_name(const Function &f, bool map_intrinsics, StringRef &base, bool &is_float,
                      int &arity) {
  StringRef n = f.getName();
  if (n.startswith("llvm.")) {
    if (!map_intrinsics)
      return false;
    StringRef rest = n.drop_front(5);
    if (rest.endswith(".f32"))
      is_float = true;
    else if (rest.endswith(".f64"))
      is_float = false;
    else
      return false;
    rest = rest.drop_back(4);
    // The intrinsics that some target lowers to a libcall it cannot resolve.
    static const char *const mapped[] = {"sin", "cos", "exp", "exp2", "log", "log2",
                                         "log10", "pow", "round", "fma"};
    for (const char *x : mapped)
      if (rest == x)
        for (const auto &mf : abi::math_functions)
          if (rest == mf.name) {
            base = mf.name;
            arity = mf.arity;
            return true;
          }
    return false;
  }
  const abi::math_function *mf = abi::find_math_function(n.data(), n.size(), &is_float);
  if (!mf)
    return false;
  base = mf->name;
  arity = mf->arity;
  return true;
}

void map_math(Module &m, CallingConv::ID cc,
              const std::function<std::string(StringRef, bool, int)> &target_name,
              bool map_intrinsics) {
  SmallVector<Function *, 16> fns;
  for (Function &f : m)
    if (f.isDeclaration())
      fns.push_back(&f);
  for (Function *f : fns) {
    StringRef base;
    bool is_float = false;
    int arity = 0;
    if (!math_name(*f, map_intrinsics, base, is_float, arity))
      continue;
    Type *fp = is_float ? Type::getFloatTy(m.getContext()) : Type::getDoubleTy(m.getContext());
    FunctionType *ty = f->getFunctionType();
    bool shape_ok = ty->getReturnType() == fp && ty->getNumParams() == unsigned(arity);
    for (Type *p : ty->params())
      shape_ok &= p == fp;
    if (!shape_ok)
      continue;
    std::string target = target_name(base, is_float, arity);
    FunctionCallee callee = m.getOrInsertFunction(target, ty);
    auto *nf = cast<Function>(callee.getCallee());
    nf->setCallingConv(cc);
    nf->setDoesNotThrow();
    nf->setWillReturn();
    nf->setDoesNotAccessMemory();
    SmallVector<CallInst *, 8> calls;
    for (User *u : f->users())
      if (auto *c = dyn_cast<CallInst>(u))
        calls.push_back(c);
    for (CallInst *c : calls) {
      c->setCalledFunction(nf);
      c->setCallingConv(cc);
    }
    if (f->use_empty())
      f->eraseFromParent();
  }
}

void move_constants(Module &m, unsigned as) {
  SmallVector<GlobalVariable *, 8> olds;
  for (GlobalVariable &g : m.globals())
    if (g.getAddressSpace() == 0 && g.hasInitializer())
      olds.push_back(&g);
  for (GlobalVariable *g : olds) {
    auto *ng = new GlobalVariable(m, g->getValueType(), g->isConstant(), g->getLinkage(),
                                  g->getInitializer(), "", nullptr, g->getThreadLocalMode(), as);
    ng->copyAttributesFrom(g);
    ng->takeName(g);
    g->replaceAllUsesWith(ConstantExpr::getAddrSpaceCast(ng, g->getType()));
    g->eraseFromParent();
  }
}

void lower_static_shared_memory(Module &m) {
  for_each_call(m, "__pacxx_shared_memory", [&](CallInst &c) -> Value * {
    auto *bytes = dyn_cast<ConstantInt>(c.getArgOperand(0));
    auto *align = dyn_cast<ConstantInt>(c.getArgOperand(1));
    if (!bytes || !align)
      throw error("pacxx: shared memory of a size not known at compile time");
    auto *ty = ArrayType::get(Type::getInt8Ty(m.getContext()), bytes->getZExtValue());
    auto *g = new GlobalVariable(m, ty, false, GlobalValue::InternalLinkage, UndefValue::get(ty),
                                 "__pacxx_shared", nullptr, GlobalValue::NotThreadLocal, 3);
    g->setAlignment(Align(std::max<uint64_t>(align->getZExtValue(), 4)));
    return ConstantExpr::getAddrSpaceCast(g, c.getType());
  });
}

void internalize_except(Module &m, Function &kernel) {
  for (Function &f : m)
    if (&f != &kernel && !f.isDeclaration())
      f.setLinkage(GlobalValue::InternalLinkage);
  for (GlobalVariable &g : m.globals())
    if (!g.isDeclaration())
      g.setLinkage(GlobalValue::InternalLinkage);
}

void optimize(Module &m, TargetMachine *tm) {
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  PassBuilder pb(tm);
  if (tm)
    tm->registerPassBuilderCallbacks(pb);
  // No C library on a device: the optimiser must not invent calls to one.
  TargetLibraryInfoImpl tlii(Triple(m.getTargetTriple()));
  tlii.disableAllFunctions();
  fam.registerPass([&] { return TargetLibraryAnalysis(tlii); });
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  mpm.run(m, mam);
}

static void run_always_inliner(Module &m) {
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  ModulePassManager mpm;
  mpm.addPass(AlwaysInlinerPass(false));
  mpm.run(m, mam);
}

static kernel_info info_of(const Module &m, const std::string &entry) {
  if (NamedMDNode *md = m.getNamedMetadata(abi::md_kernels))
    for (MDNode *n : md->operands())
      if (cast<MDString>(n->getOperand(0))->getString() == entry) {
        kernel_info k;
        k.entry = entry;
        k.args_size = mdconst::extract<ConstantInt>(n->getOperand(1))->getZExtValue();
        k.args_align = mdconst::extract<ConstantInt>(n->getOperand(2))->getZExtValue();
        k.display = cast<MDString>(n->getOperand(3))->getString().str();
        return k;
      }
  throw error("pacxx: no description of kernel " + entry + " in its device module");
}

static void verify(Module &m, const kernel_info &k, const char *stage) {
  std::string msg;
  raw_string_ostream os(msg);
  if (verifyModule(m, &os))
    throw error(std::string("pacxx: internal error: invalid IR ") + stage + " for kernel '" +
                k.display + "': " + os.str());
}

// Each __pacxx_staged_<type>(id, v) becomes the host's value for id (the constant the
// optimiser then propagates: loops with staged bounds unroll), or v when not staging.
// A pacxx::stage the compiler could not stage (outside a kernel's own code) is v.
static void substitute_staged(Module &m, const std::vector<std::uint64_t> *staged) {
  SmallVector<Function *, 4> fns;
  for (Function &f : m)
    if (f.getName().startswith(abi::staged_prefix) || f.getName().startswith("__pacxx_stage_"))
      fns.push_back(&f);
  for (Function *f : fns)
    for_each_call(m, f->getName(), [&](CallInst &c) -> Value * {
      if (!f->getName().startswith(abi::staged_prefix))
        return c.getArgOperand(0);
      auto id = cast<ConstantInt>(c.getArgOperand(0))->getZExtValue();
      if (!staged)
        return c.getArgOperand(1);
      if (id >= staged->size())
        throw error("pacxx: internal error: staged value " + std::to_string(id) + " missing");
      uint64_t bits = (*staged)[id];
      Type *t = c.getType();
      if (t->isFloatTy())
        return ConstantFP::get(t, APFloat(APFloat::IEEEsingle(), APInt(32, bits & 0xffffffffu)));
      if (t->isDoubleTy())
        return ConstantFP::get(t, APFloat(APFloat::IEEEdouble(), APInt(64, bits)));
      return ConstantInt::get(t, bits, /*signed=*/true);
    });
}

// Owning views (pacxx/detail/owner.hpp) count references on the host only: a kernel's
// copies of a view are byte copies of the launch payload, which the host keeps alive,
// so retain and release are removed. Creating ownership in a kernel has no meaning.
static void remove_ownership(Module &m, const kernel_info &k) {
  if (Function *f = m.getFunction("__pacxx_owner_new"); f && !f->use_empty())
    throw error("pacxx: kernel '" + k.display + "' creates an owning view (a view over a "
                "temporary gpu::vector) in device code; build views on the host and pass them "
                "to the kernel");
  for (const char *name : {"__pacxx_owner_retain", "__pacxx_owner_release"}) {
    Function *f = m.getFunction(name);
    if (!f)
      continue;
    SmallVector<CallInst *, 8> calls;
    for (User *u : f->users())
      if (auto *c = dyn_cast<CallInst>(u))
        calls.push_back(c);
    for (CallInst *c : calls)
      c->eraseFromParent();
    if (f->use_empty())
      f->eraseFromParent();
  }
}

compiled_kernel compile(const program &p, std::size_t module, const std::string &entry,
                        rt::ir_target target, const std::string &arch,
                        const std::vector<std::uint64_t> *staged) {
  LLVMContext ctx;
  std::unique_ptr<Module> m = p.link(ctx, module, entry);
  compiled_kernel out;
  out.info = info_of(*m, entry);
  m->getNamedMetadata(abi::md_kernels)->eraseFromParent();
  if (NamedMDNode *calls = m->getNamedMetadata(abi::md_extern_calls))
    calls->eraseFromParent();

  Function *f = m->getFunction(entry);
  substitute_staged(*m, staged);
  remove_ownership(*m, out.info);
  // Per-call-site shared memory needs the call sites that always_inline creates.
  run_always_inliner(*m);
  lower_static_shared_memory(*m);

  Function *kernel = target == rt::ir_target::nvptx ? nvptx_lower(*m, *f, out.info)
                                                    : spir_lower(*m, *f, out.info);
  internalize_except(*m, *kernel);
  verify(*m, out.info, "after lowering");

  std::unique_ptr<TargetMachine> tm;
  if (target == rt::ir_target::nvptx)
    tm = nvptx_machine(arch);
  optimize(*m, tm.get());
  if (target == rt::ir_target::nvptx)
    nvptx_after_optimize(*m, *kernel, tm.get());
  verify(*m, out.info, "after optimisation");
  raw_string_ostream os(out.ir);
  m->print(os, nullptr);
  os.flush();
  out.code = target == rt::ir_target::nvptx ? nvptx_emit(*m, *tm) : spir_emit(*m);
  return out;
}

} // namespace jit
} // namespace pacxx

// jit::compile: link, lower to the target, optimise, emit. Target-independent steps
// live here; each target (jit/target.hpp) holds what differs, in its own folder.
#include "jit/jit.hpp"
#include "jit/lowering.hpp"
#include "jit/target.hpp"

#include "kernel_metadata.hpp"
#include "pass_managers.hpp"

#include "pacxx/detail/abi.hpp"
#include "pacxx/error.hpp"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/Triple.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

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

// "llvm.sin.f32" -> ("sin", float); "sinf" -> ("sin", float); "sin" -> ("sin", double);
// "abs" -> ("abs", not float).
static const abi::lib_function *library_function(const Function &f, bool map_intrinsics,
                                                 bool &is_float) {
  StringRef n = f.getName();
  if (n.startswith("llvm.")) {
    if (!map_intrinsics)
      return nullptr;
    StringRef rest = n.drop_front(5);
    if (rest.endswith(".f32"))
      is_float = true;
    else if (rest.endswith(".f64"))
      is_float = false;
    else
      return nullptr;
    rest = rest.drop_back(4);
    // The intrinsics that some target lowers to a libcall it cannot resolve.
    static const char *const mapped[] = {"sin",  "cos",   "exp", "exp2",  "log",
                                         "log2", "log10", "pow", "round", "fma"};
    bool ignored;
    for (const char *x : mapped)
      if (rest == x)
        return abi::find_lib_function(rest.data(), rest.size(), &ignored);
    return nullptr;
  }
  return abi::find_lib_function(n.data(), n.size(), &is_float);
}

// Whether `ty` is the host's signature (x86-64, after clang's ABI lowering) of a
// library function of this shape; a function of the same name but another type is
// not the C library's and is left alone.
static bool has_shape(FunctionType *ty, abi::lib_shape shape, bool is_float) {
  LLVMContext &ctx = ty->getContext();
  Type *fp = is_float ? Type::getFloatTy(ctx) : Type::getDoubleTy(ctx);
  Type *i32 = Type::getInt32Ty(ctx), *i64 = Type::getInt64Ty(ctx);
  Type *ptr = PointerType::getUnqual(ctx);
  auto is = [&](Type *ret, std::initializer_list<Type *> params) {
    return ty->getReturnType() == ret && ty->params().equals(ArrayRef<Type *>(params));
  };
  using abi::lib_shape;
  switch (shape) {
  case lib_shape::f_f:
    return is(fp, {fp});
  case lib_shape::f_ff:
    return is(fp, {fp, fp});
  case lib_shape::f_fff:
    return is(fp, {fp, fp, fp});
  case lib_shape::f_fi:
    return is(fp, {fp, i32});
  case lib_shape::f_fl:
    return is(fp, {fp, i64});
  case lib_shape::f_fpi:
  case lib_shape::f_fpf:
    return is(fp, {fp, ptr});
  case lib_shape::f_ffpi:
    return is(fp, {fp, fp, ptr});
  case lib_shape::i_f:
    return is(i32, {fp});
  case lib_shape::l_f:
    return is(i64, {fp});
  case lib_shape::f_str:
    return is(fp, {ptr});
  case lib_shape::i_i:
    return ty->getNumParams() == 1 && ty->getReturnType()->isIntegerTy() &&
           ty->getParamType(0) == ty->getReturnType();
  case lib_shape::quot_rem: {
    // (int, int) returning the struct coerced to one value (div_t: i64, ldiv_t:
    // {i64, i64}), or through an sret pointer.
    unsigned first = ty->getNumParams() == 3 && ty->getParamType(0)->isPointerTy() ? 1 : 0;
    if (ty->getNumParams() != first + 2 || !ty->getParamType(first)->isIntegerTy() ||
        ty->getParamType(first + 1) != ty->getParamType(first))
      return false;
    return first ? ty->getReturnType()->isVoidTy() : ty->getReturnType()->isSized();
  }
  case lib_shape::z_f4:
  case lib_shape::f_z:
  case lib_shape::z_z:
  case lib_shape::z_zz:
    // Never mapped: link_device_library has replaced their declarations by definitions
    // (of the C signatures; it rejects calls of any other).
    return false;
  }
  return false;
}

static std::vector<CallInst *> calls_of(Function &f) {
  std::vector<CallInst *> calls;
  for (User *u : f.users())
    if (auto *c = dyn_cast<CallInst>(u))
      if (c->getCalledFunction() == &f)
        calls.push_back(c);
  return calls;
}

static AllocaInst *entry_alloca(CallInst &c, Type *ty) {
  Function &fn = *c.getFunction();
  IRBuilder<> b(&*fn.getEntryBlock().getFirstInsertionPt());
  return b.CreateAlloca(ty);
}

// C name of a floating-point library function: "scalbn", float -> "scalbnf".
static FunctionCallee c_function(Module &m, StringRef base, bool is_float, FunctionType *ty) {
  return m.getOrInsertFunction((base + (is_float ? "f" : "")).str(), ty);
}

void lower_library(Module &m, bool opencl) {
  std::vector<Function *> fns;
  for (Function &f : m)
    if (f.isDeclaration())
      fns.push_back(&f);
  for (Function *f : fns) {
    bool is_float = false;
    const abi::lib_function *lf = library_function(*f, false, is_float);
    if (!lf || !has_shape(f->getFunctionType(), lf->shape, is_float))
      continue;
    const StringRef base = lf->name;
    LLVMContext &ctx = m.getContext();
    Type *fp = is_float ? Type::getFloatTy(ctx) : Type::getDoubleTy(ctx);
    Type *i32 = Type::getInt32Ty(ctx);
    std::function<Value *(IRBuilder<> &, CallInst &)> lower;
    switch (lf->shape) {
    case abi::lib_shape::i_i:
      // abs, labs, llabs: the two's-complement negation, so abs(INT_MIN) is INT_MIN as
      // on the host (where it is undefined, but that is what every x86 libc returns).
      lower = [&](IRBuilder<> &b, CallInst &c) -> Value * {
        return b.CreateBinaryIntrinsic(Intrinsic::abs, c.getArgOperand(0), b.getFalse());
      };
      break;
    case abi::lib_shape::quot_rem:
      // div, ldiv, lldiv: {quot, rem}, both truncated toward zero as in C99, laid out
      // as the struct is and handed back the way clang passes it (coerced or sret).
      lower = [&](IRBuilder<> &b, CallInst &c) -> Value * {
        const bool sret = c.arg_size() == 3;
        Value *x = c.getArgOperand(sret), *y = c.getArgOperand(sret + 1);
        const uint64_t size = x->getType()->getIntegerBitWidth() / 8;
        Value *out = sret ? c.getArgOperand(0) : entry_alloca(c, c.getType());
        b.CreateStore(b.CreateSDiv(x, y), out);
        b.CreateStore(b.CreateSRem(x, y), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), out, size));
        return sret ? nullptr : b.CreateLoad(c.getType(), out);
      };
      break;
    case abi::lib_shape::f_str:
      // nan(tag): the tag's meaning is implementation-defined; both targets give the
      // default quiet NaN, which is the host's nan("").
      lower = [&](IRBuilder<> &, CallInst &) -> Value * { return ConstantFP::getQNaN(fp); };
      break;
    case abi::lib_shape::f_fl:
      // scalbln(x, long n): neither target has it. Any |n| beyond the exponent range
      // saturates, so clamping n to int and calling scalbn is exact (as CUDA's headers do).
      lower = [&](IRBuilder<> &b, CallInst &c) -> Value * {
        Value *n = c.getArgOperand(1);
        Value *lo = b.getInt64(INT32_MIN), *hi = b.getInt64(INT32_MAX);
        n = b.CreateBinaryIntrinsic(Intrinsic::smax,
                                    b.CreateBinaryIntrinsic(Intrinsic::smin, n, hi), lo);
        return b.CreateCall(
            c_function(m, "scalbn", is_float, FunctionType::get(fp, {fp, i32}, false)),
            {c.getArgOperand(0), b.CreateTrunc(n, i32)});
      };
      break;
    case abi::lib_shape::l_f: {
      // lround, lrint (long is 64 bits, as long long): libdevice has only the llround
      // and llrint forms; OpenCL has neither, so round or rint, then convert (an
      // out-of-range result is unspecified in C too).
      const bool nearest = base.endswith("round");
      lower = [&, nearest](IRBuilder<> &b, CallInst &c) -> Value * {
        if (!opencl)
          return b.CreateCall(
              c_function(m, nearest ? "llround" : "llrint", is_float, f->getFunctionType()),
              {c.getArgOperand(0)});
        Value *r = b.CreateCall(
            c_function(m, nearest ? "round" : "rint", is_float, FunctionType::get(fp, {fp}, false)),
            {c.getArgOperand(0)});
        return b.CreateFPToSI(r, c.getType());
      };
      if (!opencl && base.startswith("ll"))
        continue; // llround, llrint: libdevice's own
      break;
    }
    case abi::lib_shape::f_fpi:
    case abi::lib_shape::f_fpf:
    case abi::lib_shape::f_ffpi:
      if (!opencl)
        continue; // libdevice takes generic pointers
      // frexp, modf, remquo: OpenCL's overloads take a pointer to one address space
      // and PoCL has no generic one, so the builtin writes a private temporary that is
      // then copied to where the caller's pointer points.
      lower = [&](IRBuilder<> &b, CallInst &c) -> Value * {
        const unsigned last = c.arg_size() - 1;
        Type *pointee = lf->shape == abi::lib_shape::f_fpf ? fp : i32;
        AllocaInst *tmp = entry_alloca(c, pointee);
        SmallVector<Value *, 3> args(c.args());
        Value *user = args[last];
        args[last] = tmp;
        CallInst *r = b.CreateCall(f->getFunctionType(), f, args);
        b.CreateStore(b.CreateLoad(pointee, tmp), user);
        return r;
      };
      break;
    default:
      continue;
    }
    for (CallInst *c : calls_of(*f)) { // the calls lower() makes are not among them
      IRBuilder<> b(c);
      Value *v = lower(b, *c);
      if (v)
        c->replaceAllUsesWith(v);
      c->eraseFromParent();
    }
    if (f->use_empty())
      f->eraseFromParent();
  }
}

void map_math(Module &m, CallingConv::ID cc,
              const std::function<std::string(StringRef, bool, abi::lib_shape)> &target_name,
              bool map_intrinsics) {
  SmallVector<Function *, 16> fns;
  for (Function &f : m)
    if (f.isDeclaration())
      fns.push_back(&f);
  for (Function *f : fns) {
    bool is_float = false;
    const abi::lib_function *lf = library_function(*f, map_intrinsics, is_float);
    FunctionType *ty = f->getFunctionType();
    if (!lf || !has_shape(ty, lf->shape, is_float))
      continue;
    std::string target = target_name(lf->name, is_float, lf->shape);
    if (target.empty())
      continue; // lowered by lower_library
    FunctionCallee callee = m.getOrInsertFunction(target, ty);
    auto *nf = cast<Function>(callee.getCallee());
    nf->setCallingConv(cc);
    nf->setDoesNotThrow();
    nf->setWillReturn();
    // frexp, modf and remquo store their second result through the pointer.
    const bool writes = lf->shape == abi::lib_shape::f_fpi || lf->shape == abi::lib_shape::f_fpf ||
                        lf->shape == abi::lib_shape::f_ffpi;
    if (writes)
      nf->setOnlyAccessesArgMemory();
    else
      nf->setDoesNotAccessMemory();
    for (CallInst *c : calls_of(*f)) {
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

// The loops' unrolling hints (#pragma unroll and the like) removed, their other
// properties kept: with the hints the optimiser unrolls a loop even where
// PipelineTuningOptions::LoopUnrolling is off.
static void drop_unroll_hints(Module &m) {
  for (Function &f : m)
    for (BasicBlock &b : f)
      if (Instruction *t = b.getTerminator())
        if (MDNode *id = t->getMetadata(LLVMContext::MD_loop))
          t->setMetadata(LLVMContext::MD_loop, makePostTransformationMetadata(
                                                   m.getContext(), id, {"llvm.loop.unroll."}, {}));
}

// O3. Without unrolling (PACXX_UNROLL=0) a kernel is much less code for the device
// compiler: PoCL spends most of a kernel's build in its work-group function generation
// and x86 code generation, in proportion to the code, and the tiles' item loops
// (unrolled so that a GPU keeps the items in registers) multiply it. Measured on the
// 2-core CI-like machine (2026-11-28, PoCL 3.1, its kernel cache off): the segmented
// scan tests' kernels took 66 s of CPU unrolled and 42 s not; the test suite runs
// OpenCL with PACXX_UNROLL=0 (CMakeLists.txt, PACXX_TEST_ENV). On a GPU, unrolling is what keeps
// arrays indexed by loop counters in registers: leave it on there.
void optimize(Module &m, TargetMachine *tm, bool unroll) {
  PipelineTuningOptions tuning;
  if (!unroll) {
    tuning.LoopUnrolling = false;
    drop_unroll_hints(m);
  }
  PassBuilder pb(tm, tuning);
  if (tm)
    tm->registerPassBuilderCallbacks(pb);
  // No C library on a device: the optimiser must not invent calls to one.
  TargetLibraryInfoImpl tlii(Triple(m.getTargetTriple()));
  tlii.disableAllFunctions();
  support::analysis_managers am(pb, [&](FunctionAnalysisManager &fam) {
    fam.registerPass([&] { return TargetLibraryAnalysis(tlii); });
  });
  ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  mpm.run(m, am.module);
}

static void run_always_inliner(Module &m) {
  PassBuilder pb;
  support::analysis_managers am(pb);
  ModulePassManager mpm;
  mpm.addPass(AlwaysInlinerPass(false));
  mpm.run(m, am.module);
}

static kernel_info info_of(const Module &m, const std::string &entry) {
  for (const kernel_info &k : kernels_in(m))
    if (k.entry == entry)
      return k;
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
    if (f.getName().startswith(abi::staged_prefix) ||
        f.getName().startswith(abi::stage_builtin_prefix))
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
  if (Function *f = m.getFunction(abi::owner_new); f && !f->use_empty())
    throw error("pacxx: kernel '" + k.display +
                "' creates an owning view (a view over a "
                "temporary gpu::vector) in device code; build views on the host and pass them "
                "to the kernel");
  for (const char *name : {abi::owner_retain, abi::owner_release})
    for_each_call(m, name, [](CallInst &c) -> Value * {
      c.eraseFromParent(); // void: nothing uses it
      return nullptr;
    });
}

// A readable name for a device function: demangled, without the suffixes the
// optimiser adds to clones (".specialized.1", ".constprop.0").
static std::string readable(const Function &f) {
  std::string name = f.getName().str();
  std::string d = demangle(name);
  if (d == name && name.find('.') != std::string::npos)
    d = demangle(name.substr(0, name.find('.')));
  return d;
}

static std::string source_of(const Function &f) {
  if (const MDNode *md = f.getMetadata(abi::md_source))
    if (md->getNumOperands() == 1)
      if (auto *s = dyn_cast<MDString>(md->getOperand(0)))
        return s->getString().str();
  return std::string();
}

// The cycles of the call graph that remain after optimisation (tail recursion has
// become loops by then), one line per function: "fib(int) at file.cpp:3".
static std::string recursive_functions(Module &m) {
  CallGraph cg(m);
  std::string out;
  for (scc_iterator<CallGraph *> it = scc_begin(&cg); !it.isAtEnd(); ++it) {
    if (!it.hasCycle())
      continue;
    for (CallGraphNode *node : *it)
      if (Function *f = node->getFunction()) {
        std::string at = source_of(*f);
        out += "\n  " + readable(*f) + (at.empty() ? "" : " at " + at);
      }
  }
  return out;
}

compiled_kernel compile(const program &p, std::size_t module, const std::string &entry,
                        rt::ir_target target, const std::string &arch,
                        const std::vector<std::uint64_t> *staged, bool unroll) {
  LLVMContext ctx;
  std::unique_ptr<Module> m = p.link(ctx, module, entry);
  compiled_kernel out;
  out.info = info_of(*m, entry);
  // Still x86-64 IR, as the library is: std::complex's calls get their definitions
  // before the target lowering maps the math those make.
  link_device_library(*m, out.info.display);
  support::erase_kernel_metadata(*m);

  Function *f = m->getFunction(entry);
  substitute_staged(*m, staged);
  remove_ownership(*m, out.info);
  // Per-call-site shared memory needs the call sites that always_inline creates.
  run_always_inliner(*m);
  lower_static_shared_memory(*m);

  std::unique_ptr<jit::target> t = make_target(target, arch);
  Function *kernel = t->lower(*m, *f, out.info);
  internalize_except(*m, *kernel);
  verify(*m, out.info, "after lowering");

  optimize(*m, t->machine(), unroll);
  t->after_optimize(*m, *kernel, unroll);
  verify(*m, out.info, "after optimisation");
  if (!t->allows_recursion()) {
    std::string cycle = recursive_functions(*m);
    if (!cycle.empty())
      throw error("pacxx: kernel '" + out.info.display +
                  "' calls recursive device code, which OpenCL (SPIR) cannot run; recursive "
                  "device code runs on CUDA. The recursive functions:" +
                  cycle +
                  (cycle.find("__introsort_loop") != std::string::npos
                       ? "\n  (std::sort recurses: sort a small local array with a loop, e.g. "
                         "an insertion sort)"
                       : "\n  (rewrite it as a loop, with an explicit stack if need be)"));
  }
  raw_string_ostream os(out.ir);
  m->print(os, nullptr);
  os.flush();
  out.code = t->emit(*m);
  return out;
}

} // namespace jit
} // namespace pacxx

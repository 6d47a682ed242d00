// SPIR 1.2 lowering for OpenCL (PoCL): spir_kernel wrapper with the argument metadata
// PoCL needs, OpenCL work-item functions and barrier(), OpenCL math builtins, and
// dynamic local memory as the kernel's second argument. See DESIGN.md for the recipe.
#include "jit/lowering.hpp"
#include "jit/target.hpp"

#include "pacxx/error.hpp"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <string>

using namespace llvm;

namespace pacxx {
namespace jit {

// The OpenCL builtin for what lower_library leaves, by its Itanium-mangled name:
// _Z3sinf, _Z5atan2dd, _Z3fmafff, _Z5ldexpfi, _Z5ilogbd; frexp, modf and remquo by
// their private-pointer overloads (_Z5frexpfPi, _Z4modfdPd, _Z6remquoffPi), which
// lower_library made them write. scalbn is ldexp (the radix is 2).
static std::string opencl_math_name(StringRef base, bool is_float, abi::lib_shape shape) {
  using abi::lib_shape;
  const std::string f = is_float ? "f" : "d";
  std::string params;
  switch (shape) {
  case lib_shape::f_f:
  case lib_shape::i_f:
    params = f;
    break;
  case lib_shape::f_ff:
    params = f + f;
    break;
  case lib_shape::f_fff:
    params = f + f + f;
    break;
  case lib_shape::f_fi:
    params = f + "i";
    break;
  case lib_shape::f_fpi:
    params = f + "Pi";
    break;
  case lib_shape::f_fpf:
    params = f + "P" + f;
    break;
  case lib_shape::f_ffpi:
    params = f + f + "Pi";
    break;
  default:
    return std::string(); // lowered to IR by lower_library
  }
  if (base == "scalbn")
    base = "ldexp";
  return "_Z" + std::to_string(base.size()) + base.str() + params;
}

static FunctionCallee opencl_builtin(Module &m, const char *mangled, Type *ret,
                                     ArrayRef<Type *> args, bool convergent) {
  FunctionCallee f = m.getOrInsertFunction(mangled, FunctionType::get(ret, args, false));
  auto *fn = cast<Function>(f.getCallee());
  fn->setCallingConv(CallingConv::SPIR_FUNC);
  fn->setDoesNotThrow();
  if (convergent)
    fn->setConvergent();
  else {
    fn->setDoesNotAccessMemory();
    fn->setWillReturn();
  }
  return f;
}

static void lower_ids(Module &m) {
  LLVMContext &ctx = m.getContext();
  Type *i64 = Type::getInt64Ty(ctx), *i32 = Type::getInt32Ty(ctx);
  const std::pair<const char *, const char *> ids[] = {
      {"__pacxx_global_id", "_Z13get_global_idj"},   {"__pacxx_local_id", "_Z12get_local_idj"},
      {"__pacxx_group_id", "_Z12get_group_idj"},     {"__pacxx_local_size", "_Z14get_local_sizej"},
      {"__pacxx_num_groups", "_Z14get_num_groupsj"},
  };
  for (const auto &id : ids) {
    if (!m.getFunction(id.first))
      continue;
    FunctionCallee cl = opencl_builtin(m, id.second, i64, {i32}, false);
    for_each_call(m, id.first, [&](CallInst &c) -> Value * {
      IRBuilder<> b(&c);
      CallInst *r = b.CreateCall(cl, {b.getInt32(dimension_of(c))});
      r->setCallingConv(CallingConv::SPIR_FUNC);
      return r;
    });
  }
  if (m.getFunction("__pacxx_barrier")) {
    FunctionCallee barrier = opencl_builtin(m, "_Z7barrierj", Type::getVoidTy(ctx), {i32}, true);
    for_each_call(m, "__pacxx_barrier", [&](CallInst &c) -> Value * {
      IRBuilder<> b(&c);
      // CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, as CUDA's __syncthreads orders both.
      CallInst *r = b.CreateCall(barrier, {b.getInt32(3)});
      r->setCallingConv(CallingConv::SPIR_FUNC);
      c.eraseFromParent();
      return nullptr;
    });
  }
}

// Warps (pacxx/block/): pacxx uses no OpenCL sub-groups, so a warp is one work-item and
// the block primitives exchange values through local memory. A device-wide fence is an
// LLVM fence, which PoCL lowers for its CPU threads.
static void lower_warps(Module &m) {
  for_each_call(m, "__pacxx_warp_size",
                [&](CallInst &c) -> Value * { return ConstantInt::get(c.getType(), 1); });
  for_each_call(m, "__pacxx_lane_id",
                [&](CallInst &c) -> Value * { return ConstantInt::get(c.getType(), 0); });
  for (const char *name : {"__pacxx_shfl_up", "__pacxx_shfl_down", "__pacxx_shfl_idx"})
    for_each_call(m, name, [&](CallInst &c) -> Value * { return c.getArgOperand(0); });
  for_each_call(m, "__pacxx_ballot", [&](CallInst &c) -> Value * {
    IRBuilder<> b(&c);
    return b.CreateZExt(b.CreateIsNotNull(c.getArgOperand(0)), c.getType());
  });
  for_each_call(m, "__pacxx_ballot_agree",
                [&](CallInst &c) -> Value * { return ConstantInt::get(c.getType(), 1); });
  for_each_call(m, "__pacxx_thread_fence", [&](CallInst &c) -> Value * {
    IRBuilder<> b(&c);
    b.CreateFence(AtomicOrdering::SequentiallyConsistent);
    c.eraseFromParent();
    return nullptr;
  });
  for (const char *name : {"__pacxx_nanosleep", "__pacxx_warp_sync", "__pacxx_launch_bounds"})
    for_each_call(m, name, [&](CallInst &c) -> Value * {
      c.eraseFromParent();
      return nullptr;
    });
  // No tensor cores: code that asks __pacxx_mma_supported() takes its other path (gemm's
  // TF32/BF16 emulation). The mma calls stay in the branch O3 removes; check_no_mma
  // rejects a kernel where one is still reachable.
  for_each_call(m, "__pacxx_mma_supported",
                [&](CallInst &c) -> Value * { return ConstantInt::get(c.getType(), 0); });
}

// After O3: an mma builtin that is still called was not guarded by
// __pacxx_mma_supported() (a warp of one lane cannot hold an mma fragment).
static void check_no_mma(Module &m) {
  for (const char *name : {"__pacxx_mma_tf32_m16n8k8", "__pacxx_mma_bf16_m16n8k16",
                           "__pacxx_mma_f64_m8n8k4", "__pacxx_pack_bf16x2_rn"})
    if (Function *f = m.getFunction(name))
      if (!f->use_empty())
        throw error(std::string("pacxx: the kernel calls ") + name +
                    " (tensor-core mma.sync) on OpenCL, which has none; guard it with "
                    "pacxx::mma_supported()");
}

// Functions other than the kernel that use `v` (directly or through constant
// expressions).
static void users_outside(Value *v, Function &kernel, SmallPtrSetImpl<Function *> &out) {
  for (User *u : v->users()) {
    if (auto *i = dyn_cast<Instruction>(u)) {
      if (i->getFunction() != &kernel)
        out.insert(i->getFunction());
    } else if (isa<ConstantExpr>(u))
      users_outside(u, kernel, out);
  }
}

// Local memory in PoCL works only where the kernel function itself uses it: a local
// global must be named "<kernel>.<name>" and used in no other function (else all
// work-groups share one copy), and dynamic local memory is a kernel argument. So
// every function on the way to a use of local memory is inlined into the kernel.
static void bring_local_memory_into_kernel(Module &m, Function &kernel) {
  for (bool changed = true; changed;) {
    changed = false;
    SmallPtrSet<Function *, 8> fns;
    for (GlobalVariable &g : m.globals())
      if (g.getAddressSpace() == 3)
        users_outside(&g, kernel, fns);
    if (Function *dyn = m.getFunction("__pacxx_dynamic_shared_memory"))
      users_outside(dyn, kernel, fns);
    for (Function *f : fns) {
      SmallVector<CallBase *, 8> calls;
      for (User *u : f->users())
        if (auto *c = dyn_cast<CallBase>(u))
          if (c->getCalledFunction() == f)
            calls.push_back(c);
      for (CallBase *c : calls) {
        InlineFunctionInfo ifi;
        changed |= InlineFunction(*c, ifi).isSuccess();
      }
      // Only the kernel is ever called from outside; a copy nobody calls goes.
      if (f->use_empty()) {
        f->eraseFromParent();
        changed = true;
      }
    }
  }
}

static void check_local_memory_in_kernel(Module &m, Function &kernel) {
  SmallPtrSet<Function *, 8> fns;
  for (GlobalVariable &g : m.globals())
    if (g.getAddressSpace() == 3) {
      users_outside(&g, kernel, fns);
      if (!g.getName().startswith(kernel.getName().str() + "."))
        g.setName(kernel.getName() + "." + g.getName());
    }
  if (!fns.empty())
    throw error("pacxx: shared memory is used in a recursive function, which OpenCL cannot "
                "give it to");
}

// assert() in device code is compiled out on OpenCL, as under NDEBUG: each branch into a
// failing assertion's block is made to skip it, so a failed assertion does not stop the
// kernel. OpenCL 1.2 has no assert, and a trap in its place is miscompiled by PoCL 3.1
// (Debian 12's; both work-group methods, loopvec and cbs): in a reduction whose
// work-items each fold a contiguous run of a range-v3 take over a zip (whose iterators
// assert their bounds without NDEBUG), PoCL's code took the per-work-item loop bound and
// the test for a run's extra element from one work-item for all of them, so a run of one
// element looped 2^64 times (a segfault, 27 MB past the input) or every work-item folded
// the extra element (1024 for 516); the IR given to PoCL was right, and the same kernel
// without the traps ran right (2026-12-07, agent/reduce.hpp's one-lane runs). Range-v3's
// checks are assertions like these, so with traps any device code that reads a view
// through them was exposed. CUDA keeps the trap (runtime/jit/nvptx).
static void compile_out_asserts(Module &m) {
  for_each_call(m, "__assert_fail", [](CallInst &c) -> Value * {
    BasicBlock *bb = c.getParent();
    for (BasicBlock *p : SmallVector<BasicBlock *, 4>(predecessors(bb))) {
      auto *br = dyn_cast<BranchInst>(p->getTerminator());
      if (!br || !br->isConditional())
        continue;
      BasicBlock *other = br->getSuccessor(br->getSuccessor(0) == bb ? 1 : 0);
      if (other == bb)
        continue;
      bb->removePredecessor(p);
      BranchInst::Create(other, br);
      br->eraseFromParent();
    }
    // A block still reached (from a switch, say) ends in unreachable: an assumption.
    c.eraseFromParent();
    return nullptr;
  });
}

static Function *spir_lower(Module &m, Function &entry, const kernel_info &info) {
  LLVMContext &ctx = m.getContext();
  m.setTargetTriple("spir64-unknown-unknown");
  m.setDataLayout("e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-"
                  "v1024:1024");

  // kernel void pacxx_kernel(struct args (byval), local char *dynamic_shared)
  auto *argsTy = ArrayType::get(Type::getInt8Ty(ctx), info.args_size);
  auto *fty = FunctionType::get(Type::getVoidTy(ctx),
                                {PointerType::getUnqual(ctx), PointerType::get(ctx, 3)}, false);
  Function *k = Function::Create(fty, GlobalValue::ExternalLinkage, kernel_symbol, m);
  k->setCallingConv(CallingConv::SPIR_KERNEL);
  k->addParamAttr(0, Attribute::getWithByValType(ctx, argsTy));
  k->addParamAttr(0, Attribute::getWithAlignment(ctx, Align(info.args_align)));
  k->getArg(0)->setName("args");
  k->getArg(1)->setName("dynamic_shared");
  IRBuilder<> b(BasicBlock::Create(ctx, "", k));
  b.CreateCall(entry.getFunctionType(), &entry, {k->getArg(0)});
  b.CreateRetVoid();
  auto strs = [&](std::initializer_list<const char *> s) {
    SmallVector<Metadata *, 2> ops;
    for (const char *x : s)
      ops.push_back(MDString::get(ctx, x));
    return MDNode::get(ctx, ops);
  };
  // PoCL asserts without every one of these (kernel_arg_name included).
  k->setMetadata("kernel_arg_addr_space",
                 MDNode::get(ctx, {ConstantAsMetadata::get(b.getInt32(0)),
                                   ConstantAsMetadata::get(b.getInt32(3))}));
  k->setMetadata("kernel_arg_access_qual", strs({"none", "none"}));
  k->setMetadata("kernel_arg_type", strs({"struct pacxx_args", "char*"}));
  k->setMetadata("kernel_arg_base_type", strs({"struct pacxx_args", "char*"}));
  k->setMetadata("kernel_arg_type_qual", strs({"", ""}));
  k->setMetadata("kernel_arg_name", strs({"args", "dynamic_shared"}));

  lower_ids(m);
  lower_warps(m);
  compile_out_asserts(m);
  bring_local_memory_into_kernel(m, *k);
  check_local_memory_in_kernel(m, *k);
  for_each_call(m, "__pacxx_dynamic_shared_memory", [&](CallInst &c) -> Value * {
    if (c.getFunction() != k)
      throw error("pacxx: dynamic shared memory is used in a recursive function, which OpenCL "
                  "cannot give it to");
    IRBuilder<> ib(&c);
    return ib.CreateAddrSpaceCast(k->getArg(1), c.getType());
  });
  lower_library(m, /*opencl=*/true);
  map_math(m, CallingConv::SPIR_FUNC, opencl_math_name, /*map_intrinsics=*/true);
  move_constants(m, 2); // OpenCL's constant address space
  return k;
}

static std::string spir_emit(Module &m) {
  // The optimiser must not have moved local memory out of the kernel (or renamed it).
  check_local_memory_in_kernel(m, *m.getFunction(kernel_symbol));
  // The optimiser may have introduced math intrinsics; PoCL needs OpenCL builtins.
  map_math(m, CallingConv::SPIR_FUNC, opencl_math_name, /*map_intrinsics=*/true);
  std::string bc;
  raw_string_ostream os(bc);
  WriteBitcodeToFile(m, os);
  os.flush();
  return bc;
}

namespace {
// No target machine: PoCL compiles the SPIR itself.
class spir_target final : public target {
public:
  Function *lower(Module &m, Function &entry, const kernel_info &info) override {
    return spir_lower(m, entry, info);
  }
  void after_optimize(Module &m, Function &, bool) override { check_no_mma(m); }
  std::string emit(Module &m) override { return spir_emit(m); }
  bool allows_recursion() const override { return false; } // SPIR 1.2, section 2.1
};
} // namespace

std::unique_ptr<target> make_spir_target() { return std::make_unique<spir_target>(); }

} // namespace jit
} // namespace pacxx

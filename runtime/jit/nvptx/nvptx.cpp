// NVPTX lowering: kernel wrapper with nvvm.annotations, special registers for thread
// ids, bar.sync, libdevice for math, PTX emission for the highest architecture LLVM 15
// knows that the device runs.
#include "jit/lowering.hpp"
#include "jit/target.hpp"

#include "pacxx/error.hpp"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/LowerMemIntrinsics.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>

using namespace llvm;

// libdevice.10.bc, embedded at build time (libdevice.S).
extern "C" const char pacxx_libdevice_begin[], pacxx_libdevice_end[];

namespace pacxx {
namespace jit {

static const char *const nvptx_triple = "nvptx64-nvidia-cuda";

std::string nvptx_arch_for(const std::string &device_arch) {
  static const int known[] = {20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86};
  int sm = 0;
  if (device_arch.rfind("sm_", 0) == 0)
    sm = std::atoi(device_arch.c_str() + 3);
  int best = 0;
  for (int k : known)
    if (k <= sm)
      best = k;
  if (!best)
    throw error("pacxx: CUDA device architecture '" + device_arch + "' is not supported");
  return "sm_" + std::to_string(best);
}

static std::unique_ptr<TargetMachine> nvptx_machine(const std::string &device_arch) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // No loop strength reduction: on the unrolled tiles of the GPU algorithms it keeps
    // one 64-bit pointer per input and item live across the loop (saxpy over
    // zip(zip(repeat_n, x) | transform, y): 80 registers, 31% occupancy, 71% of DRAM
    // bandwidth on the H100; without it 32 registers). Our options only: LLVM is
    // linked statically and hidden.
    auto &options = cl::getRegisteredOptions();
    auto lsr = options.find("disable-lsr");
    if (lsr != options.end())
      static_cast<cl::opt<bool> *>(lsr->second)->setValue(true);
  });
  std::string err;
  const Target *t = TargetRegistry::lookupTarget(nvptx_triple, err);
  if (!t)
    throw error("pacxx: NVPTX target unavailable: " + err);
  TargetOptions opts;
  std::unique_ptr<TargetMachine> tm(
      t->createTargetMachine(nvptx_triple, nvptx_arch_for(device_arch), "+ptx75", opts, None, None,
                             CodeGenOpt::Aggressive));
  if (!tm)
    throw error("pacxx: cannot create the NVPTX target machine for " + device_arch);
  return tm;
}

static Value *sreg(IRBuilder<> &b, Module &m, Intrinsic::ID id) {
  return b.CreateZExt(b.CreateCall(Intrinsic::getDeclaration(&m, id)), b.getInt64Ty());
}

static void lower_builtins(Module &m) {
  using namespace Intrinsic;
  const ID tid[] = {nvvm_read_ptx_sreg_tid_x, nvvm_read_ptx_sreg_tid_y, nvvm_read_ptx_sreg_tid_z};
  const ID ctaid[] = {nvvm_read_ptx_sreg_ctaid_x, nvvm_read_ptx_sreg_ctaid_y,
                      nvvm_read_ptx_sreg_ctaid_z};
  const ID ntid[] = {nvvm_read_ptx_sreg_ntid_x, nvvm_read_ptx_sreg_ntid_y,
                     nvvm_read_ptx_sreg_ntid_z};
  const ID nctaid[] = {nvvm_read_ptx_sreg_nctaid_x, nvvm_read_ptx_sreg_nctaid_y,
                       nvvm_read_ptx_sreg_nctaid_z};
  auto simple = [&](const char *name, const ID *ids) {
    for_each_call(m, name, [&](CallInst &c) -> Value * {
      IRBuilder<> b(&c);
      return sreg(b, m, ids[dimension_of(c)]);
    });
  };
  simple("__pacxx_local_id", tid);
  simple("__pacxx_group_id", ctaid);
  simple("__pacxx_local_size", ntid);
  simple("__pacxx_num_groups", nctaid);
  for_each_call(m, "__pacxx_global_id", [&](CallInst &c) -> Value * {
    IRBuilder<> b(&c);
    unsigned d = dimension_of(c);
    return b.CreateAdd(b.CreateMul(sreg(b, m, ctaid[d]), sreg(b, m, ntid[d]), "", true, true),
                       sreg(b, m, tid[d]), "", true, true);
  });
  for_each_call(m, "__pacxx_barrier", [&](CallInst &c) -> Value * {
    IRBuilder<> b(&c);
    b.CreateCall(Intrinsic::getDeclaration(&m, nvvm_barrier0));
    c.eraseFromParent();
    return nullptr;
  });
  // Warps (pacxx/block/): 32 lanes, shuffles and ballots over the full warp (block
  // sizes are multiples of 32 wherever these are used), __threadfence as membar.gl.
  for_each_call(m, "__pacxx_warp_size",
                [&](CallInst &c) -> Value * { return ConstantInt::get(c.getType(), 32); });
  for_each_call(m, "__pacxx_lane_id", [&](CallInst &c) -> Value * {
    IRBuilder<> b(&c);
    return b.CreateCall(Intrinsic::getDeclaration(&m, nvvm_read_ptx_sreg_laneid));
  });
  // c = ((32 - width) << 8) | clamp: width 32, so 0 for up (clamp at lane 0) and 0x1f for
  // down and idx (clamp at lane 31), as CUDA's __shfl_*_sync with the default width.
  const std::pair<const char *, std::pair<ID, unsigned>> shuffles[] = {
      {"__pacxx_shfl_up", {nvvm_shfl_sync_up_i32, 0}},
      {"__pacxx_shfl_down", {nvvm_shfl_sync_down_i32, 0x1f}},
      {"__pacxx_shfl_idx", {nvvm_shfl_sync_idx_i32, 0x1f}},
  };
  for (const auto &s : shuffles)
    for_each_call(m, s.first, [&](CallInst &c) -> Value * {
      IRBuilder<> b(&c);
      return b.CreateCall(Intrinsic::getDeclaration(&m, s.second.first),
                          {b.getInt32(0xffffffffu), c.getArgOperand(0), c.getArgOperand(1),
                           b.getInt32(s.second.second)});
    });
  for_each_call(m, "__pacxx_ballot", [&](CallInst &c) -> Value * {
    IRBuilder<> b(&c);
    return b.CreateCall(Intrinsic::getDeclaration(&m, nvvm_vote_ballot_sync),
                        {b.getInt32(0xffffffffu), b.CreateIsNotNull(c.getArgOperand(0))});
  });
  // Measured on the H100 (sort pass, 2026-11-24): a ballot and a select per bit became
  // nine instructions a bit in PTX; this is CUB's MatchAny body, five with the and (the
  // braces scope the predicate; in LLVM's inline asm "$(" would open a variant instead).
  // Convergent: the vote must stay where every lane reaches it.
  for_each_call(m, "__pacxx_ballot_agree", [&](CallInst &c) -> Value * {
    IRBuilder<> b(&c);
    auto *i32 = b.getInt32Ty();
    auto *ty = FunctionType::get(i32, {i32, i32}, false);
    CallInst *r = b.CreateCall(InlineAsm::get(ty,
                                              "{\n\t.reg .pred p;\n\tand.b32 $0, $1, $2;\n\t"
                                              "setp.ne.u32 p, $0, 0;\n\t"
                                              "vote.sync.ballot.b32 $0, p, 0xffffffff;\n\t"
                                              "@!p not.b32 $0, $0;\n\t}",
                                              "=&r,r,r", /*hasSideEffects=*/false),
                               {c.getArgOperand(0), c.getArgOperand(1)});
    r->addFnAttr(Attribute::Convergent);
    return r;
  });
  for_each_call(m, "__pacxx_warp_sync", [&](CallInst &c) -> Value * {
    IRBuilder<> b(&c);
    b.CreateCall(Intrinsic::getDeclaration(&m, nvvm_bar_warp_sync), {b.getInt32(0xffffffffu)});
    c.eraseFromParent();
    return nullptr;
  });
  for_each_call(m, "__pacxx_thread_fence", [&](CallInst &c) -> Value * {
    IRBuilder<> b(&c);
    b.CreateCall(Intrinsic::getDeclaration(&m, nvvm_membar_gl));
    c.eraseFromParent();
    return nullptr;
  });
  // nanosleep has no intrinsic in LLVM 15: the PTX instruction (sm_70+, PTX 6.3+).
  for_each_call(m, "__pacxx_nanosleep", [&](CallInst &c) -> Value * {
    IRBuilder<> b(&c);
    auto *ty = FunctionType::get(b.getVoidTy(), {b.getInt32Ty()}, false);
    b.CreateCall(InlineAsm::get(ty, "nanosleep.u32 $0;", "r", /*hasSideEffects=*/true),
                 {c.getArgOperand(0)});
    c.eraseFromParent();
    return nullptr;
  });
  for_each_call(m, "__pacxx_dynamic_shared_memory", [&](CallInst &c) -> Value * {
    auto *ty = ArrayType::get(Type::getInt8Ty(m.getContext()), 0);
    GlobalVariable *g = m.getGlobalVariable("__pacxx_dynamic_shared", true);
    if (!g) {
      g = new GlobalVariable(m, ty, false, GlobalValue::ExternalLinkage, nullptr,
                             "__pacxx_dynamic_shared", nullptr, GlobalValue::NotThreadLocal, 3);
      g->setAlignment(Align(16));
    }
    return ConstantExpr::getAddrSpaceCast(g, c.getType());
  });
}

// assert(): CUDA's own __assertfail prints the message and stops the kernel, which the
// host then sees as an error of the launch.
static void lower_assert(Module &m) {
  for_each_call(m, "__assert_fail", [&](CallInst &c) -> Value * {
    LLVMContext &ctx = m.getContext();
    Type *ptr = PointerType::getUnqual(ctx);
    FunctionCallee fail = m.getOrInsertFunction(
        "__assertfail",
        FunctionType::get(Type::getVoidTy(ctx),
                          {ptr, ptr, Type::getInt32Ty(ctx), ptr, Type::getInt64Ty(ctx)}, false));
    IRBuilder<> b(&c);
    b.CreateCall(fail, {c.getArgOperand(0), c.getArgOperand(1), c.getArgOperand(2),
                        c.getArgOperand(3), b.getInt64(1)});
    c.eraseFromParent();
    return nullptr;
  });
}

static bool link_libdevice(Module &m) {
  bool needed = false;
  for (Function &f : m)
    needed |= f.isDeclaration() && f.getName().startswith("__nv_");
  if (!needed)
    return false;
  std::size_t size = pacxx_libdevice_end - pacxx_libdevice_begin;
  if (size == 0)
    throw error(
        "pacxx: this build has no libdevice, so kernels cannot call math functions on CUDA");
  auto buf = MemoryBuffer::getMemBuffer(StringRef(pacxx_libdevice_begin, size), "libdevice", false);
  Expected<std::unique_ptr<Module>> lib = parseBitcodeFile(buf->getMemBufferRef(), m.getContext());
  if (!lib)
    throw error("pacxx: cannot read libdevice: " + toString(lib.takeError()));
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  if (Linker::linkModules(m, std::move(*lib), Linker::LinkOnlyNeeded))
    throw error("pacxx: linking libdevice failed");
  if (!m.getModuleFlag("nvvm-reflect-ftz"))
    m.addModuleFlag(Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  return true;
}

// Everything lower_library leaves is in libdevice under its C name: __nv_sinf,
// __nv_frexp, __nv_ilogbf, __nv_llround, ...
static void map_math_to_libdevice(Module &m) {
  map_math(
      m, CallingConv::C,
      [](StringRef base, bool is_float, abi::lib_shape shape) {
        using abi::lib_shape;
        if (shape == lib_shape::i_i || shape == lib_shape::quot_rem || shape == lib_shape::f_str ||
            shape == lib_shape::f_fl)
          return std::string();
        // libdevice's sqrtf is approximate unless __CUDA_PREC_SQRT, which LLVM 15's
        // NVVMReflect does not know; the intrinsic lowers to sqrt.rn as nvcc's does.
        if (base == "sqrt")
          return std::string(is_float ? "llvm.sqrt.f32" : "llvm.sqrt.f64");
        return "__nv_" + base.str() + (is_float ? "f" : "");
      },
      /*map_intrinsics=*/true);
}

// Tensor cores through PTX mma.sync (pacxx/block/mma.hpp): the operands are read from
// the pointers the builtin takes (a lane's fragments in local arrays, which SROA turns
// back into registers at O3), the accumulators written back. LLVM 15 knows
// mma.m16n8k8.row.col.tf32, m16n8k16.row.col.bf16 and m8n8k4.row.col.f64 from sm_80; the PTX for
// sm_80 runs on the H100 (sm_90). Below sm_80 __pacxx_mma_supported is 0, so the calls are in code
// the optimiser removes; one that stays traps rather than reaching a instruction selection that
// would reject it.
static void lower_mma(Module &m, int sm) {
  const bool supported = sm >= 80;
  for_each_call(m, "__pacxx_mma_supported", [&](CallInst &c) -> Value * {
    return ConstantInt::get(c.getType(), supported ? 1 : 0);
  });
  struct kind {
    const char *name;
    Intrinsic::ID id;
    unsigned a, b, d; // words of A, B and accumulators
    bool f64;
  };
  const kind kinds[] = {
      {"__pacxx_mma_tf32_m16n8k8", Intrinsic::nvvm_mma_m16n8k8_row_col_tf32, 4, 2, 4, false},
      {"__pacxx_mma_bf16_m16n8k16", Intrinsic::nvvm_mma_m16n8k16_row_col_bf16, 4, 2, 4, false},
      {"__pacxx_mma_f64_m8n8k4", Intrinsic::nvvm_mma_m8n8k4_row_col_f64, 1, 1, 2, true},
  };
  // cvt.rn.bf16x2.f32 d, a, b puts a in d's upper half: (lo, hi) -> (hi, lo).
  for_each_call(m, "__pacxx_pack_bf16x2_rn", [&](CallInst &c) -> Value * {
    IRBuilder<> b(&c);
    if (!supported) {
      b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::trap));
      return UndefValue::get(c.getType());
    }
    Value *r = b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::nvvm_ff2bf16x2_rn),
                            {c.getArgOperand(1), c.getArgOperand(0)});
    return b.CreateBitCast(r, c.getType());
  });
  for (const kind &k : kinds)
    for_each_call(m, k.name, [&](CallInst &c) -> Value * {
      IRBuilder<> b(&c);
      if (!supported) {
        b.CreateCall(Intrinsic::getDeclaration(&m, Intrinsic::trap));
        c.eraseFromParent();
        return nullptr;
      }
      Type *acc = k.f64 ? b.getDoubleTy() : b.getFloatTy();
      Type *word = k.f64 ? b.getDoubleTy() : b.getInt32Ty();
      const Align wa(k.f64 ? 8 : 4);
      Value *d = c.getArgOperand(0), *a = c.getArgOperand(1), *bb = c.getArgOperand(2);
      SmallVector<Value *, 10> args;
      for (unsigned i = 0; i < k.a; ++i)
        args.push_back(b.CreateAlignedLoad(word, b.CreateConstGEP1_32(word, a, i), wa));
      for (unsigned i = 0; i < k.b; ++i)
        args.push_back(b.CreateAlignedLoad(word, b.CreateConstGEP1_32(word, bb, i), wa));
      for (unsigned i = 0; i < k.d; ++i)
        args.push_back(b.CreateAlignedLoad(acc, b.CreateConstGEP1_32(acc, d, i), wa));
      CallInst *r = b.CreateCall(Intrinsic::getDeclaration(&m, k.id), args);
      for (unsigned i = 0; i < k.d; ++i)
        b.CreateAlignedStore(b.CreateExtractValue(r, {i}), b.CreateConstGEP1_32(acc, d, i), wa);
      c.eraseFromParent();
      return nullptr;
    });
}

static Function *nvptx_lower(Module &m, Function &entry, const kernel_info &info, int sm) {
  LLVMContext &ctx = m.getContext();
  m.setTargetTriple(nvptx_triple);
  m.setDataLayout("e-i64:64-i128:128-v16:16-v32:32-n16:32:64");

  // void pacxx_kernel(byval [N x i8] args) { entry(&args); }
  auto *argsTy = ArrayType::get(Type::getInt8Ty(ctx), info.args_size);
  auto *fty = FunctionType::get(Type::getVoidTy(ctx), {PointerType::getUnqual(ctx)}, false);
  Function *k = Function::Create(fty, GlobalValue::ExternalLinkage, kernel_symbol, m);
  k->addParamAttr(0, Attribute::getWithByValType(ctx, argsTy));
  k->addParamAttr(0, Attribute::getWithAlignment(ctx, Align(info.args_align)));
  IRBuilder<> b(BasicBlock::Create(ctx, "", k));
  b.CreateCall(entry.getFunctionType(), &entry, {k->getArg(0)});
  b.CreateRetVoid();
  NamedMDNode *ann = m.getOrInsertNamedMetadata("nvvm.annotations");
  ann->addOperand(MDNode::get(ctx, {ValueAsMetadata::get(k), MDString::get(ctx, "kernel"),
                                    ConstantAsMetadata::get(b.getInt32(1))}));

  lower_builtins(m);
  lower_mma(m, sm);
  lower_assert(m);
  lower_library(m, /*opencl=*/false);
  map_math_to_libdevice(m);
  move_constants(m, 1); // global memory: large tables do not fit the 64 KiB constant bank
  link_libdevice(m);
  return k;
}

// pacxx::launch_bounds(max_threads, min_blocks) becomes the kernel's maxntidx and
// minctasm annotations (PTX .maxntid, .minnctapersm): after O3, where the policy's
// constants have reached the call.
static void launch_bounds(Module &m, Function &kernel) {
  unsigned threads = 0, blocks = 0;
  for_each_call(m, "__pacxx_launch_bounds", [&](CallInst &c) -> Value * {
    auto *t = dyn_cast<ConstantInt>(c.getArgOperand(0));
    auto *b = dyn_cast<ConstantInt>(c.getArgOperand(1));
    if (!t || !b || t->isZero() || b->isZero())
      throw error("pacxx::launch_bounds: the thread and block counts must be nonzero constants");
    threads =
        threads == 0 ? unsigned(t->getZExtValue()) : std::min(threads, unsigned(t->getZExtValue()));
    blocks = std::max(blocks, unsigned(b->getZExtValue()));
    c.eraseFromParent();
    return nullptr;
  });
  if (threads == 0)
    return;
  LLVMContext &ctx = m.getContext();
  NamedMDNode *ann = m.getOrInsertNamedMetadata("nvvm.annotations");
  auto *i32 = Type::getInt32Ty(ctx);
  for (auto [name, value] :
       {std::pair<const char *, unsigned>{"maxntidx", threads}, {"minctasm", blocks}})
    ann->addOperand(MDNode::get(ctx, {ValueAsMetadata::get(&kernel), MDString::get(ctx, name),
                                      ConstantAsMetadata::get(ConstantInt::get(i32, value))}));
}

// memmove is expanded into a loop here, on generic pointers, instead of by the NVPTX
// code generator. LLVM 15's expansion (LowerMemIntrinsics' createMemMoveLoop, run by
// NVPTXLowerAggrCopies) bitcasts the destination to the source's address space; after
// InferAddressSpaces has given a memmove within a stack array a local source and a
// generic destination (or the reverse) that "bitcast" is a no-op, so a local address
// was stored through as a generic one: CUDA_ERROR_ILLEGAL_ADDRESS, the context lost
// (a std::copy_backward or std::sort on a local array, issue 34). On generic pointers
// the expansion is correct, and the code generator's InferAddressSpaces still gives
// each load and store of the loop its own address space. Short moves of a constant
// length (below NVPTXLowerAggrCopies' 128 bytes) are left to instruction selection,
// which loads everything before storing and keeps each pointer's address space.
static void expand_memmoves(Module &m) {
  SmallVector<MemMoveInst *, 4> moves;
  for (Function &f : m)
    for (Instruction &i : instructions(f))
      if (auto *mm = dyn_cast<MemMoveInst>(&i)) {
        auto *len = dyn_cast<ConstantInt>(mm->getLength());
        if (!len || len->getZExtValue() >= 128)
          moves.push_back(mm);
      }
  for (MemMoveInst *mm : moves) {
    IRBuilder<> b(mm);
    Type *generic = PointerType::get(m.getContext(), 0);
    auto to_generic = [&](Value *p) {
      return p->getType()->getPointerAddressSpace() == 0 ? p : b.CreateAddrSpaceCast(p, generic);
    };
    CallInst *g = b.CreateMemMove(to_generic(mm->getRawDest()), mm->getDestAlign(),
                                  to_generic(mm->getRawSource()), mm->getSourceAlign(),
                                  mm->getLength(), mm->isVolatile());
    mm->eraseFromParent();
    auto *gm = cast<MemMoveInst>(g);
    expandMemMoveAsLoop(gm);
    gm->eraseFromParent();
  }
}

static void nvptx_after_optimize(Module &m, Function &kernel, TargetMachine *tm, bool unroll) {
  launch_bounds(m, kernel);
  expand_memmoves(m);
  map_math_to_libdevice(m);
  if (link_libdevice(m)) {
    internalize_except(m, kernel);
    optimize(m, tm, unroll);
  }
}

static std::string nvptx_emit(Module &m, TargetMachine &tm) {
  SmallString<0> ptx;
  raw_svector_ostream os(ptx);
  legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, CGFT_AssemblyFile))
    throw error("pacxx: the NVPTX target cannot emit PTX");
  pm.run(m);
  return std::string(ptx.str());
}

namespace {
class nvptx_target final : public target {
public:
  explicit nvptx_target(std::string arch) : arch_(std::move(arch)) {}
  Function *lower(Module &m, Function &entry, const kernel_info &info) override {
    const std::string target_arch = nvptx_arch_for(arch_);
    return nvptx_lower(m, entry, info, std::atoi(target_arch.c_str() + 3));
  }
  TargetMachine *machine() override {
    if (!tm_)
      tm_ = nvptx_machine(arch_);
    return tm_.get();
  }
  // Maps what the optimiser introduced that NVPTX cannot lower (libdevice again).
  void after_optimize(Module &m, Function &kernel, bool unroll) override {
    nvptx_after_optimize(m, kernel, machine(), unroll);
  }
  std::string emit(Module &m) override { return nvptx_emit(m, *machine()); }

private:
  std::string arch_;
  std::unique_ptr<TargetMachine> tm_;
};
} // namespace

std::unique_ptr<target> make_nvptx_target(const std::string &arch) {
  return std::make_unique<nvptx_target>(arch);
}

} // namespace jit
} // namespace pacxx

// Unit tests of the offline compiler's passes on hand-written IR.
#include "DeviceCheck.h"
#include "KernelExtraction.h"
#include "Staging.h"
#include "kernel_metadata.hpp"
#include "pacxx/detail/abi.hpp"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

using namespace llvm;

namespace {

const char *kEntry = "_ZN5pacxx6detail12kernel_entryI1PEEvRKT_";

std::unique_ptr<Module> parse(LLVMContext &ctx, const std::string &ir) {
  SMDiagnostic err;
  std::unique_ptr<Module> m = parseAssemblyString(ir, err, ctx);
  if (!m) {
    std::string msg;
    raw_string_ostream os(msg);
    err.print("test", os);
    ADD_FAILURE() << os.str();
  }
  return m;
}

std::string kernel(const std::string &body, const std::string &extra = "") {
  return extra + "\ndefine linkonce_odr void @" + std::string(kEntry) +
         "(ptr noundef nonnull align 8 dereferenceable(16) %p) {\n" + body + "\n  ret void\n}\n";
}

pacxx::DeviceClosure closure(Module &m) {
  return pacxx::collectDeviceClosure(*m.getFunction(kEntry));
}

TEST(DeviceCheck, DirectCallsAreFollowed) {
  LLVMContext ctx;
  auto m = parse(ctx, kernel("  call void @helper(ptr %p)", R"(
define internal void @helper(ptr %p) {
  store float 1.0, ptr %p
  ret void
})"));
  pacxx::DeviceClosure c = closure(*m);
  EXPECT_TRUE(c.Errors.empty());
  EXPECT_EQ(c.Functions.size(), 2u);
  EXPECT_TRUE(c.Functions.count(m->getFunction("helper")));
}

TEST(DeviceCheck, FunctionPointerCallIsAnError) {
  LLVMContext ctx;
  auto m = parse(ctx, kernel("  %f = load ptr, ptr %p\n  call void %f()"));
  pacxx::DeviceClosure c = closure(*m);
  ASSERT_EQ(c.Errors.size(), 1u);
  EXPECT_NE(c.Errors[0].Message.find("function pointer"), std::string::npos);
}

TEST(DeviceCheck, VirtualCallIsRecognised) {
  LLVMContext ctx;
  auto m = parse(ctx, kernel("  %obj = load ptr, ptr %p\n  %vtable = load ptr, ptr %obj\n"
                             "  %slot = getelementptr inbounds ptr, ptr %vtable, i64 2\n"
                             "  %f = load ptr, ptr %slot\n  call void %f(ptr %obj)"));
  pacxx::DeviceClosure c = closure(*m);
  ASSERT_EQ(c.Errors.size(), 1u);
  EXPECT_NE(c.Errors[0].Message.find("virtual call"), std::string::npos);
}

TEST(DeviceCheck, MutableGlobalIsAnErrorConstantIsCopied) {
  LLVMContext ctx;
  auto m = parse(ctx, kernel("  %a = load float, ptr @table\n  %b = load float, ptr @counter",
                             "@table = internal constant [2 x float] [float 1.0, float 2.0]\n"
                             "@counter = global float 0.0"));
  pacxx::DeviceClosure c = closure(*m);
  ASSERT_EQ(c.Errors.size(), 1u);
  EXPECT_NE(c.Errors[0].Message.find("mutable host global 'counter'"), std::string::npos);
  EXPECT_TRUE(c.Globals.count(m->getGlobalVariable("table", true)));
}

TEST(DeviceCheck, ExternCallsAreRecordedButBuiltinsAndMathAreNot) {
  LLVMContext ctx;
  auto m = parse(ctx, kernel("  %i = call i64 @__pacxx_global_id(i32 0)\n"
                             "  %s = call float @sinf(float 1.0)\n"
                             "  %h = call float @elsewhere(float %s)",
                             "declare i64 @__pacxx_global_id(i32)\ndeclare float @sinf(float)\n"
                             "declare float @elsewhere(float)"));
  pacxx::DeviceClosure c = closure(*m);
  EXPECT_TRUE(c.Errors.empty());
  ASSERT_EQ(c.ExternCalls.size(), 1u);
  EXPECT_EQ(c.ExternCalls[0].Callee, "elsewhere");
}

TEST(DeviceCheck, LongDoubleAndInlineAsmAreErrors) {
  LLVMContext ctx;
  auto m = parse(
      ctx, kernel("  %x = fpext float 1.0 to x86_fp80\n  call void asm sideeffect \"\", \"\"()"));
  pacxx::DeviceClosure c = closure(*m);
  ASSERT_EQ(c.Errors.size(), 2u);
  std::string all = c.Errors[0].Message + "|" + c.Errors[1].Message;
  EXPECT_NE(all.find("long double"), std::string::npos) << all;
  EXPECT_NE(all.find("inline assembly"), std::string::npos) << all;
}

const char *kInvokeIR = R"(
declare i32 @__gxx_personality_v0(...)
declare void @may_throw()
declare void @cleanup()
@_ZTIi = external constant ptr
)";

TEST(DeviceCheck, CleanupPadsAreFineCatchIsAnError) {
  LLVMContext ctx;
  std::string cleanup = std::string(kInvokeIR) + "define linkonce_odr void @" + kEntry +
                        "(ptr dereferenceable(16) %p) personality ptr @__gxx_personality_v0 {\n"
                        "  invoke void @may_throw() to label %ok unwind label %pad\n"
                        "ok:\n  ret void\n"
                        "pad:\n  %lp = landingpad { ptr, i32 } cleanup\n  call void @cleanup()\n  "
                        "resume { ptr, i32 } %lp\n}\n";
  auto m = parse(ctx, cleanup);
  pacxx::DeviceClosure c = closure(*m);
  EXPECT_TRUE(c.Errors.empty());

  LLVMContext ctx2;
  std::string caught = std::string(kInvokeIR) + "define linkonce_odr void @" + kEntry +
                       "(ptr dereferenceable(16) %p) personality ptr @__gxx_personality_v0 {\n"
                       "  invoke void @may_throw() to label %ok unwind label %pad\n"
                       "ok:\n  ret void\n"
                       "pad:\n  %lp = landingpad { ptr, i32 } catch ptr @_ZTIi\n  ret void\n}\n";
  auto m2 = parse(ctx2, caught);
  pacxx::DeviceClosure c2 = closure(*m2);
  ASSERT_EQ(c2.Errors.size(), 1u);
  EXPECT_NE(c2.Errors[0].Message.find("try/catch"), std::string::npos);
}

TEST(KernelExtraction, EmbedsRegistersAndEmptiesHostEntry) {
  LLVMContext ctx;
  auto m = parse(ctx, kernel("  call void @helper(ptr %p)", R"(
define internal void @helper(ptr %p) {
  %i = call i64 @__pacxx_global_id(i32 0)
  store i64 %i, ptr %p
  ret void
}
declare i64 @__pacxx_global_id(i32)
define internal void @launch() {
  call void @use(ptr @)" + std::string(kEntry) + R"()
  ret void
}
declare void @use(ptr)
define float @exported(float %x) {
  %y = fmul float %x, 2.0
  ret float %y
}
)"));
  ModuleAnalysisManager mam;
  PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pacxx::KernelExtractionPass().run(*m, mam);

  // The host keeps the entry as an address only; the helper is gone from the host.
  Function *entry = m->getFunction(kEntry);
  ASSERT_TRUE(entry && !entry->isDeclaration());
  EXPECT_TRUE(isa<UnreachableInst>(entry->getEntryBlock().getTerminator()));
  EXPECT_EQ(m->getFunction("helper"), nullptr);

  // The device module is in the section, after its header, and holds the kernel.
  GlobalVariable *blob = nullptr;
  for (GlobalVariable &g : m->globals())
    if (g.getSection() == pacxx::abi::section_name)
      blob = &g;
  ASSERT_NE(blob, nullptr);
  auto *init = cast<ConstantStruct>(blob->getInitializer());
  EXPECT_EQ(cast<ConstantInt>(init->getOperand(0))->getZExtValue(), pacxx::abi::module_magic);
  uint64_t size = cast<ConstantInt>(init->getOperand(2))->getZExtValue();
  StringRef bytes =
      cast<ConstantDataArray>(init->getOperand(3))->getRawDataValues().take_front(size);
  LLVMContext dctx;
  auto dev = parseBitcodeFile(MemoryBufferRef(bytes, "device"), dctx);
  ASSERT_TRUE(bool(dev));
  Function *dentry = (*dev)->getFunction(kEntry);
  ASSERT_TRUE(dentry && !dentry->isDeclaration());
  EXPECT_TRUE((*dev)->getFunction("helper"));
  EXPECT_FALSE((*dev)->getFunction("launch")) << "host code must not reach the device module";
  Function *exported = (*dev)->getFunction("exported");
  EXPECT_TRUE(exported && !exported->isDeclaration())
      << "external definitions are offered to other units' kernels";
  // Described by !pacxx.kernels, read back with the decoder the JIT uses.
  std::optional<std::vector<pacxx::support::kernel_metadata>> kernels =
      pacxx::support::read_kernels(**dev);
  ASSERT_TRUE(kernels && kernels->size() == 1);
  EXPECT_EQ((*kernels)[0].entry, kEntry);
  EXPECT_EQ((*kernels)[0].args_size, 16u);
  EXPECT_EQ((*kernels)[0].args_align, 8u);

  // A constructor registers it.
  GlobalVariable *ctors = m->getGlobalVariable("llvm.global_ctors");
  ASSERT_NE(ctors, nullptr);
  EXPECT_TRUE(m->getFunction("__pacxx_register_module"));
}

// Staging (compiler/passes/Staging.cpp) on a kernel as KernelExtraction hands it over:
// the host module and a device module holding a copy of the kernel entry. The payload
// is {i32 n, i32 k, ptr out}.
const char *kStageDecls = "declare i64 @__pacxx_stage_int(i64)\n"
                          "declare i64 @__pacxx_global_id(i32)\n"
                          "declare i64 @__pacxx_local_size(i32)\n";

struct staged_kernel {
  LLVMContext ctx;
  std::unique_ptr<Module> host, dev;
  pacxx::StagingResult result;

  explicit staged_kernel(const std::string &body) {
    std::string ir = kernel(body, kStageDecls);
    host = parse(ctx, ir);
    dev = parse(ctx, ir);
    if (host && dev)
      result = pacxx::stageKernel(*host, *dev->getFunction(kEntry));
  }
  std::vector<CallInst *> calls_to(Module &m, StringRef name) {
    std::vector<CallInst *> out;
    for (Instruction &i : instructions(*m.getFunction(kEntry)))
      if (auto *c = dyn_cast<CallInst>(&i))
        if (c->getCalledFunction() && c->getCalledFunction()->getName() == name)
          out.push_back(c);
    return out;
  }
};

TEST(Staging, ValueOfArgumentsBecomesPlaceholderAndHostStub) {
  // stage(n * k + block size x): kernel arguments and the launch shape.
  staged_kernel s("  %k.addr = getelementptr inbounds i8, ptr %p, i64 4\n"
                  "  %n = load i32, ptr %p\n"
                  "  %k = load i32, ptr %k.addr\n"
                  "  %nk = mul i32 %n, %k\n"
                  "  %wide = sext i32 %nk to i64\n"
                  "  %bs = call i64 @__pacxx_local_size(i32 0)\n"
                  "  %v = add i64 %wide, %bs\n"
                  "  %s = call i64 @__pacxx_stage_int(i64 %v)\n"
                  "  %out.addr = getelementptr inbounds i8, ptr %p, i64 8\n"
                  "  %out = load ptr, ptr %out.addr\n"
                  "  store i64 %s, ptr %out");
  ASSERT_TRUE(s.result.Errors.empty()) << s.result.Errors[0].Message;
  ASSERT_EQ(s.result.Stubs.size(), 1u);

  // Device: the stage call is now __pacxx_staged_int(id 0, v), and its value is used.
  EXPECT_TRUE(s.calls_to(*s.dev, "__pacxx_stage_int").empty());
  std::vector<CallInst *> staged =
      s.calls_to(*s.dev, std::string(pacxx::abi::staged_prefix) + "int");
  ASSERT_EQ(staged.size(), 1u);
  EXPECT_EQ(cast<ConstantInt>(staged[0]->getArgOperand(0))->getZExtValue(), 0u);
  EXPECT_FALSE(staged[0]->use_empty());

  // Host: stub 0, uint64_t(const void *args, const void *config), reading the payload
  // and block.x at launch_config's offset; no device builtin left in it.
  Function *stub = s.result.Stubs[0];
  EXPECT_EQ(stub->getParent(), s.host.get());
  EXPECT_EQ(stub->getName(), std::string(pacxx::abi::stage_stub_prefix) + "0");
  EXPECT_TRUE(stub->getReturnType()->isIntegerTy(64));
  ASSERT_EQ(stub->arg_size(), 2u);
  bool reads_args = false, reads_block_x = false;
  for (Instruction &i : instructions(*stub)) {
    if (auto *c = dyn_cast<CallBase>(&i))
      ADD_FAILURE() << "the stub calls " << c->getCalledFunction()->getName().str();
    if (auto *l = dyn_cast<LoadInst>(&i)) {
      Value *ptr = l->getPointerOperand();
      reads_args |= getUnderlyingObject(ptr) == stub->getArg(0);
      if (auto *g = dyn_cast<GEPOperator>(ptr); g && g->getPointerOperand() == stub->getArg(1)) {
        APInt off(64, 0);
        ASSERT_TRUE(g->accumulateConstantOffset(s.host->getDataLayout(), off));
        reads_block_x |= off == pacxx::abi::launch_config_block;
      }
    }
  }
  EXPECT_TRUE(reads_args);
  EXPECT_TRUE(reads_block_x);
  EXPECT_FALSE(verifyModule(*s.host, &errs()));
  EXPECT_FALSE(verifyModule(*s.dev, &errs()));
}

TEST(Staging, ValueOfThreadIndexIsRejectedAtTheStageCall) {
  staged_kernel s("  %i = call i64 @__pacxx_global_id(i32 0)\n"
                  "  %s = call i64 @__pacxx_stage_int(i64 %i)\n"
                  "  store i64 %s, ptr %p");
  EXPECT_TRUE(s.result.Stubs.empty());
  ASSERT_EQ(s.result.Errors.size(), 1u);
  const pacxx::DeviceDiagnostic &e = s.result.Errors[0];
  EXPECT_NE(e.Message.find("stages a value that depends on the thread or block index"),
            std::string::npos)
      << e.Message;
  // Reported at the stage call, the user's line.
  auto *at = dyn_cast_or_null<CallInst>(e.At);
  ASSERT_NE(at, nullptr);
  EXPECT_EQ(at->getCalledFunction()->getName(), "__pacxx_stage_int");
}

TEST(Staging, KernelExtractionReportsWhatCannotBeStaged) {
  // Through the pass, as pacxx++ runs it: the module is left alone and the error
  // reaches the compiler's diagnostics.
  LLVMContext ctx;
  std::vector<std::string> errors;
  ctx.setDiagnosticHandlerCallBack(
      [](const DiagnosticInfo &d, void *context) {
        std::string msg;
        raw_string_ostream os(msg);
        DiagnosticPrinterRawOStream printer(os);
        d.print(printer);
        if (d.getSeverity() == DS_Error)
          static_cast<std::vector<std::string> *>(context)->push_back(os.str());
      },
      &errors);
  auto m = parse(ctx, kernel("  %i = call i64 @__pacxx_global_id(i32 0)\n"
                             "  %s = call i64 @__pacxx_stage_int(i64 %i)\n"
                             "  store i64 %s, ptr %p",
                             kStageDecls));
  ModuleAnalysisManager mam;
  PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  PreservedAnalyses pa = pacxx::KernelExtractionPass().run(*m, mam);
  EXPECT_TRUE(pa.areAllPreserved());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "pacxx: 1 staged value(s) cannot be computed before the launch");
}

} // namespace

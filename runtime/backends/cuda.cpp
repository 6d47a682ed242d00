// CUDA backend: the driver API, reached through dlopen("libcuda.so.1") so that a
// pacxx program has no link-time dependency on the driver and still runs (on
// OpenCL) where no NVIDIA driver is installed. We therefore declare the handful of
// driver types and entry points ourselves instead of including cuda.h.
#include "backend.hpp"
#include "pacxx/error.hpp"
#include "support/envelope.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace pacxx {
namespace rt {
namespace {

// ---- The slice of cuda.h we need (ABI-stable since CUDA 4) -----------------

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUlinkState_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUlinkState = CUlinkState_st *;
struct CUevent_st;
using CUevent = CUevent_st *;
struct CUgraph_st;
struct CUgraphExec_st;
using CUgraph = CUgraph_st *;
using CUgraphExec = CUgraphExec_st *;
struct CUgraphNode_st;
using CUgraphNode = CUgraphNode_st *;
// Conditional nodes (CUDA 12.3+), as cuda.h lays them out: CUgraphNodeParams is 256
// bytes, its union of node parameters at offset 16.
struct CUDA_CONDITIONAL_NODE_PARAMS {
  unsigned long long handle; // CUgraphConditionalHandle
  int type;                  // CUgraphConditionalNodeType
  unsigned size;
  CUgraph *phGraph_out;
  CUcontext ctx;
};
struct CUgraphNodeParams {
  int type; // CUgraphNodeType
  int reserved0[3];
  union {
    long long reserved1[29];
    CUDA_CONDITIONAL_NODE_PARAMS conditional;
  };
  long long reserved2;
};
static_assert(sizeof(CUgraphNodeParams) == 256, "CUgraphNodeParams as in cuda.h");
constexpr int CU_GRAPH_NODE_TYPE_CONDITIONAL = 13;
constexpr int CU_GRAPH_COND_TYPE_WHILE = 1;
constexpr unsigned CU_GRAPH_COND_ASSIGN_DEFAULT = 1;
constexpr int CU_JIT_INPUT_LIBRARY = 4;
// gpu::iterate_until's test on the device (build_loop): counts a batch and sets the
// conditional node's value to done[0] != 0 && batches_run < batches. nvcc 13.0's PTX of
//   __global__ void pacxx_loop_test(cudaGraphConditionalHandle h, const int *done,
//                                   unsigned *batches_run, unsigned batches) {
//     const unsigned c = batches_run[0] + 1;
//     batches_run[0] = c;
//     cudaGraphSetConditional(h, done[0] != 0 && c < batches ? 1u : 0u);
//   }
// (-arch=compute_75 -rdc=true), at PTX ISA 8.3 (CUDA 12.3, the first with conditional
// nodes). Checked offline: ptxas -arch=sm_90 -c, then nvlink with -lcudadevrt.
constexpr const char *loop_test_ptx = R"(.version 8.3
.target sm_75
.address_size 64
.extern .func cudaGraphSetConditional
(
	.param .b64 cudaGraphSetConditional_param_0,
	.param .b32 cudaGraphSetConditional_param_1
)
;
.visible .entry pacxx_loop_test(
	.param .u64 pacxx_loop_test_param_0,
	.param .u64 pacxx_loop_test_param_1,
	.param .u64 pacxx_loop_test_param_2,
	.param .u32 pacxx_loop_test_param_3
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<6>;
	ld.param.u64 	%rd1, [pacxx_loop_test_param_0];
	ld.param.u64 	%rd2, [pacxx_loop_test_param_1];
	ld.param.u64 	%rd3, [pacxx_loop_test_param_2];
	ld.param.u32 	%r1, [pacxx_loop_test_param_3];
	cvta.to.global.u64 	%rd4, %rd2;
	cvta.to.global.u64 	%rd5, %rd3;
	ld.global.u32 	%r2, [%rd5];
	add.s32 	%r3, %r2, 1;
	st.global.u32 	[%rd5], %r3;
	ld.global.u32 	%r4, [%rd4];
	setp.ne.s32 	%p1, %r4, 0;
	setp.lt.u32 	%p2, %r3, %r1;
	and.pred  	%p3, %p2, %p1;
	selp.u32 	%r5, 1, 0, %p3;
	{
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd1;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r5;
	call.uni
	cudaGraphSetConditional,
	(
	param0,
	param1
	);
	}
	ret;
}
)";

// cuGraphExecUpdate_v2's report (CUDA 12.0+), as cuda.h lays it out.
struct CUgraphExecUpdateResultInfo {
  int result;
  CUgraphNode errorNode, errorFromNode;
};

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 2;
constexpr unsigned CU_EVENT_DEFAULT = 0;  // with timing (timeline markers)
constexpr unsigned CU_STREAM_DEFAULT = 0; // blocking: ordered with the legacy stream
// The private stream that pacxx::capture's work is issued on under capture: ordered
// with nothing else, so no other thread's legacy-stream work can join the capture.
constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
// Relaxed: the capturing thread may still call the driver (cuFuncSetAttribute of a
// kernel that asks for much dynamic shared memory) while the stream captures.
constexpr int CU_STREAM_CAPTURE_MODE_RELAXED = 2;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2; // _Y, _Z follow
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;  // _Y, _Z follow
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
constexpr int CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19;
constexpr int CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41;
constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_JIT_INFO_LOG_BUFFER = 3;
constexpr int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_JIT_INPUT_PTX = 1; // CUjitInputType
// Above this a kernel must opt in to more dynamic shared memory per block.
constexpr std::size_t default_dynamic_shared_limit = 48 * 1024;

// Function table, filled from the driver library once per process.
struct api {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDeviceTotalMem_v2)(std::size_t *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice); // _v2 where exported
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAlloc_v2)(CUdeviceptr *, std::size_t);
  CUresult (*cuMemFree_v2)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD_v2)(CUdeviceptr, const void *, std::size_t);
  CUresult (*cuMemcpyDtoH_v2)(void *, CUdeviceptr, std::size_t);
  CUresult (*cuMemcpyDtoD_v2)(CUdeviceptr, CUdeviceptr, std::size_t);
  // Queues and events (pacxx::queue), pinned memory (gpu::pinned_vector).
  CUresult (*cuMemcpyHtoDAsync_v2)(CUdeviceptr, const void *, std::size_t, CUstream);
  CUresult (*cuMemcpyDtoHAsync_v2)(void *, CUdeviceptr, std::size_t, CUstream);
  CUresult (*cuMemcpyDtoDAsync_v2)(CUdeviceptr, CUdeviceptr, std::size_t, CUstream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, std::size_t, CUstream);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy_v2)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventQuery)(CUevent);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventDestroy_v2)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuMemAllocHost_v2)(void **, std::size_t);
  CUresult (*cuMemFreeHost)(void *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuModuleUnload)(CUmodule);
  // The driver's linker: PTX to a cubin for the context's device (build_binary).
  CUresult (*cuLinkCreate_v2)(unsigned, int *, void **, CUlinkState *);
  CUresult (*cuLinkAddData_v2)(CUlinkState, int, void *, std::size_t, const char *, unsigned, int *,
                               void **);
  CUresult (*cuLinkComplete)(CUlinkState, void **, std::size_t *);
  CUresult (*cuLinkDestroy)(CUlinkState);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void **, void **);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  // Optional (CUDA 12.4+): lets launch() check args_size against the kernel.
  CUresult (*cuFuncGetParamInfo)(CUfunction, std::size_t, std::size_t *, std::size_t *);
  // Optional (CUDA 11.4+): pacxx::graph as a CUDA graph (build_graph); without them a
  // graph replays its recorded launches one by one.
  CUresult (*cuStreamBeginCapture)(CUstream, int);
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph *);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *, CUgraph, unsigned long long);
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec);
  CUresult (*cuGraphDestroy)(CUgraph);
  // Optional (CUDA 12.0+): pacxx::graph::update changes an instantiated graph in place.
  CUresult (*cuGraphExecUpdate)(CUgraphExec, CUgraph, CUgraphExecUpdateResultInfo *);
  // Optional (CUDA 12.3+): gpu::iterate_until's test on the device (build_loop).
  CUresult (*cuGraphCreate)(CUgraph *, unsigned);
  CUresult (*cuGraphConditionalHandleCreate)(unsigned long long *, CUgraph, CUcontext, unsigned,
                                             unsigned);
  CUresult (*cuGraphAddNode)(CUgraphNode *, CUgraph, const CUgraphNode *, std::size_t,
                             CUgraphNodeParams *);
  CUresult (*cuGraphAddNode_v2)(CUgraphNode *, CUgraph, const CUgraphNode *, const void *,
                                std::size_t, CUgraphNodeParams *);
  CUresult (*cuStreamBeginCaptureToGraph)(CUstream, CUgraph, const CUgraphNode *, const void *,
                                          std::size_t, int);
  CUresult (*cuLinkAddFile_v2)(CUlinkState, int, const char *, unsigned, int *, void **);
};

// Names of the codes that cuInit can return where cuGetErrorName itself fails
// (the toolkit's stub libcuda, installed as libcuda.so.1, answers everything with 34).
const char *fallback_error_name(CUresult r) {
  switch (r) {
  case 3:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case 34:
    return "CUDA_ERROR_STUB_LIBRARY";
  case 35:
    return "CUDA_ERROR_INSUFFICIENT_DRIVER";
  case 46:
    return "CUDA_ERROR_DEVICES_UNAVAILABLE";
  case 100:
    return "CUDA_ERROR_NO_DEVICE";
  case 304:
    return "CUDA_ERROR_OPERATING_SYSTEM";
  case 999:
    return "CUDA_ERROR_UNKNOWN";
  default:
    return "unknown CUresult";
  }
}

// "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"
std::string describe(const api &cu, CUresult r) {
  const char *name = nullptr, *text = nullptr;
  if (cu.cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
    name = fallback_error_name(r);
  if (cu.cuGetErrorString(r, &text) != CUDA_SUCCESS || !text)
    text = "no description from the driver";
  return std::string(name) + " (" + std::to_string(r) + "): " + text;
}

void check(const api &cu, CUresult r, const char *call, const std::string &detail = {}) {
  if (r == CUDA_SUCCESS)
    return;
  std::string msg = std::string("cuda: ") + call + " failed";
  if (!detail.empty())
    msg += " (" + detail + ")";
  throw error(msg + ": " + describe(cu, r));
}

// The library is opened and cuInit'ed once; the handle is never closed because
// device objects and the driver's own atexit handlers may outlive any owner we
// could give it.
struct loaded_api {
  api cu{};
  bool ok = false;
  std::string why; // when !ok: a one-line note for pacxx-info
};

const loaded_api &load_api() {
  // Never destroyed: the devices keep a reference to its table, and the runtime that
  // owns them is made before this (and so destroyed after it) at exit.
  static const loaded_api &result = *new loaded_api([] {
    loaded_api l;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *e = dlerror();
      l.why = std::string("cuda: libcuda.so.1 not found (") + (e ? e : "dlopen failed") + ")";
      return l;
    }
    bool missing = false;
    auto sym = [&](auto &fn, const char *name, const char *fallback = nullptr) {
      void *p = dlsym(lib, name);
      if (!p && fallback)
        p = dlsym(lib, fallback);
      if (!p && !missing) {
        missing = true;
        l.why = std::string("cuda: libcuda.so.1 lacks ") + name + " (driver too old?)";
      }
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
    };
    api &cu = l.cu;
    sym(cu.cuInit, "cuInit");
    sym(cu.cuDriverGetVersion, "cuDriverGetVersion");
    sym(cu.cuDeviceGetCount, "cuDeviceGetCount");
    sym(cu.cuDeviceGet, "cuDeviceGet");
    sym(cu.cuDeviceGetName, "cuDeviceGetName");
    sym(cu.cuDeviceGetAttribute, "cuDeviceGetAttribute");
    sym(cu.cuDeviceTotalMem_v2, "cuDeviceTotalMem_v2");
    sym(cu.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    sym(cu.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease");
    sym(cu.cuCtxSetCurrent, "cuCtxSetCurrent");
    sym(cu.cuCtxSynchronize, "cuCtxSynchronize");
    sym(cu.cuMemAlloc_v2, "cuMemAlloc_v2");
    sym(cu.cuMemFree_v2, "cuMemFree_v2");
    sym(cu.cuMemcpyHtoD_v2, "cuMemcpyHtoD_v2");
    sym(cu.cuMemcpyDtoH_v2, "cuMemcpyDtoH_v2");
    sym(cu.cuMemcpyDtoD_v2, "cuMemcpyDtoD_v2");
    sym(cu.cuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync_v2");
    sym(cu.cuMemcpyDtoHAsync_v2, "cuMemcpyDtoHAsync_v2");
    sym(cu.cuMemcpyDtoDAsync_v2, "cuMemcpyDtoDAsync_v2");
    sym(cu.cuMemsetD8Async, "cuMemsetD8Async");
    sym(cu.cuStreamCreate, "cuStreamCreate");
    sym(cu.cuStreamDestroy_v2, "cuStreamDestroy_v2", "cuStreamDestroy");
    sym(cu.cuStreamSynchronize, "cuStreamSynchronize");
    sym(cu.cuStreamWaitEvent, "cuStreamWaitEvent");
    sym(cu.cuEventCreate, "cuEventCreate");
    sym(cu.cuEventRecord, "cuEventRecord");
    sym(cu.cuEventQuery, "cuEventQuery");
    sym(cu.cuEventSynchronize, "cuEventSynchronize");
    sym(cu.cuEventDestroy_v2, "cuEventDestroy_v2", "cuEventDestroy");
    sym(cu.cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime");
    sym(cu.cuMemAllocHost_v2, "cuMemAllocHost_v2", "cuMemAllocHost");
    sym(cu.cuMemFreeHost, "cuMemFreeHost");
    sym(cu.cuModuleLoadDataEx, "cuModuleLoadDataEx");
    sym(cu.cuModuleGetFunction, "cuModuleGetFunction");
    sym(cu.cuModuleUnload, "cuModuleUnload");
    sym(cu.cuLinkCreate_v2, "cuLinkCreate_v2");
    sym(cu.cuLinkAddData_v2, "cuLinkAddData_v2");
    sym(cu.cuLinkComplete, "cuLinkComplete");
    sym(cu.cuLinkDestroy, "cuLinkDestroy");
    sym(cu.cuFuncSetAttribute, "cuFuncSetAttribute");
    sym(cu.cuFuncGetAttribute, "cuFuncGetAttribute");
    sym(cu.cuLaunchKernel, "cuLaunchKernel");
    sym(cu.cuGetErrorName, "cuGetErrorName");
    sym(cu.cuGetErrorString, "cuGetErrorString");
    if (missing)
      return l;
    cu.cuFuncGetParamInfo =
        reinterpret_cast<decltype(cu.cuFuncGetParamInfo)>(dlsym(lib, "cuFuncGetParamInfo"));
    auto optional = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    };
    optional(cu.cuStreamBeginCapture, "cuStreamBeginCapture_v2");
    optional(cu.cuStreamEndCapture, "cuStreamEndCapture");
    optional(cu.cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags");
    optional(cu.cuGraphLaunch, "cuGraphLaunch");
    optional(cu.cuGraphExecDestroy, "cuGraphExecDestroy");
    optional(cu.cuGraphDestroy, "cuGraphDestroy");
    optional(cu.cuGraphExecUpdate, "cuGraphExecUpdate_v2");
    optional(cu.cuGraphCreate, "cuGraphCreate");
    optional(cu.cuGraphConditionalHandleCreate, "cuGraphConditionalHandleCreate");
    optional(cu.cuGraphAddNode, "cuGraphAddNode");
    optional(cu.cuGraphAddNode_v2, "cuGraphAddNode_v2");
    optional(cu.cuStreamBeginCaptureToGraph, "cuStreamBeginCaptureToGraph");
    optional(cu.cuLinkAddFile_v2, "cuLinkAddFile_v2");

    if (CUresult r = cu.cuInit(0); r != CUDA_SUCCESS) {
      l.why = "cuda: cuInit: " + describe(cu, r);
      return l;
    }
    l.ok = true;
    return l;
  }());
  return result;
}

// The device's primary context, shared by the device and every kernel loaded on
// it so that modules are unloaded before the context's last reference goes.
// The primary context (rather than cuCtxCreate) is what the CUDA runtime and
// other libraries in the process use too, so pointers interoperate.
class context {
public:
  context(const api &cu, CUdevice dev) : cu_(cu), dev_(dev) {
    check(cu_, cu_.cuDevicePrimaryCtxRetain(&ctx_, dev_), "cuDevicePrimaryCtxRetain");
  }
  ~context() { cu_.cuDevicePrimaryCtxRelease(dev_); }
  context(const context &) = delete;
  context &operator=(const context &) = delete;

  // Contexts are per host thread: every entry point makes ours current first.
  void make_current() const { check(cu_, cu_.cuCtxSetCurrent(ctx_), "cuCtxSetCurrent"); }
  bool try_make_current() const noexcept { return cu_.cuCtxSetCurrent(ctx_) == CUDA_SUCCESS; }

  const api &cu() const { return cu_; }
  CUdevice dev() const { return dev_; }
  CUcontext handle() const { return ctx_; }

private:
  const api &cu_;
  CUdevice dev_;
  CUcontext ctx_ = nullptr;
};

class cuda_kernel final : public loaded_kernel {
public:
  cuda_kernel(std::shared_ptr<const context> ctx, CUmodule mod, CUfunction fn, std::string name)
      : ctx_(std::move(ctx)), mod_(mod), fn_(fn), name_(std::move(name)) {}
  ~cuda_kernel() override {
    // Errors here (e.g. a sticky fault from an earlier launch) cannot be reported.
    // A kernel is unloaded when the kernel cache evicts its variant (or at exit), maybe
    // with launches of it still queued: the module must outlive them, and the driver
    // does not promise that cuModuleUnload waits for them, so wait for the context first.
    if (ctx_->try_make_current()) {
      ctx_->cu().cuCtxSynchronize();
      ctx_->cu().cuModuleUnload(mod_);
    }
  }

  std::shared_ptr<const context> ctx_;
  CUmodule mod_;
  CUfunction fn_;
  std::string name_;
  std::size_t param_size_ = 0; // 0: unknown (driver without cuFuncGetParamInfo)
  std::atomic<std::size_t> shared_opt_in_{default_dynamic_shared_limit};
};

CUdeviceptr dptr(const void *p) {
  return static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(p));
}

unsigned to_uint(std::size_t v, const char *what) {
  if (v > UINT_MAX)
    throw error(std::string("cuda: launch: ") + what + " " + std::to_string(v) + " is too large");
  return static_cast<unsigned>(v);
}

// An instantiated CUDA graph; the kernels' modules it launches are kept loaded by the
// pacxx::graph that owns it.
class cuda_graph final : public native_graph {
public:
  cuda_graph(std::shared_ptr<const context> ctx, CUgraphExec exec)
      : ctx_(std::move(ctx)), exec_(exec) {}
  ~cuda_graph() override {
    if (ctx_->try_make_current())
      ctx_->cu().cuGraphExecDestroy(exec_);
  }
  void launch(void *queue) override {
    ctx_->make_current();
    check(ctx_->cu(), ctx_->cu().cuGraphLaunch(exec_, static_cast<CUstream>(queue)),
          "cuGraphLaunch");
  }
  // Whether the driver took g's parameters into this executable graph (same topology;
  // launches already made are not changed). False leaves the caller to instantiate anew.
  bool update_from(CUgraph g) {
    const api &cu = ctx_->cu();
    if (!cu.cuGraphExecUpdate)
      return false;
    CUgraphExecUpdateResultInfo info{};
    return cu.cuGraphExecUpdate(exec_, g, &info) == CUDA_SUCCESS;
  }

private:
  std::shared_ptr<const context> ctx_;
  CUgraphExec exec_;
};

// build_binary() seals cubins so that load_binary() never hands the driver (which
// takes no size) a truncated or corrupted image.
constexpr char cubin_magic[] = "PACXXCUB";

class cuda_device final : public device {
public:
  cuda_device(const api &cu, CUdevice dev) : cu_(cu) {
    ctx_ = std::make_shared<const context>(cu, dev);
    char buf[256] = {};
    check(cu, cu.cuDeviceGetName(buf, sizeof buf - 1, dev), "cuDeviceGetName");
    name_ = buf;
    int major = 0, minor = 0;
    check(cu, cu.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
          "cuDeviceGetAttribute", "compute capability major");
    check(cu, cu.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
          "cuDeviceGetAttribute", "compute capability minor");
    arch_ = "sm_" + std::to_string(major) + std::to_string(minor);
    int version = 0;
    check(cu, cu.cuDriverGetVersion(&version), "cuDriverGetVersion");
    driver_ = "CUDA " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10) +
              " (" + std::to_string(version) + ")";
    check(cu, cu.cuDeviceTotalMem_v2(&memory_, dev), "cuDeviceTotalMem_v2");
    // Launch limits, once per device; load_image() narrows them per kernel.
    auto attribute = [&](int attr, const char *what) {
      int v = 0;
      check(cu, cu.cuDeviceGetAttribute(&v, attr, dev), "cuDeviceGetAttribute", what);
      return static_cast<std::size_t>(v);
    };
    block_limit_ = {attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, "max block dim x"),
                    attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + 1, "max block dim y"),
                    attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + 2, "max block dim z")};
    grid_limit_ = {attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, "max grid dim x"),
                   attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + 1, "max grid dim y"),
                   attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + 2, "max grid dim z")};
    shared_opt_in_limit_ = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                     "max shared memory per block (opt-in)");
    // With unified addressing, memory from cuMemAllocHost is mapped into the device's
    // address space at its host address.
    unified_addressing_ = attribute(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, "unified addressing") &&
                          attribute(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, "can map host memory");
  }

  const char *backend_name() const override { return "cuda"; }
  std::string name() const override { return name_; }
  ir_target target() const override { return ir_target::nvptx; }
  std::string arch() const override { return arch_; }
  std::string driver_version() const override { return driver_; }
  std::size_t memory_bytes() const override { return memory_; }

  void *allocate(std::size_t bytes) override {
    if (bytes == 0)
      return nullptr;
    ctx_->make_current();
    CUdeviceptr p = 0;
    check(cu_, cu_.cuMemAlloc_v2(&p, bytes), "cuMemAlloc_v2", std::to_string(bytes) + " bytes");
    return reinterpret_cast<void *>(static_cast<std::uintptr_t>(p));
  }

  void deallocate(void *p) noexcept override {
    // noexcept: a failure (driver shutting down, sticky fault) can only be ignored.
    if (p && ctx_->try_make_current())
      cu_.cuMemFree_v2(dptr(p));
  }

  // The default queue (null) keeps the synchronous cuMemcpy* calls, ordered on the
  // legacy default stream, i.e. after every kernel launched before them (DtoD does not
  // block the host). A queue of pacxx's is a blocking stream: its async copies, then,
  // when the caller asked for a synchronous copy, a wait for that stream only.
  void copy_to_device(void *dst, const void *src, std::size_t bytes, void *queue,
                      bool async) override {
    if (bytes == 0)
      return;
    ctx_->make_current();
    if (!queue && !async) {
      check(cu_, cu_.cuMemcpyHtoD_v2(dptr(dst), src, bytes), "cuMemcpyHtoD_v2");
      return;
    }
    check(cu_, cu_.cuMemcpyHtoDAsync_v2(dptr(dst), src, bytes, stream(queue)),
          "cuMemcpyHtoDAsync_v2", std::to_string(bytes) + " bytes");
    if (!async)
      check(cu_, cu_.cuStreamSynchronize(stream(queue)), "cuStreamSynchronize");
  }
  void copy_to_host(void *dst, const void *src, std::size_t bytes, void *queue,
                    bool async) override {
    if (bytes == 0)
      return;
    ctx_->make_current();
    if (!queue && !async) {
      check(cu_, cu_.cuMemcpyDtoH_v2(dst, dptr(src), bytes), "cuMemcpyDtoH_v2");
      return;
    }
    check(cu_, cu_.cuMemcpyDtoHAsync_v2(dst, dptr(src), bytes, stream(queue)),
          "cuMemcpyDtoHAsync_v2", std::to_string(bytes) + " bytes");
    if (!async)
      check(cu_, cu_.cuStreamSynchronize(stream(queue)), "cuStreamSynchronize");
  }
  void copy_on_device(void *dst, const void *src, std::size_t bytes, void *queue) override {
    if (bytes == 0)
      return;
    ctx_->make_current();
    if (!queue)
      check(cu_, cu_.cuMemcpyDtoD_v2(dptr(dst), dptr(src), bytes), "cuMemcpyDtoD_v2");
    else
      check(cu_, cu_.cuMemcpyDtoDAsync_v2(dptr(dst), dptr(src), bytes, stream(queue)),
            "cuMemcpyDtoDAsync_v2");
  }

  // On the legacy default stream (null) too: an async memset there is ordered after
  // every kernel before it and returns at once.
  void fill_on_device(void *dst, unsigned char byte, std::size_t bytes, void *queue) override {
    if (bytes == 0)
      return;
    ctx_->make_current();
    check(cu_, cu_.cuMemsetD8Async(dptr(dst), byte, bytes, stream(queue)), "cuMemsetD8Async",
          std::to_string(bytes) + " bytes");
  }

  bool default_queue_orders_all() const override { return true; }
  void *create_queue() override {
    ctx_->make_current();
    CUstream s = nullptr;
    check(cu_, cu_.cuStreamCreate(&s, CU_STREAM_DEFAULT), "cuStreamCreate");
    return s;
  }
  void adopt_queue(void *native) override {
    if (!native)
      throw error("cuda: pacxx::queue::adopt: a null CUstream (the legacy default stream is "
                  "pacxx's default queue: use no queue for it)");
  }
  void release_queue(void *native, bool owned) noexcept override {
    if (!native || !ctx_->try_make_current())
      return;
    cu_.cuStreamSynchronize(stream(native));
    if (owned)
      cu_.cuStreamDestroy_v2(stream(native));
  }
  void wait_queue(void *queue) override {
    ctx_->make_current();
    check(cu_, cu_.cuStreamSynchronize(stream(queue)), "cuStreamSynchronize");
  }
  // Events are kept for reuse: a future per call (gpu::async) must cost little more
  // than the call, and cuEventCreate is the expensive half of create + record.
  void *record_event(void *queue) override {
    ctx_->make_current();
    CUevent e = nullptr;
    {
      std::lock_guard<std::mutex> lock(events_mutex_);
      if (!free_events_.empty()) {
        e = free_events_.back();
        free_events_.pop_back();
      }
    }
    if (!e)
      check(cu_, cu_.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    return recorded(e, queue);
  }
  // e recorded on queue's stream; destroyed if that fails.
  CUevent recorded(CUevent e, void *queue) {
    if (CUresult r = cu_.cuEventRecord(e, stream(queue)); r != CUDA_SUCCESS) {
      cu_.cuEventDestroy_v2(e);
      check(cu_, r, "cuEventRecord");
    }
    return e;
  }
  void queue_wait_event(void *queue, void *event) override {
    ctx_->make_current();
    check(cu_, cu_.cuStreamWaitEvent(stream(queue), static_cast<CUevent>(event), 0),
          "cuStreamWaitEvent");
  }
  void wait_event(void *event) override {
    ctx_->make_current();
    check(cu_, cu_.cuEventSynchronize(static_cast<CUevent>(event)), "cuEventSynchronize",
          "waiting for the device's work");
  }
  bool event_done(void *event) override {
    ctx_->make_current();
    CUresult r = cu_.cuEventQuery(static_cast<CUevent>(event));
    if (r == CUDA_ERROR_NOT_READY)
      return false;
    check(cu_, r, "cuEventQuery");
    return true;
  }
  void release_event(void *event) noexcept override {
    if (!event)
      return;
    try {
      std::lock_guard<std::mutex> lock(events_mutex_);
      if (free_events_.size() < 4096) {
        free_events_.push_back(static_cast<CUevent>(event)); // re-recorded when reused
        return;
      }
    } catch (...) {
    }
    if (ctx_->try_make_current())
      cu_.cuEventDestroy_v2(static_cast<CUevent>(event));
  }
  // Timing markers are events with timing on (record_event's have it off: cheaper).
  void *timing_marker(void *queue) override {
    ctx_->make_current();
    CUevent e = nullptr;
    check(cu_, cu_.cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate");
    return recorded(e, queue);
  }
  double timing_ms(void *from, void *to) override {
    ctx_->make_current();
    // Markers of two streams: both must have completed.
    check(cu_, cu_.cuEventSynchronize(static_cast<CUevent>(from)), "cuEventSynchronize");
    check(cu_, cu_.cuEventSynchronize(static_cast<CUevent>(to)), "cuEventSynchronize");
    float ms = 0;
    check(cu_, cu_.cuEventElapsedTime(&ms, static_cast<CUevent>(from), static_cast<CUevent>(to)),
          "cuEventElapsedTime");
    return ms;
  }
  void release_timing_marker(void *marker) noexcept override {
    if (marker && ctx_->try_make_current())
      cu_.cuEventDestroy_v2(static_cast<CUevent>(marker));
  }
  void *allocate_host(std::size_t bytes) override {
    if (bytes == 0)
      return nullptr;
    ctx_->make_current();
    void *p = nullptr;
    check(cu_, cu_.cuMemAllocHost_v2(&p, bytes), "cuMemAllocHost_v2",
          std::to_string(bytes) + " bytes of pinned host memory");
    return p;
  }
  void deallocate_host(void *p) noexcept override {
    if (p && ctx_->try_make_current())
      cu_.cuMemFreeHost(p);
  }
  bool kernels_write_pinned_memory() const override { return unified_addressing_; }
  void native_handles(void **device, void **context, void **queue) override {
    *device = reinterpret_cast<void *>(static_cast<std::intptr_t>(ctx_->dev()));
    *context = ctx_->handle();
    *queue = nullptr; // the legacy default stream
  }

  // PTX -> cubin for this device's architecture with the driver's linker, i.e. the
  // translation that loading PTX would do on every process start.
  std::string build_binary(const std::string &code) override {
    ctx_->make_current();
    // The log buffers and their sizes are written until cuLinkDestroy: they must
    // outlive the link state (declared before its guard below).
    char info_log[8192] = {}, error_log[8192] = {};
    int options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                     CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {info_log, reinterpret_cast<void *>(std::uintptr_t{sizeof info_log - 1}),
                      error_log, reinterpret_cast<void *>(std::uintptr_t{sizeof error_log - 1})};
    auto fail = [&](const char *call, CUresult r) {
      std::string msg = std::string("cuda: ") + call + " failed building a cubin on " + name_ +
                        " (" + arch_ + "): " + describe(cu_, r);
      if (error_log[0])
        msg += "\nJIT error log:\n" + std::string(error_log);
      if (info_log[0])
        msg += "\nJIT info log:\n" + std::string(info_log);
      return error(msg);
    };
    std::lock_guard<std::mutex> lock(load_mutex_);
    CUlinkState state = nullptr;
    if (CUresult r = cu_.cuLinkCreate_v2(4, options, values, &state); r != CUDA_SUCCESS)
      throw fail("cuLinkCreate_v2", r);
    struct destroy {
      const api &cu;
      CUlinkState s;
      ~destroy() { cu.cuLinkDestroy(s); }
    } guard{cu_, state};
    // The size includes the terminating NUL, which the driver requires of PTX.
    if (CUresult r = cu_.cuLinkAddData_v2(state, CU_JIT_INPUT_PTX, const_cast<char *>(code.c_str()),
                                          code.size() + 1, "pacxx.ptx", 0, nullptr, nullptr);
        r != CUDA_SUCCESS)
      throw fail("cuLinkAddData_v2", r);
    void *cubin = nullptr;
    std::size_t size = 0;
    if (CUresult r = cu_.cuLinkComplete(state, &cubin, &size); r != CUDA_SUCCESS)
      throw fail("cuLinkComplete", r);
    if (!cubin || size == 0)
      throw error("cuda: cuLinkComplete returned an empty cubin on " + name_ + " (" + arch_ + ")");
    // The cubin is owned by the link state: copied before its guard destroys it.
    return seal(cubin_magic, std::string_view(static_cast<const char *>(cubin), size));
  }

  std::unique_ptr<loaded_kernel> load_binary(const std::string &binary,
                                             const std::string &kernel_name) override {
    std::string why;
    std::optional<std::string_view> cubin = unseal(cubin_magic, binary, &why);
    if (!cubin)
      throw error("cuda: load_binary of kernel '" + kernel_name + "' on " + name_ + " (" + arch_ +
                  "): not a cubin from build_binary: " + why);
    return load_image(cubin->data(), kernel_name, " (cubin)");
  }

  void launch(loaded_kernel &lk, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
              const void *args, std::size_t args_size, void *queue) override {
    auto *k = dynamic_cast<cuda_kernel *>(&lk);
    if (!k || k->ctx_ != ctx_)
      throw error("cuda: launch: kernel was not loaded on " + name_);
    if (block.x == 0 || block.y == 0 || block.z == 0)
      throw error("cuda: launch of '" + k->name_ + "': a block dimension is 0");
    if (grid.x == 0 || grid.y == 0 || grid.z == 0)
      return; // no blocks, no work (the driver would reject it as invalid)
    // kernelParams makes the driver read as many bytes as the kernel's parameter
    // has; a mismatch would read past `args` or pass garbage, so refuse it.
    if (k->param_size_ && k->param_size_ != args_size)
      throw error("cuda: launch of '" + k->name_ + "': kernel takes " +
                  std::to_string(k->param_size_) + " bytes of arguments, " +
                  std::to_string(args_size) + " given");
    ctx_->make_current();
    if (dynamic_shared_bytes > k->shared_opt_in_.load(std::memory_order_relaxed)) {
      check(
          cu_,
          cu_.cuFuncSetAttribute(k->fn_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 static_cast<int>(to_uint(dynamic_shared_bytes, "shared memory"))),
          "cuFuncSetAttribute",
          "max dynamic shared memory " + std::to_string(dynamic_shared_bytes));
      // Racing threads may both set it; the attribute only needs to be >= each request.
      std::size_t seen = k->shared_opt_in_.load();
      while (seen < dynamic_shared_bytes &&
             !k->shared_opt_in_.compare_exchange_weak(seen, dynamic_shared_bytes)) {
      }
    }
    void *params[] = {const_cast<void *>(args)};
    CUresult r = cu_.cuLaunchKernel(
        k->fn_, to_uint(grid.x, "grid.x"), to_uint(grid.y, "grid.y"), to_uint(grid.z, "grid.z"),
        to_uint(block.x, "block.x"), to_uint(block.y, "block.y"), to_uint(block.z, "block.z"),
        to_uint(dynamic_shared_bytes, "shared memory"),
        stream(queue) /* null: the legacy default stream */, params, nullptr);
    if (r != CUDA_SUCCESS)
      check(cu_, r, "cuLaunchKernel",
            "kernel '" + k->name_ + "', grid " + std::to_string(grid.x) + "x" +
                std::to_string(grid.y) + "x" + std::to_string(grid.z) + ", block " +
                std::to_string(block.x) + "x" + std::to_string(block.y) + "x" +
                std::to_string(block.z) + ", " + std::to_string(dynamic_shared_bytes) +
                " bytes dynamic shared");
  }

  void synchronize() override {
    ctx_->make_current();
    check(cu_, cu_.cuCtxSynchronize(), "cuCtxSynchronize");
  }

  // The recorded work is issued on a private stream under capture (the same launch and
  // copy calls as direct execution, so a graph runs exactly what a direct run would),
  // then instantiated once; the CUgraph itself is not needed after that.
  std::unique_ptr<native_graph> build_graph(const std::function<void(void *)> &issue) override {
    if (!has_graphs())
      return nullptr;
    CUgraph g = capture(issue);
    CUgraphExec exec = nullptr;
    CUresult r = cu_.cuGraphInstantiateWithFlags(&exec, g, 0);
    cu_.cuGraphDestroy(g);
    check(cu_, r, "cuGraphInstantiateWithFlags");
    return std::make_unique<cuda_graph>(ctx_, exec);
  }

  // Captured again and handed to cuGraphExecUpdate: the kernel nodes' functions,
  // arguments and shapes and the copies' and fills' addresses and sizes may change,
  // the nodes and their order may not (the runtime has checked that already).
  bool update_graph(native_graph &graph, const std::function<void(void *)> &issue) override {
    if (!has_graphs() || !cu_.cuGraphExecUpdate)
      return false;
    CUgraph g = capture(issue);
    const bool updated = static_cast<cuda_graph &>(graph).update_from(g);
    cu_.cuGraphDestroy(g);
    return updated;
  }

  // A CUDA graph of one conditional WHILE node (CUDA 12.3+) whose body is `every` runs
  // of `issue`'s work and then the test kernel (loop_test_ptx): it counts the batch in
  // *batches_run and sets the node's condition to done[0] != 0 && batches_run <
  // batches, so the loop runs on the device without a host round trip per test. The
  // condition is set by cudaGraphSetConditional, which is in the toolkit's device
  // runtime library (libcudadevrt.a): the test kernel is linked with it by the
  // driver's linker. Throws pacxx::error saying why where that cannot be done.
  std::unique_ptr<native_graph> build_loop(const std::function<void(void *)> &issue,
                                           std::size_t every, const void *done, void *batches_run,
                                           std::size_t batches) override {
    if (!has_graphs() || !cu_.cuGraphCreate || !cu_.cuGraphConditionalHandleCreate ||
        !(cu_.cuGraphAddNode || cu_.cuGraphAddNode_v2) || !cu_.cuStreamBeginCaptureToGraph)
      throw error("cuda: the driver has no conditional graph nodes (CUDA 12.3+)");
    if (batches >= UINT_MAX)
      throw error("cuda: too many batches for the device loop");
    CUfunction test = loop_test();
    ctx_->make_current();
    CUgraph g = nullptr;
    check(cu_, cu_.cuGraphCreate(&g, 0), "cuGraphCreate");
    struct graph_guard {
      const api &cu;
      CUgraph g;
      ~graph_guard() { cu.cuGraphDestroy(g); }
    } owner{cu_, g};
    unsigned long long handle = 0;
    check(cu_,
          cu_.cuGraphConditionalHandleCreate(&handle, g, ctx_->handle(), 1,
                                             CU_GRAPH_COND_ASSIGN_DEFAULT),
          "cuGraphConditionalHandleCreate");
    CUgraphNodeParams params{};
    params.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    params.conditional.handle = handle;
    params.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
    params.conditional.size = 1;
    params.conditional.ctx = ctx_->handle();
    CUgraphNode node = nullptr;
    check(cu_,
          cu_.cuGraphAddNode_v2 ? cu_.cuGraphAddNode_v2(&node, g, nullptr, nullptr, 0, &params)
                                : cu_.cuGraphAddNode(&node, g, nullptr, 0, &params),
          "cuGraphAddNode (conditional)");
    if (!params.conditional.phGraph_out || !params.conditional.phGraph_out[0])
      throw error("cuda: cuGraphAddNode gave the conditional node no body graph");
    CUgraph body = params.conditional.phGraph_out[0]; // owned by the node
    CUstream s = nullptr;
    check(cu_, cu_.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    struct stream_guard {
      const api &cu;
      CUstream s;
      ~stream_guard() { cu.cuStreamDestroy_v2(s); }
    } stream_owner{cu_, s};
    check(cu_,
          cu_.cuStreamBeginCaptureToGraph(s, body, nullptr, nullptr, 0,
                                          CU_STREAM_CAPTURE_MODE_RELAXED),
          "cuStreamBeginCaptureToGraph");
    CUgraph captured = nullptr;
    try {
      for (std::size_t i = 0; i < every; ++i)
        issue(s);
      CUdeviceptr done_ptr = reinterpret_cast<CUdeviceptr>(done),
                  run_ptr = reinterpret_cast<CUdeviceptr>(batches_run);
      unsigned most = static_cast<unsigned>(batches);
      void *args[] = {&handle, &done_ptr, &run_ptr, &most};
      check(cu_, cu_.cuLaunchKernel(test, 1, 1, 1, 1, 1, 1, 0, s, args, nullptr),
            "cuLaunchKernel (iterate_until's test)");
    } catch (...) {
      cu_.cuStreamEndCapture(s, &captured);
      throw;
    }
    check(cu_, cu_.cuStreamEndCapture(s, &captured), "cuStreamEndCapture");
    CUgraphExec exec = nullptr;
    check(cu_, cu_.cuGraphInstantiateWithFlags(&exec, g, 0), "cuGraphInstantiateWithFlags");
    return std::make_unique<cuda_graph>(ctx_, exec);
  }

private:
  static CUstream stream(void *queue) { return static_cast<CUstream>(queue); }

  // iterate_until's test kernel: loaded once per device (linked with libcudadevrt.a).
  std::once_flag loop_test_once_;
  CUmodule loop_test_module_ = nullptr;
  CUfunction loop_test_ = nullptr;
  std::string loop_test_why_;

  CUfunction loop_test() {
    std::call_once(loop_test_once_, [this] {
      try {
        load_loop_test();
      } catch (const error &e) {
        loop_test_why_ = e.what();
      }
    });
    if (!loop_test_)
      throw error(loop_test_why_);
    return loop_test_;
  }

  // The toolkit's device runtime library, where the run-time machine has one:
  // $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, then Debian's nvidia-cuda-toolkit.
  static std::string find_cudadevrt(std::string &tried) {
    std::vector<std::string> dirs;
    for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
      if (const char *v = std::getenv(var); v && *v)
        dirs.push_back(std::string(v) + "/lib64");
    dirs.push_back("/usr/local/cuda/lib64");
    dirs.push_back("/usr/lib/x86_64-linux-gnu");
    for (const std::string &d : dirs) {
      const std::string path = d + "/libcudadevrt.a";
      tried += (tried.empty() ? "" : ", ") + path;
      if (::access(path.c_str(), R_OK) == 0)
        return path;
    }
    return std::string();
  }

  void load_loop_test() {
    if (!cu_.cuLinkAddFile_v2)
      throw error("cuda: the driver has no cuLinkAddFile_v2");
    std::string tried;
    const std::string devrt = find_cudadevrt(tried);
    if (devrt.empty())
      throw error("cuda: no libcudadevrt.a (the CUDA toolkit's device runtime, which has "
                  "cudaGraphSetConditional) among " +
                  tried);
    ctx_->make_current();
    char error_log[8192] = {};
    int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {error_log, reinterpret_cast<void *>(std::uintptr_t{sizeof error_log - 1})};
    auto fail = [&](const char *call, CUresult r) {
      return error(std::string("cuda: ") + call + " failed linking iterate_until's test with " +
                   devrt + ": " + describe(cu_, r) + (error_log[0] ? "\n" : "") + error_log);
    };
    std::lock_guard<std::mutex> lock(load_mutex_);
    CUlinkState state = nullptr;
    if (CUresult r = cu_.cuLinkCreate_v2(2, options, values, &state); r != CUDA_SUCCESS)
      throw fail("cuLinkCreate_v2", r);
    struct destroy {
      const api &cu;
      CUlinkState s;
      ~destroy() { cu.cuLinkDestroy(s); }
    } guard{cu_, state};
    std::string ptx = loop_test_ptx;
    if (CUresult r = cu_.cuLinkAddData_v2(state, CU_JIT_INPUT_PTX, &ptx[0], ptx.size() + 1,
                                          "pacxx_loop_test.ptx", 0, nullptr, nullptr);
        r != CUDA_SUCCESS)
      throw fail("cuLinkAddData_v2", r);
    if (CUresult r =
            cu_.cuLinkAddFile_v2(state, CU_JIT_INPUT_LIBRARY, devrt.c_str(), 0, nullptr, nullptr);
        r != CUDA_SUCCESS)
      throw fail("cuLinkAddFile_v2", r);
    void *cubin = nullptr;
    std::size_t size = 0;
    if (CUresult r = cu_.cuLinkComplete(state, &cubin, &size); r != CUDA_SUCCESS)
      throw fail("cuLinkComplete", r);
    if (CUresult r = cu_.cuModuleLoadDataEx(&loop_test_module_, cubin, 0, nullptr, nullptr);
        r != CUDA_SUCCESS)
      throw fail("cuModuleLoadDataEx", r);
    if (CUresult r = cu_.cuModuleGetFunction(&loop_test_, loop_test_module_, "pacxx_loop_test");
        r != CUDA_SUCCESS) {
      loop_test_ = nullptr;
      throw fail("cuModuleGetFunction", r);
    }
  }

  bool has_graphs() const {
    return cu_.cuStreamBeginCapture && cu_.cuStreamEndCapture && cu_.cuGraphInstantiateWithFlags &&
           cu_.cuGraphLaunch && cu_.cuGraphExecDestroy && cu_.cuGraphDestroy;
  }

  // What `issue` enqueues, recorded as a CUgraph (owned by the caller).
  CUgraph capture(const std::function<void(void *)> &issue) {
    ctx_->make_current();
    CUstream s = nullptr;
    check(cu_, cu_.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    struct stream_guard {
      const api &cu;
      CUstream s;
      ~stream_guard() { cu.cuStreamDestroy_v2(s); }
    } stream_owner{cu_, s};
    check(cu_, cu_.cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED), "cuStreamBeginCapture");
    CUgraph g = nullptr;
    try {
      issue(s);
    } catch (...) {
      // The capture must end before the stream can go; its partial graph is dropped.
      if (cu_.cuStreamEndCapture(s, &g) == CUDA_SUCCESS && g)
        cu_.cuGraphDestroy(g);
      throw;
    }
    check(cu_, cu_.cuStreamEndCapture(s, &g), "cuStreamEndCapture");
    return g;
  }

  // image: NUL-terminated PTX or a cubin; what: "" or " (cubin)" for messages.
  std::unique_ptr<loaded_kernel> load_image(const void *image, const std::string &kernel_name,
                                            const char *what) {
    ctx_->make_current();
    CUmodule mod = nullptr;
    char info_log[8192] = {}, error_log[8192] = {};
    int options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                     CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {info_log, reinterpret_cast<void *>(std::uintptr_t{sizeof info_log - 1}),
                      error_log, reinterpret_cast<void *>(std::uintptr_t{sizeof error_log - 1})};
    CUresult r;
    {
      std::lock_guard<std::mutex> lock(load_mutex_);
      r = cu_.cuModuleLoadDataEx(&mod, image, 4, options, values);
    }
    if (r != CUDA_SUCCESS) {
      std::string msg = "cuda: cuModuleLoadDataEx" + std::string(what) + " failed for kernel '" +
                        kernel_name + "' on " + name_ + " (" + arch_ + "): " + describe(cu_, r);
      if (error_log[0])
        msg += "\nJIT error log:\n" + std::string(error_log);
      if (info_log[0])
        msg += "\nJIT info log:\n" + std::string(info_log);
      throw error(msg);
    }
    CUfunction fn = nullptr;
    r = cu_.cuModuleGetFunction(&fn, mod, kernel_name.c_str());
    if (r != CUDA_SUCCESS) {
      cu_.cuModuleUnload(mod);
      check(cu_, r, "cuModuleGetFunction", "kernel '" + kernel_name + "'");
    }
    auto k = std::make_unique<cuda_kernel>(ctx_, mod, fn, kernel_name);
    // Per-kernel limits, once per loaded kernel (the module unloads with k on a throw).
    auto attribute = [&](int attr, const char *what) {
      int v = 0;
      check(cu_, cu_.cuFuncGetAttribute(&v, attr, fn), "cuFuncGetAttribute",
            std::string(what) + " of kernel '" + kernel_name + "'");
      return static_cast<std::size_t>(v);
    };
    const std::size_t static_shared = attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "shared size");
    k->limits.threads_per_block = attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "max threads");
    k->limits.block = block_limit_;
    k->limits.grid = grid_limit_;
    k->limits.dynamic_shared =
        shared_opt_in_limit_ > static_shared ? shared_opt_in_limit_ - static_shared : 0;
    // Without an opt-in the driver allows 48 KiB minus the static shared memory, as
    // the attribute reports; launch() opts in above it (never trusting more than the
    // documented default, so a surprising answer costs one call, not a failed launch).
    const std::size_t allowed =
        attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "max dynamic shared");
    k->shared_opt_in_ = std::min(allowed, default_dynamic_shared_limit > static_shared
                                              ? default_dynamic_shared_limit - static_shared
                                              : std::size_t{0});
    std::size_t offset = 0, size = 0;
    if (cu_.cuFuncGetParamInfo && cu_.cuFuncGetParamInfo(fn, 0, &offset, &size) == CUDA_SUCCESS)
      k->param_size_ = size;
    return k;
  }

  const api &cu_;
  std::shared_ptr<const context> ctx_;
  std::string name_, arch_, driver_;
  std::size_t memory_ = 0;
  dim3 block_limit_, grid_limit_;
  std::size_t shared_opt_in_limit_ = 0;
  bool unified_addressing_ = false;
  std::mutex load_mutex_;
  std::mutex events_mutex_;
  std::vector<CUevent> free_events_;

public:
  ~cuda_device() override {
    if (ctx_->try_make_current()) {
      for (CUevent e : free_events_)
        cu_.cuEventDestroy_v2(e);
      if (loop_test_module_)
        cu_.cuModuleUnload(loop_test_module_);
    }
  }
};

} // namespace

std::vector<std::unique_ptr<device>> discover_cuda(std::vector<std::string> &notes) {
  std::vector<std::unique_ptr<device>> devices;
  const loaded_api &l = load_api();
  if (!l.ok) {
    notes.push_back(l.why);
    return devices;
  }
  const api &cu = l.cu;
  int count = 0;
  if (CUresult r = cu.cuDeviceGetCount(&count); r != CUDA_SUCCESS) {
    notes.push_back("cuda: cuDeviceGetCount: " + describe(cu, r));
    return devices;
  }
  if (count == 0)
    notes.push_back("cuda: the driver reports no devices");
  for (int i = 0; i < count; ++i) {
    // One unusable device (e.g. exclusive-process mode, taken) must not hide the others.
    try {
      CUdevice dev = 0;
      check(cu, cu.cuDeviceGet(&dev, i), "cuDeviceGet");
      devices.push_back(std::make_unique<cuda_device>(cu, dev));
    } catch (const error &e) {
      notes.push_back("cuda: device " + std::to_string(i) + " skipped: " + e.what());
    }
  }
  return devices;
}

} // namespace rt
} // namespace pacxx

// OpenCL backend: the ICD loader, reached through dlopen("libOpenCL.so.1") so that
// a pacxx program starts (and uses CUDA) where no OpenCL is installed. <CL/cl.h>
// supplies types, constants and, via decltype, the entry points' signatures; no
// OpenCL symbol is linked.
//
// Device memory is coarse-grain SVM so that device pointers are plain pointers
// that closures can carry; kernels receive the closure as one by-value struct
// (argument 0) plus a `local char*` for dynamic shared memory (argument 1).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "backend.hpp"
#include "pacxx/error.hpp"
#include "support/envelope.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

namespace pacxx {
namespace rt {
namespace {

const char *cl_error_name(cl_int e) {
  switch (e) {
#define PACXX_CL_ERR(x)                                                                            \
  case x:                                                                                          \
    return #x;
    PACXX_CL_ERR(CL_SUCCESS)
    PACXX_CL_ERR(CL_DEVICE_NOT_FOUND)
    PACXX_CL_ERR(CL_DEVICE_NOT_AVAILABLE)
    PACXX_CL_ERR(CL_COMPILER_NOT_AVAILABLE)
    PACXX_CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    PACXX_CL_ERR(CL_OUT_OF_RESOURCES)
    PACXX_CL_ERR(CL_OUT_OF_HOST_MEMORY)
    PACXX_CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE)
    PACXX_CL_ERR(CL_MEM_COPY_OVERLAP)
    PACXX_CL_ERR(CL_IMAGE_FORMAT_MISMATCH)
    PACXX_CL_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    PACXX_CL_ERR(CL_BUILD_PROGRAM_FAILURE)
    PACXX_CL_ERR(CL_MAP_FAILURE)
    PACXX_CL_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    PACXX_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    PACXX_CL_ERR(CL_COMPILE_PROGRAM_FAILURE)
    PACXX_CL_ERR(CL_LINKER_NOT_AVAILABLE)
    PACXX_CL_ERR(CL_LINK_PROGRAM_FAILURE)
    PACXX_CL_ERR(CL_DEVICE_PARTITION_FAILED)
    PACXX_CL_ERR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    PACXX_CL_ERR(CL_INVALID_VALUE)
    PACXX_CL_ERR(CL_INVALID_DEVICE_TYPE)
    PACXX_CL_ERR(CL_INVALID_PLATFORM)
    PACXX_CL_ERR(CL_INVALID_DEVICE)
    PACXX_CL_ERR(CL_INVALID_CONTEXT)
    PACXX_CL_ERR(CL_INVALID_QUEUE_PROPERTIES)
    PACXX_CL_ERR(CL_INVALID_COMMAND_QUEUE)
    PACXX_CL_ERR(CL_INVALID_HOST_PTR)
    PACXX_CL_ERR(CL_INVALID_MEM_OBJECT)
    PACXX_CL_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    PACXX_CL_ERR(CL_INVALID_IMAGE_SIZE)
    PACXX_CL_ERR(CL_INVALID_SAMPLER)
    PACXX_CL_ERR(CL_INVALID_BINARY)
    PACXX_CL_ERR(CL_INVALID_BUILD_OPTIONS)
    PACXX_CL_ERR(CL_INVALID_PROGRAM)
    PACXX_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE)
    PACXX_CL_ERR(CL_INVALID_KERNEL_NAME)
    PACXX_CL_ERR(CL_INVALID_KERNEL_DEFINITION)
    PACXX_CL_ERR(CL_INVALID_KERNEL)
    PACXX_CL_ERR(CL_INVALID_ARG_INDEX)
    PACXX_CL_ERR(CL_INVALID_ARG_VALUE)
    PACXX_CL_ERR(CL_INVALID_ARG_SIZE)
    PACXX_CL_ERR(CL_INVALID_KERNEL_ARGS)
    PACXX_CL_ERR(CL_INVALID_WORK_DIMENSION)
    PACXX_CL_ERR(CL_INVALID_WORK_GROUP_SIZE)
    PACXX_CL_ERR(CL_INVALID_WORK_ITEM_SIZE)
    PACXX_CL_ERR(CL_INVALID_GLOBAL_OFFSET)
    PACXX_CL_ERR(CL_INVALID_EVENT_WAIT_LIST)
    PACXX_CL_ERR(CL_INVALID_EVENT)
    PACXX_CL_ERR(CL_INVALID_OPERATION)
    PACXX_CL_ERR(CL_INVALID_GL_OBJECT)
    PACXX_CL_ERR(CL_INVALID_BUFFER_SIZE)
    PACXX_CL_ERR(CL_INVALID_MIP_LEVEL)
    PACXX_CL_ERR(CL_INVALID_GLOBAL_WORK_SIZE)
    PACXX_CL_ERR(CL_INVALID_PROPERTY)
    PACXX_CL_ERR(CL_INVALID_IMAGE_DESCRIPTOR)
    PACXX_CL_ERR(CL_INVALID_COMPILER_OPTIONS)
    PACXX_CL_ERR(CL_INVALID_LINKER_OPTIONS)
    PACXX_CL_ERR(CL_INVALID_DEVICE_PARTITION_COUNT)
    PACXX_CL_ERR(CL_INVALID_PIPE_SIZE)
    PACXX_CL_ERR(CL_INVALID_DEVICE_QUEUE)
    PACXX_CL_ERR(CL_INVALID_SPEC_ID)
    PACXX_CL_ERR(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef PACXX_CL_ERR
  case -1001: // CL_PLATFORM_NOT_FOUND_KHR: the ICD loader found no platform
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default:
    return "unknown OpenCL error";
  }
}

std::string describe(cl_int e) {
  return std::string(cl_error_name(e)) + " (" + std::to_string(e) + ")";
}

void check(cl_int e, const char *call, const std::string &detail = {}) {
  if (e == CL_SUCCESS)
    return;
  std::string msg = std::string("opencl: ") + call + " failed";
  if (!detail.empty())
    msg += " (" + detail + ")";
  throw error(msg + ": " + describe(e));
}

// Function table, filled from the ICD loader once per process.
struct api {
#define PACXX_CL_FN(f) decltype(&::f) f = nullptr;
  PACXX_CL_FN(clGetPlatformIDs)
  PACXX_CL_FN(clGetPlatformInfo)
  PACXX_CL_FN(clGetDeviceIDs)
  PACXX_CL_FN(clGetDeviceInfo)
  PACXX_CL_FN(clCreateContext)
  PACXX_CL_FN(clReleaseContext)
  PACXX_CL_FN(clCreateCommandQueueWithProperties)
  PACXX_CL_FN(clReleaseCommandQueue)
  PACXX_CL_FN(clSVMAlloc)
  PACXX_CL_FN(clSVMFree)
  PACXX_CL_FN(clEnqueueSVMFree)
  PACXX_CL_FN(clEnqueueSVMMemcpy)
  PACXX_CL_FN(clEnqueueSVMMemFill)
  PACXX_CL_FN(clCreateProgramWithBinary)
  PACXX_CL_FN(clBuildProgram)
  PACXX_CL_FN(clGetProgramBuildInfo)
  PACXX_CL_FN(clGetProgramInfo)
  PACXX_CL_FN(clReleaseProgram)
  PACXX_CL_FN(clCreateKernel)
  PACXX_CL_FN(clReleaseKernel)
  PACXX_CL_FN(clSetKernelArg)
  PACXX_CL_FN(clGetKernelWorkGroupInfo)
  PACXX_CL_FN(clSetKernelExecInfo)
  PACXX_CL_FN(clEnqueueNDRangeKernel)
  PACXX_CL_FN(clFinish)
  PACXX_CL_FN(clRetainCommandQueue)
  PACXX_CL_FN(clGetCommandQueueInfo)
  PACXX_CL_FN(clEnqueueMarkerWithWaitList)
  PACXX_CL_FN(clEnqueueBarrierWithWaitList)
  PACXX_CL_FN(clWaitForEvents)
  PACXX_CL_FN(clGetEventInfo)
  PACXX_CL_FN(clGetEventProfilingInfo)
  PACXX_CL_FN(clReleaseEvent)
  PACXX_CL_FN(clFlush)
#undef PACXX_CL_FN
};

struct loaded_api {
  api cl;
  bool ok = false;
  std::string why; // when !ok: a one-line note for pacxx-info
};

// Opened once and never closed: drivers (PoCL included) run their own teardown
// at exit and must not find their code unmapped.
const loaded_api &load_api() {
  // Never destroyed: the devices keep a reference to its table, and the runtime that
  // owns them is made before this (and so destroyed after it) at exit.
  static const loaded_api &result = *new loaded_api([] {
    loaded_api l;
    void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *e = dlerror();
      l.why = std::string("opencl: libOpenCL.so.1 not found (") + (e ? e : "dlopen failed") + ")";
      return l;
    }
    bool missing = false;
    auto sym = [&](auto &fn, const char *name) {
      void *p = dlsym(lib, name);
      if (!p && !missing) {
        missing = true;
        l.why = std::string("opencl: libOpenCL.so.1 lacks ") + name +
                " (ICD loader older than OpenCL 2.0?)";
      }
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
    };
#define PACXX_CL_SYM(f) sym(l.cl.f, #f);
    PACXX_CL_SYM(clGetPlatformIDs)
    PACXX_CL_SYM(clGetPlatformInfo)
    PACXX_CL_SYM(clGetDeviceIDs)
    PACXX_CL_SYM(clGetDeviceInfo)
    PACXX_CL_SYM(clCreateContext)
    PACXX_CL_SYM(clReleaseContext)
    PACXX_CL_SYM(clCreateCommandQueueWithProperties)
    PACXX_CL_SYM(clReleaseCommandQueue)
    PACXX_CL_SYM(clSVMAlloc)
    PACXX_CL_SYM(clSVMFree)
    PACXX_CL_SYM(clEnqueueSVMFree)
    PACXX_CL_SYM(clEnqueueSVMMemcpy)
    PACXX_CL_SYM(clEnqueueSVMMemFill)
    PACXX_CL_SYM(clCreateProgramWithBinary)
    PACXX_CL_SYM(clBuildProgram)
    PACXX_CL_SYM(clGetProgramBuildInfo)
    PACXX_CL_SYM(clGetProgramInfo)
    PACXX_CL_SYM(clReleaseProgram)
    PACXX_CL_SYM(clCreateKernel)
    PACXX_CL_SYM(clReleaseKernel)
    PACXX_CL_SYM(clSetKernelArg)
    PACXX_CL_SYM(clGetKernelWorkGroupInfo)
    PACXX_CL_SYM(clSetKernelExecInfo)
    PACXX_CL_SYM(clEnqueueNDRangeKernel)
    PACXX_CL_SYM(clFinish)
    PACXX_CL_SYM(clRetainCommandQueue)
    PACXX_CL_SYM(clGetCommandQueueInfo)
    PACXX_CL_SYM(clEnqueueMarkerWithWaitList)
    PACXX_CL_SYM(clEnqueueBarrierWithWaitList)
    PACXX_CL_SYM(clWaitForEvents)
    PACXX_CL_SYM(clGetEventInfo)
    PACXX_CL_SYM(clGetEventProfilingInfo)
    PACXX_CL_SYM(clReleaseEvent)
    PACXX_CL_SYM(clFlush)
#undef PACXX_CL_SYM
    l.ok = !missing;
    return l;
  }());
  return result;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ' || s.back() == '\n'))
    s.pop_back();
  return s;
}

template <class Getter, class Object>
std::string info_string(Getter get, Object obj, cl_uint param, const char *call) {
  std::size_t size = 0;
  check(get(obj, param, 0, nullptr, &size), call);
  std::string s(size, '\0');
  if (size)
    check(get(obj, param, size, &s[0], nullptr), call);
  return trim(std::move(s));
}

template <class T, class Getter, class Object>
T info_value(Getter get, Object obj, cl_uint param, const char *call) {
  T v{};
  check(get(obj, param, sizeof v, &v, nullptr), call);
  return v;
}

bool has_extension(const std::string &list, const std::string &ext) {
  std::istringstream words(list);
  for (std::string w; words >> w;)
    if (w == ext)
      return true;
  return false;
}

// Context, queue and live SVM allocations of one device; shared by the device and
// the kernels loaded on it so that programs are released before the context.
struct state {
  const api &cl;
  cl_device_id dev;
  cl_context ctx = nullptr;
  cl_command_queue queue = nullptr;
  // Queues are made with profiling (device times of a timeline): enable_timing().
  bool profiling = false;
  // clSetKernelExecInfo(SVM_PTRS) needs every allocation a kernel may reach; a
  // closure can hold any of them, so each launch passes all of them.
  std::mutex live_mutex;
  std::unordered_set<void *> live;
  // Changes of `live` (allocations, frees), so that a launch hands a kernel the list
  // again only when it changed: the pool recycles memory, so most launches of a
  // program see the same set, and copying it (a vector of every allocation) and
  // setting it on the kernel were done on every launch.
  std::uint64_t live_version = 1;
  std::shared_ptr<const std::vector<void *>> live_list; // `live` at live_version
  std::shared_ptr<const std::vector<void *>> live_snapshot(std::uint64_t &version) {
    std::lock_guard<std::mutex> lock(live_mutex);
    if (!live_list)
      live_list = std::make_shared<const std::vector<void *>>(live.begin(), live.end());
    version = live_version;
    return live_list;
  }
  // Under live_mutex.
  void live_changed() {
    ++live_version;
    live_list.reset();
  }

  state(const api &api_, cl_device_id d) : cl(api_), dev(d) {
    cl_int e = CL_SUCCESS;
    ctx = cl.clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &e);
    check(e, "clCreateContext");
    queue = cl.clCreateCommandQueueWithProperties(ctx, dev, nullptr, &e); // in order
    if (e != CL_SUCCESS) {
      cl.clReleaseContext(ctx);
      check(e, "clCreateCommandQueueWithProperties");
    }
  }
  ~state() {
    cl.clFinish(queue);
    for (void *p : live) // the context's release would invalidate them anyway
      cl.clSVMFree(ctx, p);
    cl.clReleaseCommandQueue(queue);
    cl.clReleaseContext(ctx);
  }
  state(const state &) = delete;
  state &operator=(const state &) = delete;
};

class opencl_kernel final : public loaded_kernel {
public:
  opencl_kernel(std::shared_ptr<state> st, cl_program prog, cl_kernel k, std::string name)
      : st_(std::move(st)), prog_(prog), k_(k), name_(std::move(name)) {}
  ~opencl_kernel() override {
    st_->cl.clReleaseKernel(k_);
    st_->cl.clReleaseProgram(prog_);
  }

  std::shared_ptr<state> st_;
  cl_program prog_;
  cl_kernel k_;
  std::string name_;
  // Kernel arguments live on the cl_kernel: set-arg + enqueue must be atomic.
  std::mutex launch_mutex_;
  // The state::live_version whose allocations were last set on k_ (0: none yet).
  std::uint64_t svm_version_ = 0;
};

std::size_t checked_mul(std::size_t a, std::size_t b) {
  if (b != 0 && a > SIZE_MAX / b)
    throw error("opencl: launch: global work size overflows size_t");
  return a * b;
}

class opencl_device final : public device {
public:
  opencl_device(const api &cl, cl_platform_id platform, cl_device_id dev)
      : cl_(cl), st_(std::make_shared<state>(cl, dev)) {
    name_ = info_string(cl.clGetDeviceInfo, dev, CL_DEVICE_NAME, "clGetDeviceInfo(CL_DEVICE_NAME)");
    driver_ = info_string(cl.clGetPlatformInfo, platform, CL_PLATFORM_VERSION,
                          "clGetPlatformInfo(CL_PLATFORM_VERSION)") +
              " / driver " +
              info_string(cl.clGetDeviceInfo, dev, CL_DRIVER_VERSION,
                          "clGetDeviceInfo(CL_DRIVER_VERSION)");
    memory_ = info_value<cl_ulong>(cl.clGetDeviceInfo, dev, CL_DEVICE_GLOBAL_MEM_SIZE,
                                   "clGetDeviceInfo(CL_DEVICE_GLOBAL_MEM_SIZE)");
    // Launch limits, once per device; create_kernel() narrows them per kernel.
    local_memory_ = info_value<cl_ulong>(cl.clGetDeviceInfo, dev, CL_DEVICE_LOCAL_MEM_SIZE,
                                         "clGetDeviceInfo(CL_DEVICE_LOCAL_MEM_SIZE)");
    // At least 3 dimensions (CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS >= 3); pacxx uses 3.
    const cl_uint dims =
        info_value<cl_uint>(cl.clGetDeviceInfo, dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
                            "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)");
    std::vector<std::size_t> sizes(std::max<cl_uint>(dims, 3), 1);
    check(cl.clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(std::size_t),
                             sizes.data(), nullptr),
          "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES)");
    block_limit_ = {sizes[0], sizes[1], sizes[2]};
  }

  const char *backend_name() const override { return "opencl"; }
  std::string name() const override { return name_; }
  ir_target target() const override { return ir_target::spir; }
  std::string arch() const override { return "spir64"; }
  std::string driver_version() const override { return driver_; }
  std::size_t memory_bytes() const override { return memory_; }

  void *allocate(std::size_t bytes) override {
    if (bytes == 0)
      return nullptr;
    // Alignment 0 = the largest data type the device supports (at least 128 bytes
    // on PoCL), enough for any element type.
    void *p = cl_.clSVMAlloc(st_->ctx, CL_MEM_READ_WRITE, bytes, 0);
    if (!p) // clSVMAlloc reports no error code
      throw error("opencl: clSVMAlloc failed (" + std::to_string(bytes) + " bytes on " + name_ +
                  ")");
    try {
      std::lock_guard<std::mutex> lock(st_->live_mutex);
      st_->live.insert(p);
      st_->live_changed();
    } catch (...) {
      cl_.clSVMFree(st_->ctx, p);
      throw;
    }
    return p;
  }

  void deallocate(void *p) noexcept override {
    if (!p)
      return;
    {
      std::lock_guard<std::mutex> lock(st_->live_mutex);
      if (st_->live.erase(p) == 0)
        return; // not ours (or freed twice): freeing it would corrupt the driver
      st_->live_changed();
    }
    // clSVMFree does not wait for enqueued kernels that may still use p; the
    // enqueued free runs after them on the in-order queue, without blocking us.
    if (cl_.clEnqueueSVMFree(st_->queue, 1, &p, nullptr, nullptr, 0, nullptr, nullptr) !=
        CL_SUCCESS) {
      cl_.clFinish(st_->queue);
      cl_.clSVMFree(st_->ctx, p);
    }
  }

  // Queue null is the device's own queue. A synchronous copy to the device blocks as
  // well: the caller may reuse the source at once.
  void copy_to_device(void *dst, const void *src, std::size_t bytes, void *queue,
                      bool async) override {
    memcpy_(queue, async ? CL_FALSE : CL_TRUE, dst, src, bytes, "to device");
  }
  void copy_to_host(void *dst, const void *src, std::size_t bytes, void *queue,
                    bool async) override {
    memcpy_(queue, async ? CL_FALSE : CL_TRUE, dst, src, bytes, "to host");
  }
  // Non-blocking is safe: both ends are device memory and the queue is in order.
  void copy_on_device(void *dst, const void *src, std::size_t bytes, void *queue) override {
    memcpy_(queue, CL_FALSE, dst, src, bytes, "on device");
  }
  // The pattern is copied when the command is enqueued (OpenCL 2.0), so `byte` may die.
  void fill_on_device(void *dst, unsigned char byte, std::size_t bytes, void *queue) override {
    if (bytes == 0)
      return;
    check(cl_.clEnqueueSVMMemFill(q(queue), dst, &byte, 1, bytes, 0, nullptr, nullptr),
          "clEnqueueSVMMemFill", std::to_string(bytes) + " bytes, " + name_);
  }

  void *create_queue() override {
    cl_int e = CL_SUCCESS;
    const cl_queue_properties profiled[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = cl_.clCreateCommandQueueWithProperties(
        st_->ctx, st_->dev, st_->profiling ? profiled : nullptr, &e); // in order
    check(e, "clCreateCommandQueueWithProperties", name_);
    return q;
  }
  // Called before any work: the default queue is made again, with profiling.
  void enable_timing() override {
    if (st_->profiling)
      return;
    st_->profiling = true;
    cl_command_queue q = cl_queue(create_queue());
    cl_.clFinish(st_->queue);
    cl_.clReleaseCommandQueue(st_->queue);
    st_->queue = q;
  }
  // A marker's end (CL_PROFILING_COMMAND_END) on a profiling queue; an adopted queue
  // without profiling has no times (null).
  void *timing_marker(void *queue) override {
    if (!st_->profiling)
      return nullptr;
    cl_command_queue_properties props = 0;
    check(cl_.clGetCommandQueueInfo(q(queue), CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr),
          "clGetCommandQueueInfo(CL_QUEUE_PROPERTIES)", name_);
    if (!(props & CL_QUEUE_PROFILING_ENABLE))
      return nullptr;
    return record_event(queue);
  }
  double timing_ms(void *from, void *to) override {
    wait_event(from); // markers of two queues: both must have completed
    wait_event(to);
    cl_ulong a = 0, b = 0;
    check(cl_.clGetEventProfilingInfo(static_cast<cl_event>(from), CL_PROFILING_COMMAND_END,
                                      sizeof a, &a, nullptr),
          "clGetEventProfilingInfo", name_);
    check(cl_.clGetEventProfilingInfo(static_cast<cl_event>(to), CL_PROFILING_COMMAND_END, sizeof b,
                                      &b, nullptr),
          "clGetEventProfilingInfo", name_);
    return (static_cast<double>(b) - static_cast<double>(a)) * 1e-6;
  }
  void release_timing_marker(void *marker) noexcept override { release_event(marker); }
  void adopt_queue(void *native) override {
    if (!native)
      throw error("opencl: pacxx::queue::adopt: a null cl_command_queue");
    cl_command_queue q = cl_queue(native);
    cl_context ctx = nullptr;
    check(cl_.clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, nullptr),
          "clGetCommandQueueInfo(CL_QUEUE_CONTEXT)", "pacxx::queue::adopt");
    if (ctx != st_->ctx)
      throw error("opencl: pacxx::queue::adopt: the cl_command_queue belongs to another "
                  "context; create it on pacxx's (pacxx::native_handles().context)");
    cl_command_queue_properties props = 0;
    check(cl_.clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr),
          "clGetCommandQueueInfo(CL_QUEUE_PROPERTIES)", "pacxx::queue::adopt");
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
      throw error("opencl: pacxx::queue::adopt: the cl_command_queue is out of order; pacxx "
                  "queues run their work in order");
    check(cl_.clRetainCommandQueue(q), "clRetainCommandQueue", "pacxx::queue::adopt");
  }
  void release_queue(void *native, bool) noexcept override {
    if (!native)
      return;
    cl_.clFinish(cl_queue(native));
    cl_.clReleaseCommandQueue(cl_queue(native)); // adopted ones were retained
  }
  void wait_queue(void *queue) override { check(cl_.clFinish(q(queue)), "clFinish", name_); }
  void *record_event(void *queue) override {
    cl_event ev = nullptr;
    check(cl_.clEnqueueMarkerWithWaitList(q(queue), 0, nullptr, &ev), "clEnqueueMarkerWithWaitList",
          name_);
    // Submitted now, so that the marker completes without a later wait.
    if (cl_int e = cl_.clFlush(q(queue)); e != CL_SUCCESS) {
      cl_.clReleaseEvent(ev);
      check(e, "clFlush", name_);
    }
    return ev;
  }
  void queue_wait_event(void *queue, void *event) override {
    cl_event ev = static_cast<cl_event>(event);
    check(cl_.clEnqueueBarrierWithWaitList(q(queue), 1, &ev, nullptr),
          "clEnqueueBarrierWithWaitList", name_);
  }
  void wait_event(void *event) override {
    cl_event ev = static_cast<cl_event>(event);
    check(cl_.clWaitForEvents(1, &ev), "clWaitForEvents", "waiting for the device's work");
  }
  bool event_done(void *event) override {
    cl_int status = CL_QUEUED;
    check(cl_.clGetEventInfo(static_cast<cl_event>(event), CL_EVENT_COMMAND_EXECUTION_STATUS,
                             sizeof status, &status, nullptr),
          "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)", name_);
    if (status < 0)
      throw error("opencl: the work before an event failed: " + describe(status));
    return status == CL_COMPLETE;
  }
  void release_event(void *event) noexcept override {
    if (event)
      cl_.clReleaseEvent(static_cast<cl_event>(event));
  }
  // Ordinary host memory, page aligned: SVM copies from and to it are asynchronous on
  // PoCL (a GPU driver would want a CL_MEM_ALLOC_HOST_PTR buffer, mapped).
  void *allocate_host(std::size_t bytes) override {
    if (bytes == 0)
      return nullptr;
    void *p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
    if (!p)
      throw error("opencl: " + std::to_string(bytes) + " bytes of host memory: out of memory");
    return p;
  }
  void deallocate_host(void *p) noexcept override { std::free(p); }
  void native_handles(void **device, void **context, void **queue) override {
    *device = st_->dev;
    *context = st_->ctx;
    *queue = st_->queue;
  }

  // The SPIR program built for this device, as the driver's own binary
  // (CL_PROGRAM_BINARIES), which load_binary() takes without compiling SPIR again.
  std::string build_binary(const std::string &code) override {
    const std::string where = "building a binary on " + name_;
    program_ptr prog = build(code, spir_options, where);
    std::size_t size = 0;
    check(cl_.clGetProgramInfo(prog.get(), CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
          "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)", where);
    if (size == 0)
      throw error("opencl: clGetProgramInfo(CL_PROGRAM_BINARIES) (" + where +
                  "): the driver offers no binary for the built program");
    std::string binary(size, '\0');
    unsigned char *out = reinterpret_cast<unsigned char *>(&binary[0]); // one per device: ours
    check(cl_.clGetProgramInfo(prog.get(), CL_PROGRAM_BINARIES, sizeof out, &out, nullptr),
          "clGetProgramInfo(CL_PROGRAM_BINARIES)", where);
    return seal(binary_magic, binary);
  }

  std::unique_ptr<loaded_kernel> load_binary(const std::string &binary,
                                             const std::string &kernel_name) override {
    const std::string where = "kernel '" + kernel_name + "' from a binary on " + name_;
    std::string why;
    std::optional<std::string_view> bytes = unseal(binary_magic, binary, &why);
    if (!bytes)
      throw error("opencl: load_binary (" + where + "): not a binary from build_binary: " + why);
    return create_kernel(build(*bytes, "", where), kernel_name, where);
  }

  void launch(loaded_kernel &lk, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
              const void *args, std::size_t args_size, void *queue) override {
    auto *k = dynamic_cast<opencl_kernel *>(&lk);
    if (!k || k->st_ != st_)
      throw error("opencl: launch: kernel was not loaded on " + name_);
    if (block.x == 0 || block.y == 0 || block.z == 0)
      throw error("opencl: launch of '" + k->name_ + "': a block dimension is 0");
    if (grid.x == 0 || grid.y == 0 || grid.z == 0)
      return; // no work-groups, no work (as the CUDA backend)
    const std::size_t global[3] = {checked_mul(grid.x, block.x), checked_mul(grid.y, block.y),
                                   checked_mul(grid.z, block.z)};
    const std::size_t local[3] = {block.x, block.y, block.z};
    cl_uint dims = 3;
    while (dims > 1 && global[dims - 1] == 1)
      --dims; // grid and block both 1 there

    std::uint64_t version = 0;
    const std::shared_ptr<const std::vector<void *>> ptrs = st_->live_snapshot(version);
    // Messages are built on the error paths only: this runs on every launch.
    auto where = [&] { return "kernel '" + k->name_ + "' on " + name_; };
    std::lock_guard<std::mutex> lock(k->launch_mutex_);
    if (cl_int e = cl_.clSetKernelArg(k->k_, 0, args_size, args); e != CL_SUCCESS)
      check(e, "clSetKernelArg", where() + ", argument 0: " + std::to_string(args_size) + " bytes");
    // OpenCL rejects a zero-sized local argument; the kernel always has one.
    if (cl_int e =
            cl_.clSetKernelArg(k->k_, 1, std::max<std::size_t>(dynamic_shared_bytes, 16), nullptr);
        e != CL_SUCCESS)
      check(e, "clSetKernelArg",
            where() + ", argument 1: " + std::to_string(dynamic_shared_bytes) + " bytes local");
    if (k->svm_version_ != version && !ptrs->empty()) {
      if (cl_int e = cl_.clSetKernelExecInfo(k->k_, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                             ptrs->size() * sizeof(void *), ptrs->data());
          e != CL_SUCCESS)
        check(e, "clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS)", where());
      k->svm_version_ = version;
    }
    cl_int e = cl_.clEnqueueNDRangeKernel(q(queue), k->k_, dims, nullptr, global, local, 0, nullptr,
                                          nullptr);
    if (e != CL_SUCCESS)
      check(e, "clEnqueueNDRangeKernel",
            where() + ", global " + std::to_string(global[0]) + "x" + std::to_string(global[1]) +
                "x" + std::to_string(global[2]) + ", local " + std::to_string(local[0]) + "x" +
                std::to_string(local[1]) + "x" + std::to_string(local[2]));
  }

  void synchronize() override { check(cl_.clFinish(st_->queue), "clFinish", name_); }

private:
  static constexpr const char *spir_options = "-x spir -spir-std=1.2";
  // build_binary() seals the driver's binary: PoCL trusts the sizes inside its own
  // format and crashes on a truncated one, so load_binary() checks the seal first.
  static constexpr const char *binary_magic = "PACXXCLB";
  using program_ptr =
      std::unique_ptr<std::remove_pointer_t<cl_program>, decltype(api::clReleaseProgram)>;

  // bytes: SPIR bitcode (options spir_options) or a binary from build_binary()
  // (options ""). A build failure carries the driver's build log.
  program_ptr build(std::string_view bytes, const char *options, const std::string &where) {
    cl_int e = CL_SUCCESS, status = CL_SUCCESS;
    const std::size_t size = bytes.size();
    const auto *data = reinterpret_cast<const unsigned char *>(bytes.data());
    cl_program raw =
        cl_.clCreateProgramWithBinary(st_->ctx, 1, &st_->dev, &size, &data, &status, &e);
    check(e, "clCreateProgramWithBinary", where);
    // From here on the program must be released on every error path.
    program_ptr prog(raw, cl_.clReleaseProgram);
    check(status, "clCreateProgramWithBinary (binary status)", where);

    e = cl_.clBuildProgram(raw, 1, &st_->dev, options, nullptr, nullptr);
    if (e != CL_SUCCESS) {
      std::string log;
      try {
        log = info_string(
            [this](cl_program p, cl_uint param, std::size_t n, void *v, std::size_t *r) {
              return cl_.clGetProgramBuildInfo(p, st_->dev, param, n, v, r);
            },
            raw, CL_PROGRAM_BUILD_LOG, "clGetProgramBuildInfo");
      } catch (const error &le) {
        log = le.what();
      }
      throw error("opencl: clBuildProgram failed (" + where + "): " + describe(e) +
                  (log.empty() ? std::string() : "\nbuild log:\n" + log));
    }
    return prog;
  }

  std::unique_ptr<loaded_kernel> create_kernel(program_ptr prog, const std::string &kernel_name,
                                               const std::string &where) {
    cl_int e = CL_SUCCESS;
    cl_kernel k = cl_.clCreateKernel(prog.get(), kernel_name.c_str(), &e);
    check(e, "clCreateKernel", where);
    std::unique_ptr<loaded_kernel> result;
    launch_limits limits;
    try {
      // Asked before any argument is set, CL_KERNEL_LOCAL_MEM_SIZE is the kernel's own
      // (static) local memory: the dynamic argument counts as 0 until set.
      auto group_info = [&](cl_kernel_work_group_info param, const char *call) {
        std::size_t v = 0;
        if (param == CL_KERNEL_LOCAL_MEM_SIZE) {
          cl_ulong u = 0;
          check(cl_.clGetKernelWorkGroupInfo(k, st_->dev, param, sizeof u, &u, nullptr), call,
                where);
          return static_cast<std::size_t>(u);
        }
        check(cl_.clGetKernelWorkGroupInfo(k, st_->dev, param, sizeof v, &v, nullptr), call, where);
        return v;
      };
      limits.threads_per_block = group_info(CL_KERNEL_WORK_GROUP_SIZE,
                                            "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)");
      const std::size_t static_local = group_info(
          CL_KERNEL_LOCAL_MEM_SIZE, "clGetKernelWorkGroupInfo(CL_KERNEL_LOCAL_MEM_SIZE)");
      limits.block = block_limit_;
      limits.grid = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
      limits.dynamic_shared = local_memory_ > static_local ? local_memory_ - static_local : 0;
      result = std::make_unique<opencl_kernel>(st_, prog.get(), k, kernel_name);
    } catch (...) {
      cl_.clReleaseKernel(k);
      throw;
    }
    result->limits = limits;
    prog.release(); // owned by the kernel now
    return result;
  }

  static cl_command_queue cl_queue(void *native) { return static_cast<cl_command_queue>(native); }
  // A pacxx queue's handle, or the device's own queue for null.
  cl_command_queue q(void *queue) const { return queue ? cl_queue(queue) : st_->queue; }

  void memcpy_(void *queue, cl_bool blocking, void *dst, const void *src, std::size_t bytes,
               const char *what) {
    if (bytes == 0)
      return;
    check(cl_.clEnqueueSVMMemcpy(q(queue), blocking, dst, src, bytes, 0, nullptr, nullptr),
          "clEnqueueSVMMemcpy", std::to_string(bytes) + " bytes " + what + ", " + name_);
  }

  const api &cl_;
  std::shared_ptr<state> st_;
  std::string name_, driver_;
  std::size_t memory_ = 0, local_memory_ = 0;
  dim3 block_limit_;
};

} // namespace

std::vector<std::unique_ptr<device>> discover_opencl(std::vector<std::string> &notes) {
  std::vector<std::unique_ptr<device>> devices;
  const loaded_api &l = load_api();
  if (!l.ok) {
    notes.push_back(l.why);
    return devices;
  }
  const api &cl = l.cl;
  cl_uint nplatforms = 0;
  if (cl_int e = cl.clGetPlatformIDs(0, nullptr, &nplatforms); e != CL_SUCCESS || nplatforms == 0) {
    notes.push_back(e == CL_SUCCESS ? std::string("opencl: no OpenCL platform installed")
                                    : "opencl: clGetPlatformIDs: " + describe(e));
    return devices;
  }
  std::vector<cl_platform_id> platforms(nplatforms);
  if (cl_int e = cl.clGetPlatformIDs(nplatforms, platforms.data(), nullptr); e != CL_SUCCESS) {
    notes.push_back("opencl: clGetPlatformIDs: " + describe(e));
    return devices;
  }
  for (cl_platform_id platform : platforms) {
    cl_uint ndevices = 0;
    cl_int e = cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &ndevices);
    if (e == CL_DEVICE_NOT_FOUND || (e == CL_SUCCESS && ndevices == 0))
      continue;
    std::vector<cl_device_id> ids(ndevices);
    if (e == CL_SUCCESS)
      e = cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, ndevices, ids.data(), nullptr);
    if (e != CL_SUCCESS) {
      notes.push_back("opencl: clGetDeviceIDs: " + describe(e));
      continue;
    }
    for (cl_device_id id : ids) {
      // One broken device must not hide the others: each failure becomes a note.
      std::string name = "device";
      try {
        name = "'" + info_string(cl.clGetDeviceInfo, id, CL_DEVICE_NAME, "clGetDeviceInfo") + "'";
        cl_device_svm_capabilities svm = 0;
        // OpenCL 1.x devices answer CL_INVALID_VALUE here: no SVM either.
        if (cl.clGetDeviceInfo(id, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, nullptr) !=
                CL_SUCCESS ||
            !(svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
          notes.push_back("opencl: " + name + " skipped: no coarse-grain SVM");
          continue;
        }
        // build_binary() takes SPIR 1.2 bitcode; e.g. NVIDIA's OpenCL offers SVM but no SPIR.
        if (!has_extension(info_string(cl.clGetDeviceInfo, id, CL_DEVICE_EXTENSIONS,
                                       "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)"),
                           "cl_khr_spir")) {
          notes.push_back("opencl: " + name + " skipped: no cl_khr_spir (SPIR 1.2 bitcode)");
          continue;
        }
        devices.push_back(std::make_unique<opencl_device>(cl, platform, id));
      } catch (const error &err) {
        notes.push_back("opencl: " + name + " skipped: " + err.what());
      }
    }
  }
  return devices;
}

} // namespace rt
} // namespace pacxx

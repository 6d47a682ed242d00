// The one interface every device backend implements. The runtime core (device
// selection, JIT, launch) only talks to this; CUDA and OpenCL live behind it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pacxx/error.hpp"

namespace pacxx {
namespace rt {

// What the JIT must produce for a device.
enum class ir_target { nvptx, spir };

struct dim3 {
  std::size_t x = 1, y = 1, z = 1;
};

// What a device accepts when launching one loaded kernel. Backends fill it in once,
// when the kernel is loaded (device limits are queried once per device), so that the
// runtime checks every launch against it without a driver call: an over-limit launch
// must be a pacxx::error naming the kernel and the limit, not a bare driver error
// code or, on PoCL, an assertion that ends the process.
struct launch_limits {
  // Threads per block for this kernel (CUDA: lower than the device's when the kernel
  // uses many registers; OpenCL: CL_KERNEL_WORK_GROUP_SIZE).
  std::size_t threads_per_block = 0;
  dim3 block{0, 0, 0}; // threads per dimension
  // Blocks per dimension. OpenCL has no limit of its own (SIZE_MAX); for every backend
  // the threads per dimension (grid * block) must also fit in size_t.
  dim3 grid{0, 0, 0};
  // Bytes of dynamic shared (OpenCL: local) memory per block: the device's maximum
  // (CUDA: the opt-in maximum, which launch() opts in to) minus the kernel's static
  // shared memory.
  std::size_t dynamic_shared = 0;
};

// A kernel loaded on a device (a CUmodule/CUfunction pair, or a cl_program/cl_kernel).
class loaded_kernel {
public:
  virtual ~loaded_kernel() = default;
  launch_limits limits; // set by the backend's load_binary()
};

// An executable graph of the driver (a CUgraphExec): pacxx::capture's recorded work,
// issued once under stream capture and replayed by one driver call.
class native_graph {
public:
  virtual ~native_graph() = default;
  // Asynchronous, on `queue` (null: the default queue).
  virtual void launch(void *queue) = 0;
};

class device {
public:
  virtual ~device() = default;

  virtual const char *backend_name() const = 0; // "cuda" or "opencl"
  virtual std::string name() const = 0;         // e.g. "NVIDIA H100 80GB HBM3"
  virtual ir_target target() const = 0;
  // CUDA: "sm_90" (the device's real compute capability); OpenCL: "spir64".
  virtual std::string arch() const = 0;
  // Driver / platform version string, part of cache keys later.
  virtual std::string driver_version() const = 0;
  virtual std::size_t memory_bytes() const = 0;

  // Device memory. OpenCL uses coarse-grain SVM so that device pointers are plain
  // pointers that can be stored in structs and closures.
  virtual void *allocate(std::size_t bytes) = 0;
  virtual void deallocate(void *p) noexcept = 0;

  // Queues: `queue` is a native handle (CUstream, cl_command_queue) or null, the
  // device's default queue (CUDA's legacy stream, the OpenCL device's own queue). Work
  // on one queue runs in order; work on different queues may overlap.
  // Copies in queue order. async = false: returns when src may be reused and (to the
  // host) dst holds the bytes; async = true: returns at once (src and dst must stay
  // valid until the queue reaches the copy; truly asynchronous with pinned memory).
  virtual void copy_to_device(void *dst, const void *src, std::size_t bytes, void *queue,
                              bool async) = 0;
  virtual void copy_to_host(void *dst, const void *src, std::size_t bytes, void *queue,
                            bool async) = 0;
  virtual void copy_on_device(void *dst, const void *src, std::size_t bytes, void *queue) = 0;
  // Sets `bytes` bytes of device memory to `byte`, in queue order, without waiting (no
  // host buffer, so nothing has to stay valid): ones_scratch is set to all ones so
  // when it is allocated (rather than by a synchronous copy from the host).
  virtual void fill_on_device(void *dst, unsigned char byte, std::size_t bytes, void *queue) = 0;

  // Whether the default queue is ordered with every queue by the driver itself (CUDA's
  // legacy stream and blocking streams); otherwise the runtime orders them with events.
  virtual bool default_queue_orders_all() const { return false; }
  // A new queue of this device (native handle), owned by the caller.
  virtual void *create_queue() { throw_unsupported("queues"); }
  // Checks that `native` (a queue made outside pacxx) belongs to this device's context
  // and keeps a reference if the API has one (OpenCL: clRetainCommandQueue).
  virtual void adopt_queue(void *native) {
    (void)native;
    throw_unsupported("queues");
  }
  // Releases a queue from create_queue (owned) or adopt_queue (not owned): waits for it first.
  virtual void release_queue(void *native, bool owned) noexcept { (void)native, (void)owned; }
  // Waits for all work on the queue; throws the device's error if some failed.
  virtual void wait_queue(void *queue) {
    (void)queue;
    throw_unsupported("queues");
  }
  // Events: a marker after all work enqueued so far on `queue` (cuEventRecord,
  // clEnqueueMarkerWithWaitList), owned by the caller (release_event).
  virtual void *record_event(void *queue) {
    (void)queue;
    throw_unsupported("events");
  }
  // Later work on `queue` waits for the event (no host wait).
  virtual void queue_wait_event(void *queue, void *event) {
    (void)queue;
    (void)event;
    throw_unsupported("events");
  }
  virtual void wait_event(void *event) {
    (void)event;
    throw_unsupported("events");
  }
  // Whether the event has completed; throws if the work before it failed.
  virtual bool event_done(void *event) {
    (void)event;
    throw_unsupported("events");
  }
  virtual void release_event(void *event) noexcept { (void)event; }
  // Device times for PACXX_TRACE=timeline. enable_timing() is called once, when the
  // device is selected and before any work, where a timeline is written (OpenCL makes its
  // queues with profiling then). A timing marker records when the device reaches this
  // point of `queue`; timing_ms(from, to) waits for `to` and gives the device's
  // milliseconds between two markers. Null / negative where the backend has none.
  virtual void enable_timing() {}
  virtual void *timing_marker(void *queue) {
    (void)queue;
    return nullptr;
  }
  virtual double timing_ms(void *from, void *to) {
    (void)from, (void)to;
    return -1;
  }
  virtual void release_timing_marker(void *marker) noexcept { (void)marker; }
  // Page-locked host memory (cuMemAllocHost) that copies run asynchronously with;
  // OpenCL: ordinary host memory (SVM copies from it are asynchronous on PoCL).
  virtual void *allocate_host(std::size_t bytes) {
    (void)bytes;
    throw_unsupported("pinned memory");
  }
  virtual void deallocate_host(void *p) noexcept { (void)p; }
  // Whether kernels may write allocate_host memory through its host address (CUDA with
  // unified addressing; OpenCL kernels reach SVM allocations only).
  virtual bool kernels_write_pinned_memory() const { return false; }
  // The native device, context and default queue (CUdevice as an integer, CUcontext,
  // null; cl_device_id, cl_context, cl_command_queue).
  virtual void native_handles(void **device, void **context, void **queue) {
    *device = *context = *queue = nullptr;
  }

  // A device binary of `code` that load_binary() loads without translating it again.
  // code: PTX text (nvptx) or SPIR 1.2 bitcode bytes (spir); the kernel takes one
  // by-value struct argument (the closure + arguments, `args_size` bytes) and, on
  // OpenCL only, a second `local char*` argument for dynamic shared memory. CUDA: a
  // cubin for this device's architecture (the driver's linker); OpenCL: the built
  // program's CL_PROGRAM_BINARIES. Only valid for this device model, architecture and
  // driver version (they are part of the disk cache's key). Throws pacxx::error with
  // the driver's message (e.g. the build log).
  virtual std::string build_binary(const std::string &code) = 0;
  // Loads a binary from build_binary() (possibly of an earlier process). Every kernel
  // is loaded this way, fresh from the JIT or from the disk cache. A binary the driver
  // rejects (corrupt, truncated, other device or driver) throws pacxx::error; the
  // kernel cache then compiles the kernel again.
  virtual std::unique_ptr<loaded_kernel> load_binary(const std::string &binary,
                                                     const std::string &kernel_name) = 0;
  // Asynchronous. grid = number of blocks per dimension, block = threads per block.
  // The caller has checked them against k.limits.
  virtual void launch(loaded_kernel &k, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                      const void *args, std::size_t args_size, void *queue) = 0;
  // Waits for all work on every queue of the device.
  virtual void synchronize() = 0;

  // A graph of the driver made of what `issue` enqueues on the queue it is given (this
  // backend's own calls: launch, copy_on_device, fill_on_device, copy_to_device with
  // async and pinned sources), or null where the backend has no graphs (OpenCL, a CUDA
  // driver without stream capture): pacxx::graph then replays its recorded list itself.
  virtual std::unique_ptr<native_graph> build_graph(const std::function<void(void *)> &issue) {
    (void)issue;
    return nullptr;
  }
  // Changes `graph` (from build_graph) in place to what `issue` enqueues, which has the
  // same operations in the same order with other parameters (pacxx::graph::update);
  // false where the driver cannot (then the caller builds a new graph).
  virtual bool update_graph(native_graph &graph, const std::function<void(void *)> &issue) {
    (void)graph;
    (void)issue;
    return false;
  }

  // gpu::iterate_until on the device: a graph that runs batches of `every` runs of
  // `issue`'s work, and after each batch adds one to the unsigned at `batches_run`
  // (device memory, which the caller zeroes before each launch) and goes on while the
  // int at `done` is not zero and fewer than `batches` batches ran. Null where the
  // backend has no such graphs; a pacxx::error saying why where this device cannot.
  virtual std::unique_ptr<native_graph> build_loop(const std::function<void(void *)> &issue,
                                                   std::size_t every, const void *done,
                                                   void *batches_run, std::size_t batches) {
    (void)issue, (void)every, (void)done, (void)batches_run, (void)batches;
    return nullptr;
  }

protected:
  [[noreturn]] void throw_unsupported(const char *what) const {
    throw error(std::string("pacxx: the ") + backend_name() + " backend offers no " + what);
  }
};

// Every device of every backend that can be opened on this machine. A backend
// whose library (libcuda.so.1 / libOpenCL.so.1) is missing contributes none and
// explains why in `notes` (one line per backend), which pacxx-info prints.
std::vector<std::unique_ptr<device>> discover_cuda(std::vector<std::string> &notes);
std::vector<std::unique_ptr<device>> discover_opencl(std::vector<std::string> &notes);

} // namespace rt
} // namespace pacxx

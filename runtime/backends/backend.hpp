// The one interface every device backend implements. The runtime core (device
// selection, JIT, launch) only talks to this; CUDA and OpenCL live behind it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pacxx {
namespace rt {

// What the JIT must produce for a device.
enum class ir_target { nvptx, spir };

struct dim3 {
  std::size_t x = 1, y = 1, z = 1;
};

// A kernel loaded on a device (a CUmodule/CUfunction pair, or a cl_program/cl_kernel).
class loaded_kernel {
public:
  virtual ~loaded_kernel() = default;
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
  virtual void copy_to_device(void *dst, const void *src, std::size_t bytes) = 0;
  // Waits for all previously launched work first (in-order queue / stream).
  virtual void copy_to_host(void *dst, const void *src, std::size_t bytes) = 0;
  virtual void copy_on_device(void *dst, const void *src, std::size_t bytes) = 0;

  // code: PTX text (nvptx) or SPIR 1.2 bitcode bytes (spir). The kernel takes one
  // by-value struct argument (the closure + arguments, `args_size` bytes) and, on
  // OpenCL only, a second `local char*` argument for dynamic shared memory.
  virtual std::unique_ptr<loaded_kernel> load(const std::string &code,
                                              const std::string &kernel_name) = 0;
  // A device binary of `code` (same input as load()) that load_binary() can load
  // without translating it again: CUDA: a cubin for this device's architecture (the
  // driver's linker; the PTX-to-SASS step of load()); OpenCL: the built program's
  // CL_PROGRAM_BINARIES. Only valid for this device model, architecture and driver
  // version (make them part of any cache key). Throws pacxx::error like load().
  virtual std::string build_binary(const std::string &code) = 0;
  // Loads a binary from build_binary() (possibly of an earlier process); the kernel
  // launches exactly like one from load(). A binary the driver rejects (corrupt,
  // truncated, other device or driver) throws pacxx::error: fall back to load().
  virtual std::unique_ptr<loaded_kernel> load_binary(const std::string &binary,
                                                     const std::string &kernel_name) = 0;
  // Asynchronous. grid = number of blocks per dimension, block = threads per block.
  virtual void launch(loaded_kernel &k, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                      const void *args, std::size_t args_size) = 0;
  virtual void synchronize() = 0;
};

// Every device of every backend that can be opened on this machine. A backend
// whose library (libcuda.so.1 / libOpenCL.so.1) is missing contributes none and
// explains why in `notes` (one line per backend), which pacxx-info prints.
std::vector<std::unique_ptr<device>> discover_cuda(std::vector<std::string> &notes);
std::vector<std::unique_ptr<device>> discover_opencl(std::vector<std::string> &notes);

} // namespace rt
} // namespace pacxx

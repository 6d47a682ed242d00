// Small results that a kernel writes for the host to read once it is done: reduction
// partials, a search's index, the number of runs or selected elements. Where kernels
// can write pinned host memory (CUDA, through unified addressing) the kernel writes them
// straight into the per-thread host_scratch, and the host only waits for the kernel;
// elsewhere (OpenCL) the kernel writes device memory that the caller provides, and the
// host copies it back.
//
// Why: the copy after the kernel was most of a small call's time. Measured on the H100
// (2026-11-25, benchmarks/reductions, medians of 3, two interleaved runs): gpu::reduce of
// 2^16..2^23 floats took 16-25 us with the partials copied back (cuMemcpyDtoH) and
// 10.5-16.4 us written to pinned memory; CUB's DeviceReduce, 19-30 us. At 2^28 the copy
// still cost 6-8 us (369.7 against 362.8 us).
#pragma once
#include <cstddef>
#include <vector>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/runtime.hpp"

namespace gpu {
namespace detail {

// Where a kernel writes `count` values of T for the host: `kernel`, pinned host memory
// (on_host) or `fallback`, device memory for count values that the caller provides.
template <class T> struct readback_memory {
  T *kernel;
  bool on_host;
  std::size_t count;
  readback_memory(std::size_t n, void *fallback)
      : kernel(static_cast<T *>(pacxx::detail::host_scratch(n * sizeof(T)))),
        on_host(kernel != nullptr), count(n) {
    if (!on_host)
      kernel = static_cast<T *>(fallback);
  }
};

// The values on the host once the kernel that writes them is done (waits for it).
template <class T> class readback {
  std::vector<T> copied_; // where they were in device memory
  const T *pinned_;       // or where the kernel wrote them
  std::size_t size_;

public:
  explicit readback(const readback_memory<T> &m)
      : copied_(m.on_host ? 0 : m.count), pinned_(m.on_host ? m.kernel : nullptr), size_(m.count) {
    if (m.on_host)
      pacxx::detail::wait_host_scratch(size_ * sizeof(T));
    else
      pacxx::detail::copy_to_host(copied_.data(), m.kernel, size_ * sizeof(T));
  }
  std::size_t size() const { return size_; }
  const T *begin() const { return pinned_ ? pinned_ : copied_.data(); }
  const T *end() const { return begin() + size_; }
  const T &operator[](std::size_t i) const { return begin()[i]; }
};

} // namespace detail
} // namespace gpu

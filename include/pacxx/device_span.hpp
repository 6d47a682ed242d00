// gpu::device_span<T>(ptr, n): n elements of device memory that pacxx did not allocate
// (a cudaMalloc'd buffer, a thrust::device_vector's data, clSVMAlloc'd memory of
// pacxx's OpenCL context), as a non-owning range: usable in every view and algorithm
// (a trivially copyable (pointer, size) view, like an lvalue gpu::vector's). The memory
// must belong to the selected device's context and outlive the work on it.
#pragma once
#include <cstddef>

#include <range/v3/range/concepts.hpp>
#include <range/v3/view/interface.hpp>

namespace gpu {

// n elements of T in device memory that pacxx did not allocate, as a view (see above).
template <class T> class device_span : public ranges::view_interface<device_span<T>> {
  T *first_ = nullptr;
  std::size_t size_ = 0;

public:
  constexpr device_span() noexcept = default;
  // The n elements at first (a device pointer).
  constexpr device_span(T *first, std::size_t n) noexcept : first_(first), size_(n) {}
  // A driver handle: a CUdeviceptr (an integer) or an SVM pointer, as native_handle() gives.
  static device_span from_native(void *native, std::size_t n) noexcept {
    return device_span(static_cast<T *>(native), n);
  }

  // The first element.
  constexpr T *begin() const noexcept { return first_; }
  // Past the last element.
  constexpr T *end() const noexcept { return first_ + size_; }
  // The device pointer.
  constexpr T *data() const noexcept { return first_; }
  // The number of elements.
  constexpr std::size_t size() const noexcept { return size_; }
};

} // namespace gpu

#ifndef PACXX_DOXYGEN // range-v3's trait, not pacxx's API
namespace ranges {
template <class T>
RANGES_INLINE_VAR constexpr bool enable_borrowed_range<gpu::device_span<T>> = true;
} // namespace ranges
#endif

// Block-shared memory: pacxx::shared_memory<T, N> (static) and
// pacxx::dynamic_shared_memory<T>() (sized at launch by the kernel configuration).
#pragma once
#include <cstddef>
#include <type_traits>

#include "pacxx/builtins.hpp"

namespace pacxx {

// Every thread of a block that constructs it at the same place in the kernel sees the
// same N elements. Elements are not initialised (as CUDA's __shared__).
template <class T, std::size_t N, std::size_t Align = alignof(T)> class shared_memory {
  static_assert(std::is_trivially_destructible<T>::value,
                "pacxx::shared_memory holds trivially destructible types only");
  static_assert(N > 0, "pacxx::shared_memory needs at least one element");
  T *ptr_;

public:
  // always_inline: the JIT gives each construction site its own block of memory, so
  // the constructor must not be a shared out-of-line function.
  __attribute__((always_inline)) shared_memory()
      : ptr_(static_cast<T *>(__pacxx_shared_memory(sizeof(T) * N, Align))) {}
  shared_memory(const shared_memory &) = delete;
  shared_memory &operator=(const shared_memory &) = delete;

  // Element i (not checked).
  T &operator[](std::size_t i) { return ptr_[i]; }
  // Element i (not checked).
  const T &operator[](std::size_t i) const { return ptr_[i]; }
  // The first element (a shared-memory address).
  T *data() { return ptr_; }
  // The first element (a shared-memory address).
  const T *data() const { return ptr_; }
  // The number of elements (N).
  static constexpr std::size_t size() { return N; }
  // The first element.
  T *begin() { return ptr_; }
  // Past the last element.
  T *end() { return ptr_ + N; }
};

// The dynamic shared memory of the block, as an array of T.
template <class T> inline T *dynamic_shared_memory() {
  return static_cast<T *>(__pacxx_dynamic_shared_memory());
}

} // namespace pacxx

// gpu::vector<T>: an owning array in device memory, and gpu::copy between host and
// device. Its data()/begin()/end() are device pointers, usable inside kernels.
#pragma once
#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

#include "pacxx/runtime.hpp"

namespace gpu {

template <class T> class vector {
  static_assert(std::is_trivially_copyable<T>::value,
                "gpu::vector<T>: T must be trivially copyable to live in device memory");
  T *data_ = nullptr;
  std::size_t size_ = 0;

public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T *;
  using const_iterator = const T *;

  vector() = default;
  // n elements, not initialised (a kernel or a copy is expected to write them).
  explicit vector(std::size_t n)
      : data_(static_cast<T *>(pacxx::detail::device_allocate(n * sizeof(T)))), size_(n) {}
  vector(vector &&o) noexcept : data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  vector &operator=(vector &&o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  vector(const vector &) = delete; // deep copies come with the full container
  vector &operator=(const vector &) = delete;
  ~vector() { pacxx::detail::device_free(data_); }

  T *data() { return data_; }
  const T *data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T *begin() { return data_; }
  T *end() { return data_ + size_; }
  const T *begin() const { return data_; }
  const T *end() const { return data_ + size_; }
};

// Host range (contiguous) to a new gpu::vector.
template <class Range,
          class T = typename std::decay<decltype(*std::begin(std::declval<const Range &>()))>::type>
vector<T> copy(const Range &host) {
  std::vector<T> staged(std::begin(host), std::end(host)); // contiguous for any host range
  vector<T> v(staged.size());
  pacxx::detail::copy_to_device(v.data(), staged.data(), staged.size() * sizeof(T));
  return v;
}

// gpu::vector back to the host; waits for the kernels that write it.
template <class T> std::vector<T> copy(const vector<T> &dev) {
  std::vector<T> host(dev.size());
  pacxx::detail::copy_to_host(host.data(), dev.data(), dev.size() * sizeof(T));
  return host;
}

} // namespace gpu

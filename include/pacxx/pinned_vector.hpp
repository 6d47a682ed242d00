// gpu::pinned_vector<T>: host memory that copies run asynchronously with (page-locked,
// cuMemAllocHost, on CUDA; ordinary host memory on OpenCL, where SVM copies from it are
// asynchronous on PoCL). From the runtime's pinned pool; counted in pacxx::stats()
// (pinned_allocations, pinned_bytes).
//   gpu::copy(pinned)                  -> a new gpu::vector, copied on the current queue
//   gpu::copy(pinned, device_vector)   uploads into an existing gpu::vector
//   gpu::copy(device_vector, pinned)   downloads into pinned memory
// All three return at once: the host reads or writes the pinned elements again after
// the queue's wait() (or pacxx::synchronize(), or an event after the copy).
//   gpu::copy_async(device_vector)     -> pacxx::future<std::vector<T>> (through pinned
//                                         memory of the pool; get() waits)
#pragma once
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pacxx/queue.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/vector.hpp"

namespace gpu {

// Host memory that copies to and from gpu::vectors run asynchronously with (page-locked on
// CUDA), from the runtime's pinned pool. Move-only; T trivially copyable and destructible.
// The host must not touch the elements while a copy of them is in flight (wait on the queue
// first).
template <class T> class pinned_vector {
  static_assert(detail::is_element<T>::value,
                "gpu::pinned_vector<T>: T must be trivially copyable and destructible");
  T *data_ = nullptr;
  std::size_t size_ = 0;

public:
  // The element type.
  using value_type = T;
  // Sizes and indices.
  using size_type = std::size_t;
  // A host pointer.
  using iterator = T *;
  // A const host pointer.
  using const_iterator = const T *;

  pinned_vector() = default;
  // n elements, not initialised.
  explicit pinned_vector(std::size_t n) : size_(n) {
    if (n > static_cast<std::size_t>(PTRDIFF_MAX) / sizeof(T))
      throw std::length_error("gpu::pinned_vector: " + std::to_string(n) +
                              " elements are too many");
    data_ = static_cast<T *>(pacxx::detail::host_allocate(n * sizeof(T)));
  }
  // n copies of value (written on the host). More elements than a std::ptrdiff_t of bytes
  // holds is a std::length_error.
  pinned_vector(std::size_t n, const T &value) : pinned_vector(n) {
    for (std::size_t i = 0; i < n; ++i)
      data_[i] = value;
  }
  pinned_vector(const pinned_vector &) = delete;
  pinned_vector &operator=(const pinned_vector &) = delete;
  // Takes o's memory; o is left empty.
  pinned_vector(pinned_vector &&o) noexcept : data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  // Exchanges the memory with o's.
  pinned_vector &operator=(pinned_vector &&o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  // The memory goes back to the pool behind the work enqueued so far.
  ~pinned_vector() { pacxx::detail::host_free(data_); }

  // Element i (host memory, not checked).
  T &operator[](std::size_t i) { return data_[i]; }
  // Element i (host memory, not checked).
  const T &operator[](std::size_t i) const { return data_[i]; }
  // The first element's host address.
  T *data() { return data_; }
  // The first element's host address.
  const T *data() const { return data_; }
  // The number of elements.
  std::size_t size() const { return size_; }
  // Whether there are no elements.
  bool empty() const { return size_ == 0; }
  // The first element.
  T *begin() { return data_; }
  // Past the last element.
  T *end() { return data_ + size_; }
  // The first element.
  const T *begin() const { return data_; }
  // Past the last element.
  const T *end() const { return data_ + size_; }
};

// A new gpu::vector of host's elements, copied asynchronously on the current queue (returns
// at once).
template <class T> vector<T> copy(const pinned_vector<T> &host) {
  vector<T> v(host.size());
  pacxx::detail::copy_to_device_async(v.data(), host.data(), host.size() * sizeof(T));
  return v;
}

// Uploads host's elements into out asynchronously (out reallocated to host's size if it
// differs); returns out at once.
template <class T> vector<T> &copy(const pinned_vector<T> &host, vector<T> &out) {
  if (out.size() != host.size()) {
    vector<T> fresh(host.size());
    out.swap(fresh);
  }
  pacxx::detail::copy_to_device_async(out.data(), host.data(), host.size() * sizeof(T));
  return out;
}

// Downloads dev's elements into out asynchronously; returns at once (read out after the
// queue's wait()). Sizes that differ are a pacxx::error (a pinned_vector is not resized).
template <class T> pinned_vector<T> &copy(const vector<T> &dev, pinned_vector<T> &out) {
  if (out.size() != dev.size())
    throw pacxx::error("gpu::copy(gpu::vector, gpu::pinned_vector): sizes differ (" +
                       std::to_string(dev.size()) + " and " + std::to_string(out.size()) +
                       "); a pinned_vector is not resized");
  pacxx::detail::copy_to_host_async(out.data(), dev.data(), dev.size() * sizeof(T));
  return out;
}

// A future of dev's elements on the host: an asynchronous copy into pinned memory of the
// pool and an event; get() waits and returns them as a std::vector.
template <class T> pacxx::future<std::vector<T>> copy_async(const vector<T> &dev) {
  try {
    const std::size_t n = dev.size();
    auto staged = std::make_shared<pinned_vector<T>>(n);
    pacxx::detail::copy_to_host_async(staged->data(), dev.data(), n * sizeof(T));
    return pacxx::future<std::vector<T>>(
        pacxx::record(), [staged]() { return std::vector<T>(staged->begin(), staged->end()); });
  } catch (...) {
    return pacxx::future<std::vector<T>>::failed(std::current_exception());
  }
}

} // namespace gpu

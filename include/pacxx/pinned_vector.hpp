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

template <class T> class pinned_vector {
  static_assert(detail::is_element<T>::value,
                "gpu::pinned_vector<T>: T must be trivially copyable and destructible");
  T *data_ = nullptr;
  std::size_t size_ = 0;

public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T *;
  using const_iterator = const T *;

  pinned_vector() = default;
  // n elements, not initialised.
  explicit pinned_vector(std::size_t n) : size_(n) {
    if (n > static_cast<std::size_t>(PTRDIFF_MAX) / sizeof(T))
      throw std::length_error("gpu::pinned_vector: " + std::to_string(n) +
                              " elements are too many");
    data_ = static_cast<T *>(pacxx::detail::host_allocate(n * sizeof(T)));
  }
  pinned_vector(std::size_t n, const T &value) : pinned_vector(n) {
    for (std::size_t i = 0; i < n; ++i)
      data_[i] = value;
  }
  pinned_vector(const pinned_vector &) = delete;
  pinned_vector &operator=(const pinned_vector &) = delete;
  pinned_vector(pinned_vector &&o) noexcept : data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  pinned_vector &operator=(pinned_vector &&o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  // The memory goes back to the pool behind the work enqueued so far.
  ~pinned_vector() { pacxx::detail::host_free(data_); }

  T &operator[](std::size_t i) { return data_[i]; }
  const T &operator[](std::size_t i) const { return data_[i]; }
  T *data() { return data_; }
  const T *data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T *begin() { return data_; }
  T *end() { return data_ + size_; }
  const T *begin() const { return data_; }
  const T *end() const { return data_ + size_; }
};

template <class T> vector<T> copy(const pinned_vector<T> &host) {
  vector<T> v(host.size());
  pacxx::detail::copy_to_device_async(v.data(), host.data(), host.size() * sizeof(T));
  return v;
}

template <class T> vector<T> &copy(const pinned_vector<T> &host, vector<T> &out) {
  if (out.size() != host.size()) {
    vector<T> fresh(host.size());
    out.swap(fresh);
  }
  pacxx::detail::copy_to_device_async(out.data(), host.data(), host.size() * sizeof(T));
  return out;
}

template <class T> pinned_vector<T> &copy(const vector<T> &dev, pinned_vector<T> &out) {
  if (out.size() != dev.size())
    throw pacxx::error("gpu::copy(gpu::vector, gpu::pinned_vector): sizes differ (" +
                       std::to_string(dev.size()) + " and " + std::to_string(out.size()) +
                       "); a pinned_vector is not resized");
  pacxx::detail::copy_to_host_async(out.data(), dev.data(), dev.size() * sizeof(T));
  return out;
}

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

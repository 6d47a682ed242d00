// gpu::vector<T>: a container in device memory with value semantics. Its data(),
// begin() and end() are device pointers, usable inside kernels; it enters range-v3
// views as a (pointer, size) view (pacxx/device_range.hpp), never by host address.
#pragma once
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

#include "pacxx/kernel.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/thread.hpp"

namespace gpu {

namespace detail {
// Elements live in device memory and are moved there by bytes.
template <class T> struct is_element {
  static constexpr bool value = std::is_trivially_copy_constructible<T>::value &&
                                std::is_trivially_destructible<T>::value;
};

// Writes `value` to n elements at `p` (one kernel).
template <class T> void fill_n(T *p, std::size_t n, const T &value) {
  if (n == 0)
    return;
  const std::size_t block = 256, blocks = (n + block - 1) / block;
  pacxx::kernel(
      [](T *p, std::size_t n, T value) {
        std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          p[i] = value;
      },
      {{blocks}, {block}})(p, n, value);
}

template <class Range>
using host_value_t = typename std::decay<decltype(*std::begin(std::declval<const Range &>()))>::type;
} // namespace detail

template <class T> class vector {
  static_assert(detail::is_element<T>::value,
                "gpu::vector<T>: T must be trivially copyable and destructible (numbers, "
                "plain structs, std::pair/tuple of them) to live in device memory");
  T *data_ = nullptr;
  std::size_t size_ = 0;

  static T *allocate(std::size_t n) {
    return static_cast<T *>(pacxx::detail::device_allocate(n * sizeof(T)));
  }

public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T &;
  using const_reference = const T &;
  using iterator = T *;
  using const_iterator = const T *;

  vector() = default;
  // n elements, not initialised: a kernel or a copy is expected to write them.
  explicit vector(std::size_t n) : data_(allocate(n)), size_(n) {}
  vector(std::size_t n, const T &value) : vector(n) { detail::fill_n(data_, n, value); }
  vector(std::initializer_list<T> init) : vector(init.size()) {
    pacxx::detail::copy_to_device(data_, init.begin(), init.size() * sizeof(T));
  }
  // The elements of a host range (copied to the device).
  template <class Range, class = typename std::enable_if<
                             std::is_convertible<detail::host_value_t<Range>, T>::value &&
                             !std::is_same<typename std::decay<Range>::type, vector>::value>::type>
  explicit vector(const Range &host) {
    std::vector<T> staged(std::begin(host), std::end(host)); // contiguous, converted
    vector v(staged.size());
    pacxx::detail::copy_to_device(v.data_, staged.data(), staged.size() * sizeof(T));
    swap(v);
  }

  vector(const vector &o) : vector(o.size_) {
    pacxx::detail::copy_on_device(data_, o.data_, size_ * sizeof(T));
  }
  vector(vector &&o) noexcept : data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  vector &operator=(const vector &o) {
    if (this != &o) {
      vector copy(o);
      swap(copy);
    }
    return *this;
  }
  vector &operator=(vector &&o) noexcept {
    vector moved(std::move(o));
    swap(moved);
    return *this;
  }
  ~vector() { pacxx::detail::device_free(data_); }

  void swap(vector &o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
  }

  T *data() { return data_; }
  const T *data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T *begin() { return data_; }
  T *end() { return data_ + size_; }
  const T *begin() const { return data_; }
  const T *end() const { return data_ + size_; }

  // Keeps the first min(n, size()) elements; new ones are value-initialised.
  void resize(std::size_t n) { resize(n, T{}); }
  void resize(std::size_t n, const T &value) {
    if (n == size_)
      return;
    vector v(n);
    std::size_t keep = n < size_ ? n : size_;
    pacxx::detail::copy_on_device(v.data_, data_, keep * sizeof(T));
    detail::fill_n(v.data_ + keep, n - keep, value);
    swap(v);
  }
};

template <class T> void swap(vector<T> &a, vector<T> &b) noexcept { a.swap(b); }

template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<vector<T>> : std::true_type {};

} // namespace gpu

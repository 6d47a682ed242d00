// gpu::vector<T>: a container in device memory with value semantics. data() is a
// device pointer; begin() and end() are contiguous iterators over device memory that
// convert to device pointers; all are usable inside kernels. An lvalue enters range-v3
// views as a (pointer, size) view, an rvalue as a view that owns it
// (pacxx/device_range.hpp), never by host address.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/iterator/traits.hpp>

#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/thread.hpp"

namespace gpu {

template <class T> class vector;
namespace detail {
template <class T> void truncate(vector<T> &v, std::size_t n) noexcept;

// Elements live in device memory and are moved there by bytes.
template <class T> struct is_element {
  static constexpr bool value =
      std::is_trivially_copy_constructible<T>::value && std::is_trivially_destructible<T>::value;
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
using host_value_t =
    typename std::decay<decltype(*std::begin(std::declval<const Range &>()))>::type;

// The iterator of gpu::vector<T>: a device pointer in a class of its own. It converts
// to T* (kernels and users may take it as a pointer), and it is a type of its own so
// that range-v3 can tell a view over a temporary gpu::vector (a subrange of these
// iterators, which owns the vector: see pacxx/device_range.hpp) from a subrange of
// plain pointers. Trivially copyable; all operations are pointer arithmetic.
template <class T> class vector_iterator {
  T *p_ = nullptr;

public:
  using value_type = typename std::remove_cv<T>::type;
  using difference_type = std::ptrdiff_t;
  using reference = T &;
  using pointer = T *;
  using iterator_category = std::random_access_iterator_tag;
  using iterator_concept = ranges::contiguous_iterator_tag;

  vector_iterator() = default;
  explicit vector_iterator(T *p) noexcept : p_(p) {}
  // iterator -> const_iterator
  template <class U, class = typename std::enable_if<std::is_convertible<U *, T *>::value &&
                                                     !std::is_same<U, T>::value>::type>
  vector_iterator(vector_iterator<U> o) noexcept : p_(o.get()) {}

  T *get() const noexcept { return p_; }
  operator T *() const noexcept { return p_; }

  T &operator*() const noexcept { return *p_; }
  T *operator->() const noexcept { return p_; }
  // Offsets of any integer type match exactly, so that `it + n` never competes with
  // the built-in pointer + integer that the conversion to T* also offers.
  template <class I> using if_integer = typename std::enable_if<std::is_integral<I>::value>::type;
  template <class I, class = if_integer<I>> T &operator[](I n) const noexcept { return p_[n]; }

  vector_iterator &operator++() noexcept {
    ++p_;
    return *this;
  }
  vector_iterator operator++(int) noexcept {
    vector_iterator t = *this;
    ++p_;
    return t;
  }
  vector_iterator &operator--() noexcept {
    --p_;
    return *this;
  }
  vector_iterator operator--(int) noexcept {
    vector_iterator t = *this;
    --p_;
    return t;
  }
  template <class I, class = if_integer<I>> vector_iterator &operator+=(I n) noexcept {
    p_ += n;
    return *this;
  }
  template <class I, class = if_integer<I>> vector_iterator &operator-=(I n) noexcept {
    p_ -= n;
    return *this;
  }
  template <class I, class = if_integer<I>>
  friend vector_iterator operator+(vector_iterator i, I n) noexcept {
    return i += n;
  }
  template <class I, class = if_integer<I>>
  friend vector_iterator operator+(I n, vector_iterator i) noexcept {
    return i += n;
  }
  template <class I, class = if_integer<I>>
  friend vector_iterator operator-(vector_iterator i, I n) noexcept {
    return i -= n;
  }
  friend difference_type operator-(vector_iterator a, vector_iterator b) noexcept {
    return a.p_ - b.p_;
  }

  friend bool operator==(vector_iterator a, vector_iterator b) noexcept { return a.p_ == b.p_; }
  friend bool operator!=(vector_iterator a, vector_iterator b) noexcept { return a.p_ != b.p_; }
  friend bool operator<(vector_iterator a, vector_iterator b) noexcept { return a.p_ < b.p_; }
  friend bool operator>(vector_iterator a, vector_iterator b) noexcept { return a.p_ > b.p_; }
  friend bool operator<=(vector_iterator a, vector_iterator b) noexcept { return a.p_ <= b.p_; }
  friend bool operator>=(vector_iterator a, vector_iterator b) noexcept { return a.p_ >= b.p_; }
};
} // namespace detail

namespace detail {
// Checks a host element access (the transfer costs far more than the test).
inline void check_index(const char *name, std::size_t i, std::size_t size) {
  if (i >= size)
    throw pacxx::error(std::string("gpu::vector::") + name + ": element " + std::to_string(i) +
                       " of a vector of " + std::to_string(size));
}
} // namespace detail

/// An element of a gpu::vector seen from the host (thrust::device_reference): reading it
/// copies the element to the host, assigning to it copies a value to the device, one
/// small synchronous transfer each (a read waits for the kernels queued before it). For
/// the odd element; whole ranges go with gpu::copy.
template <class T> class vector_reference {
  T *p_;

public:
  // The element type.
  using value_type = T;
  /// The element at device address p.
  explicit vector_reference(T *p) noexcept : p_(p) {}
  // A proxy of the same element.
  vector_reference(const vector_reference &) = default;

  /// The element's value (a copy from the device).
  operator T() const {
    T v;
    pacxx::detail::copy_to_host(&v, p_, sizeof(T));
    return v;
  }
  /// Stores v into the element (a copy to the device).
  const vector_reference &operator=(const T &v) const {
    pacxx::detail::copy_to_device(p_, &v, sizeof(T));
    return *this;
  }
  /// Stores the value of another element (read, then written).
  const vector_reference &operator=(const vector_reference &o) const {
    return *this = static_cast<T>(o);
  }
  /// Read, modify, write (two transfers).
  template <class U> const vector_reference &operator+=(const U &u) const {
    return *this = static_cast<T>(static_cast<T>(*this) + u);
  }
  /// Read, modify, write (two transfers).
  template <class U> const vector_reference &operator-=(const U &u) const {
    return *this = static_cast<T>(static_cast<T>(*this) - u);
  }
  /// Read, modify, write (two transfers).
  template <class U> const vector_reference &operator*=(const U &u) const {
    return *this = static_cast<T>(static_cast<T>(*this) * u);
  }
  /// Read, modify, write (two transfers).
  template <class U> const vector_reference &operator/=(const U &u) const {
    return *this = static_cast<T>(static_cast<T>(*this) / u);
  }
  /// Read, add one, write (two transfers).
  const vector_reference &operator++() const { return *this += 1; }
  /// Read, subtract one, write (two transfers).
  const vector_reference &operator--() const { return *this -= 1; }
};

// A container of T in device memory with value semantics (std::vector's interface where it
// applies; thrust::device_vector). T must be trivially copyable and destructible. Copies
// are device-to-device, moves steal the memory; element access from the host is one small
// transfer each (vector_reference). An lvalue enters views as a (pointer, size) view, an
// rvalue as a view that owns it.
template <class T> class vector {
  static_assert(detail::is_element<T>::value,
                "gpu::vector<T>: T must be trivially copyable and destructible (numbers, "
                "plain structs, std::pair/tuple of them) to live in device memory");
  T *data_ = nullptr;
  std::size_t size_ = 0;

  // Every allocation goes through here, so no constructor or resize can compute
  // n * sizeof(T) with wrap-around (which gave a tiny buffer with a huge size()).
  static T *allocate(std::size_t n) {
    if (n > max_size())
      throw std::length_error("gpu::vector: cannot create a vector of " + std::to_string(n) +
                              " elements, larger than max_size() (" + std::to_string(max_size()) +
                              ")");
    return static_cast<T *>(pacxx::detail::device_allocate(n * sizeof(T)));
  }

public:
  // The element type.
  using value_type = T;
  // Sizes and indices.
  using size_type = std::size_t;
  // Iterator differences.
  using difference_type = std::ptrdiff_t;
  // A reference to an element in device code.
  using reference = T &;
  // A const reference to an element in device code.
  using const_reference = const T &;
  // A contiguous iterator over device memory (converts to T *).
  using iterator = detail::vector_iterator<T>;
  // A contiguous iterator over const device memory.
  using const_iterator = detail::vector_iterator<const T>;

  // As std::vector: no element count whose bytes overflow a std::ptrdiff_t.
  static constexpr std::size_t max_size() noexcept {
    return static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) / sizeof(T);
  }

  vector() = default;
  // n elements, not initialised: a kernel or a copy is expected to write them.
  explicit vector(std::size_t n) : data_(allocate(n)), size_(n) {}
  // n copies of value (one fill launch).
  vector(std::size_t n, const T &value) : vector(n) { detail::fill_n(data_, n, value); }
  // The elements of init (one copy to the device).
  vector(std::initializer_list<T> init) : vector(init.size()) {
    pacxx::detail::copy_to_device(data_, init.begin(), init.size() * sizeof(T));
  }
  // The elements of a host range (copied to the device).
  template <class Range, class = typename std::enable_if<
                             std::is_convertible<detail::host_value_t<Range>, T>::value &&
                             !std::is_same<typename std::decay<Range>::type, vector>::value>::type>
  explicit vector(const Range &host) {
    // std::vector checks the host range's length against its own max_size(), whose
    // allocator may allow more than a device element count: allocate() checks again.
    // (bool: staged as bytes of 0 and 1, what a device bool is; std::vector<bool> has no
    // contiguous storage.)
    using S = typename std::conditional<std::is_same<T, bool>::value, unsigned char, T>::type;
    std::vector<S> staged(std::begin(host), std::end(host)); // contiguous, converted
    vector v(staged.size());
    pacxx::detail::copy_to_device(v.data_, staged.data(), staged.size() * sizeof(T));
    swap(v);
  }

  // A copy of o's elements (a device-to-device copy).
  vector(const vector &o) : vector(o.size_) {
    pacxx::detail::copy_on_device(data_, o.data_, size_ * sizeof(T));
  }
  // Takes o's memory; o is left empty.
  vector(vector &&o) noexcept : data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  // Replaces the elements by a copy of o's (new memory, a device-to-device copy).
  vector &operator=(const vector &o) {
    if (this != &o) {
      vector copy(o);
      swap(copy);
    }
    return *this;
  }
  // Takes o's memory (o is left empty) and frees this vector's.
  vector &operator=(vector &&o) noexcept {
    vector moved(std::move(o));
    swap(moved);
    return *this;
  }
  // Frees the memory (back to the runtime's pool, reused only behind the work queued on
  // it).
  ~vector() { pacxx::detail::device_free(data_); }

  // Exchanges the contents of the two vectors (no copy).
  void swap(vector &o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
  }

  // The device address of the first element (usable in kernels).
  T *data() { return data_; }
  // The device address of the first element.
  const T *data() const { return data_; }
  // The memory as the driver knows it: a CUdeviceptr (cast to a pointer) on CUDA, an
  // SVM pointer on OpenCL; for code outside pacxx (a thrust::device_ptr, a kernel of
  // its own). Owned by the vector.
  void *native_handle() const noexcept { return static_cast<void *>(data_); }
  // The number of elements.
  std::size_t size() const { return size_; }
  // Whether there are no elements.
  bool empty() const { return size_ == 0; }
  // Host element access, as thrust::device_vector has it: one small synchronous transfer
  // per read or write (see vector_reference), checked against size() (an index out of
  // range is a pacxx::error; the transfer costs far more than the check). Kernels never
  // see a gpu::vector, only its views, whose elements stay plain references.

  /// Element i through a host proxy: `T x = v[i]` copies it to the host, `v[i] = x` to
  /// the device.
  vector_reference<T> operator[](std::size_t i) {
    detail::check_index("operator[]", i, size_);
    return vector_reference<T>(data_ + i);
  }
  /// Element i, copied to the host.
  T operator[](std::size_t i) const {
    detail::check_index("operator[]", i, size_);
    return static_cast<T>(vector_reference<T>(data_ + i));
  }
  /// The first element through a host proxy (one transfer per access).
  vector_reference<T> front() {
    detail::check_index("front", 0, size_);
    return vector_reference<T>(data_);
  }
  /// The first element, copied to the host.
  T front() const {
    detail::check_index("front", 0, size_);
    return static_cast<T>(vector_reference<T>(data_));
  }
  /// The last element through a host proxy (one transfer per access).
  vector_reference<T> back() {
    detail::check_index("back", size_ == 0 ? 0 : size_ - 1, size_);
    return vector_reference<T>(data_ + size_ - 1);
  }
  /// The last element, copied to the host.
  T back() const {
    detail::check_index("back", size_ == 0 ? 0 : size_ - 1, size_);
    return static_cast<T>(vector_reference<T>(data_ + size_ - 1));
  }

  // An iterator to the first element (device memory).
  iterator begin() { return iterator(data_); }
  // An iterator past the last element.
  iterator end() { return iterator(data_ + size_); }
  // A const iterator to the first element (device memory).
  const_iterator begin() const { return const_iterator(data_); }
  // A const iterator past the last element.
  const_iterator end() const { return const_iterator(data_ + size_); }

  // Shrinks to n elements keeping the memory, as std::vector::erase does (the
  // compaction actions: remove_if, unique).
  template <class U> friend void detail::truncate(vector<U> &v, std::size_t n) noexcept;

  // Keeps the first min(n, size()) elements; new ones are value-initialised.
  void resize(std::size_t n) { resize(n, T{}); }
  // Keeps the first min(n, size()) elements, new ones copies of value: new memory, a
  // device-to-device copy and a fill (nothing where n == size()).
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

// a.swap(b).
template <class T> void swap(vector<T> &a, vector<T> &b) noexcept { a.swap(b); }

template <class T> void detail::truncate(vector<T> &v, std::size_t n) noexcept {
  if (n < v.size_)
    v.size_ = n;
}

// Whether T is a gpu::vector.
template <class T> struct is_vector : std::false_type {};
// gpu::vector<T> is one.
template <class T> struct is_vector<vector<T>> : std::true_type {};

} // namespace gpu

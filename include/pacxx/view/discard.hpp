// gpu::views::discard(n): an output range of n slots that drops whatever is written to it
// (Thrust's discard_iterator), for the outputs an algorithm must be given but whose
// values the caller does not want:
//
//   gpu::reduce_by_key(keys, vals, gpu::views::discard(n), sums);    // the sums alone
//   gpu::partition_copy(in, yes, gpu::views::discard(n), pred);      // the true part alone
//
// Element i is a write-only proxy: assigning any value to it does nothing (the store is
// compiled away), reading it is a compile-time error (as a transform_output's element).
// The view is random access, sized, trivially copyable and holds no memory, so it is an
// output wherever a gpu::vector or a writable view is: transform, copy, copy_if, the
// partitions, scans, the by-key algorithms' keys or values, gather, scatter, merge, the
// set operations. n still counts: an algorithm that checks that its output is large
// enough checks n.
#pragma once
#include <cstddef>
#include <type_traits>

#include <range/v3/view/facade.hpp>

#include "pacxx/device_range.hpp"

namespace gpu {
namespace detail {

template <class T> struct discard_read_error : std::false_type {};

/// An element of gpu::views::discard: takes any assignment and drops it.
struct discard_reference {
  using pacxx_write_only = void; // pacxx::detail::is_write_only

  /// Drops v.
  template <class V, class = typename std::enable_if<!std::is_same<typename std::decay<V>::type,
                                                                   discard_reference>::value>::type>
  const discard_reference &operator=(V &&) const noexcept {
    return *this;
  }
  /// Assigning one element to another is dropping too (a copy into a discard view).
  const discard_reference &operator=(const discard_reference &) const noexcept { return *this; }
  discard_reference() = default;
  discard_reference(const discard_reference &) = default;

  template <class U> operator U() const {
    static_assert(discard_read_error<U>::value,
                  "gpu::views::discard: its elements are write-only (an output that drops what "
                  "is stored); they cannot be read, e.g. as an algorithm's input");
    __builtin_unreachable();
  }
};

} // namespace detail

namespace views {

/// n output slots that drop what is written to them (Thrust's discard_iterator).
class discard_view : public ranges::view_facade<discard_view> {
  friend ranges::range_access;
  std::ptrdiff_t n_ = 0;

  struct cursor {
    std::ptrdiff_t i_;
    detail::discard_reference read() const noexcept { return {}; }
    void next() noexcept { ++i_; }
    void prev() noexcept { --i_; }
    void advance(std::ptrdiff_t n) noexcept { i_ += n; }
    std::ptrdiff_t distance_to(const cursor &o) const noexcept { return o.i_ - i_; }
    bool equal(const cursor &o) const noexcept { return i_ == o.i_; }
  };
  cursor begin_cursor() const noexcept { return {0}; }
  cursor end_cursor() const noexcept { return {n_}; }

public:
  /// No slots.
  discard_view() = default;
  /// n slots.
  explicit discard_view(std::size_t n) noexcept : n_(static_cast<std::ptrdiff_t>(n)) {}
  /// The number of slots.
  std::size_t size() const noexcept { return static_cast<std::size_t>(n_); }
};

/// An output range of n slots that drops what is written (see the file's comment).
inline discard_view discard(std::size_t n) noexcept { return discard_view(n); }

} // namespace views
} // namespace gpu

namespace pacxx {
namespace detail {
// Holds a count and nothing else.
template <> struct view_parts_device_copyable<gpu::views::discard_view> : std::true_type {};
} // namespace detail
} // namespace pacxx

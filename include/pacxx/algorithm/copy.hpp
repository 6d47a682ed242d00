// gpu::copy: the transfers, and materialising a view.
//   gpu::copy(host range)        -> gpu::vector (to the device)
//   gpu::copy(gpu::vector)       -> std::vector (to the host; waits for the kernels)
//   gpu::copy(device view)       -> std::vector (evaluated on the device in one kernel)
//   gpu::copy(device view, out)  -> writes the view into the gpu::vector out
//   gpu::copy(device range, view) -> writes it into a writable device view (a slice, a
//                                   zip of gpu::vectors, gpu::views::transform_output)
// A filtered view (x | view::filter(p) | view::transform(f), pacxx/detail/filtered.hpp)
// is compacted in order: into a std::vector by one pass (and the tile clear) into
// pooled scratch, into a gpu::vector by a count and one pass (exactly sized).
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/range/concepts.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/algorithm/transform.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/queue.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {
struct identity {
  template <class T> decltype(auto) operator()(T &&x) const { return std::forward<T>(x); }
};

template <class R>
using is_host_range = std::integral_constant<bool, ranges::range<const R &> && !ranges::view_<R> &&
                                                       !is_vector<R>::value>;
} // namespace detail

// (remove_cv, not decay: a C array must stay an array, not become a pointer)
template <class Range, class = typename std::enable_if<detail::is_host_range<
                           typename std::remove_cv<Range>::type>::value>::type>
auto copy(const Range &host) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::copy", host);
  return vector<detail::host_value_t<Range>>(host);
}

// Copies the gpu::vector dev to a new std::vector on the host; waits for the kernels that
// write dev.
template <class T> std::vector<T> copy(const vector<T> &dev) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::copy", dev);
  std::vector<T> host(dev.size());
  pacxx::detail::copy_to_host(host.data(), dev.data(), dev.size() * sizeof(T));
  return host;
}

// std::vector<bool> has no contiguous storage: the bytes come through a buffer.
inline std::vector<bool> copy(const vector<bool> &dev) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::copy", dev);
  std::vector<unsigned char> bytes(dev.size());
  pacxx::detail::copy_to_host(bytes.data(), dev.data(), dev.size());
  return std::vector<bool>(bytes.begin(), bytes.end());
}

namespace detail {
template <class View> auto materialize_any(View &&view, std::true_type /*filtered*/) {
  return detail::select_exact("gpu::materialize",
                              pacxx::detail::source_view(std::forward<View>(view)), select_kept{});
}
template <class View> auto materialize_any(View &&view, std::false_type);

template <class View> auto view_to_host(View &&view, std::true_type /*filtered*/) {
  auto in = pacxx::detail::source_view(std::forward<View>(view));
  using U = ranges::range_value_t<decltype(in)>;
  const std::size_t n = pacxx::detail::source_size(in);
  vector<U> selected(n);
  const std::size_t c =
      select_into("gpu::copy", in, n, select_kept{}, ranges::views::all(selected), n);
  std::vector<U> host(c);
  pacxx::detail::copy_to_host(host.data(), selected.data(), c * sizeof(U));
  return host;
}
template <class View> auto view_to_host(View &&view, std::false_type);
template <class In, class Out> std::size_t copy_to_view(In &&in, Out &&out, std::true_type);
template <class In, class Out> std::size_t copy_to_view(In &&in, Out &&out, std::false_type);
template <class View, class T> vector<T> &copy_into(View &&view, vector<T> &out, std::true_type);
template <class View, class T> vector<T> &copy_into(View &&view, vector<T> &out, std::false_type);
} // namespace detail

// A new gpu::vector holding the elements of a device view (one kernel; a filtered view:
// a count and one pass).
template <class View> auto materialize(View &&view) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::materialize", view);
  return detail::materialize_any(std::forward<View>(view),
                                 pacxx::detail::is_filtered<typename std::decay<View>::type>{});
}

template <class View> auto detail::materialize_any(View &&view, std::false_type) {
  auto in = pacxx::detail::device_view(std::forward<View>(view));
  using T = ranges::range_value_t<decltype(in)>;
  vector<T> out(pacxx::detail::device_size(in));
  gpu::transform(in, out, detail::identity{});
  return out;
}

// Evaluates a device view on the device (one kernel; a filtered view is compacted in order)
// and copies the result to a new std::vector on the host.
template <class View,
          class = typename std::enable_if<ranges::view_<typename std::decay<View>::type>>::type>
auto copy(View &&view) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::copy", view);
  return detail::view_to_host(std::forward<View>(view),
                              pacxx::detail::is_filtered<typename std::decay<View>::type>{});
}
template <class View> auto detail::view_to_host(View &&view, std::false_type) {
  return gpu::copy(gpu::materialize(std::forward<View>(view)));
}

// Writes the view into out, which then holds exactly its elements. (Not for a queue,
// gpu::copy(q, ...), nor a host container: gpu::copy(pinned_vector, out) uploads one.)
template <class View, class T,
          class = typename std::enable_if<
              !pacxx::is_queue<typename std::decay<View>::type>::value &&
              !detail::is_host_range<typename std::decay<View>::type>::value>::type>
vector<T> &copy(View &&view, vector<T> &out) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::copy", view);
  return detail::copy_into(std::forward<View>(view), out,
                           pacxx::detail::is_filtered<typename std::decay<View>::type>{});
}
template <class View, class T>
vector<T> &detail::copy_into(View &&view, vector<T> &out, std::true_type /*filtered*/) {
  vector<T> fresh = select_exact<T>(
      "gpu::copy", pacxx::detail::source_view(std::forward<View>(view)), select_kept{});
  out.swap(fresh);
  return out;
}
template <class View, class T>
vector<T> &detail::copy_into(View &&view, vector<T> &out, std::false_type) {
  auto in = pacxx::detail::device_view(std::forward<View>(view));
  const std::size_t n = pacxx::detail::device_size(in);
  if (out.size() == n) {
    gpu::transform(in, out, detail::identity{});
  } else { // a new buffer: the view may still read the old one
    vector<T> fresh(n);
    gpu::transform(in, fresh, detail::identity{});
    out.swap(fresh);
  }
  return out;
}

// Writes the elements of in (any device range; a filtered view is compacted) to the
// first elements of out, a writable view over device memory with room for them (else a
// pacxx::error, nothing written), in one kernel (a filtered view: the pass after the tile
// clear, or after a count where out is smaller than the input). Returns the number
// written.
template <class In, class Out,
          class = typename std::enable_if<!pacxx::is_queue<typename std::decay<In>::type>::value &&
                                          ranges::view_<typename std::decay<Out>::type>>::type>
std::size_t copy(In &&in, Out &&out) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::copy", in);
  return detail::copy_to_view(std::forward<In>(in), std::forward<Out>(out),
                              pacxx::detail::is_filtered<typename std::decay<In>::type>{});
}
template <class In, class Out>
std::size_t detail::copy_to_view(In &&in, Out &&out, std::true_type /*filtered*/) {
  auto src = pacxx::detail::source_view(std::forward<In>(in));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  const std::size_t n = pacxx::detail::source_size(src), m = pacxx::detail::device_size(dst);
  return select_into("gpu::copy", src, n, select_kept{}, dst, m);
}
template <class In, class Out>
std::size_t detail::copy_to_view(In &&in, Out &&out, std::false_type) {
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  // An unbounded input (view::repeat(x)) fills the output.
  const std::size_t n = pacxx::detail::leading_size(src, dst);
  const std::size_t m = pacxx::detail::device_size_alongside(dst, n);
  if (m < n)
    throw pacxx::error("gpu::copy: the output has " + std::to_string(m) + " elements, the input " +
                       std::to_string(n));
  gpu::transform(std::move(src), std::move(dst), detail::identity{});
  return n;
}

} // namespace gpu

// gpu::copy: the transfers, and materialising a view.
//   gpu::copy(host range)        -> gpu::vector (to the device)
//   gpu::copy(gpu::vector)       -> std::vector (to the host; waits for the kernels)
//   gpu::copy(device view)       -> std::vector (evaluated on the device in one kernel)
//   gpu::copy(device view, out)  -> writes the view into the gpu::vector out
#pragma once
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/range/concepts.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/transform.hpp"
#include "pacxx/device_range.hpp"
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
  return vector<detail::host_value_t<Range>>(host);
}

template <class T> std::vector<T> copy(const vector<T> &dev) {
  std::vector<T> host(dev.size());
  pacxx::detail::copy_to_host(host.data(), dev.data(), dev.size() * sizeof(T));
  return host;
}

// A new gpu::vector holding the elements of a device view (one kernel).
template <class View> auto materialize(View &&view) {
  auto in = pacxx::detail::device_view(std::forward<View>(view));
  using T = ranges::range_value_t<decltype(in)>;
  vector<T> out(pacxx::detail::device_size(in));
  gpu::transform(in, out, detail::identity{});
  return out;
}

template <class View,
          class = typename std::enable_if<ranges::view_<typename std::decay<View>::type>>::type>
auto copy(View &&view) {
  return gpu::copy(materialize(std::forward<View>(view)));
}

// Writes the view into out, which then holds exactly its elements.
template <class View, class T> vector<T> &copy(View &&view, vector<T> &out) {
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

} // namespace gpu

// gpu::scatter_if(values, map, stencil, out[, pred]): out[map[i]] = values[i] for every i
// of values with pred(stencil[i]) (by default: stencil[i] converted to bool), as
// Thrust's scatter_if. One kernel; values, map and stencil any device ranges (views
// fused; map and stencil at least as long as values), out a gpu::vector or a writable
// view over one. The indices in map are not checked on the device (as gpu::scatter);
// with repeated indices one of the competing values is left, unspecified which.
#pragma once
#include <cstddef>
#include <string>
#include <utility>

#include "pacxx/algorithm/detail/indexed.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {

// A stencil element as a condition (Thrust's identity predicate).
struct as_bool {
  template <class X> bool operator()(const X &x) const { return bool(x); }
};

template <class Pred> struct scatter_if_body {
  Pred pred;
  template <class V, class M, class S, class O>
  void operator()(std::size_t i, V values, M map, S stencil, O out) const {
    if (pred(at(stencil, i)))
      at(out, static_cast<std::size_t>(at(map, i))) = at(values, i);
  }
};

// Throws unless the map and stencil have n elements or more (name: the call).
inline void check_map_stencil(const char *name, std::size_t n, std::size_t map,
                              std::size_t stencil) {
  if (map < n || stencil < n)
    throw pacxx::error(std::string(name) + ": " + std::to_string(n) + " elements, the map has " +
                       std::to_string(map) + ", the stencil " + std::to_string(stencil));
}

} // namespace detail

// out[map[i]] = values[i] for every i of values with pred(stencil[i]) (default: stencil[i]
// as bool), as Thrust's scatter_if. One kernel. A map or stencil shorter than values is a
// pacxx::error; the indices are not checked, and with repeated indices one of the values is
// left, unspecified which.
template <class V, class M, class S, class Out, class Pred = detail::as_bool>
void scatter_if(V &&values, M &&map, S &&stencil, Out &&out, Pred pred = Pred{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::scatter_if", values);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::scatter_if: the predicate must be trivially copyable (capture values only)");
  auto v = pacxx::detail::device_view(std::forward<V>(values));
  auto m = pacxx::detail::device_view(std::forward<M>(map));
  auto s = pacxx::detail::device_view(std::forward<S>(stencil));
  auto o = pacxx::detail::device_view(std::forward<Out>(out));
  // Unbounded values (view::repeat(x)) are as long as the map.
  const std::size_t n = pacxx::detail::leading_size(v, m);
  detail::check_map_stencil("gpu::scatter_if", n, pacxx::detail::device_size_alongside(m, n),
                            pacxx::detail::device_size_alongside(s, n));
  detail::for_each_indexed(n, detail::scatter_if_body<Pred>{pred}, v, m, s, o);
}

} // namespace gpu

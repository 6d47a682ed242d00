// gpu::gather_if(map, stencil, src, out[, pred]): out[i] = src[map[i]] for every i of map
// with pred(stencil[i]) (by default: stencil[i] converted to bool); the other elements of
// out are left as they are (Thrust's gather_if; the argument order of gpu::gather). One
// kernel; map, stencil and src any device ranges (views fused; stencil at least as long
// as map), out a gpu::vector or a writable view with at least size(map) elements. The
// indices in map are not checked on the device (as gpu::gather), and an index is read
// only where the stencil selects it.
#pragma once
#include <cstddef>
#include <string>
#include <utility>

#include "pacxx/algorithm/detail/indexed.hpp"
#include "pacxx/algorithm/scatter_if.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {
template <class Pred> struct gather_if_body {
  Pred pred;
  template <class M, class S, class Src, class O>
  void operator()(std::size_t i, M map, S stencil, Src src, O out) const {
    if (pred(at(stencil, i)))
      at(out, i) = at(src, static_cast<std::size_t>(at(map, i)));
  }
};
} // namespace detail

// out[i] = src[map[i]] for every i of map with pred(stencil[i]) (default: stencil[i] as
// bool); other elements of out are left alone. One kernel. An output with fewer than
// size(map) elements is a pacxx::error; the indices in map are not checked.
template <class M, class S, class Src, class Out, class Pred = detail::as_bool>
void gather_if(M &&map, S &&stencil, Src &&src, Out &&out, Pred pred = Pred{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::gather_if", map);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::gather_if: the predicate must be trivially copyable (capture values only)");
  auto m = pacxx::detail::device_view(std::forward<M>(map));
  auto s = pacxx::detail::device_view(std::forward<S>(stencil));
  auto from = pacxx::detail::device_view(std::forward<Src>(src));
  auto o = pacxx::detail::device_view(std::forward<Out>(out));
  const std::size_t n = pacxx::detail::device_size(m);
  const std::size_t k = pacxx::detail::device_size_alongside(o, n);
  detail::check_map_stencil("gpu::gather_if", n, n, pacxx::detail::device_size_alongside(s, n));
  if (k < n)
    throw pacxx::error("gpu::gather_if: the output has " + std::to_string(k) +
                       " elements, the map " + std::to_string(n));
  detail::for_each_indexed(n, detail::gather_if_body<Pred>{pred}, m, s, from, o);
}

} // namespace gpu

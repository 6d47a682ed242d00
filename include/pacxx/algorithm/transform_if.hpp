// gpu::transform_if(in, out, op, pred): out[i] = op(in[i]) where pred(in[i]); and
// gpu::transform_if(in, stencil, out, op, pred): out[i] = op(in[i]) where pred(stencil[i]).
// The other elements of out are left as they are (Thrust's transform_if). One kernel;
// in and stencil are any device ranges (views fused), out a gpu::vector or a writable
// view over one with at least size(in) elements, stencil at least as long as in.
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

template <class Op, class Pred> struct transform_if_body {
  Op op;
  Pred pred;
  template <class I, class S, class O, class Unused>
  void operator()(std::size_t i, I in, S stencil, O out, Unused) const {
    if (pred(at(stencil, i)))
      at(out, i) = op(at(in, i));
  }
};

template <class In, class St, class Out, class Op, class Pred>
void transform_if_views(In &&in_rng, St &&stencil_rng, Out &&out_rng, Op op, Pred pred) {
  static_assert(pacxx::is_device_copyable<Op>::value && pacxx::is_device_copyable<Pred>::value,
                "gpu::transform_if: the operation and the predicate must be trivially copyable "
                "(capture values only)");
  auto in = pacxx::detail::device_view(std::forward<In>(in_rng));
  auto stencil = pacxx::detail::device_view(std::forward<St>(stencil_rng));
  auto out = pacxx::detail::device_view(std::forward<Out>(out_rng));
  const std::size_t n = pacxx::detail::device_size(in);
  const std::size_t s = pacxx::detail::device_size_alongside(stencil, n);
  const std::size_t m = pacxx::detail::device_size_alongside(out, n);
  if (s < n || m < n)
    throw pacxx::error("gpu::transform_if: the input has " + std::to_string(n) +
                       " elements, the stencil " + std::to_string(s) + ", the output " +
                       std::to_string(m));
  for_each_indexed(n, transform_if_body<Op, Pred>{op, pred}, in, stencil, out, in);
}

} // namespace detail

// out[i] = op(in[i]) where pred(in[i]); other elements of out are left alone (Thrust's
// transform_if). One kernel; an output with fewer than size(in) elements is a pacxx::error.
template <class In, class Out, class Op, class Pred>
void transform_if(In &&in, Out &&out, Op op, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::transform_if", in);
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  detail::transform_if_views(src, src, std::forward<Out>(out), op, pred);
}

// out[i] = op(in[i]) where pred(stencil[i]); other elements of out are left alone. One
// kernel; a stencil or output shorter than in is a pacxx::error.
template <class In, class St, class Out, class Op, class Pred>
void transform_if(In &&in, St &&stencil, Out &&out, Op op, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::transform_if", in);
  detail::transform_if_views(std::forward<In>(in), std::forward<St>(stencil),
                             std::forward<Out>(out), op, pred);
}

} // namespace gpu

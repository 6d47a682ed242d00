// gpu::tabulate(out, f): out[i] = f(i) for every element of out (Thrust's tabulate; i is
// a std::size_t). gpu::sequence(out[, init[, step]]): out[i] = init + i * step (0 and 1 by
// default, in out's value type), Thrust's sequence. One kernel each; out a gpu::vector
// or a writable view over one.
#pragma once
#include <cstddef>
#include <utility>

#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/detail/indexed.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {
template <class F> struct tabulate_body {
  F f;
  template <class O, class B, class C, class D>
  void operator()(std::size_t i, O out, B, C, D) const {
    at(out, i) = f(i);
  }
};
template <class T> struct sequence_fn {
  T init, step;
  T operator()(std::size_t i) const { return T(init + T(i) * step); }
};
} // namespace detail

// out[i] = f(i) for every element of out (i a std::size_t), as Thrust's tabulate. One
// kernel; f must be trivially copyable.
template <class Out, class F> void tabulate(Out &&out, F f) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::tabulate", out);
  static_assert(pacxx::is_device_copyable<F>::value,
                "gpu::tabulate: the function must be trivially copyable (capture values only)");
  auto o = pacxx::detail::device_view(std::forward<Out>(out));
  const std::size_t n = pacxx::detail::device_size(o);
  detail::for_each_indexed(n, detail::tabulate_body<F>{f}, o, o, o, o);
}

// out[i] = init + i * step (0 and 1 by default, in out's value type), as Thrust's sequence.
// One kernel.
template <class Out, class T = ranges::range_value_t<
                         decltype(pacxx::detail::device_view(std::declval<Out>()))>>
void sequence(Out &&out, T init = T(0), T step = T(1)) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::sequence", out);
  gpu::tabulate(std::forward<Out>(out), detail::sequence_fn<T>{init, step});
}

} // namespace gpu

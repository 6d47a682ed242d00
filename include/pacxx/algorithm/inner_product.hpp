// gpu::inner_product(r1, r2, init[, op1, op2]): init op1 the fold of op2(a, b) over the
// pairs of r1 and r2 (+ and * by default), as std's over r1's length (r2 must have at
// least as many elements, else pacxx::error). op1 associative and commutative; the
// accumulator is init's type. One kernel over the zipped, fused views
// (gpu::transform_reduce's), the block partials folded on the host.
#pragma once
#include <functional>
#include <string>
#include <tuple>
#include <utility>

#include <range/v3/view/take_exactly.hpp>
#include <range/v3/view/zip.hpp>

#include "pacxx/algorithm/transform_reduce.hpp"
#include "pacxx/error.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

namespace detail {
template <class Op> struct apply_pair {
  Op op;
  template <class P>
  auto operator()(const P &p) const -> decltype(op(std::get<0>(p), std::get<1>(p))) {
    return op(std::get<0>(p), std::get<1>(p));
  }
};
// The pairs of a and b, n of them. A zip with an unbounded part has no size of its own
// in range-v3 (counting it would walk n steps on the host): it is cut to n. A zip of
// bounded ranges is left as it is (no counted iterator in its kernel).
template <class A, class B> auto zip_n(A a, B b, std::size_t, std::false_type /*unbounded part*/) {
  return ranges::views::zip(std::move(a), std::move(b));
}
template <class A, class B> auto zip_n(A a, B b, std::size_t n, std::true_type) {
  return ranges::views::zip(std::move(a), std::move(b)) |
         ranges::views::take_exactly(static_cast<std::ptrdiff_t>(n));
}
} // namespace detail

// init op1 op2(a0, b0) op1 op2(a1, b1) ... over r1's length (+ and * by default): one
// fused kernel, the block partials folded on the host. r2 shorter than r1 is a
// pacxx::error. op1 must be associative and commutative; both operations trivially
// copyable.
template <class R1, class R2, class T, class Op1 = std::plus<>, class Op2 = std::multiplies<>>
T inner_product(R1 &&r1, R2 &&r2, T init, Op1 op1 = Op1{}, Op2 op2 = Op2{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::inner_product", r1);
  static_assert(pacxx::is_device_copyable<Op1>::value && pacxx::is_device_copyable<Op2>::value,
                "gpu::inner_product: the operations must be trivially copyable (capture "
                "values only)");
  auto a = pacxx::detail::device_view(std::forward<R1>(r1));
  auto b = pacxx::detail::device_view(std::forward<R2>(r2));
  // An unbounded range (Thrust's constant_iterator: view::repeat(x)) is as long as the
  // other.
  const std::size_t n = pacxx::detail::leading_size(a, b);
  const std::size_t m = pacxx::detail::device_size_alongside(b, n);
  if (m < n)
    throw pacxx::error("gpu::inner_product: the second range has " + std::to_string(m) +
                       " elements, the first " + std::to_string(n));
  using unbounded_part =
      std::integral_constant<bool, pacxx::detail::is_unbounded<decltype(a)>::value ||
                                       pacxx::detail::is_unbounded<decltype(b)>::value>;
  return gpu::transform_reduce(detail::zip_n(std::move(a), std::move(b), n, unbounded_part{}), init,
                               op1, detail::apply_pair<Op2>{op2});
}

} // namespace gpu

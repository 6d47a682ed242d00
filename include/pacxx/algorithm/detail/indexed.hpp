// The element-wise kernel of the conditional algorithms (transform_if, scatter_if,
// gather_if, tabulate): body(i, a, b, c, d) for every i in [0, n), with the begin
// iterators of four device views (an algorithm that needs fewer passes one of them
// again). One launch, the element-wise policy's tiles; at(it, i) is element i.
#pragma once
#include <cstddef>

#include <range/v3/iterator/traits.hpp>
#include <range/v3/range/access.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/kernel.hpp"

namespace gpu {
namespace detail {

template <class It> decltype(auto) at(const It &it, std::size_t i) {
  return *(it + static_cast<ranges::iter_difference_t<It>>(i));
}

template <class Body, class A, class B, class C, class D>
void for_each_indexed(std::size_t n, Body body, const A &a, const B &b, const C &c, const D &d) {
  if (n == 0)
    return;
  using P = pacxx::policy::elementwise;
  pacxx::kernel(
      [body](std::size_t n, const auto &a_view, const auto &b_view, const auto &c_view,
             const auto &d_view) {
        // Each thread's own copies: some views keep state while iterated.
        auto a = a_view;
        auto b = b_view;
        auto c = c_view;
        auto d = d_view;
        auto fa = ranges::begin(a);
        auto fb = ranges::begin(b);
        auto fc = ranges::begin(c);
        auto fd = ranges::begin(d);
        pacxx::detail::for_each_index<P>(n, [&](std::size_t i) { body(i, fa, fb, fc, fd); });
      },
      pacxx::detail::elementwise_grid<P>(n))(n, a, b, c, d);
}

} // namespace detail
} // namespace gpu

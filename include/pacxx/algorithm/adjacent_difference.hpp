// gpu::adjacent_difference(in, out[, op]): out[0] = in[0] and out[i] = op(in[i], in[i - 1])
// for 0 < i < size(in), as std::adjacent_difference and Thrust's (op: minus by default).
// in is any device range (views fused into the loads), out a gpu::vector or a writable
// view over one with at least size(in) elements.
//
// Out of place: one element-wise kernel; each element loads itself and its predecessor
// (the second load hits the cache line the neighbouring thread loaded).
// In place (out and in are the same contiguous memory, e.g. adjacent_difference(v, v), as
// Thrust allows): a thread writing out[i] would race with the thread that reads in[i] as
// its predecessor. So, as CUB's SubtractLeft: a tiny first kernel saves the last element
// before each tile, then one block per tile loads all its elements and predecessors
// (the first from the saved value), waits at a barrier, and only then stores. Blocks
// write only their own tile, so no element is overwritten before it has been read. Two
// launches. Contiguous views of in and out that overlap otherwise (shifted) are a
// pacxx::error; views of other shapes are taken not to overlap (as in Thrust, where only
// exactly in place is allowed).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/concepts.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/thread.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {

// How device views a (n elements) and b (m) share memory: not at all, exactly (the same
// first element), or shifted. Only where both are contiguous; views of other shapes are
// taken not to overlap.
enum class overlap { none, same, shifted };
template <class A, class B>
overlap overlaps(A &a, std::size_t n, B &b, std::size_t m, std::true_type /*contiguous*/) {
  if (n == 0 || m == 0)
    return overlap::none;
  const char *pa = reinterpret_cast<const char *>(ranges::data(a));
  const char *pb = reinterpret_cast<const char *>(ranges::data(b));
  if (pa == pb)
    return overlap::same;
  return pa < pb + m * sizeof(*ranges::data(b)) && pb < pa + n * sizeof(*ranges::data(a))
             ? overlap::shifted
             : overlap::none;
}
template <class A, class B> overlap overlaps(A &, std::size_t, B &, std::size_t, std::false_type) {
  return overlap::none;
}
template <class A, class B> overlap overlaps(A &a, std::size_t n, B &b, std::size_t m) {
  using both =
      std::integral_constant<bool, (ranges::contiguous_range<A> && ranges::contiguous_range<B>)>;
  return overlaps(a, n, b, m, both{});
}

// The value adjacent_difference stores: op's result as the output's value type where it
// converts.
template <class Op, class In, class Out> struct difference_type_of {
  using R = decltype(std::declval<Op &>()(std::declval<ranges::range_reference_t<In>>(),
                                          std::declval<ranges::range_reference_t<In>>()));
  using VO = ranges::range_value_t<Out>;
  using type = typename std::conditional<std::is_constructible<VO, R>::value, VO,
                                         typename std::decay<R>::type>::type;
};

} // namespace detail

// Writes out[0] = in[0] and out[i] = op(in[i], in[i - 1]) for 0 < i < size(in) (op: minus
// by default). in is any device range, out a gpu::vector or writable view over one. One
// launch out of place, two in place (out and in the same memory). An output with fewer than
// size(in) elements, or contiguous views of in and out that overlap shifted, is a
// pacxx::error. op must be trivially copyable.
template <class In, class Out, class Op = std::minus<>>
void adjacent_difference(In &&in, Out &&out, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::adjacent_difference", in);
  static_assert(pacxx::is_device_copyable<Op>::value,
                "gpu::adjacent_difference: the operation must be trivially copyable (capture "
                "values only)");
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  const std::size_t n = pacxx::detail::device_size(src);
  const std::size_t m = pacxx::detail::device_size_alongside(dst, n);
  if (m < n)
    throw pacxx::error("gpu::adjacent_difference: the output has " + std::to_string(m) +
                       " elements, the input " + std::to_string(n));
  if (n == 0)
    return;
  using V = typename detail::difference_type_of<Op, decltype(src), decltype(dst)>::type;
  using P = pacxx::policy::elementwise;
  const detail::overlap o = detail::overlaps(src, n, dst, m);
  if (o == detail::overlap::shifted)
    throw pacxx::error("gpu::adjacent_difference: the output overlaps the input shifted; it "
                       "may be the input itself (in place) or apart from it");
  if (o == detail::overlap::none) {
    pacxx::kernel(
        [op](const auto &in_view, const auto &out_view, std::size_t n) {
          auto in = in_view;
          auto out = out_view;
          auto first = ranges::begin(in);
          auto result = ranges::begin(out);
          using DI = ranges::range_difference_t<decltype(in)>;
          using DO = ranges::range_difference_t<decltype(out)>;
          pacxx::detail::load_store_index<P>(
              n,
              [&](std::size_t i) -> V {
                const auto at = first + static_cast<DI>(i);
                return i == 0 ? V(*at) : V(op(*at, *(at - 1)));
              },
              [&](std::size_t i, V &&v) { *(result + static_cast<DO>(i)) = std::move(v); });
        },
        pacxx::detail::elementwise_grid<P>(n))(src, dst, n);
    return;
  }
  using T = ranges::range_value_t<decltype(src)>;
  constexpr std::size_t B = P::block, I = P::items, tile = B * I;
  const std::size_t tiles = pacxx::detail::ceil_div(n, tile);
  T *saved = static_cast<T *>(pacxx::detail::scratch(tiles * sizeof(T)));
  // saved[t]: the element before tile t (t > 0).
  pacxx::kernel(
      [](const auto &in_view, std::size_t tiles, T *saved) {
        const std::size_t t = pacxx::Thread::get().global.x;
        if (t == 0 || t >= tiles)
          return;
        auto in = in_view;
        saved[t] = *(ranges::begin(in) +
                     static_cast<ranges::range_difference_t<decltype(in)>>(t * tile - 1));
      },
      pacxx::detail::grid_for(tiles, 128, std::size_t(1) << 31))(src, tiles, saved);
  pacxx::kernel(
      [op](const auto &in_view, const auto &out_view, std::size_t n, const T *saved) {
        auto in = in_view;
        auto out = out_view;
        auto first = ranges::begin(in);
        auto result = ranges::begin(out);
        using DI = ranges::range_difference_t<decltype(in)>;
        using DO = ranges::range_difference_t<decltype(out)>;
        const std::size_t b = pacxx::Block::get().index.x, l = pacxx::Thread::get().local.x;
        const std::size_t base = b * tile;
        V r[I];
        for (std::size_t k = 0; k < I; ++k) {
          const std::size_t i = base + k * B + l;
          if (i < n) {
            const auto at = first + static_cast<DI>(i);
            const T x = *at;
            if (i == 0)
              r[k] = V(x);
            else if (k * B + l == 0)
              r[k] = V(op(x, saved[b]));
            else
              r[k] = V(op(x, T(*(at - 1))));
          }
        }
        pacxx::barrier(); // every element of the tile read before any is written
        for (std::size_t k = 0; k < I; ++k) {
          const std::size_t i = base + k * B + l;
          if (i < n)
            *(result + static_cast<DO>(i)) = r[k];
        }
      },
      pacxx::launch_config{{tiles}, {B}})(src, dst, n, saved);
}

} // namespace gpu

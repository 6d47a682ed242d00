// Permutations: a lazy gather view and the eager gather and scatter built on it.
//
//   gpu::views::gather(src, map)   the view whose element i is src[map[i]], as long as
//                                  map: random access, device copyable, so it fuses into
//                                  any pipeline (zip, transform, gpu::reduce, scans ...);
//                                  where src is writable so are its elements
//   gpu::gather(map, src, out)     out[i] = src[map[i]] for every i of map (one kernel)
//   gpu::scatter(in, map, out)     out[map[i]] = in[i] for every i of in (one kernel)
//
// src, map, in: any device ranges (views fused); out a gpu::vector or a writable view
// over one. Sizes are checked on the host (out holds map's elements for gather; map
// has in's for scatter); the indices in map are not checked on the device: an index
// outside src (gather) or out (scatter) reads or writes outside them, as in Thrust.
// Scatter with repeated indices leaves one of the competing values, unspecified which.
#pragma once
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>
#include <range/v3/view/transform.hpp>

#include "pacxx/algorithm/copy.hpp"
#include "pacxx/algorithm/transform.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {

// i -> src[i], the function of the gather view. It holds the source view itself (its
// iterators may point into it, so they are made where it lives); `mutable` because a
// range-v3 view need not be iterable when const.
template <class S> struct gather_fn {
  mutable S src;
  template <class I> decltype(auto) operator()(I i) const {
    return *(ranges::begin(src) + static_cast<ranges::range_difference_t<S>>(i));
  }
};

} // namespace detail
} // namespace gpu

namespace pacxx {
// The gather function is as device copyable as the view it holds.
template <class S> struct is_device_copyable<gpu::detail::gather_fn<S>> : is_device_copyable<S> {};
} // namespace pacxx

namespace gpu {
namespace views {
// The elements src[map[0]], src[map[1]], ...: a random-access view as long as map.
template <class Src, class Map> auto gather(Src &&src, Map &&map) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::gather", src);
  auto s = pacxx::detail::device_view(std::forward<Src>(src));
  auto m = pacxx::detail::device_view(std::forward<Map>(map));
  return ranges::views::transform(std::move(m), detail::gather_fn<decltype(s)>{std::move(s)});
}
} // namespace views

// out[i] = src[map[i]] for i in [0, size(map)).
template <class Map, class Src, class Out> void gather(Map &&map, Src &&src, Out &&out) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::gather", map);
  auto m = pacxx::detail::device_view(std::forward<Map>(map));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  // An unbounded map (view::repeat(i)) fills the output.
  const std::size_t n = pacxx::detail::leading_size(m, dst);
  const std::size_t o = pacxx::detail::device_size_alongside(dst, n);
  if (o < n)
    throw pacxx::error("gpu::gather: the output has " + std::to_string(o) + " elements, the map " +
                       std::to_string(n));
  gpu::transform(views::gather(std::forward<Src>(src), std::move(m)), std::move(dst),
                 detail::identity{});
}

// out[map[i]] = in[i] for i in [0, size(in)).
template <class In, class Map, class Out> void scatter(In &&in, Map &&map, Out &&out) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::scatter", in);
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto m = pacxx::detail::device_view(std::forward<Map>(map));
  // An unbounded input (view::repeat(x)) is as long as the map.
  const std::size_t n = pacxx::detail::leading_size(src, m);
  const std::size_t k = pacxx::detail::device_size_alongside(m, n);
  if (k < n)
    throw pacxx::error("gpu::scatter: the map has " + std::to_string(k) + " elements, the input " +
                       std::to_string(n));
  gpu::transform(std::move(src), views::gather(std::forward<Out>(out), std::move(m)),
                 detail::identity{});
}

} // namespace gpu

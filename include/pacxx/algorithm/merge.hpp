// gpu::merge(a, b, out[, comp]): the stable merge of sorted a and b into out, as
// std::merge (on ties a's elements first). a and b are any device ranges (views fused
// into the loads), out a gpu::vector or a writable view over one with at least
// size(a) + size(b) elements; comp orders both inputs. With inputs that are not sorted by
// comp (std::merge's precondition) out holds unspecified elements of a and b, and nothing
// is read outside them.
//
// Merge path (pacxx/agent/merge.hpp): two launches, the partition (one binary search per
// tile boundary, into pooled scratch) and the merge (one block per tile of the output).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/agent/merge.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {

// The merge of device views a (na) and b (nb) into out, by comp, tiles of P.
template <class P, class T, class VA, class VB, class VO, class Comp>
void merge_views(const VA &a, std::size_t na, const VB &b, std::size_t nb, const VO &out,
                 Comp comp) {
  const std::size_t n = na + nb, tile = P::block * P::items;
  if (n == 0)
    return;
  const std::size_t tiles = pacxx::detail::ceil_div(n, tile);
  std::size_t *cuts =
      static_cast<std::size_t *>(pacxx::detail::scratch((tiles + 1) * sizeof(std::size_t)));
  pacxx::kernel(
      [comp](const auto &a_view, std::size_t na, const auto &b_view, std::size_t nb,
             std::size_t tiles, std::size_t *cuts) {
        const std::size_t t = pacxx::Thread::get().global.x;
        if (t > tiles)
          return;
        auto av = a_view;
        auto bv = b_view;
        auto fa = ranges::begin(av);
        auto fb = ranges::begin(bv);
        using DA = ranges::range_difference_t<decltype(av)>;
        using DB = ranges::range_difference_t<decltype(bv)>;
        const std::size_t end = na + nb, d = t * P::block * P::items;
        cuts[t] = pacxx::agent::merge_path(
            [&](std::size_t i) -> T { return T(*(fa + static_cast<DA>(i))); }, na,
            [&](std::size_t j) -> T { return T(*(fb + static_cast<DB>(j))); }, nb,
            d < end ? d : end, comp);
      },
      pacxx::detail::grid_for(tiles + 1, 128, std::size_t(1) << 31))(a, na, b, nb, tiles, cuts);
  pacxx::kernel(
      [comp](const auto &a_view, std::size_t na, const auto &b_view, std::size_t nb,
             const auto &out_view, const std::size_t *cuts) {
        auto av = a_view;
        auto bv = b_view;
        auto ov = out_view;
        auto fa = ranges::begin(av);
        auto fb = ranges::begin(bv);
        auto fo = ranges::begin(ov);
        using DA = ranges::range_difference_t<decltype(av)>;
        using DB = ranges::range_difference_t<decltype(bv)>;
        using DO = ranges::range_difference_t<decltype(ov)>;
        const std::size_t t = pacxx::Block::get().index.x, end = na + nb;
        const std::size_t d0 = t * P::block * P::items;
        const std::size_t d1 = d0 + P::block * P::items < end ? d0 + P::block * P::items : end;
        pacxx::agent::merge_tile<P, T>(
            [&](std::size_t i) -> T { return T(*(fa + static_cast<DA>(i))); },
            [&](std::size_t j) -> T { return T(*(fb + static_cast<DB>(j))); },
            [&](std::size_t d, const T &v) { *(fo + static_cast<DO>(d)) = v; }, d0, d1, cuts[t],
            cuts[t + 1], comp);
      },
      pacxx::launch_config{{tiles}, {P::block}})(a, na, b, nb, out, cuts);
}

} // namespace detail

// Merges a and b, both sorted by comp, into out, stably (on ties a's elements first), as
// std::merge. Two launches (the merge-path partition and the merge). An output with fewer
// than size(a) + size(b) elements is a pacxx::error; comp must be trivially copyable.
template <class A, class B, class Out, class Comp = std::less<>>
void merge(A &&a_in, B &&b_in, Out &&out_in, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::merge", a_in);
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::merge: the comparison must be trivially copyable (capture values only)");
  auto a = pacxx::detail::device_view(std::forward<A>(a_in));
  auto b = pacxx::detail::device_view(std::forward<B>(b_in));
  auto out = pacxx::detail::device_view(std::forward<Out>(out_in));
  using T = ranges::range_value_t<decltype(a)>;
  const std::size_t na = pacxx::detail::device_size(a), nb = pacxx::detail::device_size(b);
  const std::size_t m = pacxx::detail::device_size(out);
  if (m < na + nb)
    throw pacxx::error("gpu::merge: the output has " + std::to_string(m) +
                       " elements, the inputs " + std::to_string(na + nb));
  detail::merge_views<pacxx::policy::merge_for<T>, T>(a, na, b, nb, out, comp);
}

} // namespace gpu

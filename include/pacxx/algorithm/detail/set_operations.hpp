// The host side of the set operations on sorted ranges (set_intersection,
// set_difference, set_union, set_symmetric_difference and their _by_key forms), with
// std's multiset semantics: one merge-path pass over a and b
// (pacxx/agent/set_operations.hpp) that writes the result in order.
//
// Launches:
//   - out at least as large as the largest possible result (min(na, nb) for the
//     intersection, na for the difference, na + nb for the union and the symmetric
//     difference): two, the cuts (one balanced merge-path search per tile boundary; the
//     same kernel clears the look-back's tile state) and the pass. The number written
//     comes back from the last tile (one small read).
//   - out smaller than that: the cuts, the pass without its stores (a count; the same
//     kernel, so one JIT, with a tile state of its own that the cuts kernel clears too)
//     and, where the result fits, the pass. An output too small is a pacxx::error before
//     anything is written to it.
//   - no launch where the largest possible result is empty.
// Both inputs may be any device ranges (views fused into the loads), the output a
// gpu::vector or a writable view (fused into the stores). 64-bit indices throughout;
// tiles and per-tile indices are 32-bit.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include "pacxx/agent/select.hpp"
#include "pacxx/agent/set_operations.hpp"
#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/algorithm/detail/readback.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/block/lookback.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/shared_memory.hpp"

namespace gpu {
namespace detail {

using pacxx::agent::set_op;

// The largest result of op over na and nb elements.
inline std::size_t set_op_bound(set_op op, std::size_t na, std::size_t nb) {
  switch (op) {
  case set_op::intersection:
    return na < nb ? na : nb;
  case set_op::difference:
    return na;
  default:
    return na + nb;
  }
}

// Device memory of one set operation (pooled scratch): the tile states of the pass and
// of the count, the cuts (a's and b's index at each of the tiles + 1 tile boundaries)
// and the slot for the number written, where it cannot go to pinned host memory.
template <class C> struct set_op_memory {
  pacxx::tile_state<C> state, count_state;
  std::size_t tiles;
  std::size_t *cuts;
  C *total;
};
template <class P, class C> set_op_memory<C> set_op_setup(const char *name, std::size_t n) {
  constexpr std::size_t tile = P::block * P::items;
  const std::size_t tiles = pacxx::detail::ceil_div(n, tile);
  if (tiles > 0xffffffffu)
    throw pacxx::error(std::string(name) + ": inputs of " + std::to_string(n) +
                       " elements in all are more tiles than a set operation counts");
  const std::size_t state_bytes = (pacxx::tile_state<C>::bytes(tiles) + 15) / 16 * 16;
  const std::size_t cuts_bytes = 2 * (tiles + 1) * sizeof(std::size_t);
  char *mem = static_cast<char *>(pacxx::detail::scratch(2 * state_bytes + cuts_bytes + 16));
  return {pacxx::tile_state<C>::at(mem, tiles), pacxx::tile_state<C>::at(mem + state_bytes, tiles),
          tiles, reinterpret_cast<std::size_t *>(mem + 2 * state_bytes),
          reinterpret_cast<C *>(mem + 2 * state_bytes + cuts_bytes)};
}

// The cuts: one thread per tile boundary t (output diagonal t * tile), which also clears
// entry t of both tile states.
template <class P, class T, class VA, class VB, class Comp, class C>
void set_op_cuts(const VA &a, std::size_t na, const VB &b, std::size_t nb, Comp comp,
                 const set_op_memory<C> &m) {
  pacxx::kernel(
      [comp](const auto &a_view, std::size_t na, const auto &b_view, std::size_t nb,
             std::size_t tiles, std::size_t *cuts, const pacxx::tile_state<C> &s,
             const pacxx::tile_state<C> &count_s) {
        const std::size_t t = pacxx::Thread::get().global.x;
        if (t > tiles)
          return;
        s.clear(t, tiles);
        count_s.clear(t, tiles);
        auto av = a_view;
        auto bv = b_view;
        auto fa = ranges::begin(av);
        auto fb = ranges::begin(bv);
        using DA = ranges::range_difference_t<decltype(av)>;
        using DB = ranges::range_difference_t<decltype(bv)>;
        const std::size_t d = t * (P::block * P::items);
        std::size_t i, j;
        pacxx::agent::balanced_path(
            [&](std::size_t x) -> T { return T(*(fa + static_cast<DA>(x))); }, na,
            [&](std::size_t x) -> T { return T(*(fb + static_cast<DB>(x))); }, nb,
            d < na + nb ? d : na + nb, comp, i, j);
        cuts[2 * t] = i;
        cuts[2 * t + 1] = j;
      },
      pacxx::detail::grid_for(m.tiles + 1, 128, std::size_t(1) << 31))(
      a, na, b, nb, m.tiles, m.cuts, m.state, m.count_state);
}

// The pass over tile state s: the result to out in order where store is true (else the
// count alone); returns how many.
template <class P, set_op Op, class T, class VA, class VB, class VO, class Comp, class C>
std::size_t set_op_pass(const VA &a, const VB &b, const VO &out, Comp comp,
                        const set_op_memory<C> &m, const pacxx::tile_state<C> &s, bool store) {
  const readback_memory<C> total(1, m.total);
  pacxx::kernel(
      [comp](const auto &a_view, const auto &b_view, const auto &out_view, const std::size_t *cuts,
             std::size_t tiles, const pacxx::tile_state<C> &s, C *total, int stores) {
        constexpr std::size_t B = P::block, I = P::items;
        if (P::min_blocks > 0) // 0: no launch bound
          pacxx::launch_bounds(P::block, P::min_blocks);
        auto av = a_view;
        auto bv = b_view;
        auto ov = out_view;
        auto fa = ranges::begin(av);
        auto fb = ranges::begin(bv);
        auto fo = ranges::begin(ov);
        using DA = ranges::range_difference_t<decltype(av)>;
        using DB = ranges::range_difference_t<decltype(bv)>;
        using DO = ranges::range_difference_t<decltype(ov)>;
        const std::size_t t = pacxx::tile_order(s);
        pacxx::shared_memory<T, B * I + 2> sh;
        pacxx::shared_memory<unsigned, 2 * B> tcuts;
        T out[I];
        bool keep[I];
        pacxx::agent::set_op_tile<P, Op, T>(
            [&](std::size_t x) -> T { return T(*(fa + static_cast<DA>(x))); },
            [&](std::size_t x) -> T { return T(*(fb + static_cast<DB>(x))); }, cuts[2 * t],
            cuts[2 * t + 2], cuts[2 * t + 1], cuts[2 * t + 3], sh.data(), tcuts.data(), out, keep,
            comp);
        auto store = [&](std::size_t j, const T &v) {
          if (stores)
            *(fo + static_cast<DO>(j)) = v;
        };
        auto none = [](std::size_t, const T &) {};
        // The tile's outputs are staged in its input's shared memory (B * I + 2 >= B * I
        // elements): select_scatter writes the stage only after its scan's barriers, when
        // every thread has finished its walk. "The last tile" (which reports the total) is
        // tile t of `tiles`, given as base t, one valid element of n = tiles.
        pacxx::agent::detail::select_scatter<P, T, false>(out, keep, sh.data(), store, none, t, t,
                                                          1, tiles, s, total);
      },
      pacxx::launch_config{{m.tiles}, {P::block}})(
      a, b, out, static_cast<const std::size_t *>(m.cuts), m.tiles, s, total.kernel, store ? 1 : 0);
  return readback<C>(total)[0];
}

// The policy base of op (policy.hpp): set_ops_selective where the result is at most a's
// elements, set_ops_merging where it merges both inputs.
template <set_op Op> struct set_op_policy_base {
  using type = typename std::conditional<Op == set_op::intersection || Op == set_op::difference,
                                         pacxx::policy::set_ops_selective,
                                         pacxx::policy::set_ops_merging>::type;
};
// op over device views a and b (sorted by comp) into device view out; T: the elements'
// type in the tile (b's elements are converted to it). Returns the number written.
// P: the policy (benchmarks pass others).
template <set_op Op, class T,
          class P = pacxx::policy::set_ops_for<T, typename set_op_policy_base<Op>::type>, class VA,
          class VB, class VO, class Comp>
std::size_t set_op_views(const char *name, const VA &a, const VB &b, const VO &out, Comp comp) {
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu set operations: the comparison must be trivially copyable (capture values "
                "only)");
  const std::size_t na = pacxx::detail::device_size(a), nb = pacxx::detail::device_size(b);
  const std::size_t m = pacxx::detail::device_size(out);
  const std::size_t bound = set_op_bound(Op, na, nb);
  if (bound == 0)
    return 0;
  return select_with(na + nb, [&](auto c_type) -> std::size_t {
    using C = decltype(c_type);
    const set_op_memory<C> mem = set_op_setup<P, C>(name, na + nb);
    set_op_cuts<P, T>(a, na, b, nb, comp, mem);
    if (m < bound) {
      const std::size_t c = set_op_pass<P, Op, T>(a, b, out, comp, mem, mem.count_state, false);
      if (c > m)
        throw pacxx::error(std::string(name) + ": the output has " + std::to_string(m) +
                           " elements, the result " + std::to_string(c));
      if (c == 0)
        return 0;
    }
    return set_op_pass<P, Op, T>(a, b, out, comp, mem, mem.state, true);
  });
}

// op over device ranges a and b into out.
template <set_op Op, class A, class B, class Out, class Comp>
std::size_t set_op_plain(const char *name, A &&a_in, B &&b_in, Out &&out_in, Comp comp) {
  auto a = pacxx::detail::device_view(std::forward<A>(a_in));
  auto b = pacxx::detail::device_view(std::forward<B>(b_in));
  auto out = pacxx::detail::device_view(std::forward<Out>(out_in));
  using T = ranges::range_value_t<decltype(a)>;
  return set_op_views<Op, T>(name, a, b, out, comp);
}

// comp on the keys of (key, value) pairs: the _by_key forms.
template <class Comp> struct keys_compare {
  Comp comp;
  template <class P, class Q> bool operator()(const P &p, const Q &q) const {
    return bool(comp(std::get<0>(p), std::get<0>(q)));
  }
};

// The (key, value) pairs of the _by_key forms: values must be as many as keys.
template <class K, class V> auto checked_zip(const char *name, K &&keys, V &&values) {
  auto k = pacxx::detail::device_view(std::forward<K>(keys));
  auto v = pacxx::detail::device_view(std::forward<V>(values));
  const std::size_t nk = pacxx::detail::device_size(k), nv = pacxx::detail::device_size(v);
  if (nv < nk)
    throw pacxx::error(std::string(name) + ": " + std::to_string(nk) + " keys and " +
                       std::to_string(nv) + " values");
  return ranges::views::zip(std::move(k), std::move(v));
}

// A key of b as a (key, value) element of the tile where b has no values
// (set_intersection_by_key): its value is never written out.
template <class T> struct key_as_element {
  template <class K> T operator()(const K &k) const {
    T t{};
    std::get<0>(t) = k;
    return t;
  }
};

// The _by_key forms with values on both sides.
template <set_op Op, class KA, class KB, class VA, class VB, class OK, class OV, class Comp>
std::size_t set_op_by_key(const char *name, KA &&keys_a, KB &&keys_b, VA &&values_a, VB &&values_b,
                          OK &&out_keys, OV &&out_values, Comp comp) {
  auto a = checked_zip(name, std::forward<KA>(keys_a), std::forward<VA>(values_a));
  auto b = checked_zip(name, std::forward<KB>(keys_b), std::forward<VB>(values_b));
  using T = ranges::range_value_t<decltype(a)>;
  return set_op_views<Op, T>(
      name, a, b,
      ranges::views::zip(pacxx::detail::device_view(std::forward<OK>(out_keys)),
                         pacxx::detail::device_view(std::forward<OV>(out_values))),
      keys_compare<Comp>{comp});
}

// The _by_key forms whose output takes only a's elements: b's keys alone.
template <set_op Op, class KA, class KB, class VA, class OK, class OV, class Comp>
std::size_t set_op_by_key_a(const char *name, KA &&keys_a, KB &&keys_b, VA &&values_a,
                            OK &&out_keys, OV &&out_values, Comp comp) {
  auto a = checked_zip(name, std::forward<KA>(keys_a), std::forward<VA>(values_a));
  using T = ranges::range_value_t<decltype(a)>;
  return set_op_views<Op, T>(
      name, a,
      pacxx::detail::device_view(std::forward<KB>(keys_b)) |
          ranges::views::transform(key_as_element<T>{}),
      ranges::views::zip(pacxx::detail::device_view(std::forward<OK>(out_keys)),
                         pacxx::detail::device_view(std::forward<OV>(out_values))),
      keys_compare<Comp>{comp});
}

} // namespace detail
} // namespace gpu

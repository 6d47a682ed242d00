// Algorithms over shaped ranges: gpu::md views, gpu::views::indices and stencils carry
// their extents and can give the element at coordinates (x, y, z) directly
// (`at_coords`). gpu::for_each and gpu::transform given one at the top of their input
// launch a 2D/3D grid (pacxx::policy::shaped) whose threads know their coordinates, so
// no element costs a division: a flat launch over w * h elements would find
// (i % w, i / w) for each (ROF was 1.09x the hand-fused CUDA for that division).
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/error.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/stage.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {
namespace detail {

template <class... T> struct make_void_t {
  using type = void;
};

// Whether V is shaped: it has a rank, extents and at_coords(x, y, z).
template <class V, class = void> struct is_shaped : std::false_type {};
template <class V>
struct is_shaped<
    V, typename make_void_t<decltype(std::declval<const V &>().at_coords(0, 0, 0)),
                            decltype(std::declval<const V &>().extent(0)), decltype(V::rank)>::type>
    : std::true_type {};

// Whether V gives a cheaper element where interior(x, y, z) (a stencil: no boundary tests).
template <class V, class = void> struct has_interior : std::false_type {};
template <class V>
struct has_interior<
    V, typename make_void_t<decltype(std::declval<const V &>().at_coords_interior(0, 0, 0))>::type>
    : std::true_type {};

// f(element (x, y, z) of v); for a stencil, f of the neighbourhood without boundary
// tests where the whole neighbourhood is inside (device code).
template <class V, class F>
inline decltype(auto) apply_at(const V &v, F &f, std::size_t x, std::size_t y, std::size_t z,
                               std::false_type) {
  return f(v.at_coords(x, y, z));
}
template <class V, class F>
inline auto apply_at(const V &v, F &f, std::size_t x, std::size_t y, std::size_t z,
                     std::true_type) {
  using R = decltype(f(v.at_coords(x, y, z)));
  if (v.interior(x, y, z))
    return R(f(v.at_coords_interior(x, y, z)));
  return R(f(v.at_coords(x, y, z)));
}
template <class V, class F>
inline decltype(auto) apply_at(const V &v, F &f, std::size_t x, std::size_t y, std::size_t z) {
  return apply_at(v, f, x, y, z, has_interior<V>{});
}

// The extents a shaped launch stages: in the kernel, `restaged(v, es)` with
// es = {stage(e.w), stage(e.h), stage(e.d)} gives v with its extents as JIT-time
// constants (views without a `with_extents` member stay as they are). Then the grid
// loops, the interior test and a row-major view's strides are constants: neighbour
// reads are immediate offsets. The same values (the host's extents_of(v)), so only the
// JIT learns something; each shape gets its own compiled kernel.
template <class V, class = void> struct has_with_extents : std::false_type {};
template <class V>
struct has_with_extents<V, typename make_void_t<decltype(std::declval<const V &>().with_extents(
                               std::size_t(), std::size_t(), std::size_t()))>::type>
    : std::true_type {};
template <class V, class E> inline V restaged(const V &v, const E &e, std::true_type) {
  return v.with_extents(e.w, e.h, e.d);
}
template <class V, class E> inline const V &restaged(const V &v, const E &, std::false_type) {
  return v;
}
template <class V, class E> inline decltype(auto) restaged(const V &v, const E &e) {
  return restaged(v, e, has_with_extents<V>{});
}

// The policy of a shaped launch over V.
template <class V>
using shaped_policy =
    typename std::conditional<has_interior<V>::value, policy::shaped_stencil, policy::shaped>::type;

// The policy of gpu::transform over V: a 2D stencil's groups take their own blocks
// (policy::shaped_stencil_2d), the rest shaped_policy's.
template <class V, bool = has_interior<V>::value> struct transform_policy_of {
  using type = shaped_policy<V>;
};
template <class V> struct transform_policy_of<V, true> {
  using type = typename std::conditional<V::rank == 2, policy::shaped_stencil_2d,
                                         policy::shaped_stencil>::type;
};

struct extents3 {
  std::size_t w, h, d;
};
template <class V> extents3 extents_of(const V &v) {
  return {v.extent(0), v.extent(1), v.extent(2)};
}

// Blocks along an axis of n elements, per elements a block, at most `most`.
inline std::size_t grid_blocks(std::size_t n, std::size_t per, std::size_t most) {
  const std::size_t b = ceil_div(n, per);
  return b > most ? most : b;
}

template <class P> launch_config shaped_grid(const extents3 &e) {
  return {{grid_blocks(e.w, P::block_x * P::x_items, P::max_blocks_x),
           grid_blocks(e.h, P::block_y * P::rows, P::max_blocks_yz),
           grid_blocks(e.d, 1, P::max_blocks_yz)},
          {P::block_x, P::block_y}};
}

// store(x, y + K gy, z + K gz, v[K]) for each K, in order.
template <class Store, class I, std::size_t... K, class... T>
inline void store_group(Store &store, I x, I y, I z, I gy, I gz, std::index_sequence<K...>,
                        T &&...v) {
  int in_order[] = {
      0,
      (store(x, y + static_cast<I>(K) * gy, z + static_cast<I>(K) * gz, std::forward<T>(v)), 0)...};
  (void)in_order;
}
template <class Load, class Store, std::size_t... K>
inline void load_store_rows(Load &load, Store &store, std::size_t x, std::size_t y, std::size_t z,
                            std::size_t by, std::index_sequence<K...> ks) {
  // Every load is an argument: all happen before the first store (policy::elementwise).
  store_group(store, x, y, z, by, std::size_t(0), ks, load(x, y + K * by, z)...);
}

// store(x, y, z, load(x, y, z)) for every coordinate of a w x h x d space, in the grid
// of shaped_grid<P> (device code), with coordinates of type I. load must return a value,
// not a reference.
template <class P, class I, class Load, class Store>
inline void load_store_coords_as(const extents3 &e, Load &load, Store &store) {
  const Block b = Block::get();
  const index3 t = Thread::get().local, g = Grid::get().size;
  const I w = static_cast<I>(e.w), h = static_cast<I>(e.h), d = static_cast<I>(e.d);
  const I bx = static_cast<I>(b.size.x), by = static_cast<I>(b.size.y),
          tile = by * static_cast<I>(P::rows);
  for (I z = static_cast<I>(b.index.z); z < d; z += static_cast<I>(g.z))
    for (I y0 = static_cast<I>(b.index.y) * tile; y0 < h; y0 += static_cast<I>(g.y) * tile)
      for (I x = static_cast<I>(b.index.x) * bx + static_cast<I>(t.x); x < w;
           x += static_cast<I>(g.x) * bx) {
        if (y0 + tile <= h) {
          load_store_rows(load, store, x, y0 + static_cast<I>(t.y), z, by,
                          std::make_index_sequence<P::rows>{});
        } else {
          for (I k = 0; k < static_cast<I>(P::rows); ++k) {
            const I y = y0 + k * by + static_cast<I>(t.y);
            if (y < h)
              store(x, y, z, load(x, y, z));
          }
        }
      }
}

// The same with 32-bit coordinates where the space has fewer than 2^31 elements: the
// steps (at most 2^25 in x, 2^21 in y) cannot wrap them. 64-bit index arithmetic was
// most of the 2D 5-point stencil's instructions (ncu, H100, 2026-11-27). The extents
// are staged (restaged above), so the JIT keeps one of the two loops. (Tried and
// dropped: a stencil thread's x_items elements as one group, all loads before the
// first store where the whole group is inside: the 3D 7-point stencil went from 683 to
// 928 us at 512^3, the 2D one from 246 to 250 us at 8192^2; H100, 2026-11-27.)
template <class F> inline void with_coordinate_type(const extents3 &e, F &&f) {
  if (e.w * e.h * e.d < (std::size_t(1) << 31))
    f(0u);
  else
    f(std::size_t(0));
}
template <class P, class Load, class Store>
inline void load_store_coords(const extents3 &e, Load &&load, Store &&store) {
  with_coordinate_type(e, [&](auto i) { load_store_coords_as<P, decltype(i)>(e, load, store); });
}

// f of the interior neighbourhoods of a group's elements, all before the first store.
// Each is the first one moved along the group's axis (interior_along): with one base
// address the compiler merges the loads the elements share (n(0, 1) of a row is n(0, 0)
// of the next). Built each from its own coordinates, they had separate addresses: the
// 2D 5-point stencil's group of 4 issued 20 loads instead of 14 (PTX, sm_90).
template <class T, class Store, class V, class F, class I, std::size_t... K>
inline void stencil_group(Store &store, const V &in, F &f, I x, I y, I z, I gy, I gz,
                          std::index_sequence<K...> ks) {
  const auto n0 = in.at_coords_interior(x, y, z);
  const std::size_t axis = gz != 0 ? 2 : 1;
  store_group(store, x, y, z, gy, gz, ks, T(f(V::interior_along(n0, axis, K)))...);
}

// gpu::transform over a stencil of rank 2 or 3 (policy::shaped_stencil says why): a
// thread takes P::group consecutive elements of the slowest axis (rows in 2D, planes in
// 3D) at each of its x. Where the whole group is interior, f of every element's interior
// neighbourhood is computed before the first store (stencil_group: they are all
// arguments of one call), so the neighbours the elements share are one load and the
// group's loads are in flight together; elsewhere (the border, or where a warp is one
// work-item and not P::group_everywhere) one element after another, each as
// load_store_coords_as takes it. store(x, y, z, T) writes element (x, y, z); the grid is
// stencil_grid<P, Rank>; coordinates of type I.
template <class P, std::size_t Rank, class I, class T, class V, class F, class Store>
inline void stencil_groups_as(const extents3 &e, const V &in, F &f, Store &store) {
  static_assert(Rank == 2 || Rank == 3, "stencil groups: rank 2 or 3");
  constexpr I G = static_cast<I>(P::group);
  const Block b = Block::get();
  const index3 t = Thread::get().local, g = Grid::get().size;
  const I w = static_cast<I>(e.w), h = static_cast<I>(e.h), d = static_cast<I>(e.d);
  const I bx = static_cast<I>(b.size.x), by = static_cast<I>(b.size.y);
  const bool groups = P::group_everywhere || pacxx::warp::size() > 1;
  // The group's elements are (x, y + k gy, z + k gz), k < G.
  const I gy = Rank == 2 ? 1 : 0, gz = Rank == 3 ? 1 : 0;
  const I zg = Rank == 3 ? G : 1, yg = Rank == 2 ? G : 1;
  for (I z = static_cast<I>(b.index.z) * zg; z < d; z += static_cast<I>(g.z) * zg)
    for (I y = (static_cast<I>(b.index.y) * by + static_cast<I>(t.y)) * yg; y < h;
         y += static_cast<I>(g.y) * by * yg)
      for (I x = static_cast<I>(b.index.x) * bx + static_cast<I>(t.x); x < w;
           x += static_cast<I>(g.x) * bx) {
        const I ye = y + (G - 1) * gy, ze = z + (G - 1) * gz; // the group's last element
        if (groups && ye < h && ze < d && in.interior(x, y, z) && in.interior(x, ye, ze)) {
          stencil_group<T>(store, in, f, x, y, z, gy, gz, std::make_index_sequence<P::group>{});
        } else {
          for (I k = 0; k < G; ++k)
            if (y + k * gy < h && z + k * gz < d)
              store(x, y + k * gy, z + k * gz, T(apply_at(in, f, x, y + k * gy, z + k * gz)));
        }
      }
}

// The grid of stencil_groups_as<P, Rank>: a block covers block_x group_x_items columns and
// block_y groups of rows (2D) or block_y rows of a group of planes (3D).
template <class P, std::size_t Rank> launch_config stencil_grid(const extents3 &e) {
  const std::size_t yg = Rank == 2 ? P::group : 1, zg = Rank == 3 ? P::group : 1;
  return {{grid_blocks(e.w, P::block_x * P::group_x_items, P::max_blocks_x),
           grid_blocks(e.h, P::block_y * yg, P::max_blocks_yz),
           grid_blocks(e.d, zg, P::max_blocks_yz)},
          {P::block_x, P::block_y}};
}

// stencil_groups_as with 32-bit coordinates where the space has fewer than 2^31
// elements (as load_store_coords).
template <class P, std::size_t Rank, class T, class V, class F, class Store>
inline void stencil_groups(const extents3 &e, const V &in, F &f, Store &&store) {
  with_coordinate_type(
      e, [&](auto i) { stencil_groups_as<P, Rank, decltype(i), T>(e, in, f, store); });
}

// body(x, y, z) for every coordinate (device code).
template <class P, class Body> inline void for_each_coord(const extents3 &e, Body &&body) {
  load_store_coords<P>(
      e,
      [&](std::size_t x, std::size_t y, std::size_t z) {
        body(x, y, z);
        return 0;
      },
      [](std::size_t, std::size_t, std::size_t, int) {});
}

// The output element for coordinates (x, y, z): by coordinates where the output is
// shaped itself (a transposed view), else element x + w * (y + h * z).
template <class O>
inline decltype(auto) output_at(O &out, const extents3 &, std::size_t x, std::size_t y,
                                std::size_t z, std::true_type /*shaped*/) {
  return out.at_coords(x, y, z);
}
template <class O>
inline decltype(auto) output_at(O &out, const extents3 &e, std::size_t x, std::size_t y,
                                std::size_t z, std::false_type) {
  using D = ranges::range_difference_t<O>;
  return *(ranges::begin(out) + static_cast<D>(x + e.w * (y + e.h * z)));
}

// An output for a shaped input: a shaped output must have the same extents.
template <class O>
void check_shaped_output(const O &out, const extents3 &e, const char *what, std::true_type) {
  if (out.extent(0) != e.w || out.extent(1) != e.h || out.extent(2) != e.d)
    throw pacxx::error(std::string(what) + ": the output's extents " +
                       std::to_string(out.extent(0)) + " x " + std::to_string(out.extent(1)) +
                       " x " + std::to_string(out.extent(2)) + " are not the input's " +
                       std::to_string(e.w) + " x " + std::to_string(e.h) + " x " +
                       std::to_string(e.d));
}
template <class O>
void check_shaped_output(const O &, const extents3 &, const char *, std::false_type) {}

} // namespace detail
} // namespace pacxx

// gpu::pairwise_reduce(outer, inner, out, init, op, f): for every element i of outer,
//   out[i] = init op f(outer[i], inner[0]) op f(outer[i], inner[1]) ...
//                 op f(outer[i], inner[m - 1])
// folded left to right in that order (init alone where inner is empty): all pairs, as the
// N-body accelerations (f the force of body j on body i, op +), MRI-Q, k-means distances.
// outer and inner are any random-access device ranges (a gpu::vector, a zip of position
// vectors, a transform view ...: views fused into the loads); out a gpu::vector or a
// writable view over one with at least outer.size() elements (else a pacxx::error naming
// the call). The accumulator has init's type; op need not be associative or commutative
// (the order is fixed), so the result is deterministic and, for exact arithmetic, equal
// to the host's double loop.
//
// One kernel, the CUDA SDK N-body's pattern: a thread per outer element, its element and
// its accumulator in registers; the block walks inner in tiles of `block` elements staged
// through shared memory (pacxx::block_load_tile: the whole block loads a tile, barrier, every
// thread folds the tile, barrier), so each element of inner is read from global memory
// (and a view over it evaluated) once per block instead of once per thread. Full tiles
// fold with a loop of constant trip count, unrolled `unroll` times
// (pacxx::policy::pairwise_reduce); the last partial tile with a bounded one. Threads past
// the end of outer take every barrier with the others (they hold a copy of element 0)
// and write nothing.
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/block/block_load_tile.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

// For every element i of outer, out[i] = init op f(outer[i], inner[0]) op ... op
// f(outer[i], inner[m - 1]), folded left to right (init alone for an empty inner), so op
// need not be associative and the result is deterministic. One kernel that stages inner
// through shared memory a tile at a time. An output with fewer than size(outer) elements is
// a pacxx::error; op and f must be trivially copyable.
template <class Outer, class Inner, class Out, class T, class Op, class F>
void pairwise_reduce(Outer &&outer, Inner &&inner, Out &&out, T init, Op op, F f) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::pairwise_reduce", outer);
  static_assert(pacxx::is_device_copyable<Op>::value && pacxx::is_device_copyable<F>::value,
                "gpu::pairwise_reduce: the operation and the pair function must be trivially "
                "copyable (capture values and device pointers only)");
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu::pairwise_reduce: the initial value must be device copyable");
  auto a = pacxx::detail::device_view(std::forward<Outer>(outer));
  auto b = pacxx::detail::device_view(std::forward<Inner>(inner));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  using A = ranges::range_value_t<decltype(a)>;
  using Bv = ranges::range_value_t<decltype(b)>;
  static_assert(std::is_trivially_destructible<Bv>::value,
                "gpu::pairwise_reduce: the inner range's elements are staged in shared memory "
                "and must be trivially destructible");
  const std::size_t n = pacxx::detail::device_size(a), m = pacxx::detail::device_size(b);
  const std::size_t k = pacxx::detail::device_size_alongside(dst, n);
  if (k < n)
    throw pacxx::error("gpu::pairwise_reduce: the output has " + std::to_string(k) +
                       " elements, the outer range " + std::to_string(n));
  if (n == 0)
    return;
  using P = pacxx::policy::pairwise_reduce;
  constexpr std::size_t B = P::block;
  pacxx::kernel(
      [init, op, f](const auto &a_view, const auto &b_view, const auto &out_view, std::size_t n,
                    std::size_t m) {
        using DA = ranges::range_difference_t<decltype(a_view)>;
        const std::size_t i = pacxx::Block::get().index.x * B + pacxx::Thread::get().local.x;
        const bool mine = i < n;
        const A x = A(*(ranges::begin(a_view) + static_cast<DA>(mine ? i : 0)));
        T acc = init;
        pacxx::block_load_tile<Bv, B> tile;
        for (std::size_t j0 = 0; j0 < m; j0 += B) {
          const std::size_t count = tile.load(ranges::begin(b_view), j0, m);
          if (count == B) {
#pragma unroll(P::unroll)
            for (std::size_t j = 0; j < B; ++j)
              acc = T(op(acc, f(x, tile[j])));
          } else {
            for (std::size_t j = 0; j < count; ++j)
              acc = T(op(acc, f(x, tile[j])));
          }
          tile.release();
        }
        // The output view is copied only where it is written: a copy with a destructor (a
        // transform_output's boxed function) made before the barriers left a block that
        // PoCL 3.1 rejects ("Incoming edges to non-entry block").
        if (mine) {
          auto o = out_view;
          *(ranges::begin(o) + static_cast<ranges::range_difference_t<decltype(o)>>(i)) = acc;
        }
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(n, B)}, {B}})(a, b, dst, n, m);
}

} // namespace gpu

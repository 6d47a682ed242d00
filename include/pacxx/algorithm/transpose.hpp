// gpu::transpose(a, out): out(y, x[, z]) = a(x, y[, z]) for a shaped range a of rank 2
// or 3 (an md view over any device range, fused views included; each plane of a 3D view
// is transposed), written into out: a range of the same number of elements laid out
// row-major with extents (h, w[, d]), or a shaped output (an md view) with exactly those
// extents. One kernel: 32 x 32 tiles through shared memory, so that both the reads of a
// and the writes of out are whole rows (gpu::transposed(a) is the same as a view, with
// no copy, for consumers that read it by coordinates).
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/detail/shaped.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

// out(y, x[, z]) = in(x, y[, z]) for a shaped range of rank 2 or 3 (each plane of a 3D view
// transposed); out is row-major with extents (h, w[, d]) or an md view with exactly those
// extents. One kernel through 32 x 32 shared-memory tiles. An output too small, or a shaped
// one with other extents, is a pacxx::error.
template <class In, class Out> void transpose(In &&in, Out &&out) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::transpose", in);
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  using S = decltype(src);
  using D = decltype(dst);
  static_assert(pacxx::detail::is_shaped<S>::value && S::rank >= 2,
                "gpu::transpose: the input is a shaped range of rank 2 or 3 (gpu::md(v, w, h))");
  const pacxx::detail::extents3 e = pacxx::detail::extents_of(src);
  const pacxx::detail::extents3 t{e.h, e.w, e.d};
  using shaped_out = pacxx::detail::is_shaped<D>;
  pacxx::detail::check_shaped_output(dst, t, "gpu::transpose", shaped_out{});
  const std::size_t n = e.w * e.h * e.d;
  const std::size_t m = pacxx::detail::device_size_alongside(dst, n);
  if (m < n)
    throw pacxx::error("gpu::transpose: the output has " + std::to_string(m) +
                       " elements, the input " + std::to_string(n));
  if (n == 0)
    return;
  using P = pacxx::policy::transpose;
  constexpr std::size_t TILE = P::tile, BY = P::block_y;
  using T = typename std::decay<decltype(src.at_coords(0, 0, 0))>::type;
  auto blocks = [](std::size_t k, std::size_t most) { return k > most ? most : k; };
  const pacxx::launch_config cfg{{pacxx::detail::ceil_div(e.w, TILE),
                                  blocks(pacxx::detail::ceil_div(e.h, TILE), P::max_blocks_yz),
                                  blocks(e.d, P::max_blocks_yz)},
                                 {TILE, BY}};
  pacxx::kernel(
      [](const S &in0, const D &out_view, pacxx::detail::extents3 e0) {
        // The extents as JIT-time constants (detail/shaped.hpp: restaged).
        const pacxx::detail::extents3 e{pacxx::stage(e0.w), pacxx::stage(e0.h), pacxx::stage(e0.d)};
        const auto &in = pacxx::detail::restaged(in0, e);
        const pacxx::index3 l = pacxx::Thread::get().local, b = pacxx::Block::get().index,
                            g = pacxx::Grid::get().size;
        const pacxx::detail::extents3 t{e.h, e.w, e.d};
        auto out = pacxx::detail::restaged(out_view, t);
        pacxx::shared_memory<T, TILE *(TILE + 1)> tile; // +1: columns hit every bank
        // A thread's K rows of a tile: with a constant trip count the loops unroll, and a
        // full tile issues its K loads before it stores any (one load at a time, with a
        // bounds test each, moved 0.73 of the copy rate at 8192^2, H100, 2026-11-27).
        static_assert(TILE % BY == 0, "policy::transpose: block_y divides tile");
        constexpr std::size_t K = TILE / BY;
        const std::size_t x0 = b.x * TILE;
        for (std::size_t z = b.z; z < e.d; z += g.z)
          for (std::size_t y0 = b.y * TILE; y0 < e.h; y0 += g.y * TILE) {
            const bool full = x0 + TILE <= e.w && y0 + TILE <= e.h;
            if (full) {
              T v[K];
              for (std::size_t kk = 0; kk < K; ++kk)
                v[kk] = T(in.at_coords(x0 + l.x, y0 + l.y + kk * BY, z));
              for (std::size_t kk = 0; kk < K; ++kk)
                tile[(l.y + kk * BY) * (TILE + 1) + l.x] = v[kk];
            } else {
              for (std::size_t kk = 0; kk < K; ++kk) {
                const std::size_t k = l.y + kk * BY, x = x0 + l.x, y = y0 + k;
                if (x < e.w && y < e.h)
                  tile[k * (TILE + 1) + l.x] = T(in.at_coords(x, y, z));
              }
            }
            pacxx::barrier();
            for (std::size_t kk = 0; kk < K; ++kk) {
              const std::size_t k = l.y + kk * BY;
              const std::size_t ox = y0 + l.x, oy = x0 + k; // out(ox, oy) = in(oy, ox)
              if (full || (ox < e.h && oy < e.w))
                pacxx::detail::output_at(out, t, ox, oy, z, shaped_out{}) =
                    tile[l.x * (TILE + 1) + k];
            }
            pacxx::barrier(); // before the next tile overwrites this one
          }
      },
      cfg)(src, dst, e);
}

} // namespace gpu

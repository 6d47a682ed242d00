// Folds along an axis of a shaped range (an md view, indices, a stencil):
//   gpu::reduce_rows(a, out, init[, op])
//       out[y + h * z] = init op a(0, y, z) op ... op a(w - 1, y, z)
//   gpu::reduce_columns(a, out, init[, op])
//       out[x + w * z] = the fold of a(x, 0, z) ... a(x, h - 1, z)
//   gpu::reduce_axis(a, axis, out, init[, op])
//       any axis (0: x, 1: y, 2: z; the kept axes index out in row-major order, x fastest)
// (Accelerate's fold over the innermost dimension, numpy's sum(axis=)). op must be
// associative and commutative (default std::plus<>); views are fused on the input (an md
// view over a transform view) and on the output (any writable view with room for the
// results, else a pacxx::error naming the call). Each is one kernel; the result is
// deterministic (the same order of folding on every run).
//
// Two agents, chosen by which axis is contiguous in memory (md_layout):
//   along the contiguous axis (rows of a row-major view): a warp per output below
//   `block_min_length` elements (its lanes striding along the row), a block per output
//   above, as gpu::segmented_reduce;
//   across it (columns): a thread per output, 32 consecutive outputs a warp (coalesced
//   rows), the folded axis split over block_y threads and, where the outputs are too
//   few to fill the device, over several blocks whose partials the last block of each
//   tile folds in order (a ticket counter in ones_scratch, reset by that block).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/detail/shaped.hpp"
#include "pacxx/algorithm/for_each.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/algorithm/reduce.hpp"
#include "pacxx/atomic.hpp"
#include "pacxx/block/block_reduce.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/view/md.hpp"

namespace gpu {
namespace detail {

// Which axis is folded, and the extents that place output o.
struct axis_info {
  std::size_t w, h, d;
  unsigned axis;
};
// In a kernel: the extents and the axis as JIT-time constants, and the view with its
// extents so (pacxx/algorithm/detail/shaped.hpp: restaged). The divisions that place an
// output become multiplications and shifts, the folds' bounds constants.
#define PACXX_STAGED_AXIS(ai, ai0, src, src0)                                                      \
  const axis_info ai{pacxx::stage(ai0.w), pacxx::stage(ai0.h), pacxx::stage(ai0.d),                \
                     pacxx::stage(ai0.axis)};                                                      \
  const auto &src = pacxx::detail::restaged(src0, pacxx::detail::extents3{ai.w, ai.h, ai.d})
// Element i of the folded axis for output o of a shaped view (device code; built in the
// kernel: a view need not be trivially copyable, only device copyable).
template <class V> struct axis_access {
  const V &v;
  axis_info a;
  decltype(auto) operator()(std::size_t i, std::size_t o) const {
    return a.axis == 0   ? v.at_coords(i, o % a.h, o / a.h)
           : a.axis == 1 ? v.at_coords(o % a.w, i, o / a.w)
                         : v.at_coords(o % a.w, o / a.w, i);
  }
};
template <class V> axis_access<V> access_along(const V &v, axis_info a) { return {v, a}; }

// Whether x is the contiguous axis of V (all but transposed md views).
template <class V> struct x_contiguous : std::true_type {};
template <class B, class R>
struct x_contiguous<md_view<B, R, md_layout::column_major>> : std::false_type {};

// The fold of `len` elements of output o from element `first`, every `step`-th.
// Four loads in flight before they are folded: one at a time, reduce_rows moved 1341
// GB/s at 8192^2 (H100; the copy 2830).
template <class T, class Op, class A>
maybe<T> fold_strided(const A &at, std::size_t o, std::size_t first, std::size_t len,
                      std::size_t step, Op op) {
  maybe<T> m{T(), 0u};
  std::size_t i = first;
  if (i < len) {
    m = maybe<T>{T(at(i, o)), 1u};
    i += step;
  }
  for (; i + 3 * step < len; i += 4 * step) {
    const T a = T(at(i, o)), b = T(at(i + step, o)), c = T(at(i + 2 * step, o)),
            d = T(at(i + 3 * step, o));
    m.value = op(op(op(op(m.value, a), b), c), d);
  }
  for (; i < len; i += step)
    m.value = op(m.value, T(at(i, o)));
  return m;
}

// Along the contiguous axis: a warp (or block) per output.
template <class P, class T, class Op, class S, class R>
void reduce_along(const S &src, axis_info ai, const R &out, std::size_t outputs, std::size_t len,
                  T init, Op op) {
  constexpr std::size_t B = P::block;
  // A block per output needs barriers. An output view with a destructor (a
  // transform_output's boxed function) left a block after them that PoCL 3.1 rejects
  // ("Incoming edges to non-entry block!" in ParallelRegion::Verify): such outputs take
  // the warp path at every length.
  if (len >= P::block_min_length && std::is_trivially_destructible<R>::value) {
    pacxx::kernel(
        [init, op](const S &src0, axis_info ai0, const auto &out_view, std::size_t len0) {
          PACXX_STAGED_AXIS(ai, ai0, src, src0);
          const std::size_t len = pacxx::stage(len0);
          const auto at = access_along(src, ai);
          pacxx::block_reduce<maybe<T>, B> block;
          const std::size_t l = pacxx::Thread::get().local.x, o = pacxx::Block::get().index.x;
          const maybe<T> m =
              block.reduce(fold_strided<T>(at, o, l, len, B, op), maybe_op<Op>{op}, B);
          if (l == 0) {
            auto out = out_view;
            *(ranges::begin(out) + static_cast<ranges::range_difference_t<decltype(out)>>(o)) =
                m.have ? op(init, m.value) : init;
          }
        },
        pacxx::launch_config{{outputs}, {B}})(src, ai, out, len);
    return;
  }
  constexpr std::size_t per_block = B / 32;
  pacxx::kernel(
      [init, op](const S &src0, axis_info ai0, const auto &out_view, std::size_t outputs0,
                 std::size_t len0) {
        PACXX_STAGED_AXIS(ai, ai0, src, src0);
        const std::size_t len = pacxx::stage(len0), outputs = pacxx::stage(outputs0);
        const auto at = access_along(src, ai);
        auto out = out_view;
        const std::size_t l = pacxx::Thread::get().local.x, W = pacxx::warp::size();
        if (W == 1 && l >= per_block)
          return; // a warp of one: the first per_block work-items take an output each
        const std::size_t o = pacxx::Block::get().index.x * per_block + l / W;
        maybe<T> m{T(), 0u};
        if (o < outputs)
          m = fold_strided<T>(at, o, l % W, len, W, op);
        m = pacxx::warp::reduce(m, maybe_op<Op>{op}, static_cast<unsigned>(W));
        if (l % W == 0 && o < outputs)
          *(ranges::begin(out) + static_cast<ranges::range_difference_t<decltype(out)>>(o)) =
              m.have ? op(init, m.value) : init;
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(outputs, per_block)}, {B}})(src, ai, out,
                                                                                outputs, len);
}

// Across the contiguous axis: a thread per output, the folded axis split over the
// block's rows and over `chunks` blocks.
template <class P, class T, class Op, class S, class R>
void reduce_across(const S &src, axis_info ai, const R &out, std::size_t outputs, std::size_t len,
                   T init, Op op) {
  constexpr std::size_t BX = P::block_x, BY = P::block_y;
  const std::size_t tiles = pacxx::detail::ceil_div(outputs, BX);
  // Enough blocks to fill the device (P::min_blocks), each at least P::min_chunk deep.
  std::size_t chunks = tiles >= P::min_blocks ? 1 : pacxx::detail::ceil_div(P::min_blocks, tiles);
  const std::size_t most = pacxx::detail::ceil_div(len, P::min_chunk);
  if (chunks > most)
    chunks = most;
  if (chunks > P::max_chunks)
    chunks = P::max_chunks;
  if (chunks == 0)
    chunks = 1;
  const std::size_t chunk = pacxx::detail::ceil_div(len, chunks);
  chunks = pacxx::detail::ceil_div(len, chunk); // none empty
  maybe<T> *partials = nullptr;
  unsigned *tickets = nullptr;
  if (chunks > 1) {
    partials = static_cast<maybe<T> *>(pacxx::detail::scratch(chunks * outputs * sizeof(maybe<T>)));
    // After the two words the searches keep (pacxx/algorithm/policy.hpp); all ones
    // between calls.
    tickets =
        reinterpret_cast<unsigned *>(static_cast<char *>(pacxx::detail::ones_scratch(
                                         2 * sizeof(std::size_t) + tiles * sizeof(unsigned))) +
                                     2 * sizeof(std::size_t));
  }
  pacxx::kernel(
      [init, op](const S &src0, axis_info ai0, const auto &out_view, std::size_t outputs0,
                 std::size_t len0, std::size_t chunk0, std::size_t chunks0, maybe<T> *partials,
                 unsigned *tickets) {
        PACXX_STAGED_AXIS(ai, ai0, src, src0);
        const std::size_t len = pacxx::stage(len0), outputs = pacxx::stage(outputs0),
                          chunk = pacxx::stage(chunk0), chunks = pacxx::stage(chunks0);
        const auto at = access_along(src, ai);
        auto out = out_view;
        using DO = ranges::range_difference_t<decltype(out)>;
        const pacxx::index3 t = pacxx::Thread::get().local;
        const std::size_t tile = pacxx::Block::get().index.x, c = pacxx::Block::get().index.y;
        const std::size_t o = tile * BX + t.x;
        const std::size_t first = c * chunk, last = first + chunk < len ? first + chunk : len;
        maybe<T> m{T(), 0u};
        if (o < outputs)
          m = fold_strided<T>([&](std::size_t i, std::size_t oo) { return at(first + i, oo); }, o,
                              t.y, last - first, BY, op);
        // Fold the block's rows for each column, in row order.
        pacxx::shared_memory<maybe<T>, BY *(BX + 1)> rows;
        pacxx::shared_memory<unsigned, 1> last_block;
        rows[t.y * (BX + 1) + t.x] = m;
        pacxx::barrier();
        if (t.y == 0) {
          for (std::size_t k = 1; k < BY; ++k)
            m = maybe_op<Op>{op}(m, rows[k * (BX + 1) + t.x]);
          if (o < outputs) {
            if (chunks == 1)
              *(ranges::begin(out) + static_cast<DO>(o)) = m.have ? op(init, m.value) : init;
            else
              partials[c * outputs + o] = m;
          }
        }
        if (chunks > 1) {
          // The last block of this tile to finish folds every chunk's partials in order.
          pacxx::barrier(); // every partial of the block written before its ticket
          if (t.x == 0 && t.y == 0) {
            pacxx::thread_fence(); // the partials before the ticket
            const unsigned ticket = pacxx::atomic_add(tickets + tile, 1u);
            last_block[0] = ticket == static_cast<unsigned>(chunks - 2) ? 1u : 0u;
          }
          pacxx::barrier();
          if (last_block[0] && t.y == 0) {
            pacxx::thread_fence(); // the other blocks' partials after the ticket
            if (o < outputs) {
              maybe<T> r{T(), 0u};
              for (std::size_t k = 0; k < chunks; ++k)
                r = maybe_op<Op>{op}(r, partials[k * outputs + o]);
              *(ranges::begin(out) + static_cast<DO>(o)) = r.have ? op(init, r.value) : init;
            }
            if (t.x == 0)
              tickets[tile] = ~0u; // all ones again for the next call
          }
        }
      },
      pacxx::launch_config{{tiles, chunks}, {BX, BY}})(src, ai, out, outputs, len, chunk, chunks,
                                                       partials, tickets);
}

template <class In, class Out, class T, class Op>
void reduce_axis_of(const char *what, In &&in, unsigned axis, Out &&out, T init, Op op) {
  static_assert(pacxx::is_device_copyable<Op>::value,
                "gpu::reduce_rows/reduce_columns/reduce_axis: the operation must be trivially "
                "copyable (capture values and device pointers only)");
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  using S = decltype(src);
  static_assert(pacxx::detail::is_shaped<S>::value,
                "gpu::reduce_rows/reduce_columns/reduce_axis: the input has a shape: an md "
                "view (gpu::md(v, w, h[, d])), indices or a stencil");
  if (axis >= S::rank)
    throw pacxx::error(std::string(what) + ": axis " + std::to_string(axis) +
                       " of a view of rank " + std::to_string(S::rank));
  const pacxx::detail::extents3 e = pacxx::detail::extents_of(src);
  const std::size_t len = axis == 0 ? e.w : axis == 1 ? e.h : e.d;
  // One result for each place on the other axes (also where the folded axis is empty).
  const std::size_t outputs = axis == 0 ? e.h * e.d : axis == 1 ? e.w * e.d : e.w * e.h;
  const std::size_t m = pacxx::detail::device_size_alongside(dst, outputs);
  if (m < outputs)
    throw pacxx::error(std::string(what) + ": the output has " + std::to_string(m) +
                       " elements, there are " + std::to_string(outputs) + " results");
  if (outputs == 0)
    return;
  if (len == 0) { // every fold is empty: init
    gpu::fill(dst, init);
    return;
  }
  using P = pacxx::policy::reduce_axis;
  const axis_info ai{e.w, e.h, e.d, axis};
  const bool along = (axis == 0) == x_contiguous<S>::value;
  if (along)
    reduce_along<P>(src, ai, dst, outputs, len, init, op);
  else if (outputs >= P::wide_min_outputs)
    reduce_across<pacxx::policy::reduce_axis_wide<P>>(src, ai, dst, outputs, len, init, op);
  else
    reduce_across<P>(src, ai, dst, outputs, len, init, op);
}

#undef PACXX_STAGED_AXIS

} // namespace detail

// Folds the shaped range in (an md view, indices, a stencil) along axis 0 (x), 1 (y) or 2
// (z): one result init op ... for each place on the other axes, written to out in row-major
// order (x fastest). One kernel, deterministic; op associative and commutative. An axis not
// below the view's rank, or an output with fewer elements than results, is a pacxx::error.
template <class In, class Out, class T, class Op = std::plus<>>
void reduce_axis(In &&in, unsigned axis, Out &&out, T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::reduce_axis", in);
  detail::reduce_axis_of("gpu::reduce_axis", std::forward<In>(in), axis, std::forward<Out>(out),
                         init, op);
}
// gpu::reduce_axis along axis 0: out[y + h * z] = init op a(0, y, z) op ... op a(w - 1, y,
// z).
template <class In, class Out, class T, class Op = std::plus<>>
void reduce_rows(In &&in, Out &&out, T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::reduce_rows", in);
  detail::reduce_axis_of("gpu::reduce_rows", std::forward<In>(in), 0u, std::forward<Out>(out), init,
                         op);
}
// gpu::reduce_axis along axis 1: out[x + w * z] = init op a(x, 0, z) op ... op a(x, h - 1,
// z).
template <class In, class Out, class T, class Op = std::plus<>>
void reduce_columns(In &&in, Out &&out, T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::reduce_columns", in);
  detail::reduce_axis_of("gpu::reduce_columns", std::forward<In>(in), 1u, std::forward<Out>(out),
                         init, op);
}

} // namespace gpu

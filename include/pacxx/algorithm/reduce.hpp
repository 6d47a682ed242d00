// gpu::reduce(rng, init[, op]) and rng | gpu::reduce(init[, op]): folds a device range
// with an associative, commutative op. One kernel over the fused views writes one
// partial per block (each thread folds `items` loads per tile, then pacxx::block_reduce:
// warp shuffles on CUDA; pacxx/agent/reduce.hpp); the host folds the partials and init.
// On CUDA the kernel writes the partials straight into pinned host memory, so the host
// waits for the kernel and reads them, with no copy after it (detail/readback.hpp).
// Folding them on the device instead (the last block to finish, found with a fence and
// an atomic counter, so the host reads one value) was slower at almost every size on
// the H100: the sum by 1.3-2 us a call, min_element by 2.5-5.5
// (benchmarks/results/2026-11-26-h100-min-element-u64-sort).
//
// detail::reduce_blocks is the dispatch that transform_reduce, inner_product, count_if
// and the index-carrying reductions (min_element, ...) share: element i enters the fold
// as T(transform(rng[i], i)).
#pragma once
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/range/access.hpp>
#include <range/v3/range/concepts.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/agent/reduce.hpp"
#include "pacxx/algorithm/detail/readback.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/block/block_reduce.hpp"
#include "pacxx/detail/blocked.hpp"
#include "pacxx/detail/filtered.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/stage.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/tune.hpp"

namespace gpu {

namespace detail {

// rng[i] itself (gpu::reduce's transform).
struct element {
  template <class X> X &&operator()(X &&x, std::size_t) const { return std::forward<X>(x); }
};

// One partial per block of the fold of T(transform(in[i], i)) over [0, n) (the kernel).
template <class P, class T, class V, class Transform, class Fold, class Op>
void block_partials(const V &in, std::size_t n, T *partials, Transform transform, Fold fold, Op op,
                    pacxx::launch_config cfg) {
  pacxx::kernel(
      [transform, fold, op](const auto &view, std::size_t n, T *partials) {
        auto v = view;
        auto first = ranges::begin(v);
        using D = ranges::range_difference_t<decltype(v)>;
        auto load = [&](std::size_t i) -> T {
          return T(transform(*(first + static_cast<D>(i)), i));
        };
        // Staged (Listing 9 of the paper): the host computes the number of full rounds
        // of tiles before the launch and the JIT sees a constant trip count.
        const std::size_t rounds =
            pacxx::stage(n / (P::block * P::items * pacxx::Grid::get().size.x));
        const T sum = pacxx::agent::reduce_tiles<P, T, pacxx::detail::prefers_blocked<V>::value>(
            load, fold, op, n, rounds);
        if (pacxx::Thread::get().local.x == 0)
          store_result(partials + pacxx::Block::get().index.x, sum);
      },
      cfg)(in, n, partials);
}

// The grid of the partials' kernel over n > 0 elements: at most one block per tile
// (then every block has values), at most max_blocks.
template <class P = pacxx::policy::reduce> pacxx::launch_config partials_grid(std::size_t n) {
  return pacxx::detail::grid_for(pacxx::detail::ceil_div(n, P::items), P::block, P::max_blocks);
}

// The block partials of the fold of T(transform(in[i], i)) in device memory (the
// asynchronous reductions copy them to pinned memory or fold them on the device). in
// is a device view with n > 0 elements.
template <class T> struct partials_on_device {
  T *data;
  std::size_t blocks;
};

// Launches the kernel of block partials into scratch memory (does not wait).
template <class T, class V, class Transform, class Fold, class Op>
partials_on_device<T> launch_partials(const V &in, std::size_t n, Transform transform, Fold fold,
                                      Op op) {
  const pacxx::launch_config cfg = partials_grid(n);
  const std::size_t blocks = cfg.grid.x;
  T *partials = static_cast<T *>(pacxx::detail::scratch(blocks * sizeof(T)));
  block_partials<pacxx::policy::reduce, T>(in, n, partials, transform, fold, op, cfg);
  return {partials, blocks};
}

// The block partials of the fold, on the host (one kernel; waits for it).
template <class T, class P = pacxx::policy::reduce, class V, class Transform, class Fold, class Op>
readback<T> reduce_blocks(const V &in, std::size_t n, Transform transform, Fold fold, Op op) {
  const pacxx::launch_config cfg = partials_grid<P>(n);
  const readback_memory<T> m(cfg.grid.x, pacxx::detail::scratch(cfg.grid.x * sizeof(T)));
  block_partials<P, T>(in, n, m.kernel, transform, fold, op, cfg);
  return readback<T>(m);
}

// init op (the fold of T(transform(x)) over rng), the partials folded on the host.
template <class T, class Rng, class Op, class Transform>
T transform_reduce(Rng &&rng, T init, Op op, Transform transform) {
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(in);
  if (n == 0)
    return init;
  // Tuned (pacxx/tune.hpp): the policy of the size class, built-in unless stored or explored.
  // Each run only reads the input, so the run is also the trial.
  return op(
      init,
      pacxx::tune::run<pacxx::policy::tuning::reduce>(
          "gpu::reduce/" + std::to_string(sizeof(T)), pacxx::tune::size_class(n), [&](auto policy) {
            return fold_partials(reduce_blocks<T, decltype(policy)>(in, n, transform, op, op), op);
          }));
}

// A fold of the elements that a thread has seen so far: `have` is 0 while there are
// none (a filtered range gives a thread any number of them, and op has no identity).
template <class T> struct maybe {
  T value;
  unsigned have;
};
template <class Op> struct maybe_op {
  Op op;
  template <class T> maybe<T> operator()(const maybe<T> &a, const maybe<T> &b) const {
    if (!a.have)
      return b;
    if (!b.have)
      return a;
    return {op(a.value, b.value), 1u};
  }
};

// gpu::reduce over a filtered pipeline (pacxx/detail/filtered.hpp): one kernel over
// the indices of its base; each thread folds the elements that survive the filters,
// then the block folds the threads' (maybe empty) folds.
template <class T, class V, class Op> T reduce_filtered(V &in, T init, Op op) {
  using P = pacxx::policy::reduce;
  const std::size_t n = pacxx::detail::device_size(pacxx::detail::filter_access<V>::base(in));
  if (n == 0)
    return init;
  const pacxx::launch_config cfg = partials_grid(n);
  const readback_memory<maybe<T>> m(cfg.grid.x,
                                    pacxx::detail::scratch(cfg.grid.x * sizeof(maybe<T>)));
  pacxx::kernel(
      [op](const auto &view, std::size_t n, maybe<T> *partials) {
        auto v = view;
        const auto src = pacxx::detail::make_source(v);
        maybe<T> acc{T(), 0u};
        pacxx::detail::for_each_index<P>(n, [&](std::size_t i) {
          if (src.keep(i)) {
            T x = src.get(i);
            acc.value = acc.have ? op(acc.value, x) : x;
            acc.have = 1u;
          }
        });
        pacxx::block_reduce<maybe<T>, P::block> r;
        acc = r.reduce(acc, maybe_op<Op>{op});
        if (pacxx::Thread::get().local.x == 0)
          store_result(partials + pacxx::Block::get().index.x, acc);
      },
      cfg)(in, n, m.kernel);
  const maybe<T> r = fold_partials(readback<maybe<T>>(m), maybe_op<Op>{op});
  return r.have ? op(init, r.value) : init;
}

template <class T, class Rng, class Op> T reduce_any(Rng &&rng, T init, Op op, std::true_type) {
  static_assert(pacxx::is_device_copyable<typename std::decay<Rng>::type>::value,
                "gpu::reduce: a filtered pipeline on a device must be made of device-copyable "
                "parts (views over gpu::vectors or generators, trivially copyable functions)");
  auto in = ranges::views::all(std::forward<Rng>(rng));
  return reduce_filtered(in, init, op);
}
template <class T, class Rng, class Op> T reduce_any(Rng &&rng, T init, Op op, std::false_type);

} // namespace detail

// init op the fold of rng's elements with op (std::plus<> by default), which must be
// associative and commutative; the accumulator has init's type. One kernel over the fused
// views (a filtered pipeline folds only the elements that pass), the block partials folded
// on the host. op and T must be trivially copyable.
template <class Rng, class T, class Op = std::plus<>,
          class = typename std::enable_if<ranges::range<Rng>>::type>
T reduce(Rng &&rng, T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::reduce", rng);
  static_assert(pacxx::is_device_copyable<Op>::value,
                "gpu::reduce: the operation must be trivially copyable (capture values only)");
  static_assert(pacxx::is_device_copyable<T>::value, "gpu::reduce: T must be device copyable");
  return detail::reduce_any(std::forward<Rng>(rng), init, op,
                            pacxx::detail::is_filtered<typename std::decay<Rng>::type>{});
}

template <class T, class Rng, class Op>
T detail::reduce_any(Rng &&rng, T init, Op op, std::false_type) {
  return detail::transform_reduce(std::forward<Rng>(rng), init, op, detail::element{});
}

namespace detail {
template <class T, class Op> struct reduce_closure {
  T init;
  Op op;
  template <class Rng> friend T operator|(Rng &&rng, reduce_closure r) {
    return gpu::reduce(std::forward<Rng>(rng), r.init, r.op);
  }
};

} // namespace detail

// rng | gpu::reduce(init[, op])
template <class T, class Op = std::plus<>, class = typename std::enable_if<!ranges::range<T>>::type>
detail::reduce_closure<T, Op> reduce(T init, Op op = Op{}) {
  return {init, op};
}

} // namespace gpu

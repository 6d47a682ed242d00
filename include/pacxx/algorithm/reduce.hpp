// gpu::reduce(rng, init[, op]) and rng | gpu::reduce(init[, op]): folds a device range
// with an associative, commutative op. One kernel over the fused views writes one
// partial per block (each thread folds `items` loads per tile, then a tree in shared
// memory); the host folds the partials and init.
#pragma once
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/range/access.hpp>
#include <range/v3/range/concepts.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/block/block_reduce.hpp"
#include "pacxx/detail/filtered.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/stage.hpp"

namespace gpu {

namespace detail {

template <class Op, class T> inline T fold_values(Op &, T a) { return a; }
template <class Op, class T, class... R> inline T fold_values(Op &op, T a, T b, R... rest) {
  return fold_values(op, op(a, b), rest...);
}
// sum op load(first + K * stride)...: every load is an argument of the fold, so all of a
// thread's loads of a tile are in flight before the first op waits for one.
template <class Load, class Op, class T, std::size_t... K>
inline T fold_loads(Load &load, Op &op, T sum, std::size_t first, std::size_t stride,
                    std::index_sequence<K...>) {
  return fold_values(op, sum, load(first + K * stride)...);
}

template <class P, class T, class V, class Op>
void block_partials(const V &in, std::size_t n, T *partials, Op op, pacxx::launch_config cfg) {
  pacxx::kernel(
      [op](const auto &view, std::size_t n, T *partials) {
        constexpr std::size_t B = P::block, tile = P::block * P::items;
        auto v = view;
        auto first = ranges::begin(v);
        using D = ranges::range_difference_t<decltype(v)>;
        auto load = [&](std::size_t i) -> T { return *(first + static_cast<D>(i)); };
        pacxx::shared_memory<T, B> acc;
        const std::size_t l = pacxx::Thread::get().local.x, b = pacxx::Block::get().index.x;
        const std::size_t blocks = pacxx::Grid::get().size.x, tiles = n / tile;
        // Block b takes the full tiles b, b + blocks, ...: `rounds` of them at least, one
        // more if b < tiles % blocks; the block after the last full tile's takes the
        // partial tile. `rounds` is staged (Listing 9 of the paper): the host computes it
        // before the launch and the JIT sees a constant trip count.
        const std::size_t rounds = pacxx::stage(n / (tile * blocks));
        const bool full = b < tiles;
        // A thread's first element starts its sum (op has no identity); a thread with no
        // element loads element 0 and never publishes it.
        const std::size_t start = (full ? b : tiles) * tile + l;
        const bool have = full || start < n;
        T sum = load(have ? start : 0);
        std::size_t t = b;
        if (full) {
          sum = fold_loads(load, op, sum, start + B, B, std::make_index_sequence<P::items - 1>{});
          t += blocks;
          for (std::size_t r = 1; r < rounds; ++r, t += blocks)
            sum = fold_loads(load, op, sum, t * tile + l, B, std::make_index_sequence<P::items>{});
          if (t < tiles) {
            sum = fold_loads(load, op, sum, t * tile + l, B, std::make_index_sequence<P::items>{});
            t += blocks;
          }
        }
        if (t == tiles) { // the partial tile at the end, bounds checked
          for (std::size_t k = full ? 0 : 1; k < P::items; ++k) {
            const std::size_t i = t * tile + k * B + l;
            if (i < n)
              sum = op(sum, load(i));
          }
        }
        // The grid never exceeds the tiles, so every block has values, and the threads
        // that have one are a prefix of m: all of a block with a full tile, else those
        // below the partial tile's length.
        const std::size_t rest = n - tiles * tile;
        const std::size_t m = b < tiles ? B : (rest < B ? rest : B);
        if (have)
          acc[l] = sum;
        pacxx::barrier();
        for (std::size_t s = B / 2; s > 0; s /= 2) {
          if (l < s && l + s < m)
            acc[l] = op(acc[l], acc[l + s]);
          pacxx::barrier();
        }
        if (l == 0)
          partials[b] = acc[0];
      },
      cfg)(in, n, partials);
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
  pacxx::launch_config cfg =
      pacxx::detail::grid_for(pacxx::detail::ceil_div(n, P::items), P::block, P::max_blocks);
  const std::size_t blocks = cfg.grid.x;
  maybe<T> *partials = static_cast<maybe<T> *>(pacxx::detail::scratch(blocks * sizeof(maybe<T>)));
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
          partials[pacxx::Block::get().index.x] = acc;
      },
      cfg)(in, n, partials);
  std::vector<maybe<T>> host(blocks);
  pacxx::detail::copy_to_host(host.data(), partials, blocks * sizeof(maybe<T>));
  T result = init;
  for (const maybe<T> &p : host)
    if (p.have)
      result = op(result, p.value);
  return result;
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

template <class Rng, class T, class Op = std::plus<>,
          class = typename std::enable_if<ranges::range<Rng>>::type>
T reduce(Rng &&rng, T init, Op op = Op{}) {
  static_assert(pacxx::is_device_copyable<Op>::value,
                "gpu::reduce: the operation must be trivially copyable (capture values only)");
  static_assert(pacxx::is_device_copyable<T>::value, "gpu::reduce: T must be device copyable");
  return detail::reduce_any(std::forward<Rng>(rng), init, op,
                            pacxx::detail::is_filtered<typename std::decay<Rng>::type>{});
}

template <class T, class Rng, class Op>
T detail::reduce_any(Rng &&rng, T init, Op op, std::false_type) {
  using P = pacxx::policy::reduce;
  static_assert((P::block & (P::block - 1)) == 0, "reduce block size must be a power of two");
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(in);
  if (n == 0)
    return init;
  // At most one block per tile (then every block has values), at most max_blocks.
  pacxx::launch_config cfg =
      pacxx::detail::grid_for(pacxx::detail::ceil_div(n, P::items), P::block, P::max_blocks);
  const std::size_t blocks = cfg.grid.x;
  T *partials = static_cast<T *>(pacxx::detail::scratch(blocks * sizeof(T)));
  detail::block_partials<P, T>(in, n, partials, op, cfg);
  std::vector<T> host(blocks);
  pacxx::detail::copy_to_host(host.data(), partials, blocks * sizeof(T));
  T result = init;
  for (const T &p : host)
    result = op(result, p);
  return result;
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

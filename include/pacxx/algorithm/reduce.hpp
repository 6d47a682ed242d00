// gpu::reduce(rng, init[, op]) and rng | gpu::reduce(init[, op]): folds a device range
// with an associative, commutative op. One kernel over the fused views writes one
// partial per block (tree in shared memory); the host folds the partials and init.
#pragma once
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/range/access.hpp>
#include <range/v3/range/concepts.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/stage.hpp"

namespace gpu {

namespace detail {

template <class P, class T, class V, class Op>
void block_partials(const V &in, std::size_t n, T *partials, Op op, pacxx::launch_config cfg) {
  pacxx::kernel(
      [op](const auto &view, std::size_t n, T *partials) {
        constexpr std::size_t B = P::block;
        auto v = view;
        auto first = ranges::begin(v);
        using D = ranges::range_difference_t<decltype(v)>;
        pacxx::shared_memory<T, B> acc;
        const std::size_t l = pacxx::Thread::get().local.x, b = pacxx::Block::get().index.x;
        auto g = pacxx::detail::grid_stride::get();
        // Every block has work (the grid never exceeds the elements); thread l of block b
        // has some iff b * B + l < n, so the threads with values are a prefix of m.
        // Elements per thread, staged (Listing 9 of the paper): the host computes it
        // before the launch and the JIT unrolls this loop with it as a constant.
        const std::size_t ept = pacxx::stage((n + g.stride - 1) / g.stride);
        if (g.first < n) {
          T sum = *(first + static_cast<D>(g.first));
          for (std::size_t k = 1; k < ept; ++k) {
            const std::size_t i = g.first + k * g.stride;
            if (i < n)
              sum = op(sum, *(first + static_cast<D>(i)));
          }
          acc[l] = sum;
        }
        const std::size_t m = n - b * B < B ? n - b * B : B;
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

} // namespace detail

template <class Rng, class T, class Op = std::plus<>,
          class = typename std::enable_if<ranges::range<Rng>>::type>
T reduce(Rng &&rng, T init, Op op = Op{}) {
  static_assert(pacxx::is_device_copyable<Op>::value,
                "gpu::reduce: the operation must be trivially copyable (capture values only)");
  static_assert(pacxx::is_device_copyable<T>::value, "gpu::reduce: T must be device copyable");
  using P = pacxx::policy::reduce;
  static_assert((P::block & (P::block - 1)) == 0, "reduce block size must be a power of two");
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(in);
  if (n == 0)
    return init;
  pacxx::launch_config cfg = pacxx::detail::grid_for(n, P::block, P::max_blocks);
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
template <class T, class Op = std::plus<>,
          class = typename std::enable_if<!ranges::range<T>>::type>
detail::reduce_closure<T, Op> reduce(T init, Op op = Op{}) {
  return {init, op};
}

} // namespace gpu

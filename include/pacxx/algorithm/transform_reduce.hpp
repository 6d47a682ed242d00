// gpu::transform_reduce(rng, init, reduce_op, transform_op): init reduce_op the fold of
// transform_op(x) over rng, as std's (reduce_op associative and commutative; the
// accumulator is init's type). One kernel over the fused views (gpu::reduce's, with
// transform_op applied to each load), the block partials folded on the host. Pipe
// form: rng | gpu::transform_reduce(init, reduce_op, transform_op).
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

#include <range/v3/range/concepts.hpp>

#include "pacxx/algorithm/detail/functional.hpp"
#include "pacxx/algorithm/reduce.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

namespace detail {
// f(x) as a transform of reduce_blocks (which passes the index too).
template <class F> struct ignore_index {
  F f;
  template <class X> auto operator()(X &&x, std::size_t) const -> decltype(f(std::forward<X>(x))) {
    return f(std::forward<X>(x));
  }
};
} // namespace detail

// init reduce_op the fold of transform_op(x) over rng (std::transform_reduce); reduce_op
// associative and commutative, the accumulator init's type. One kernel with transform_op
// applied to each load, the block partials folded on the host. Both operations must be
// trivially copyable.
template <class Rng, class T, class ReduceOp, class TransformOp,
          class = typename std::enable_if<ranges::range<Rng>>::type>
T transform_reduce(Rng &&rng, T init, ReduceOp reduce_op, TransformOp transform_op) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::transform_reduce", rng);
  static_assert(pacxx::is_device_copyable<ReduceOp>::value,
                "gpu::transform_reduce: the reduce operation must be trivially copyable "
                "(capture values only)");
  static_assert(pacxx::is_device_copyable<TransformOp>::value,
                "gpu::transform_reduce: the transform operation must be trivially copyable "
                "(capture values only)");
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu::transform_reduce: T must be device copyable");
  return detail::transform_reduce(std::forward<Rng>(rng), init, reduce_op,
                                  detail::ignore_index<TransformOp>{transform_op});
}

// rng | gpu::transform_reduce(init, reduce_op, transform_op)
template <class T, class ReduceOp, class TransformOp,
          class = typename std::enable_if<!ranges::range<T>>::type>
auto transform_reduce(T init, ReduceOp reduce_op, TransformOp transform_op) {
  return detail::make_pipe([init, reduce_op, transform_op](auto &&rng) {
    return gpu::transform_reduce(std::forward<decltype(rng)>(rng), init, reduce_op, transform_op);
  });
}

} // namespace gpu

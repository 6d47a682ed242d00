// gpu::count(rng, value) and gpu::count_if(rng, pred): the number of elements equal to
// value (for which pred holds), as a std::size_t. One kernel over the fused views
// (gpu::reduce's, each load counting 0 or 1), the block partials summed on the host.
// Pipe forms: rng | gpu::count(value), rng | gpu::count_if(pred). Filtered pipelines
// (view::filter / remove_if) are counted too.
#pragma once
#include <cstddef>
#include <functional>
#include <limits>
#include <type_traits>
#include <utility>

#include <range/v3/range/concepts.hpp>
#include <range/v3/view/transform.hpp>

#include "pacxx/algorithm/detail/functional.hpp"
#include "pacxx/algorithm/reduce.hpp"
#include "pacxx/detail/filtered.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

namespace detail {
template <class Pred, class Count = std::size_t> struct count_one {
  Pred pred;
  template <class X> Count operator()(X &&x, std::size_t) const {
    return pred(std::forward<X>(x)) ? 1 : 0;
  }
};
template <class Pred> struct count_value {
  Pred pred;
  template <class X> std::size_t operator()(X &&x) const {
    return pred(std::forward<X>(x)) ? 1 : 0;
  }
};
// Counted in 32 bits where the range has fewer than 2^32 elements, so no count can
// overflow: half the registers and shuffles of 64-bit counts, and 4-byte partials.
// Measured on the H100 (2026-11-26, benchmarks/results/2026-11-26-h100-small-reductions,
// ncu, 2^20 / 2^22 / 2^23 floats): 64-bit counts 4.02 / 5.81 / 8.19 us, 32-bit 3.84 /
// 5.58 / 8.02 (the float sum: 3.65 / 5.38 / 7.81).
template <class Count, class In, class Pred>
std::size_t count_in(const In &in, std::size_t n, Pred pred) {
  return fold_partials(
      reduce_blocks<Count>(in, n, count_one<Pred, Count>{pred}, std::plus<>{}, std::plus<>{}),
      std::plus<>{});
}
template <class Rng, class Pred>
std::size_t count_where(Rng &&rng, Pred pred, std::false_type /*filtered*/) {
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(in);
  if (n == 0)
    return 0;
  return n <= std::numeric_limits<unsigned>::max() ? count_in<unsigned>(in, n, pred)
                                                   : count_in<std::size_t>(in, n, pred);
}
// A filtered pipeline (view::filter, remove_if) is not random access: it is counted by
// gpu::reduce, which evaluates filters per index (detail/filtered.hpp), still one kernel.
template <class Rng, class Pred>
std::size_t count_where(Rng &&rng, Pred pred, std::true_type /*filtered*/) {
  return gpu::reduce(std::forward<Rng>(rng) | ranges::views::transform(count_value<Pred>{pred}),
                     std::size_t(0));
}
template <class Rng, class Pred> std::size_t count_where(Rng &&rng, Pred pred) {
  return count_where(std::forward<Rng>(rng), pred,
                     pacxx::detail::is_filtered<typename std::decay<Rng>::type>{});
}
} // namespace detail

// The number of elements of rng for which pred holds (std::count_if). One kernel over the
// fused views, the block partials summed on the host; pred must be trivially copyable.
template <class Rng, class Pred, class = typename std::enable_if<ranges::range<Rng>>::type>
std::size_t count_if(Rng &&rng, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::count_if", rng);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::count_if: the predicate must be trivially copyable (capture values only)");
  return detail::count_where(std::forward<Rng>(rng), pred);
}

// The number of elements of rng equal to value (std::count). One kernel, as count_if; value
// must be trivially copyable.
template <class Rng, class T, class = typename std::enable_if<ranges::range<Rng>>::type>
std::size_t count(Rng &&rng, const T &value) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::count", rng);
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu::count: the value must be device copyable (trivially copyable)");
  return detail::count_where(std::forward<Rng>(rng), detail::equal_to_value<T>{value});
}

// rng | gpu::count_if(pred)
template <class Pred, class = typename std::enable_if<!ranges::range<Pred>>::type>
auto count_if(Pred pred) {
  return detail::make_pipe(
      [pred](auto &&rng) { return gpu::count_if(std::forward<decltype(rng)>(rng), pred); });
}

// rng | gpu::count(value)
template <class T, class = typename std::enable_if<!ranges::range<T>>::type>
auto count(const T &value) {
  return detail::make_pipe(
      [value](auto &&rng) { return gpu::count(std::forward<decltype(rng)>(rng), value); });
}

} // namespace gpu

// gpu::any_of, gpu::all_of, gpu::none_of(rng, pred): as std's (an empty range: false,
// true, true). Each is one first-match search (pacxx/agent/find.hpp) that stops as soon
// as the answer is known: at the first element where pred holds (any_of, none_of) or
// fails (all_of). Pipe forms: rng | gpu::any_of(pred), ...
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

#include <range/v3/range/concepts.hpp>

#include "pacxx/algorithm/detail/find_first.hpp"
#include "pacxx/algorithm/detail/functional.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

namespace detail {
// Whether test holds somewhere in rng.
template <class Rng, class Test> bool holds_somewhere(Rng &&rng, Test test) {
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(in);
  return n != 0 && find_first(in, n, test) != n;
}
} // namespace detail

// Whether pred holds for some element of rng (false for an empty range). One launch that
// stops at the first element where pred holds; pred must be trivially copyable.
template <class Rng, class Pred, class = typename std::enable_if<ranges::range<Rng>>::type>
bool any_of(Rng &&rng, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::any_of", rng);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::any_of: the predicate must be trivially copyable (capture values only)");
  return detail::holds_somewhere(std::forward<Rng>(rng), pred);
}

// Whether pred holds for every element of rng (true for an empty range). One launch that
// stops at the first element where pred fails.
template <class Rng, class Pred, class = typename std::enable_if<ranges::range<Rng>>::type>
bool all_of(Rng &&rng, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::all_of", rng);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::all_of: the predicate must be trivially copyable (capture values only)");
  return !detail::holds_somewhere(std::forward<Rng>(rng), detail::negate<Pred>{pred});
}

// Whether pred holds for no element of rng (true for an empty range). One launch that stops
// at the first element where pred holds.
template <class Rng, class Pred, class = typename std::enable_if<ranges::range<Rng>>::type>
bool none_of(Rng &&rng, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::none_of", rng);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::none_of: the predicate must be trivially copyable (capture values only)");
  return !detail::holds_somewhere(std::forward<Rng>(rng), pred);
}

// rng | gpu::any_of(pred), rng | gpu::all_of(pred), rng | gpu::none_of(pred)
template <class Pred, class = typename std::enable_if<!ranges::range<Pred>>::type>
auto any_of(Pred pred) {
  return detail::make_pipe(
      [pred](auto &&rng) { return gpu::any_of(std::forward<decltype(rng)>(rng), pred); });
}
// The pipe form rng | gpu::all_of(pred).
template <class Pred, class = typename std::enable_if<!ranges::range<Pred>>::type>
auto all_of(Pred pred) {
  return detail::make_pipe(
      [pred](auto &&rng) { return gpu::all_of(std::forward<decltype(rng)>(rng), pred); });
}
// The pipe form rng | gpu::none_of(pred).
template <class Pred, class = typename std::enable_if<!ranges::range<Pred>>::type>
auto none_of(Pred pred) {
  return detail::make_pipe(
      [pred](auto &&rng) { return gpu::none_of(std::forward<decltype(rng)>(rng), pred); });
}

} // namespace gpu

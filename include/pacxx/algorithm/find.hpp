// gpu::find(rng, value) and gpu::find_if(rng, pred): the index of the first element equal
// to value (for which pred holds), or the range's size if none. One kernel over the
// fused views that stops early: blocks skip the tiles past a match any block has found
// (pacxx/agent/find.hpp). Pipe forms: rng | gpu::find(value), rng | gpu::find_if(pred).
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

#include <range/v3/range/concepts.hpp>

#include "pacxx/algorithm/detail/find_first.hpp"
#include "pacxx/algorithm/detail/functional.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

// The index of the first element of rng for which pred holds, or size(rng) if none
// (std::find_if with indices). One launch that stops early; pred must be trivially
// copyable.
template <class Rng, class Pred, class = typename std::enable_if<ranges::range<Rng>>::type>
std::size_t find_if(Rng &&rng, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::find_if", rng);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::find_if: the predicate must be trivially copyable (capture values only)");
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  return detail::find_first(in, pacxx::detail::device_size(in), pred);
}

// The index of the first element of rng equal to value, or size(rng) if none (std::find
// with indices). One launch that stops early.
template <class Rng, class T, class = typename std::enable_if<ranges::range<Rng>>::type>
std::size_t find(Rng &&rng, const T &value) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::find", rng);
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu::find: the value must be device copyable (trivially copyable)");
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  return detail::find_first(in, pacxx::detail::device_size(in), detail::equal_to_value<T>{value});
}

// rng | gpu::find_if(pred)
template <class Pred, class = typename std::enable_if<!ranges::range<Pred>>::type>
auto find_if(Pred pred) {
  return detail::make_pipe(
      [pred](auto &&rng) { return gpu::find_if(std::forward<decltype(rng)>(rng), pred); });
}

// rng | gpu::find(value)
template <class T, class = typename std::enable_if<!ranges::range<T>>::type>
auto find(const T &value) {
  return detail::make_pipe(
      [value](auto &&rng) { return gpu::find(std::forward<decltype(rng)>(rng), value); });
}

} // namespace gpu

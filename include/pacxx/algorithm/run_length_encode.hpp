// gpu::run_length_encode(in, out_unique, out_counts): for every run r of consecutive
// equal elements of in, its element to out_unique[r] and its length to out_counts[r];
// returns the number of runs (CUB's DeviceRunLengthEncode::Encode, Thrust's
// reduce_by_key with a constant_iterator). It is gpu::reduce_by_key over in with the
// constant 1 as values (view::repeat, in out_counts' value type): one pass and the tiny
// tile clear; outputs with fewer elements than runs are a pacxx::error that leaves them
// unchanged (reduce_by_key counts the runs first where an output is smaller than in).
// in: any device range (views fused); the outputs gpu::vectors or writable views.
#pragma once
#include <cstddef>
#include <functional>
#include <utility>

#include <range/v3/range/traits.hpp>
#include <range/v3/view/repeat.hpp>

#include "pacxx/algorithm/reduce_by_key.hpp"
#include "pacxx/device_range.hpp"

namespace gpu {

template <class In, class OU, class OC, class Eq = std::equal_to<>>
std::size_t run_length_encode(In &&in, OU &&out_unique, OC &&out_counts, Eq eq = Eq{}) {
  auto counts = pacxx::detail::device_view(std::forward<OC>(out_counts));
  using C = ranges::range_value_t<decltype(counts)>;
  return gpu::reduce_by_key(std::forward<In>(in), ranges::views::repeat(C(1)),
                            std::forward<OU>(out_unique), std::move(counts), eq, std::plus<>{});
}

} // namespace gpu

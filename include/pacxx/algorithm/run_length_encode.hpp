// gpu::run_length_encode(in, out_unique, out_counts): for every run r of consecutive
// equal elements of in, its element to out_unique[r] and its length to out_counts[r];
// returns the number of runs (CUB's DeviceRunLengthEncode::Encode, Thrust's
// reduce_by_key with a constant_iterator). It is gpu::reduce_by_key over in with the
// constant 1 as values (view::repeat, in out_counts' value type): one pass and the tiny
// tile clear; outputs with fewer elements than runs are a pacxx::error that leaves them
// unchanged (reduce_by_key counts the runs first where an output is smaller than in).
//
// gpu::run_length_encode_non_trivial(in, out_offsets, out_lengths[, eq]): the offset and
// length of every run longer than one, in order (CUB's DeviceRunLengthEncode::
// NonTrivialRuns); returns how many. Two compactions: the run heads' indices into pooled
// scratch, then the runs whose next head is more than one further on, each with the
// tiny tile clear (or a count first where an output is smaller than the runs). Four
// launches; CUB's is one pass. At most 2^32 - 1 elements (32-bit indices).
// in: any device range (views fused); the outputs gpu::vectors or writable views.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>
#include <range/v3/view/iota.hpp>
#include <range/v3/view/repeat.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include "pacxx/algorithm/detail/flagged_select.hpp"
#include "pacxx/algorithm/reduce_by_key.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/transform_output.hpp"
#include "pacxx/vector.hpp"

namespace gpu {

// For every run r of consecutive elements of in equal under eq, its first element to
// out_unique[r] and its length to out_counts[r]; returns the number of runs. One pass plus
// the tile clear (and a counting launch where an output is smaller than in); outputs with
// fewer elements than runs are a pacxx::error that leaves them unchanged.
template <class In, class OU, class OC, class Eq = std::equal_to<>>
std::size_t run_length_encode(In &&in, OU &&out_unique, OC &&out_counts, Eq eq = Eq{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::run_length_encode", in);
  auto counts = pacxx::detail::device_view(std::forward<OC>(out_counts));
  using C = ranges::range_value_t<decltype(counts)>;
  return detail::reduce_by_key_as("gpu::run_length_encode", std::forward<In>(in),
                                  ranges::views::repeat(C(1)), std::forward<OU>(out_unique),
                                  std::move(counts), eq, std::plus<>{});
}

namespace detail {
// i -> {i, whether element i of keys starts a run}.
template <class K, class Eq> struct run_head {
  mutable K keys;
  Eq eq;
  flagged_element<std::uint32_t> operator()(std::uint32_t i) const {
    auto k = ranges::begin(keys);
    using D = ranges::range_difference_t<K>;
    return {i, i == 0 || !bool(eq(*(k + static_cast<D>(i - 1)), *(k + static_cast<D>(i))))};
  }
};
// r -> {(offset, length) of run r, whether it is longer than one}, from the R run heads.
struct run_extent {
  const std::uint32_t *heads;
  std::uint32_t runs, n;
  flagged_element<std::pair<std::uint32_t, std::uint32_t>> operator()(std::uint32_t r) const {
    const std::uint32_t end = r + 1 < runs ? heads[r + 1] : n, length = end - heads[r];
    return {{heads[r], length}, length > 1};
  }
};
// (offset, length) as the outputs' pair.
template <class O, class L> struct as_extent {
  template <class P> std::pair<O, L> operator()(const P &p) const {
    return {static_cast<O>(p.first), static_cast<L>(p.second)};
  }
};
} // namespace detail

// The offset and length of every run longer than one, in order, to out_offsets and
// out_lengths; returns how many. Four launches (two compactions, each with its tile clear).
// More than 2^32 - 1 elements, or outputs smaller than the runs, are a pacxx::error.
template <class In, class OO, class OL, class Eq = std::equal_to<>>
std::size_t run_length_encode_non_trivial(In &&in, OO &&out_offsets, OL &&out_lengths,
                                          Eq eq = Eq{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::run_length_encode_non_trivial", in);
  static_assert(pacxx::is_device_copyable<Eq>::value,
                "gpu::run_length_encode_non_trivial: the comparison must be trivially copyable "
                "(capture values only)");
  const char *name = "gpu::run_length_encode_non_trivial";
  auto keys = pacxx::detail::device_view(std::forward<In>(in));
  auto offsets = pacxx::detail::device_view(std::forward<OO>(out_offsets));
  auto lengths = pacxx::detail::device_view(std::forward<OL>(out_lengths));
  const std::size_t n = pacxx::detail::device_size(keys);
  if (n > 0xffffffffu)
    throw pacxx::error(std::string(name) + ": " + std::to_string(n) +
                       " elements, more than its 32-bit indices hold");
  if (n == 0)
    return 0;
  vector<std::uint32_t> heads(n);
  const auto u = static_cast<std::uint32_t>(n);
  const std::size_t runs = detail::select_flagged_into(
      name,
      ranges::views::iota(std::uint32_t(0), u) |
          ranges::views::transform(detail::run_head<decltype(keys), Eq>{keys, eq}),
      n, pacxx::detail::device_view(heads), n);
  using O = ranges::range_value_t<decltype(offsets)>;
  using L = ranges::range_value_t<decltype(lengths)>;
  const std::size_t mo = pacxx::detail::device_size(offsets);
  const std::size_t ml = pacxx::detail::device_size(lengths);
  return detail::select_flagged_into(
      name,
      ranges::views::iota(std::uint32_t(0), static_cast<std::uint32_t>(runs)) |
          ranges::views::transform(
              detail::run_extent{heads.data(), static_cast<std::uint32_t>(runs), u}),
      runs,
      gpu::views::transform_output(ranges::views::zip(offsets, lengths), detail::as_extent<O, L>{}),
      mo < ml ? mo : ml);
}

} // namespace gpu

namespace pacxx {
template <class K, class Eq>
struct is_device_copyable<gpu::detail::run_head<K, Eq>>
    : std::integral_constant<bool, is_device_copyable<K>::value && is_device_copyable<Eq>::value> {
};
} // namespace pacxx

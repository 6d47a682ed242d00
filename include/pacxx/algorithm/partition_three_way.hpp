// gpu::partition_copy(in, out_first, out_second, out_unselected, select_first,
// select_second): the three-way partition of CUB's DevicePartition::If with two
// predicates. Element x goes to out_first where select_first(x) holds, else to
// out_second where select_second(x) holds, else to out_unselected; every part keeps the
// input's order. Returns the three counts.
//
// Two compaction passes (pacxx/agent/select.hpp with two outputs, as partition_copy):
// the first writes the elements of out_first and stages the others in pooled device
// memory, the second splits those into out_second and out_unselected. CUB does it in one
// pass with a pair of counts in its look-back; this one reads and writes the elements
// that select_first rejects twice (a single-pass version needs a two-count tile state,
// not written yet). Launches: 4 (two tile clears, two passes) where every output has as
// many elements as the input; 5 where one is smaller: the two counts come first (each
// launch also clearing the tiles), so that an output too small for its part is a
// pacxx::error with every output unchanged.
// in: any device range (views fused); the outputs gpu::vectors or writable views
// (gpu::views::discard included).
#pragma once
#include <cstddef>
#include <string>
#include <utility>

#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/vector.hpp"

namespace gpu {

/// The sizes of the three parts of a three-way partition.
struct partition_counts {
  std::size_t first;      ///< elements for which select_first holds
  std::size_t second;     ///< elements for which select_second holds and select_first not
  std::size_t unselected; ///< the others
};

namespace detail {

// select_second where select_first does not hold: the second part's test on the input.
template <class P1, class P2> struct second_only {
  P1 p1;
  P2 p2;
  template <class U> bool operator()(const U &x) const { return !bool(p1(x)) && bool(p2(x)); }
};

// The partition of the device view src (n elements) into the device views. counts_known:
// the caller knows the outputs are large enough (no counts, no checks).
template <class V, class F, class S, class R, class P1, class P2>
partition_counts partition_three_way_into(const char *name, const V &src, const F &first,
                                          const S &second, const R &unselected, P1 p1, P2 p2,
                                          bool counts_known) {
  const std::size_t n = pacxx::detail::device_size(src);
  if (n == 0)
    return {0, 0, 0};
  const std::size_t mf = pacxx::detail::device_size(first);
  const std::size_t ms = pacxx::detail::device_size(second);
  const std::size_t mu = pacxx::detail::device_size(unselected);
  using U = ranges::range_value_t<V>;
  using P = pacxx::policy::select_for<U>;
  // The elements select_first rejects, in order (pooled: a pool hit after the first call).
  vector<U> rest(n);
  auto rest_view = pacxx::detail::device_view(rest);
  const std::size_t c1 = select_with(n, [&](auto c_type) -> std::size_t {
    using C = decltype(c_type);
    const select_memory<C> mem = select_setup<P, C>(name, n);
    if (!counts_known && (mf < n || ms < n || mu < n)) {
      const unsigned long long a = count_selected(src, n, select_if<P1>{p1}, mem);
      const unsigned long long b =
          count_selected(src, n, select_if<second_only<P1, P2>>{{p1, p2}}, mem);
      if (a > mf || b > ms || n - a - b > mu)
        throw pacxx::error(std::string(name) + ": the parts have " + std::to_string(a) + ", " +
                           std::to_string(b) + " and " + std::to_string(n - a - b) +
                           " elements, the outputs " + std::to_string(mf) + ", " +
                           std::to_string(ms) + " and " + std::to_string(mu));
    } else {
      clear_tiles(mem);
    }
    return select_pass<P, true>(src, n, select_if<P1>{p1}, first, rest_view, mem);
  });
  const std::size_t r = n - c1;
  if (r == 0)
    return {c1, 0, 0};
  auto rest_part = rest_view | ranges::views::take(r);
  const std::size_t c2 = select_with(r, [&](auto c_type) -> std::size_t {
    using C = decltype(c_type);
    const select_memory<C> mem = select_setup<P, C>(name, r);
    clear_tiles(mem);
    return select_pass<P, true>(rest_part, r, select_if<P2>{p2}, second, unselected, mem);
  });
  return {c1, c2, r - c2};
}

} // namespace detail

/// Three-way partition (CUB's DevicePartition::If with two predicates): each element of
/// in goes to out_first where select_first holds, else to out_second where select_second
/// holds, else to out_unselected, each part in input order. Returns the three counts. An
/// output too small for its part is a pacxx::error and no output is changed.
template <class In, class OutF, class OutS, class OutU, class P1, class P2>
partition_counts partition_copy(In &&in, OutF &&out_first, OutS &&out_second, OutU &&out_unselected,
                                P1 select_first, P2 select_second) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::partition_copy", in);
  static_assert(pacxx::is_device_copyable<P1>::value && pacxx::is_device_copyable<P2>::value,
                "gpu::partition_copy: the predicates must be trivially copyable (capture values "
                "only)");
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto f = pacxx::detail::device_view(std::forward<OutF>(out_first));
  auto s = pacxx::detail::device_view(std::forward<OutS>(out_second));
  auto u = pacxx::detail::device_view(std::forward<OutU>(out_unselected));
  return detail::partition_three_way_into("gpu::partition_copy (three-way)", src, f, s, u,
                                          select_first, select_second, false);
}

} // namespace gpu

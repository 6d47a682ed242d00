// gpu::partition_copy(in, out_true, out_false, pred) and gpu::stable_partition_copy (the
// same call): the elements of in for which pred holds to out_true, the others to
// out_false, each part in its original order (so both are stable; Thrust's
// partition_copy need not be). Returns {number true, number false}.
//
// One pass of the compaction with the rejected elements going to their own output
// (pacxx/agent/select.hpp with Partition, CUB's DevicePartition::If with two outputs), and
// the tiny tile clear. Where either output is smaller than the input the elements are
// counted first (a launch that also clears the tiles): an output too small for its part
// is a pacxx::error and both outputs are left unchanged.
// in: any device range (views fused); the outputs gpu::vectors or writable views.
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {

// Policy: void for pacxx::policy::partition_for<the input's value type> (benchmarks pass
// others).
template <class Policy = void, class In, class OutT, class OutF, class Pred>
std::pair<std::size_t, std::size_t> partition_into(const char *name, In &&in, OutT &&out_true,
                                                   OutF &&out_false, Pred pred) {
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::partition_copy: the predicate must be trivially copyable (capture values "
                "only)");
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto yes = pacxx::detail::device_view(std::forward<OutT>(out_true));
  auto no = pacxx::detail::device_view(std::forward<OutF>(out_false));
  const std::size_t n = pacxx::detail::device_size(src);
  const std::size_t mt = pacxx::detail::device_size(yes), mf = pacxx::detail::device_size(no);
  if (n == 0)
    return {0, 0};
  using U = ranges::range_value_t<decltype(src)>;
  using P = typename std::conditional<std::is_void<Policy>::value, pacxx::policy::partition_for<U>,
                                      Policy>::type;
  const select_if<Pred> sel{pred};
  const std::size_t t = select_with(n, [&](auto c_type) -> std::size_t {
    using C = decltype(c_type);
    const select_memory<C> mem = select_setup<P, C>(name, n);
    if (mt < n || mf < n) {
      const unsigned long long c = count_selected(src, n, sel, mem);
      if (c > mt || n - c > mf)
        throw pacxx::error(std::string(name) + ": " + std::to_string(c) +
                           " elements are true and " + std::to_string(n - c) +
                           " false, out_true has " + std::to_string(mt) + " elements, out_false " +
                           std::to_string(mf));
    } else {
      clear_tiles(mem);
    }
    return select_pass<P, true>(src, n, sel, yes, no, mem);
  });
  return {t, n - t};
}

} // namespace detail

// Copies the elements of in for which pred holds to out_true and the others to out_false,
// each part in its input order; returns {number true, number false}. One pass plus the tile
// clear (and a counting launch where an output is smaller than in). An output too small for
// its part is a pacxx::error, and both outputs are then left unchanged.
template <class In, class OutT, class OutF, class Pred>
std::pair<std::size_t, std::size_t> partition_copy(In &&in, OutT &&out_true, OutF &&out_false,
                                                   Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::partition_copy", in);
  return detail::partition_into("gpu::partition_copy", std::forward<In>(in),
                                std::forward<OutT>(out_true), std::forward<OutF>(out_false), pred);
}

// The same call as gpu::partition_copy, which is already stable.
template <class In, class OutT, class OutF, class Pred>
std::pair<std::size_t, std::size_t> stable_partition_copy(In &&in, OutT &&out_true,
                                                          OutF &&out_false, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::stable_partition_copy", in);
  return detail::partition_into("gpu::stable_partition_copy", std::forward<In>(in),
                                std::forward<OutT>(out_true), std::forward<OutF>(out_false), pred);
}

} // namespace gpu

// gpu::unique_count(rng[, eq]): the number of runs of consecutive equal (eq, == by
// default) elements, that is the size std::unique would leave (Thrust's unique_count).
// One reduction over the pairs of neighbours (gpu::count's kernel): the first element
// and every element that differs from the one before it.
#pragma once
#include <cstddef>
#include <functional>
#include <limits>
#include <utility>

#include <range/v3/view/drop_exactly.hpp>
#include <range/v3/view/zip.hpp>

#include "pacxx/algorithm/count.hpp"
#include "pacxx/algorithm/reduce_by_key.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

// The number of runs of consecutive elements equal under eq: the size std::unique would
// leave (Thrust's unique_count). One reduction kernel over the pairs of neighbours.
template <class Rng, class Eq = std::equal_to<>> std::size_t unique_count(Rng &&rng, Eq eq = Eq{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::unique_count", rng);
  static_assert(pacxx::is_device_copyable<Eq>::value,
                "gpu::unique_count: the comparison must be trivially copyable (capture values "
                "only)");
  auto v = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(v);
  if (n <= 1)
    return n;
  auto pairs = ranges::views::zip(v, ranges::views::drop_exactly(v, 1));
  const detail::starts_run<Eq> head{eq};
  return 1 + (n - 1 <= std::numeric_limits<unsigned>::max()
                  ? detail::count_in<unsigned>(pairs, n - 1, head)
                  : detail::count_in<std::size_t>(pairs, n - 1, head));
}

} // namespace gpu

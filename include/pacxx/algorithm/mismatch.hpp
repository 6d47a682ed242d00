// gpu::mismatch(a, b[, pred]): the index pair {i, i} of the first position where a[i] and
// b[i] differ (!pred(a[i], b[i]), == by default), or {k, k} with k the shorter size if
// none does (std::mismatch with four iterators; Thrust returns the iterator pair). One
// first-match search over the zipped ranges (pacxx/agent/find.hpp) that stops at the
// first difference.
#pragma once
#include <cstddef>
#include <functional>
#include <utility>

#include <range/v3/view/zip.hpp>

#include "pacxx/algorithm/detail/find_first.hpp"
#include "pacxx/algorithm/equal.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

// The index pair {i, i} of the first position where !pred(r1[i], r2[i]), or {k, k} with k
// the shorter size if there is none (std::mismatch with indices). One launch that stops at
// the first difference.
template <class R1, class R2, class Pred = std::equal_to<>>
std::pair<std::size_t, std::size_t> mismatch(R1 &&r1, R2 &&r2, Pred pred = Pred{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::mismatch", r1);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::mismatch: the predicate must be trivially copyable (capture values only)");
  auto a = pacxx::detail::device_view(std::forward<R1>(r1));
  auto b = pacxx::detail::device_view(std::forward<R2>(r2));
  // An unbounded range (view::repeat(x)) is as long as the other.
  const std::size_t na = pacxx::detail::leading_size(a, b);
  const std::size_t nb = pacxx::detail::device_size_alongside(b, na);
  const std::size_t n = na < nb ? na : nb;
  auto both = ranges::views::zip(std::move(a), std::move(b));
  const std::size_t i = detail::find_first(both, n, detail::differ<Pred>{pred});
  return {i, i};
}

} // namespace gpu

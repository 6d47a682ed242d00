// gpu::equal(r1, r2[, pred]): whether the two ranges have the same size and equal
// elements (pred(a, b), == by default), as std::equal with four iterators. One
// first-match search for a mismatch over the zipped ranges (pacxx/agent/find.hpp): it
// stops at the first difference.
#pragma once
#include <cstddef>
#include <functional>
#include <tuple>
#include <utility>

#include <range/v3/view/zip.hpp>

#include "pacxx/algorithm/detail/find_first.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

namespace detail {
template <class Pred> struct differ {
  Pred pred;
  template <class P> bool operator()(const P &p) const {
    return !bool(pred(std::get<0>(p), std::get<1>(p)));
  }
};
} // namespace detail

// Whether r1 and r2 have the same size and pred(a, b) holds for every pair of elements at
// the same position (std::equal with four iterators). An unbounded range (view::repeat)
// is as long as the other. One launch that stops at the first difference; sizes that
// differ return false without a launch. pred must be trivially copyable.
template <class R1, class R2, class Pred = std::equal_to<>>
bool equal(R1 &&r1, R2 &&r2, Pred pred = Pred{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::equal", r1);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::equal: the predicate must be trivially copyable (capture values only)");
  auto a = pacxx::detail::device_view(std::forward<R1>(r1));
  auto b = pacxx::detail::device_view(std::forward<R2>(r2));
  // An unbounded range (view::repeat(x)) is as long as the other.
  const std::size_t n = pacxx::detail::leading_size(a, b);
  if (n != pacxx::detail::device_size_alongside(b, n))
    return false;
  auto both = ranges::views::zip(std::move(a), std::move(b));
  return detail::find_first(both, n, detail::differ<Pred>{pred}) == n;
}

} // namespace gpu

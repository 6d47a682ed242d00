// One binary search of a device range, run on the device by one thread (partition_point,
// equal_range): O(log n) dependent loads in one launch, the result read back through
// detail/readback.hpp. Searching from the host would read device memory element by
// element, a transfer per step that the user did not write.
#pragma once
#include <cstddef>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/detail/readback.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/thread.hpp"

namespace gpu {
namespace detail {

// The first index in [0, n) of the range at `first` whose element right(e) does not send
// to the right, or n (the range is partitioned by right).
template <class It, class Right>
std::size_t partition_point_at(It first, std::size_t n, const Right &right) {
  using D = ranges::iter_difference_t<It>;
  std::size_t lo = 0, hi = n;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (right(*(first + static_cast<D>(mid))))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// R search(first, n) run once on the device over device view v of n elements; R is
// trivially copyable (at most 16 bytes).
template <class R, class V, class Search> R search_once(const V &v, std::size_t n, Search search) {
  const readback_memory<R> result(1, pacxx::detail::scratch(sizeof(R)));
  pacxx::kernel(
      [search](const auto &view, std::size_t n, R *out) {
        if (pacxx::Thread::get().global.x != 0)
          return;
        auto v = view;
        store_result(out, R(search(ranges::begin(v), n)));
      },
      pacxx::launch_config{{1}, {1}})(v, n, result.kernel);
  return readback<R>(result)[0];
}

} // namespace detail
} // namespace gpu

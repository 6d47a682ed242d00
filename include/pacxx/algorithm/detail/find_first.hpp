// The dispatch of the first-match searches (find, find_if, any_of, all_of, none_of,
// equal): one kernel (pacxx/agent/find.hpp) over the fused views; the index it finds is
// copied back once. Its one word of device memory comes from the per-thread scratch
// buffer and is set to n by a copy before the launch (no allocation, no launch).
#pragma once
#include <cstddef>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/agent/find.hpp"
#include "pacxx/algorithm/detail/functional.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/kernel.hpp"

namespace gpu {
namespace detail {

// The smallest i in [0, n) with test(in[i]), or n. in is a device view of n elements.
template <class V, class Test> std::size_t find_first(const V &in, std::size_t n, Test test) {
  if (n == 0)
    return 0;
  using P = pacxx::policy::find;
  std::size_t *found = static_cast<std::size_t *>(pacxx::detail::scratch(sizeof(std::size_t)));
  pacxx::detail::copy_to_device(found, &n, sizeof n);
  pacxx::kernel(
      [test](const auto &view, std::size_t n, std::size_t *found) {
        auto v = view;
        auto first = ranges::begin(v);
        using D = ranges::range_difference_t<decltype(v)>;
        pacxx::agent::find_tiles<P>(
            [&](std::size_t i) -> bool { return bool(test(*(first + static_cast<D>(i)))); }, n,
            found);
      },
      pacxx::detail::grid_for(pacxx::detail::ceil_div(n, P::items), P::block, P::max_blocks))(
      in, n, found);
  std::size_t r = n;
  pacxx::detail::copy_to_host(&r, found, sizeof r);
  return r;
}

} // namespace detail
} // namespace gpu

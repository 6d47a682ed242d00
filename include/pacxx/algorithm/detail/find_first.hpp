// The dispatch of the first-match searches (find, find_if, any_of, all_of, none_of,
// equal): one kernel (pacxx/agent/find.hpp) over the fused views, and nothing else on
// the queue. Its result word and a counter of finished blocks live in ones_scratch:
// all ones before the kernel, and the last block to finish hands the index to the host
// (detail/readback.hpp: into pinned memory on CUDA, so nothing is copied after the
// kernel) and sets both back to all ones for the next search. Measured on the H100
// (2026-11-25, benchmarks/reductions, any_of with no match, two runs each): with an
// asynchronous fill resetting them before each launch, 15.5-15.9 / 17.4-17.7 / 37.7-38.3
// us at 2^20 / 2^22 / 2^24; without, 13.4-13.8 / 15.0-15.6 / 35.2-35.8.
#pragma once
#include <cstddef>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/agent/find.hpp"
#include "pacxx/algorithm/detail/functional.hpp"
#include "pacxx/algorithm/detail/readback.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/atomic.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/kernel.hpp"

namespace gpu {
namespace detail {

// The smallest i in [0, n) with test(in[i]), or n. in is a device view of n elements.
template <class V, class Test> std::size_t find_first(const V &in, std::size_t n, Test test) {
  if (n == 0)
    return 0;
  using P = pacxx::policy::find;
  // The result word and the counter of finished blocks, then where the result goes
  // where kernels cannot write host memory.
  char *state = static_cast<char *>(pacxx::detail::ones_scratch(2 * sizeof(std::size_t)));
  std::size_t *found = reinterpret_cast<std::size_t *>(state);
  unsigned *done = reinterpret_cast<unsigned *>(state + sizeof(std::size_t));
  const readback_memory<std::size_t> result(1, pacxx::detail::scratch(sizeof(std::size_t)));
  pacxx::kernel(
      [test](const auto &view, std::size_t n, std::size_t *found, unsigned *done,
             std::size_t *result) {
        auto v = view;
        auto first = ranges::begin(v);
        using D = ranges::range_difference_t<decltype(v)>;
        pacxx::agent::find_tiles<P>(
            [&](std::size_t i) -> bool { return bool(test(*(first + static_cast<D>(i)))); }, n,
            found);
        // Every warp of the block has published its match; the last block to get here
        // sees every block's (the fences order each block's minimum before its count).
        pacxx::barrier();
        if (pacxx::Thread::get().local.x == 0) {
          pacxx::thread_fence();
          // The counter starts at all ones: old + 1 blocks were done before this one.
          const unsigned before = pacxx::atomic_add(done, 1u) + 1u;
          if (before + 1 == pacxx::Grid::get().size.x) {
            pacxx::thread_fence();
            *result = pacxx::agent::detail::read_found(found);
            // Every other block is done with both: all ones again for the next search.
            *found = ~std::size_t(0);
            *done = ~0u;
          }
        }
      },
      pacxx::detail::grid_for(pacxx::detail::ceil_div(n, P::items), P::block, P::max_blocks))(
      in, n, found, done, result.kernel);
  const std::size_t r = readback<std::size_t>(result)[0];
  return r < n ? r : n; // no match: all ones
}

} // namespace detail
} // namespace gpu

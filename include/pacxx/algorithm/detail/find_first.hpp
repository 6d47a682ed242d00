// The dispatch of the first-match searches (find, find_if, any_of, all_of, none_of,
// equal): one kernel (pacxx/agent/find.hpp) over the fused views, and nothing else on
// the queue. After its tiles, each block's thread 0 reads the early-stop word and writes
// it to the block's own result slot (detail/readback.hpp: pinned memory on CUDA, so
// nothing is copied after the kernel); the host takes the smallest. The barrier before
// the read orders the block's own atomic_min before it, so a block's slot is at most its
// first match, and every match is some block's: the smallest slot is the answer. No
// block waits for the others.
//
// The word must hold all ones when a search starts, without a fill before each launch
// (a second operation on the queue: 15.5-15.9 against 13.4-13.8 us for any_of at 2^20
// on the H100, 2026-11-25). Two words of ones_scratch take turns: a search publishes in
// one, and its first thread sets the other to all ones for the next search (the kernels
// of a queue run in order, so the previous search is done with it). Whose turn it is
// is kept on the host, per scratch buffer (search_turn).
//
// Measured on the H100 (2026-11-26, any_of with no match; benchmarks/results/
// 2026-11-26-h100-pairs17/ab.md): before, the last block to finish read the word and set
// it back, after a fence and an atomic counter. The kernel took 5.12 / 7.23 / 366.0 us
// at 2^20 / 2^22 / 2^28 under ncu, and 4.42 / 6.43 / 364.5 with the block results; end
// to end, two processes each, 12.4 / 14.2-14.6 / 16.9-17.8 us at 2^20 / 2^22 / 2^23
// against 11.4-11.5 / 13.6-15.1 / 16.2-16.3. A variant that folded each block's warp
// matches with block_reduce instead of reading the word was as fast at 2^20 but 5 %
// slower from 2^24 up (kernel 386 us at 2^28).
#pragma once
#include <cstddef>
#include <unordered_map>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/agent/find.hpp"
#include "pacxx/algorithm/detail/functional.hpp"
#include "pacxx/algorithm/detail/readback.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/thread.hpp"

namespace gpu {
namespace detail {

// Whose turn it is in the searches' pair of words at `words` (0 or 1): flipped once a
// search through them is launched (a launch that throws leaves it). One count per
// scratch buffer (a buffer is one thread's, on one queue); a buffer newly allocated
// holds all ones in both words, so any turn suits it.
inline unsigned &search_turn(const void *words) {
  thread_local std::unordered_map<const void *, unsigned> turns;
  return turns[words];
}

// The smallest i in [0, n) with test(in[i]), or n. in is a device view of n elements.
template <class V, class Test> std::size_t find_first(const V &in, std::size_t n, Test test) {
  if (n == 0)
    return 0;
  using P = pacxx::policy::find;
  std::size_t *words =
      static_cast<std::size_t *>(pacxx::detail::ones_scratch(2 * sizeof(std::size_t)));
  unsigned &turn = search_turn(words);
  const pacxx::launch_config cfg =
      pacxx::detail::grid_for(pacxx::detail::ceil_div(n, P::items), P::block, P::max_blocks);
  const std::size_t blocks = cfg.grid.x;
  const readback_memory<std::size_t> result(blocks,
                                            pacxx::detail::scratch(blocks * sizeof(std::size_t)));
  pacxx::kernel(
      [test](const auto &view, std::size_t n, std::size_t *found, std::size_t *next,
             std::size_t *result) {
        auto v = view;
        auto first = ranges::begin(v);
        using D = ranges::range_difference_t<decltype(v)>;
        const std::size_t b = pacxx::Block::get().index.x, l = pacxx::Thread::get().local.x;
        if (b == 0 && l == 0)
          *next = ~std::size_t(0); // the next search's word
        pacxx::agent::find_tiles<P>(
            [&](std::size_t i) -> bool { return bool(test(*(first + static_cast<D>(i)))); }, n,
            found);
        pacxx::barrier();
        if (l == 0)
          store_result(result + b, pacxx::agent::detail::read_found(found));
      },
      cfg)(in, n, words + turn, words + (1 - turn), result.kernel);
  turn ^= 1u;
  const std::size_t r =
      fold_partials(readback<std::size_t>(result), pacxx::agent::detail::min_index{});
  return r < n ? r : n;
}

} // namespace detail
} // namespace gpu

// The merge sort's dispatch (any strict weak ordering; stable): one launch sorts every
// tile of block_sort::block * items elements (pacxx/agent/merge_sort.hpp; policy
// merge_sort_for), then each pass merges pairs of sorted runs of w elements in merge
// tiles of block * items outputs, w = one sorted tile, two, four, ..., until one run
// is left: a partition (one merge path search per output tile, into pooled scratch)
// and a merge (pacxx/agent/merge.hpp: one block per output tile). So a sort of n
// elements is 1 + 2 * ceil(log2(tiles)) launches. The passes alternate between the
// data and a buffer from the memory pool; where their number is odd the block sort
// writes its tiles into the buffer, so that the last pass ends in the data (CUB's
// choice of ping buffer). A device copy back after an odd number of passes moved the
// whole array twice more: a comparator sort of 12-byte items was 0.83x / 0.87x CUB at
// 2^25 / 2^27 (15 / 17 passes) against 0.89x / 0.93x at 2^26 / 2^28 (16 / 18) on the
// H100, 2026-11-25 (benchmarks/results/2026-11-25-h100-stl-sort).
#pragma once
#include <cstddef>
#include <string>

#include "pacxx/agent/merge.hpp"
#include "pacxx/agent/merge_sort.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/tune.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

// Merges the pairs of sorted runs of w elements of in[0, n) into out.
template <class P, class T, class Comp>
void merge_runs(const T *in, T *out, std::size_t n, std::size_t w, Comp comp) {
  constexpr std::size_t tile = P::block * P::items;
  const std::size_t tiles = pacxx::detail::ceil_div(n, tile);
  std::size_t *cuts =
      static_cast<std::size_t *>(pacxx::detail::scratch((tiles + 1) * sizeof(std::size_t)));
  // The pair [s, s + 2w) holding position p, its runs' lengths, p's diagonal in it.
  pacxx::kernel(
      [comp](const T *in, std::size_t n, std::size_t w, std::size_t tiles, std::size_t *cuts) {
        const std::size_t t = pacxx::Thread::get().global.x;
        if (t > tiles)
          return;
        const std::size_t p = t * tile < n ? t * tile : n;
        const std::size_t s = p / (2 * w) * (2 * w);
        const std::size_t la = s + w < n ? w : n - s;
        const std::size_t lb = s + 2 * w < n ? w : (s + w < n ? n - s - w : 0);
        cuts[t] = pacxx::agent::merge_path(
            [&](std::size_t i) -> const T & { return in[s + i]; }, la,
            [&](std::size_t j) -> const T & { return in[s + la + j]; }, lb, p - s, comp);
      },
      pacxx::detail::grid_for(tiles + 1, 128, std::size_t(1) << 31))(in, n, w, tiles, cuts);
  pacxx::kernel(
      [comp](const T *in, T *out, std::size_t n, std::size_t w, const std::size_t *cuts) {
        if (P::min_blocks > 0)
          pacxx::launch_bounds(P::block, P::min_blocks);
        const std::size_t t = pacxx::Block::get().index.x, p = t * tile;
        const std::size_t s = p / (2 * w) * (2 * w);
        const std::size_t la = s + w < n ? w : n - s;
        const std::size_t len = s + 2 * w < n ? 2 * w : n - s;
        const std::size_t d0 = p - s, d1 = d0 + tile < len ? d0 + tile : len;
        // A tile ending at its pair's end has taken all of the pair's first run.
        const std::size_t i1 = d1 == len ? la : cuts[t + 1];
        pacxx::agent::merge_tile<P, T>([&](std::size_t i) -> T { return in[s + i]; },
                                       [&](std::size_t j) -> T { return in[s + la + j]; },
                                       [&](std::size_t d, const T &v) { out[s + d] = v; }, d0, d1,
                                       cuts[t], i1, comp);
      },
      pacxx::launch_config{{tiles}, {P::block}})(in, out, n, w, cuts);
}

// Sorts data[0, n) stably by comp under policy P.
template <class P, class T, class Comp> void merge_sort_with(T *data, std::size_t n, Comp comp) {
  using S = typename P::block_sort;
  constexpr std::size_t tile = S::block * S::items;
  // merge_runs' output tiles must not straddle two pairs of runs.
  static_assert(tile % (P::block * P::items) == 0,
                "merge_sort: the sorted tile must be a whole number of merge tiles");
  if (n <= 1)
    return;
  const std::size_t tiles = pacxx::detail::ceil_div(n, tile);
  unsigned passes = 0; // merge passes: runs of tile, 2 tile, ... elements until one
  for (std::size_t w = tile; w < n; w *= 2)
    ++passes;
  vector<T> alt(passes > 0 ? n : 0);
  // buf[p % 2] holds the runs that pass p merges; the last pass writes buf[passes % 2].
  T *buf[2] = {passes % 2 == 1 ? alt.data() : data, passes % 2 == 1 ? data : alt.data()};
  pacxx::kernel(
      [comp](const T *in, T *out, std::size_t n) {
        const std::size_t base = pacxx::Block::get().index.x * tile;
        const std::size_t valid = n - base < tile ? n - base : tile;
        pacxx::agent::block_sort_tile<S, T>([&](std::size_t i) -> T { return in[base + i]; },
                                            [&](std::size_t i, const T &v) { out[base + i] = v; },
                                            valid, comp);
      },
      pacxx::launch_config{{tiles}, {S::block}})(data, buf[0], n);
  std::size_t w = tile;
  for (unsigned p = 0; p < passes; ++p, w *= 2)
    merge_runs<P>(buf[p % 2], buf[(p + 1) % 2], n, w, comp);
}

// Sorts data[0, n) stably by comp under the tuned policy (pacxx/tune.hpp;
// policy::tuning::merge_sort_space, merge_sort_for<T> first). The sort is in place, so a
// trial sorts a copy.
template <class T, class Comp> void merge_sort(T *data, std::size_t n, Comp comp) {
  if (n <= 1)
    return;
  using Space = pacxx::policy::tuning::merge_sort_space<T>;
  const std::size_t choice = pacxx::tune::choose<Space>(
      "gpu::merge_sort/" + std::to_string(sizeof(T)), pacxx::tune::size_class(n), [&](auto policy) {
        vector<T> copy(n);
        pacxx::detail::copy_on_device(copy.data(), data, n * sizeof(T));
        merge_sort_with<decltype(policy)>(copy.data(), n, comp);
      });
  pacxx::tune::invoke<Space>(
      choice, [&](auto policy) { merge_sort_with<decltype(policy)>(data, n, comp); });
}

} // namespace detail
} // namespace gpu

// gpu::histogram_even(rng, bins, lower, upper): counts the samples of a device range
// (views fused into the loads) in `bins` bins of equal width over [lower, upper), and
// returns the counts as a gpu::vector<unsigned long long> of `bins` elements. Samples
// outside [lower, upper) are ignored (and NaN, which is in no interval); an empty
// interval counts nothing. No bins (bins == 0) is a pacxx::error, as in CUB.
//
// Sample x (converted to T, the type of lower and upper) falls in bin
//   floating T:  (x - lower) * (bins / (upper - lower)), computed in T, rounded down;
//                rounding may give `bins` for a sample just below upper: it is clamped
//                to the last bin, as it must be, for x < upper.
//   integral T:  (x - lower) * bins / (upper - lower), exact, in 64-bit unsigned
//                arithmetic; where (upper - lower) * bins does not fit in 64 bits (only
//                64-bit samples over ranges near 2^64), in double, clamped.
//
// Two launches, as CUB's: the fill that zeroes the result and one pass. Where the bins
// fit in shared memory (pacxx::policy::histogram::shared_bins) each block counts in a
// private histogram there with shared-memory atomics and adds it to the result with
// global atomics at the end; above that every sample is a global atomic. A thread folds
// consecutive samples of the same bin into one atomic (skewed data: most samples in a
// few bins). The bin count is staged (pacxx::stage): each count gets its own kernel,
// with the bin loops and the clamp constant.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/atomic.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/stage.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/tune.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

// Maps a sample to its bin, or to `bins` where it is outside [lower, upper). Branch-free
// and in 32 bits (bins < 2^32 is checked on the host): the kernel computes a thread's
// bins as straight-line code after all of its loads are issued. With a branch per
// sample (the range test), LLVM mapped the first sample before issuing the other loads
// of the tile, so every tile waited for memory twice (PTX of 2026-11-25, sm_90): 467 us
// against 379 now for 2^28 uniform floats, same grid (ncu, H100 at base clocks).
template <class T, bool Floating = std::is_floating_point<T>::value> struct even_bins {
  T lower, upper, scale; // scale = bins / (upper - lower)
  static even_bins make(std::size_t bins, T lower, T upper) {
    return {lower, upper, static_cast<T>(bins) / (upper - lower)};
  }
  unsigned operator()(T x, unsigned bins) const {
    const bool in = x >= lower && x < upper; // false for NaN
    // In range, f is in [0, bins] (bins only by rounding, just below upper: the last
    // bin); out of range it may be anything, NaN included. Only a value below bins is
    // converted (any other conversion is undefined).
    const T f = (x - lower) * scale;
    const bool below = f < static_cast<T>(bins);
    const unsigned b = static_cast<unsigned>(below ? f : T(0));
    const unsigned last = bins - 1;
    return in ? (below && b < last ? b : last) : bins;
  }
};
template <class T> struct even_bins<T, false> {
  using U = unsigned long long;
  T lower, upper;
  U range;      // upper - lower
  bool exact;   // range * bins fits in 64 bits
  double scale; // bins / range, where not exact
  static even_bins make(std::size_t bins, T lower, T upper) {
    const U range = U(upper) - U(lower);
    return {lower, upper, range, range <= std::numeric_limits<U>::max() / bins,
            double(bins) / double(range)};
  }
  unsigned operator()(T x, unsigned bins) const {
    if (!(x >= lower && x < upper))
      return bins;
    const U d = U(x) - U(lower);
    const U b = exact ? d * bins / range : U(double(d) * scale);
    return b < bins ? unsigned(b) : bins - 1;
  }
};

// Adds `count` to the counter of `bin` (none: bins) through add(bin, count), folding
// consecutive calls for the same bin into one.
template <class Add> struct bin_runs {
  Add add;
  unsigned bins, bin;
  unsigned count = 0;
  void operator()(unsigned b) {
    if (b == bin) {
      ++count;
      return;
    }
    flush();
    bin = b;
    count = 1;
  }
  void flush() {
    if (count && bin < bins)
      add(bin, count);
    count = 0;
  }
};
template <class Add> bin_runs<Add> make_bin_runs(Add add, unsigned bins) {
  return bin_runs<Add>{add, bins, bins};
}

// A block's nbins counters in the launch's shared memory, zeroed by the block's threads
// (l: the thread's index; device code, the barrier after), and their bin runs.
template <std::size_t Block> inline unsigned *zeroed_shared_counts(unsigned nbins, unsigned l) {
  unsigned *counts = pacxx::dynamic_shared_memory<unsigned>();
  for (unsigned b = l; b < nbins; b += Block)
    counts[b] = 0;
  pacxx::barrier();
  return counts;
}
inline auto shared_bin_runs(unsigned *counts, unsigned nbins) {
  return make_bin_runs([counts](unsigned b, unsigned c) { pacxx::atomic_add(counts + b, c); },
                       nbins);
}
// The block's counters added into out (device code; the barrier before).
template <std::size_t Block>
inline void add_shared_counts(const unsigned *counts, unsigned nbins, unsigned long long *out,
                              unsigned l) {
  pacxx::barrier();
  for (unsigned b = l; b < nbins; b += Block)
    if (const unsigned c = counts[b])
      pacxx::atomic_add(out + b, static_cast<unsigned long long>(c));
}

// Every sample of the grid's tiles (block-strided) through runs(bin): a thread issues
// its P::items loads of a tile, maps them all, then counts them.
template <class P, class Load, class Map, class Runs>
inline void bin_samples(std::size_t n, Load &load, const Map &map, unsigned bins, Runs &runs) {
  using S = decltype(load(std::size_t(0)));
  const std::size_t B = P::block, tile = B * P::items, l = pacxx::Thread::get().local.x;
  const std::size_t step = pacxx::Grid::get().size.x * tile;
  for (std::size_t base = pacxx::Block::get().index.x * tile; base < n; base += step) {
    if (base + tile <= n) {
      S v[P::items];
      for (std::size_t k = 0; k < P::items; ++k)
        v[k] = load(base + k * B + l);
      unsigned b[P::items];
      for (std::size_t k = 0; k < P::items; ++k)
        b[k] = map(v[k], bins);
      for (std::size_t k = 0; k < P::items; ++k)
        runs(b[k]);
    } else {
      for (std::size_t k = 0; k < P::items; ++k)
        if (base + k * B + l < n)
          runs(map(load(base + k * B + l), bins));
    }
  }
  runs.flush();
}

// The blocks of the shared-memory kernel for `tiles` tiles and `bins` bins: one a tile up
// to policy::histogram::shared_min_blocks, then, from shared_cut_min_bins bins, at least
// shared_tiles_per_block tiles a block (each block's flush is `bins` global atomics onto
// the counters that every block adds to; the policy has the measurements); at most
// max_blocks.
template <class P = pacxx::policy::histogram>
std::size_t shared_histogram_blocks(std::size_t tiles, std::size_t bins) {
  std::size_t blocks = tiles;
  if (tiles > P::shared_min_blocks && bins >= P::shared_cut_min_bins) {
    const std::size_t spread = pacxx::detail::ceil_div(tiles, P::shared_tiles_per_block);
    blocks = spread < P::shared_min_blocks ? P::shared_min_blocks : spread;
  }
  return blocks < P::max_blocks ? blocks : P::max_blocks;
}

// The counts of the n samples of `in` added into out (bins counters) under policy P.
template <class P, class T, class Map, class V>
void histogram_with(const V &in, std::size_t n, std::size_t bins, const Map &map,
                    unsigned long long *out) {
  using U = unsigned long long;
  const std::size_t tiles = pacxx::detail::ceil_div(n, P::block * P::items);
  if (bins <= P::shared_bins) {
    const std::size_t blocks = shared_histogram_blocks<P>(tiles, bins);
    pacxx::kernel(
        [map, bins](const auto &view, std::size_t n, U *out) {
          auto v = view;
          auto first = ranges::begin(v);
          using D = ranges::range_difference_t<decltype(v)>;
          auto load = [&](std::size_t i) -> T { return T(*(first + static_cast<D>(i))); };
          const unsigned nbins = static_cast<unsigned>(pacxx::stage(bins));
          const unsigned l = static_cast<unsigned>(pacxx::Thread::get().local.x);
          unsigned *counts = zeroed_shared_counts<P::block>(nbins, l);
          auto runs = shared_bin_runs(counts, nbins);
          bin_samples<P>(n, load, map, nbins, runs);
          add_shared_counts<P::block>(counts, nbins, out, l);
        },
        pacxx::launch_config{{blocks}, {P::block}, bins * sizeof(unsigned)})(in, n, out);
  } else {
    pacxx::kernel(
        [map, bins](const auto &view, std::size_t n, U *out) {
          auto v = view;
          auto first = ranges::begin(v);
          using D = ranges::range_difference_t<decltype(v)>;
          auto load = [&](std::size_t i) -> T { return T(*(first + static_cast<D>(i))); };
          const unsigned nbins = static_cast<unsigned>(pacxx::stage(bins));
          auto runs = make_bin_runs(
              [out](unsigned b, unsigned c) { pacxx::atomic_add(out + b, U(c)); }, nbins);
          bin_samples<P>(n, load, map, nbins, runs);
        },
        pacxx::launch_config{{tiles < P::max_blocks ? tiles : P::max_blocks}, {P::block}})(in, n,
                                                                                           out);
  }
}
} // namespace detail

// The counts of rng's samples in `bins` bins of equal width over [lower, upper) (samples
// outside it and NaN are not counted), as a new gpu::vector of `bins` counts. Two
// launches (the fill that zeroes the counts and one pass). bins == 0, or more bins than
// an unsigned holds, is a pacxx::error.
template <class Rng, class T>
gpu::vector<unsigned long long> histogram_even(Rng &&rng, std::size_t bins, T lower, T upper) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::histogram_even", rng);
  static_assert(std::is_arithmetic<T>::value,
                "gpu::histogram_even: lower and upper must be numbers (the samples' type)");
  using Map = detail::even_bins<T>;
  using U = unsigned long long;
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(in);
  // As CUB's HistogramEven (which returns cudaErrorInvalidValue): a histogram has bins.
  if (bins == 0)
    throw pacxx::error("gpu::histogram_even: 0 bins (a histogram needs at least one)");
  if (bins > std::size_t(std::numeric_limits<unsigned>::max()))
    throw pacxx::error("gpu::histogram_even: " + std::to_string(bins) + " bins are too many");
  gpu::vector<U> result(bins, U(0));
  if (n == 0 || !(lower < upper))
    return result;
  const Map map = Map::make(bins, lower, upper);
  // Tuned (pacxx/tune.hpp; policy::tuning::histogram): a trial counts into a vector of
  // its own. Counts are exact: every candidate gives the same result.
  using Space = pacxx::policy::tuning::histogram;
  const std::size_t choice = pacxx::tune::choose<Space>(
      "gpu::histogram_even/" + std::to_string(sizeof(T)), pacxx::tune::size_class(n, bins),
      [&](auto policy) {
        gpu::vector<U> scratch(bins, U(0));
        detail::histogram_with<decltype(policy), T>(in, n, bins, map, scratch.data());
      });
  pacxx::tune::invoke<Space>(choice, [&](auto policy) {
    detail::histogram_with<decltype(policy), T>(in, n, bins, map, result.data());
  });
  return result;
}

} // namespace gpu

// gpu::histogram_even(rng, bins, lower, upper): counts the samples of a device range
// (views fused into the loads) in `bins` bins of equal width over [lower, upper), and
// returns the counts as a gpu::vector<unsigned long long> of `bins` elements. Samples
// outside [lower, upper) are ignored (and NaN, which is in no interval).
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
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

// Maps a sample to its bin, or to `bins` where it is outside [lower, upper).
template <class T, bool Floating = std::is_floating_point<T>::value> struct even_bins {
  T lower, upper, scale; // scale = bins / (upper - lower)
  static even_bins make(std::size_t bins, T lower, T upper) {
    return {lower, upper, static_cast<T>(bins) / (upper - lower)};
  }
  std::size_t operator()(T x, std::size_t bins) const {
    if (!(x >= lower && x < upper))
      return bins;
    const std::size_t b = static_cast<std::size_t>((x - lower) * scale);
    return b < bins ? b : bins - 1;
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
  std::size_t operator()(T x, std::size_t bins) const {
    if (!(x >= lower && x < upper))
      return bins;
    const U d = U(x) - U(lower);
    const std::size_t b = exact ? std::size_t(d * bins / range) : std::size_t(double(d) * scale);
    return b < bins ? b : bins - 1;
  }
};

// Adds `count` to the counter of `bin` (none: bins) through add(bin, count), folding
// consecutive calls for the same bin into one.
template <class Add> struct bin_runs {
  Add add;
  std::size_t bins, bin;
  unsigned count = 0;
  void operator()(std::size_t b) {
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
template <class Add> bin_runs<Add> make_bin_runs(Add add, std::size_t bins) {
  return bin_runs<Add>{add, bins, bins};
}

// Every sample of the grid's tiles (block-strided, P::items loads per thread in flight
// before they are binned) through runs(bin).
template <class P, class Load, class Map, class Runs>
inline void bin_samples(std::size_t n, Load &load, const Map &map, std::size_t bins, Runs &runs) {
  using S = decltype(load(std::size_t(0)));
  const std::size_t B = P::block, tile = B * P::items, l = pacxx::Thread::get().local.x;
  const std::size_t step = pacxx::Grid::get().size.x * tile;
  for (std::size_t base = pacxx::Block::get().index.x * tile; base < n; base += step) {
    if (base + tile <= n) {
      S v[P::items];
      for (std::size_t k = 0; k < P::items; ++k)
        v[k] = load(base + k * B + l);
      for (std::size_t k = 0; k < P::items; ++k)
        runs(map(v[k], bins));
    } else {
      for (std::size_t k = 0; k < P::items; ++k)
        if (base + k * B + l < n)
          runs(map(load(base + k * B + l), bins));
    }
  }
  runs.flush();
}

} // namespace detail

template <class Rng, class T>
gpu::vector<unsigned long long> histogram_even(Rng &&rng, std::size_t bins, T lower, T upper) {
  static_assert(std::is_arithmetic<T>::value,
                "gpu::histogram_even: lower and upper must be numbers (the samples' type)");
  using P = pacxx::policy::histogram;
  using Map = detail::even_bins<T>;
  using U = unsigned long long;
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(in);
  if (bins > std::size_t(std::numeric_limits<unsigned>::max()))
    throw pacxx::error("gpu::histogram_even: " + std::to_string(bins) + " bins are too many");
  gpu::vector<U> result(bins, U(0));
  if (n == 0 || bins == 0 || !(lower < upper))
    return result;
  const Map map = Map::make(bins, lower, upper);
  const pacxx::launch_config grid =
      pacxx::detail::grid_for(pacxx::detail::ceil_div(n, P::items), P::block, P::max_blocks);
  if (bins <= P::shared_bins) {
    pacxx::kernel(
        [map, bins](const auto &view, std::size_t n, U *out) {
          auto v = view;
          auto first = ranges::begin(v);
          using D = ranges::range_difference_t<decltype(v)>;
          auto load = [&](std::size_t i) -> T { return T(*(first + static_cast<D>(i))); };
          const std::size_t nbins = pacxx::stage(bins);
          const std::size_t l = pacxx::Thread::get().local.x;
          unsigned *counts = pacxx::dynamic_shared_memory<unsigned>();
          for (std::size_t b = l; b < nbins; b += P::block)
            counts[b] = 0;
          pacxx::barrier();
          auto runs = detail::make_bin_runs(
              [counts](std::size_t b, unsigned c) { pacxx::atomic_add(counts + b, c); }, nbins);
          detail::bin_samples<P>(n, load, map, nbins, runs);
          pacxx::barrier();
          for (std::size_t b = l; b < nbins; b += P::block)
            if (const unsigned c = counts[b])
              pacxx::atomic_add(out + b, U(c));
        },
        pacxx::launch_config{grid.grid, grid.block, bins * sizeof(unsigned)})(in, n, result.data());
  } else {
    pacxx::kernel(
        [map, bins](const auto &view, std::size_t n, U *out) {
          auto v = view;
          auto first = ranges::begin(v);
          using D = ranges::range_difference_t<decltype(v)>;
          auto load = [&](std::size_t i) -> T { return T(*(first + static_cast<D>(i))); };
          const std::size_t nbins = pacxx::stage(bins);
          auto runs = detail::make_bin_runs(
              [out](std::size_t b, unsigned c) { pacxx::atomic_add(out + b, U(c)); }, nbins);
          detail::bin_samples<P>(n, load, map, nbins, runs);
        },
        grid)(in, n, result.data());
  }
  return result;
}

} // namespace gpu

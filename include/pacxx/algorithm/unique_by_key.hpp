// Compaction of key-value pairs by runs of equal keys (Thrust's unique_by_key):
//
//   gpu::unique_by_key(keys, values[, eq])   in place: keeps the first pair of every run
//                                            of consecutive equal (eq) keys, shrinks both
//                                            vectors to that number and returns it
//   gpu::unique_by_key_copy(keys, values, out_keys, out_values[, eq])
//                                            the same pairs to the outputs; returns how
//                                            many (outputs too small: a pacxx::error,
//                                            both unchanged)
//
// One compaction pass over the zipped keys and values (pacxx/algorithm/copy_if.hpp,
// pacxx/agent/select.hpp, which says why in place is safe) and the tiny tile clear
// (the copy counts the runs first where an output is smaller than the keys).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <tuple>
#include <utility>

#include <range/v3/view/zip.hpp>

#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {
// eq on the keys of two (key, value) pairs.
template <class Eq> struct keys_equal {
  Eq eq;
  template <class P> bool operator()(const P &a, const P &b) const {
    return bool(eq(std::get<0>(a), std::get<0>(b)));
  }
};
} // namespace detail

// In place: keeps the first pair of every run of consecutive keys equal under eq, shrinks
// both vectors to that number and returns it. One compaction pass and the tile clear. keys
// and values of different sizes are a pacxx::error.
template <class K, class V, class Eq = std::equal_to<>>
std::size_t unique_by_key(vector<K> &keys, vector<V> &values, Eq eq = Eq{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::unique_by_key", keys);
  static_assert(pacxx::is_device_copyable<Eq>::value,
                "gpu::unique_by_key: the comparison must be trivially copyable (capture values "
                "only)");
  const std::size_t n = keys.size();
  if (values.size() != n)
    throw pacxx::error("gpu::unique_by_key: " + std::to_string(n) + " keys and " +
                       std::to_string(values.size()) + " values");
  auto pairs =
      ranges::views::zip(pacxx::detail::device_view(keys), pacxx::detail::device_view(values));
  const std::size_t kept =
      detail::select_into("gpu::unique_by_key", pairs, n,
                          detail::select_unique<detail::keys_equal<Eq>>{{eq}}, pairs, n);
  detail::truncate(keys, kept);
  detail::truncate(values, kept);
  return kept;
}

// The first pair of every run of equal keys to out_keys and out_values; returns how many.
// One pass and the tile clear (and a counting launch where an output is smaller than keys).
// Values shorter than keys, or outputs too small (both then unchanged), are a pacxx::error.
template <class K, class V, class OK, class OV, class Eq = std::equal_to<>>
std::size_t unique_by_key_copy(K &&keys, V &&values, OK &&out_keys, OV &&out_values, Eq eq = Eq{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::unique_by_key_copy", keys);
  static_assert(pacxx::is_device_copyable<Eq>::value,
                "gpu::unique_by_key_copy: the comparison must be trivially copyable (capture "
                "values only)");
  auto k = pacxx::detail::device_view(std::forward<K>(keys));
  auto v = pacxx::detail::device_view(std::forward<V>(values));
  auto ok = pacxx::detail::device_view(std::forward<OK>(out_keys));
  auto ov = pacxx::detail::device_view(std::forward<OV>(out_values));
  const std::size_t n = pacxx::detail::device_size(k);
  if (pacxx::detail::device_size_alongside(v, n) < n)
    throw pacxx::error("gpu::unique_by_key_copy: " + std::to_string(n) + " keys and " +
                       std::to_string(pacxx::detail::device_size(v)) + " values");
  const std::size_t mk = pacxx::detail::device_size(ok), mv = pacxx::detail::device_size(ov);
  return detail::select_into("gpu::unique_by_key_copy", ranges::views::zip(k, v), n,
                             detail::select_unique<detail::keys_equal<Eq>>{{eq}},
                             ranges::views::zip(ok, ov), mk < mv ? mk : mv);
}

} // namespace gpu

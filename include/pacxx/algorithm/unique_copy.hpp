// gpu::unique_copy(in, out[, eq]): copies the first element of every run of consecutive
// equal (eq, == by default) elements of in to out, in order; returns how many (as
// std::unique_copy). One compaction pass (pacxx/algorithm/copy_if.hpp, the selector of
// gpu::action::unique) and the tiny tile clear; where out is smaller than in, the runs
// are counted first and an out too small is a pacxx::error with out unchanged.
// in: any device range (views fused); out a gpu::vector or a writable view over one.
#pragma once
#include <cstddef>
#include <functional>
#include <utility>

#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

// Copies the first element of every run of consecutive elements equal under eq to out, in
// order; returns how many (std::unique_copy). One pass and the tile clear (and a counting
// launch where out is smaller than in); an out too small is a pacxx::error with out
// unchanged.
template <class In, class Out, class Eq = std::equal_to<>>
std::size_t unique_copy(In &&in, Out &&out, Eq eq = Eq{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::unique_copy", in);
  static_assert(pacxx::is_device_copyable<Eq>::value,
                "gpu::unique_copy: the comparison must be trivially copyable (capture values "
                "only)");
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  const std::size_t n = pacxx::detail::device_size(src), m = pacxx::detail::device_size(dst);
  return detail::select_into("gpu::unique_copy", src, n, detail::select_unique<Eq>{eq}, dst, m);
}

} // namespace gpu

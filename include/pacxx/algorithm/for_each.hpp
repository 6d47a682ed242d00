// gpu::for_each(rng, f): f(x) for every element, in one kernel; f may write through
// the references a view gives (e.g. the tuple of references of a zip).
#pragma once
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/kernel.hpp"

namespace gpu {

template <class Rng, class F> void for_each(Rng &&rng, F f) {
  static_assert(pacxx::is_device_copyable<F>::value,
                "gpu::for_each: the function must be trivially copyable (capture values and "
                "device pointers only)");
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(in);
  if (n == 0)
    return;
  using P = pacxx::policy::elementwise;
  pacxx::kernel(
      [f](const auto &view, std::size_t n) {
        auto v = view; // a thread's own copy: some views keep state while iterated
        auto first = ranges::begin(v);
        using D = ranges::range_difference_t<decltype(v)>;
        pacxx::detail::for_each_index<P>(n,
                                         [&](std::size_t i) { f(*(first + static_cast<D>(i))); });
      },
      pacxx::detail::elementwise_grid<P>(n))(in, n);
}

// gpu::fill(rng, value): every element becomes value.
template <class Rng, class T> void fill(Rng &&rng, const T &value) {
  gpu::for_each(std::forward<Rng>(rng), [value](auto &&x) { x = value; });
}

} // namespace gpu

// In place: gpu::replace(rng, old_value, new_value) sets every element equal to
// old_value to new_value; gpu::replace_if(rng, pred, new_value) every element for which
// pred holds. As std's; one gpu::for_each each (rng: a gpu::vector or a writable view).
#pragma once
#include <utility>

#include "pacxx/algorithm/for_each.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {
template <class Pred, class T> struct replace_where {
  Pred pred;
  T value;
  template <class X> void operator()(X &&x) const {
    if (pred(static_cast<const X &>(x)))
      x = value;
  }
};
template <class T> struct equals {
  T value;
  template <class X> bool operator()(const X &x) const { return bool(x == value); }
};
} // namespace detail

// Sets every element of rng for which pred holds to value, in place (std::replace_if); rng
// a gpu::vector or writable view. One gpu::for_each launch.
template <class Rng, class Pred, class T> void replace_if(Rng &&rng, Pred pred, const T &value) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::replace_if", rng);
  static_assert(pacxx::is_device_copyable<Pred>::value && pacxx::is_device_copyable<T>::value,
                "gpu::replace_if: the predicate and the value must be trivially copyable");
  gpu::for_each(std::forward<Rng>(rng), detail::replace_where<Pred, T>{pred, value});
}

// Sets every element of rng equal to old_value to value, in place (std::replace). One
// launch.
template <class Rng, class T, class U> void replace(Rng &&rng, const T &old_value, const U &value) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::replace", rng);
  gpu::replace_if(std::forward<Rng>(rng), detail::equals<T>{old_value}, value);
}

} // namespace gpu

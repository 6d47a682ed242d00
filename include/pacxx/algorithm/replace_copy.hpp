// gpu::replace_copy(in, out, old_value, new_value): out[i] = in[i], or new_value where
// in[i] == old_value; gpu::replace_copy_if(in, out, pred, new_value): new_value where
// pred(in[i]). As std's; one gpu::transform each (in: any device range, views fused;
// out a gpu::vector or a writable view with at least size(in) elements).
#pragma once
#include <type_traits>
#include <utility>

#include "pacxx/algorithm/replace.hpp"
#include "pacxx/algorithm/transform.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {
template <class Pred, class T> struct replaced {
  Pred pred;
  T value;
  template <class X> typename std::decay<X>::type operator()(X &&x) const {
    using V = typename std::decay<X>::type;
    const V v = std::forward<X>(x);
    return pred(v) ? V(value) : v;
  }
};
} // namespace detail

// out[i] = value where pred(in[i]), else in[i] (std::replace_copy_if). One gpu::transform
// launch; an output with fewer than size(in) elements is a pacxx::error.
template <class In, class Out, class Pred, class T>
void replace_copy_if(In &&in, Out &&out, Pred pred, const T &value) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::replace_copy_if", in);
  static_assert(pacxx::is_device_copyable<Pred>::value && pacxx::is_device_copyable<T>::value,
                "gpu::replace_copy_if: the predicate and the value must be trivially copyable");
  gpu::transform(std::forward<In>(in), std::forward<Out>(out),
                 detail::replaced<Pred, T>{pred, value});
}

// out[i] = value where in[i] == old_value, else in[i] (std::replace_copy). One launch, as
// replace_copy_if.
template <class In, class Out, class T, class U>
void replace_copy(In &&in, Out &&out, const T &old_value, const U &value) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::replace_copy", in);
  gpu::replace_copy_if(std::forward<In>(in), std::forward<Out>(out), detail::equals<T>{old_value},
                       value);
}

} // namespace gpu

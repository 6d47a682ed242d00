// gpu::action::transform(f): in place, eager. `v |= action::transform(f)` changes v;
// `std::move(v) | action::transform(f) | action::transform(g)` returns the container.
#pragma once
#include <utility>

#include "pacxx/action/compose.hpp"
#include "pacxx/algorithm/transform.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace action {

template <class F> struct transform_action {
  F f;

  template <class T> friend vector<T> &operator|=(vector<T> &v, const transform_action &a) {
    gpu::transform(v, v, a.f);
    return v;
  }
  template <class T> friend vector<T> operator|(vector<T> &&v, const transform_action &a) {
    v |= a;
    return std::move(v);
  }
};

template <class F> transform_action<F> transform(F f) { return {f}; }

template <class F> struct is_action<transform_action<F>> : std::true_type {};

} // namespace action
} // namespace gpu

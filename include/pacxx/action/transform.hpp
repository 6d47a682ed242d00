// gpu::action::transform(f): in place, eager. `v |= action::transform(f)` changes v;
// `std::move(v) | action::transform(f) | action::transform(g)` returns the container.
#pragma once
#include <utility>

#include "pacxx/action/compose.hpp"
#include "pacxx/algorithm/transform.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace action {

// The action that replaces each element x of a gpu::vector by f(x) (made by
// gpu::action::transform).
template <class F> struct transform_action {
  F f; // applied to every element

  // v[i] = a.f(v[i]) in place: gpu::transform(v, v, f), one kernel; returns v.
  template <class T> friend vector<T> &operator|=(vector<T> &v, const transform_action &a) {
    gpu::transform(v, v, a.f);
    return v;
  }
  // v |= a, returning the container.
  template <class T> friend vector<T> operator|(vector<T> &&v, const transform_action &a) {
    v |= a;
    return std::move(v);
  }
};

// The action that applies f to every element in place: v |= gpu::action::transform(f). f
// must be trivially copyable.
template <class F> transform_action<F> transform(F f) { return {f}; }

// transform is an action (it composes with |).
template <class F> struct is_action<transform_action<F>> : std::true_type {};

} // namespace action
} // namespace gpu

// Composition of the in-place actions, as range-v3 composes its actions:
// `v |= gpu::action::sort | gpu::action::unique` applies sort, then unique, to v;
// `std::move(v) | (a | b)` returns the container. Each action runs as it would alone
// (eager: its own launches), in order.
#pragma once
#include <type_traits>
#include <utility>

#include "pacxx/vector.hpp"

namespace gpu {
namespace action {

// Whether A is one of gpu's actions (each action header specialises it).
template <class A> struct is_action : std::false_type {};

// The action a | b: applies a, then b, to a gpu::vector, each as it would run alone.
template <class A, class B> struct composed_action {
  A first;  // applied first
  B second; // applied second

  // Applies first, then second, to v in place; returns v.
  template <class T> friend vector<T> &operator|=(vector<T> &v, const composed_action &c) {
    v |= c.first;
    v |= c.second;
    return v;
  }
  // Applies both to v and returns the container.
  template <class T> friend vector<T> operator|(vector<T> &&v, const composed_action &c) {
    v |= c;
    return std::move(v);
  }
};
// A composition is an action.
template <class A, class B> struct is_action<composed_action<A, B>> : std::true_type {};

// Composes two actions: (a | b) applies a, then b (range-v3's action composition).
template <class A, class B,
          class = typename std::enable_if<is_action<A>::value && is_action<B>::value>::type>
composed_action<A, B> operator|(const A &a, const B &b) {
  return {a, b};
}

} // namespace action
} // namespace gpu

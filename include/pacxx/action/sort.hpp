// gpu::action::sort, gpu::action::sort(comp), gpu::action::stable_sort and
// gpu::action::stable_sort(comp): in place, eager, as gpu::sort / gpu::stable_sort
// (pacxx/algorithm/sort.hpp). `v |= action::sort` sorts v; `std::move(v) |
// action::sort | action::unique` returns the container; `action::sort |
// action::unique` is an action of its own (pacxx/action/compose.hpp).
#pragma once
#include <functional>
#include <utility>

#include "pacxx/action/compose.hpp"
#include "pacxx/algorithm/sort.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace action {

template <class Comp> struct sort_action {
  Comp comp;

  template <class T> friend vector<T> &operator|=(vector<T> &v, const sort_action &a) {
    gpu::sort(v, a.comp);
    return v;
  }
  template <class T> friend vector<T> operator|(vector<T> &&v, const sort_action &a) {
    v |= a;
    return std::move(v);
  }
};

// `sort` orders with std::less<>; `sort(comp)` with comp. Every gpu sort is stable, so
// stable_sort is the same action.
struct sort_fn : sort_action<std::less<>> {
  template <class Comp> sort_action<Comp> operator()(Comp comp) const { return {comp}; }
};
static constexpr sort_fn sort{};
static constexpr sort_fn stable_sort{};

template <class Comp> struct is_action<sort_action<Comp>> : std::true_type {};
template <> struct is_action<sort_fn> : std::true_type {};

} // namespace action
} // namespace gpu

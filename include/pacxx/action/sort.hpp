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

// The action that sorts a gpu::vector by comp, stably (gpu::sort).
template <class Comp> struct sort_action {
  Comp comp; // the order (a strict weak ordering)

  // Sorts v in place by a.comp (gpu::sort(v, comp): its launches); returns v.
  template <class T> friend vector<T> &operator|=(vector<T> &v, const sort_action &a) {
    gpu::sort(v, a.comp);
    return v;
  }
  // v |= a, returning the container.
  template <class T> friend vector<T> operator|(vector<T> &&v, const sort_action &a) {
    v |= a;
    return std::move(v);
  }
};

// `sort` orders with std::less<>; `sort(comp)` with comp. Every gpu sort is stable, so
// stable_sort is the same action.
struct sort_fn : sort_action<std::less<>> {
  // The sort action with comp: v |= gpu::action::sort(std::greater<>{}).
  template <class Comp> sort_action<Comp> operator()(Comp comp) const { return {comp}; }
};
// Sorts ascending (v |= gpu::action::sort), or by comp (gpu::action::sort(comp)).
static constexpr sort_fn sort{};
// The same action as gpu::action::sort: every gpu sort is stable.
static constexpr sort_fn stable_sort{};

// sort(comp) is an action (it composes with |).
template <class Comp> struct is_action<sort_action<Comp>> : std::true_type {};
// sort is an action (it composes with |).
template <> struct is_action<sort_fn> : std::true_type {};

} // namespace action
} // namespace gpu

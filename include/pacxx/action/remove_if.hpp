// gpu::action::remove_if(pred): in place, eager, stable. `v |= action::remove_if(p)`
// removes the elements for which p is true and shrinks v (its memory is kept, as
// std::vector::erase keeps it); `std::move(v) | action::remove_if(p) | ...` returns the
// container. One compaction in place: the tile clear and one pass
// (pacxx/algorithm/copy_if.hpp; pacxx/agent/select.hpp says why in place is safe).
#pragma once
#include <utility>

#include "pacxx/action/compose.hpp"
#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace action {

// The action that removes the elements for which pred holds (made by
// gpu::action::remove_if).
template <class Pred> struct remove_if_action {
  Pred pred; // elements for which it holds are removed

  // Removes v's elements for which a.pred holds, stably, and shrinks v (its memory kept).
  // One compaction in place: the tile clear and one pass. pred must be trivially copyable.
  template <class T> friend vector<T> &operator|=(vector<T> &v, const remove_if_action &a) {
    static_assert(pacxx::is_device_copyable<Pred>::value,
                  "gpu::action::remove_if: the predicate must be trivially copyable (capture "
                  "values only)");
    auto view = pacxx::detail::device_view(v);
    const std::size_t n = v.size();
    const std::size_t kept = gpu::detail::select_into(
        "gpu::action::remove_if", view, n, gpu::detail::select_if<Pred, true>{a.pred}, view, n);
    gpu::detail::truncate(v, kept);
    return v;
  }
  // v |= a, returning the container.
  template <class T> friend vector<T> operator|(vector<T> &&v, const remove_if_action &a) {
    v |= a;
    return std::move(v);
  }
};

// The action that removes the elements for which pred holds: v |=
// gpu::action::remove_if(pred).
template <class Pred> remove_if_action<Pred> remove_if(Pred pred) { return {pred}; }

// remove_if is an action (it composes with |).
template <class Pred> struct is_action<remove_if_action<Pred>> : std::true_type {};

} // namespace action
} // namespace gpu

// gpu::action::unique and gpu::action::unique(eq): in place, eager, stable. Keeps the
// first element of every run of consecutive equal (eq) elements and shrinks v (its
// memory is kept, as std::vector::erase keeps it); `std::move(v) | action::unique`
// returns the container. One compaction in place: the tile clear and one pass
// (pacxx/algorithm/copy_if.hpp; pacxx/agent/select.hpp says why in place is safe).
#pragma once
#include <functional>
#include <utility>

#include "pacxx/action/compose.hpp"
#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace action {

// The action that keeps the first element of every run of consecutive elements equal under
// eq (gpu::action::unique).
template <class Eq> struct unique_action {
  Eq eq; // the equality that makes a run

  // Keeps the first element of every run of consecutive equal (a.eq) elements of v and
  // shrinks v (its memory kept). One compaction in place: the tile clear and one pass. eq
  // must be trivially copyable.
  template <class T> friend vector<T> &operator|=(vector<T> &v, const unique_action &a) {
    static_assert(pacxx::is_device_copyable<Eq>::value,
                  "gpu::action::unique: the comparison must be trivially copyable (capture "
                  "values only)");
    auto view = pacxx::detail::device_view(v);
    const std::size_t n = v.size();
    const std::size_t kept = gpu::detail::select_into(
        "gpu::action::unique", view, n, gpu::detail::select_unique<Eq>{a.eq}, view, n);
    gpu::detail::truncate(v, kept);
    return v;
  }
  // v |= a, returning the container.
  template <class T> friend vector<T> operator|(vector<T> &&v, const unique_action &a) {
    v |= a;
    return std::move(v);
  }
};

// `unique` compares with ==; `unique(eq)` with eq.
struct unique_fn : unique_action<std::equal_to<>> {
  // The unique action with eq as the equality.
  template <class Eq> unique_action<Eq> operator()(Eq eq) const { return {eq}; }
};
// Removes consecutive duplicates (==): v |= gpu::action::unique, or with eq:
// gpu::action::unique(eq).
static constexpr unique_fn unique{};

// unique(eq) is an action (it composes with |).
template <class Eq> struct is_action<unique_action<Eq>> : std::true_type {};
// unique is an action (it composes with |).
template <> struct is_action<unique_fn> : std::true_type {};

} // namespace action
} // namespace gpu

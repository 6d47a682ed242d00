// gpu::views::indices(w[, h[, d]]): the index space of a w x h x d array as a lazy
// random-access range of pacxx::index2 (two extents) or pacxx::index3 (three), x
// fastest; of std::size_t for one extent, like view::iota(0, w). It fuses into every
// algorithm as iota does:
//   gpu::for_each(gpu::views::indices(w, h), [=](pacxx::index2 i) { ... i.x, i.y ... });
//   gpu::transform(gpu::views::indices(w, h), out, mandelbrot);   // out[x + w * y]
// Given directly to gpu::for_each or gpu::transform it makes them launch a 2D/3D grid
// whose threads know their coordinates (no division per element: see
// pacxx/view/shaped.hpp). Under another view (indices | view::transform(f)) it is an
// ordinary range whose element i costs a division and a remainder by w.
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>

#include <range/v3/view/facade.hpp>

#include "pacxx/detail/fast_divmod.hpp"
#include "pacxx/error.hpp"
#include "pacxx/thread.hpp"
#include "pacxx/view/md.hpp"

namespace gpu {
namespace views {

// The coordinates of a 1D, 2D or 3D index space, x fastest (what views::indices makes).
template <class Rank> class indices_view : public ranges::view_facade<indices_view<Rank>> {
  friend ranges::range_access;
  std::size_t e_[3] = {0, 1, 1};

  using value_type = typename std::conditional<
      Rank::value == 1, std::size_t,
      typename std::conditional<Rank::value == 2, pacxx::index2, pacxx::index3>::type>::type;

  // By the divisions of the cursor (pacxx/detail/fast_divmod.hpp: a multiply and a shift
  // each for fewer than 2^31 indices).
  using divmod = pacxx::detail::fast_divmod;
  static std::size_t make(std::size_t i, const divmod &, const divmod &, std::size_t *) {
    return i;
  }
  static pacxx::index2 make(std::size_t i, const divmod &w, const divmod &, pacxx::index2 *) {
    std::size_t y, x;
    w.divmod(i, y, x);
    return {x, y};
  }
  static pacxx::index3 make(std::size_t i, const divmod &w, const divmod &h, pacxx::index3 *) {
    std::size_t yz, x, z, y;
    w.divmod(i, yz, x);
    h.divmod(yz, z, y);
    return {x, y, z};
  }

  struct cursor : gpu::detail::index_position<cursor> {
    divmod w_, h_;
    cursor() = default;
    cursor(divmod w, divmod h, std::size_t i) : w_(w), h_(h) { this->i_ = i; }
    value_type read() const { return make(this->i_, w_, h_, static_cast<value_type *>(nullptr)); }
  };
  cursor begin_cursor() const { return {divmod(e_[0], size()), divmod(e_[1], size()), 0}; }
  cursor end_cursor() const { return {divmod(e_[0], size()), divmod(e_[1], size()), size()}; }

public:
  static constexpr std::size_t rank = Rank::value; // 1, 2 or 3
  indices_view() = default;
  // The w by h by d coordinates (h and d are 1 below rank 2 and 3).
  indices_view(std::size_t w, std::size_t h, std::size_t d) : e_{w, h, d} {}
  // The number of coordinates, w * h * d.
  std::size_t size() const noexcept { return e_[0] * e_[1] * e_[2]; }
  // The extent along x.
  std::size_t width() const noexcept { return e_[0]; }
  // The extent along y (1 below rank 2).
  std::size_t height() const noexcept { return e_[1]; }
  // The extent along z (1 below rank 3).
  std::size_t depth() const noexcept { return e_[2]; }
  // Extent k (0: x, 1: y, 2: z); 1 for an axis beyond the rank.
  std::size_t extent(std::size_t k) const noexcept { return k < 3 ? e_[k] : 1; }
  // The same index space with extents (w, h, d) (md_view::with_extents).
  indices_view with_extents(std::size_t w, std::size_t h, std::size_t d) const noexcept {
    return {w, h, d};
  }
  // The element at coordinates (x, y, z), for algorithms that know the shape.
  value_type at_coords(std::size_t x, std::size_t y, std::size_t z) const noexcept {
    return at(x, y, z, static_cast<value_type *>(nullptr));
  }

private:
  std::size_t at(std::size_t x, std::size_t, std::size_t, std::size_t *) const noexcept {
    return x;
  }
  pacxx::index2 at(std::size_t x, std::size_t y, std::size_t, pacxx::index2 *) const noexcept {
    return {x, y};
  }
  pacxx::index3 at(std::size_t x, std::size_t y, std::size_t z, pacxx::index3 *) const noexcept {
    return {x, y, z};
  }
};
template <class Rank> constexpr std::size_t indices_view<Rank>::rank;

namespace detail {
template <std::size_t D>
indices_view<std::integral_constant<std::size_t, D>> make_indices(std::size_t w, std::size_t h,
                                                                  std::size_t d) {
  const std::size_t e[3] = {w, h, d};
  std::size_t n = 1;
  for (std::size_t k = 0; k < 3; ++k) {
    if (e[k] != 0 && n > ~std::size_t(0) / e[k])
      throw pacxx::error("gpu::views::indices: " + std::to_string(w) + " x " + std::to_string(h) +
                         " x " + std::to_string(d) + " indices are more than 2^64");
    n *= e[k];
  }
  return {w, h, d};
}
} // namespace detail

// The indices 0 .. w-1.
inline auto indices(std::size_t w) { return detail::make_indices<1>(w, 1, 1); }
// The coordinates (x, y) of a w by h grid, as pacxx::index2, x fastest.
inline auto indices(std::size_t w, std::size_t h) { return detail::make_indices<2>(w, h, 1); }
// The coordinates (x, y, z) of a w by h by d grid, as pacxx::index3, x fastest.
inline auto indices(std::size_t w, std::size_t h, std::size_t d) {
  return detail::make_indices<3>(w, h, d);
}

} // namespace views
} // namespace gpu

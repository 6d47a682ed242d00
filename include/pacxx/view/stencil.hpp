// gpu::stencil<R>(a, boundary): the neighbourhoods of an md view (pacxx/view/md.hpp) of
// rank 1, 2 or 3, as a shaped range: element (x, y, z) is the neighbourhood n of that
// element, whose n(dx[, dy[, dz]]) reads the element dx columns right, dy rows down and
// dz planes back, for |dx| <= Rx, |dy| <= Ry, |dz| <= Rz. One radius serves every axis
// (stencil<1>: 3x3 in 2D); one per axis gives other shapes (stencil<2, 0>: 5 x 1).
//
//   gpu::transform(gpu::stencil<1>(gpu::md(img, w, h), gpu::boundary::clamp), out,
//                  [](auto n) { return 0.25f * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1)); });
//
// Outside the array the boundary decides what is read:
//   boundary::clamp        the nearest element (index -1 reads 0)
//   boundary::mirror       reflection without repeating the edge (index -1 reads 1, as
//                          Accelerate's Mirror, numpy's "reflect", OpenCV's default)
//   boundary::wrap         periodic (index -1 reads n - 1)
//   boundary::constant(v)  the value v
//   boundary::unchecked    nothing: the element function must stay inside, e.g. with
//                          n.inside(dx, dy) (gpu::neighbours' contract)
// gpu::transform and gpu::for_each call the element function with one of two
// neighbourhood types: for an element whose whole neighbourhood is inside the array,
// one whose reads have no boundary test; for the others, one that applies the boundary.
// So the interior pays one test per element, not one per read. (Both instantiate the
// function: it must be generic, `auto n`.)
// gpu::stencil2<R>(a, b, boundary): two arrays of the same extents under one stencil;
// the element is a pair of neighbourhoods (n.first, n.second).
// Reading a neighbourhood costs global-memory (cache) reads: for small radii the caches
// serve the reuse between threads. On a GPU, gpu::transform over a 2D or 3D stencil
// gives a thread 4 consecutive rows (planes) and computes an interior group's values
// before it stores them, so the rows they share are one load (policy::shaped_stencil).
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/view/facade.hpp>

#include "pacxx/error.hpp"
#include "pacxx/view/md.hpp"

namespace gpu {
namespace boundary {

// Each mode maps a coordinate c (maybe outside [0, n)) to one inside, or says to read
// the constant.
// The type of boundary::clamp: outside reads the nearest element.
struct clamp_t {
  static constexpr bool reads_constant = false; // maps coordinates inside
  // c clamped to [0, n).
  static std::ptrdiff_t map(std::ptrdiff_t c, std::ptrdiff_t n) noexcept {
    return c < 0 ? 0 : c >= n ? n - 1 : c;
  }
};
// The type of boundary::mirror: outside reads the reflection (not repeating the edge).
struct mirror_t {
  static constexpr bool reads_constant = false; // maps coordinates inside
  // c reflected into [0, n) without repeating the edge (-1 -> 1, n -> n - 2).
  static std::ptrdiff_t map(std::ptrdiff_t c, std::ptrdiff_t n) noexcept {
    if (n == 1)
      return 0;
    const std::ptrdiff_t p = 2 * (n - 1); // the reflection's period
    c = c < 0 ? -c : c;
    c %= p;
    return c >= n ? p - c : c;
  }
};
// The type of boundary::wrap: periodic.
struct wrap_t {
  static constexpr bool reads_constant = false; // maps coordinates inside
  // c modulo n, in [0, n).
  static std::ptrdiff_t map(std::ptrdiff_t c, std::ptrdiff_t n) noexcept {
    c %= n;
    return c < 0 ? c + n : c;
  }
};
// The type of boundary::unchecked: no mapping (the element function stays inside).
struct unchecked_t {
  static constexpr bool reads_constant = false; // maps coordinates inside
  // c itself.
  static std::ptrdiff_t map(std::ptrdiff_t c, std::ptrdiff_t) noexcept { return c; }
};
// The type of boundary::constant(v): outside reads v.
template <class T> struct constant_t {
  static constexpr bool reads_constant = true; // reads `value` outside
  T value;                                     // what a read outside gives
};

// Outside the array, the nearest element (index -1 reads 0).
constexpr clamp_t clamp{};
// Outside the array, the reflection without repeating the edge (index -1 reads 1).
constexpr mirror_t mirror{};
// Periodic (index -1 reads n - 1).
constexpr wrap_t wrap{};
// No boundary: the element function must stay inside (n.inside(dx, dy)).
constexpr unchecked_t unchecked{};
// Outside the array, the value v.
template <class T> constant_t<T> constant(T v) { return {v}; }

} // namespace boundary

namespace detail {

template <std::size_t Rx, std::size_t Ry, std::size_t Rz> struct radius {
  static constexpr std::size_t x = Rx, y = Ry, z = Rz;
};

// The element type a neighbourhood of md view M reads.
template <class M>
using md_value_t = typename std::decay<decltype(std::declval<const M &>()(0, 0, 0))>::type;

// The neighbourhood of element (x, y, z) of `a`. Interior: every read is inside, no test.
template <class M, class B, class Radius, bool Interior> class neighbourhood_md {
  M a_;
  B b_;
  std::size_t x_, y_, z_;
  // The element's iterator and the strides: an interior read is one add and a load.
  // (Through a(x + dx, y + dy, z + dz) each read cost two 64-bit multiplications: the
  // 2D 5-point stencil moved 800 GB/s where the naive CUDA kernel moves 1940, H100.)
  decltype(std::declval<const M &>().iterator_at(0, 0, 0)) c_;
  std::ptrdiff_t s_[3];

  template <class BB>
  md_value_t<M> read(std::ptrdiff_t x, std::ptrdiff_t y, std::ptrdiff_t z, const BB &) const {
    const auto w = static_cast<std::ptrdiff_t>(a_.width()),
               h = static_cast<std::ptrdiff_t>(a_.height()),
               d = static_cast<std::ptrdiff_t>(a_.depth());
    return a_(static_cast<std::size_t>(BB::map(x, w)), static_cast<std::size_t>(BB::map(y, h)),
              static_cast<std::size_t>(BB::map(z, d)));
  }
  template <class T>
  md_value_t<M> read(std::ptrdiff_t x, std::ptrdiff_t y, std::ptrdiff_t z,
                     const boundary::constant_t<T> &c) const {
    if (x < 0 || y < 0 || z < 0 || static_cast<std::size_t>(x) >= a_.width() ||
        static_cast<std::size_t>(y) >= a_.height() || static_cast<std::size_t>(z) >= a_.depth())
      return md_value_t<M>(c.value);
    return a_(static_cast<std::size_t>(x), static_cast<std::size_t>(y),
              static_cast<std::size_t>(z));
  }

public:
  static constexpr bool interior = Interior;
  neighbourhood_md(const M &a, const B &b, std::size_t x, std::size_t y, std::size_t z)
      : a_(a), b_(b), x_(x), y_(y), z_(z), c_(a.iterator_at(x, y, z)) {
    a.strides(s_);
  }
  neighbourhood_md() = default;

  // The element (x + dx, y + dy, z + dz), through the boundary where it is outside.
  md_value_t<M> operator()(int dx, int dy = 0, int dz = 0) const {
    if (Interior)
      return *(c_ + static_cast<std::ptrdiff_t>(dx * s_[0] + dy * s_[1] + dz * s_[2]));
    return read(static_cast<std::ptrdiff_t>(x_) + dx, static_cast<std::ptrdiff_t>(y_) + dy,
                static_cast<std::ptrdiff_t>(z_) + dz, b_);
  }
  // Whether (x + dx, y + dy, z + dz) is inside the array (unsigned wrap-around makes one
  // comparison per axis cover both sides).
  bool inside(int dx, int dy = 0, int dz = 0) const noexcept {
    return x_ + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(dx)) < a_.width() &&
           y_ + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(dy)) < a_.height() &&
           z_ + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(dz)) < a_.depth();
  }
  // The neighbourhood k elements further along axis (1: y, 2: z), from an interior one:
  // its iterator moved by k strides, so the reads of a group of neighbourhoods are
  // constant offsets from one address, and the compiler sees which are the same element.
  neighbourhood_md along(std::size_t axis, std::size_t k) const {
    neighbourhood_md n = *this;
    n.c_ = c_ + static_cast<std::ptrdiff_t>(k) * s_[axis];
    (axis == 1 ? n.y_ : n.z_) += k;
    return n;
  }
  std::size_t x() const noexcept { return x_; }
  std::size_t y() const noexcept { return y_; }
  std::size_t z() const noexcept { return z_; }
  std::size_t width() const noexcept { return a_.width(); }
  std::size_t height() const noexcept { return a_.height(); }
  std::size_t depth() const noexcept { return a_.depth(); }
  // The array itself, for reads the stencil's shape does not cover.
  const M &array() const noexcept { return a_; }
};

// Whether the whole neighbourhood of (x, y, z) is inside extents (w, h, d).
template <class Radius>
inline bool neighbourhood_inside(std::size_t x, std::size_t y, std::size_t z, std::size_t w,
                                 std::size_t h, std::size_t d) noexcept {
  return x >= Radius::x && x + Radius::x < w && y >= Radius::y && y + Radius::y < h &&
         z >= Radius::z && z + Radius::z < d;
}

} // namespace detail

namespace detail {
// A neighbourhood (or gpu::stencil2's pair of them) k elements along axis (1: y, 2: z).
template <class N> N neighbourhood_along(const N &n, std::size_t axis, std::size_t k) {
  return n.along(axis, k);
}
template <class A, class B>
std::pair<A, B> neighbourhood_along(const std::pair<A, B> &n, std::size_t axis, std::size_t k) {
  return {n.first.along(axis, k), n.second.along(axis, k)};
}

// No second array (gpu::stencil).
struct no_array {
  std::size_t extent(std::size_t) const noexcept { return 1; }
};

// What a stencil view holds and gives: its arrays and boundary, the neighbourhoods of an
// element with and without boundary tests.
template <class B, class Radius, class M1, class M2> struct stencil_parts {
  M1 a;
  M2 b;
  B boundary;

  template <bool I> auto make(std::size_t x, std::size_t y, std::size_t z, no_array) const {
    return neighbourhood_md<M1, B, Radius, I>(a, boundary, x, y, z);
  }
  template <bool I, class N2>
  auto make(std::size_t x, std::size_t y, std::size_t z, const N2 &) const {
    return std::make_pair(neighbourhood_md<M1, B, Radius, I>(a, boundary, x, y, z),
                          neighbourhood_md<M2, B, Radius, I>(b, boundary, x, y, z));
  }
  std::size_t extent(std::size_t k) const noexcept { return a.extent(k); }
  auto at_coords(std::size_t x, std::size_t y, std::size_t z) const {
    return make<false>(x, y, z, b);
  }
};
} // namespace detail

// The shaped range of gpu::stencil (M2 = detail::no_array) and gpu::stencil2.
template <class B, class Radius, class M1, class M2>
class stencil_view : public ranges::view_facade<stencil_view<B, Radius, M1, M2>> {
  friend ranges::range_access;
  detail::stencil_parts<B, Radius, M1, M2> p_;

  // As a range (under another view): row-major order, a division per element.
  struct cursor : detail::index_position<cursor> {
    detail::stencil_parts<B, Radius, M1, M2> p_;
    cursor() = default;
    cursor(const detail::stencil_parts<B, Radius, M1, M2> &p, std::size_t i) : p_(p) {
      this->i_ = i;
    }
    auto read() const {
      const std::size_t i_ = this->i_;
      const std::size_t w = p_.extent(0), h = p_.extent(1), yz = i_ / w;
      return p_.at_coords(i_ % w, yz % h, yz / h);
    }
  };
  cursor begin_cursor() const { return {p_, 0}; }
  cursor end_cursor() const { return {p_, size()}; }

  template <class M>
  static M part_with_extents(const M &m, std::size_t w, std::size_t h, std::size_t d) {
    return m.with_extents(w, h, d);
  }
  static detail::no_array part_with_extents(detail::no_array m, std::size_t, std::size_t,
                                            std::size_t) {
    return m;
  }

public:
  static constexpr std::size_t rank = M1::rank; // the arrays' rank: 1, 2 or 3
  using radius = Radius;                        // the radii (radius::x, ::y, ::z)
  stencil_view() = default;
  // The stencil over a (and b, for gpu::stencil2) with this boundary.
  stencil_view(B boundary, M1 a, M2 b) : p_{std::move(a), std::move(b), boundary} {}

  // The arrays' extent along axis k (0: x, 1: y, 2: z).
  std::size_t extent(std::size_t k) const noexcept { return p_.extent(k); }
  // The number of elements (neighbourhoods).
  std::size_t size() const noexcept { return p_.a.size(); }
  // The neighbourhood(s) of (x, y, z), applying the boundary.
  auto at_coords(std::size_t x, std::size_t y, std::size_t z) const {
    return p_.at_coords(x, y, z);
  }
  // The same without boundary tests, where interior(x, y, z).
  auto at_coords_interior(std::size_t x, std::size_t y, std::size_t z) const {
    return p_.template make<true>(x, y, z, p_.b);
  }
  // at_coords_interior k elements along axis (1: y, 2: z) from n, an interior
  // neighbourhood of this view, where that element is interior too: n's reads moved by
  // k rows (planes), as one base address for a thread's group (detail/shaped.hpp).
  template <class N> static N interior_along(const N &n, std::size_t axis, std::size_t k) {
    return detail::neighbourhood_along(n, axis, k);
  }
  // The same stencil over its arrays with extents (w, h, d) (md_view::with_extents).
  stencil_view with_extents(std::size_t w, std::size_t h, std::size_t d) const {
    stencil_view s = *this;
    s.p_.a = p_.a.with_extents(w, h, d);
    s.p_.b = part_with_extents(p_.b, w, h, d);
    return s;
  }
  // Whether the whole neighbourhood of (x, y, z) is inside the arrays.
  bool interior(std::size_t x, std::size_t y, std::size_t z) const noexcept {
    return detail::neighbourhood_inside<Radius>(x, y, z, extent(0), extent(1), extent(2));
  }
};
template <class B, class Radius, class M1, class M2>
constexpr std::size_t stencil_view<B, Radius, M1, M2>::rank;

namespace detail {

template <std::size_t D, std::size_t... R> struct radius_of;
template <std::size_t D, std::size_t R> struct radius_of<D, R> {
  using type = radius<R, D >= 2 ? R : 0, D >= 3 ? R : 0>;
};
template <std::size_t D, std::size_t Rx, std::size_t Ry> struct radius_of<D, Rx, Ry> {
  static_assert(D >= 2, "gpu::stencil: two radii for a view of rank 2 or 3");
  using type = radius<Rx, Ry, 0>;
};
template <std::size_t D, std::size_t Rx, std::size_t Ry, std::size_t Rz>
struct radius_of<D, Rx, Ry, Rz> {
  static_assert(D == 3, "gpu::stencil: three radii for a view of rank 3");
  using type = radius<Rx, Ry, Rz>;
};

template <class B> void check_boundary(const B &) {
  static_assert(std::is_empty<B>::value || B::reads_constant,
                "gpu::stencil: the boundary is one of gpu::boundary::clamp, mirror, wrap, "
                "unchecked or constant(v)");
}
} // namespace detail

// The neighbourhoods of the md view a (rank 1 to 3) with radii R (one for every axis, or
// one per axis) and the boundary (gpu::boundary::clamp, mirror, wrap, unchecked or
// constant(v)), as a shaped range: element (x, y, z) is the neighbourhood n whose
// n(dx[, dy[, dz]]) reads a relative element. A view: nothing is computed or stored.
template <std::size_t... R, class M, class B> auto stencil(const M &a, B boundary) {
  static_assert(detail::is_md_view<M>::value,
                "gpu::stencil: the array is an md view (gpu::md(v, w[, h[, d]]))");
  static_assert(sizeof...(R) >= 1 && sizeof...(R) <= 3, "gpu::stencil<R>: one to three radii");
  detail::check_boundary(boundary);
  using Radius = typename detail::radius_of<M::rank, R...>::type;
  return stencil_view<B, Radius, M, detail::no_array>(boundary, a, detail::no_array{});
}

// Two md views of the same extents under one stencil: element (x, y, z) is a pair of
// neighbourhoods (n.first, n.second). Extents that differ are a pacxx::error.
template <std::size_t... R, class M1, class M2, class B>
auto stencil2(const M1 &a, const M2 &b, B boundary) {
  static_assert(detail::is_md_view<M1>::value && detail::is_md_view<M2>::value,
                "gpu::stencil2: both arrays are md views (gpu::md(v, w[, h[, d]]))");
  static_assert(M1::rank == M2::rank, "gpu::stencil2: the arrays have the same rank");
  detail::check_boundary(boundary);
  for (std::size_t k = 0; k < 3; ++k)
    if (a.extent(k) != b.extent(k))
      throw pacxx::error("gpu::stencil2: the arrays' extents differ (" +
                         std::to_string(a.extent(0)) + " x " + std::to_string(a.extent(1)) + " x " +
                         std::to_string(a.extent(2)) + " and " + std::to_string(b.extent(0)) +
                         " x " + std::to_string(b.extent(1)) + " x " + std::to_string(b.extent(2)) +
                         ")");
  using Radius = typename detail::radius_of<M1::rank, R...>::type;
  return stencil_view<B, Radius, M1, M2>(boundary, a, b);
}

} // namespace gpu

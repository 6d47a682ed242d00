// gpu::md(range, w[, h[, d]]): a one-, two- or three-dimensional view over any
// random-access device range (a gpu::vector, a slice, a gpu::device_span, a transform
// view...). Element (x, y, z) is element x + w * (y + h * z) of the range: row-major, x
// fastest, as images and C arrays are laid out. The view is
//   - an array: a(x, y[, z]) reads (and, where the range is writable, writes) an
//     element; width(), height(), depth(), extent(k); a.row(y), a.column(x),
//     a.plane(z) and gpu::transposed(a) are views of the same elements, never copies;
//   - a range: its elements in row-major order, so every view and algorithm applies
//     (gpu::reduce(a, 0.f), a | view::transform(f)); the md views a pacxx algorithm meets
//     at the top of its input (gpu::transform(a, out, f), gpu::for_each(a, f)) launch a
//     2D/3D grid and address elements by coordinates, with no division per element;
//   - trivially copyable bytes (the range's view and six integers), so a kernel or an
//     element function may capture it and read any element of the array:
//       gpu::for_each(gpu::views::indices(w, h),
//                     [o = gpu::md(out, w, h)](pacxx::index2 i) mutable { o(i.x, i.y) = 0; });
//     (the vector must outlive the work, as with every view over an lvalue vector).
//
// Layouts (the third template argument, chosen by the functions that make the views):
//   md_layout::row_major     x + w * (y + h * z) from an offset: the elements are
//                            contiguous in the range; a row or plane of one is one too.
//   md_layout::column_major  rank 2, y + h * x: gpu::transposed of a row-major view.
//   md_layout::strided       x * s0 + y * s1 + z * s2: a column of a row-major array, a
//                            row of a transposed one, a replicated row (stride 0).
// Iterating a non-row-major view as a range finds each element's coordinates with a
// division; algorithms that know the view's shape (transform, for_each, reduce_rows,
// reduce_columns, transpose) do not.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/iterator/operations.hpp>
#include <range/v3/range/access.hpp>
#include <range/v3/range/primitives.hpp>
#include <range/v3/range/traits.hpp>
#include <range/v3/view/all.hpp>
#include <range/v3/view/facade.hpp>
#include <range/v3/view/interface.hpp>

#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/thread.hpp"

namespace gpu {

namespace md_layout {
// Element (x, y, z) at offset + x + w * (y + h * z): contiguous rows (gpu::md's views).
struct row_major {};
// Rank 2, element (x, y) at y + h * x: gpu::transposed of a row-major view.
struct column_major {};
// Element (x, y, z) at x * s0 + y * s1 + z * s2: a column, a replicated row (stride 0).
struct strided {};
} // namespace md_layout

template <class V, class Rank, class Layout> class md_view;

namespace detail {

// w * h * d, or a pacxx::error naming `what` where it does not fit in 64 bits.
inline std::size_t md_product(const std::size_t (&e)[3], const char *what) {
  std::size_t n = 1;
  for (std::size_t k = 0; k < 3; ++k) {
    if (e[k] != 0 && n > std::numeric_limits<std::size_t>::max() / e[k])
      throw pacxx::error(std::string(what) + ": the extents " + std::to_string(e[0]) + " x " +
                         std::to_string(e[1]) + " x " + std::to_string(e[2]) +
                         " have more elements than 2^64");
    n *= e[k];
  }
  return n;
}

// The parts every md view has: its range, extents, strides and offset. The strides are
// used by the strided layout only; the others compute theirs from the extents.
template <class V, std::size_t D> struct md_shape {
  std::size_t e[3] = {1, 1, 1};
  std::ptrdiff_t s[3] = {1, 0, 0};
  std::size_t off = 0;
};

template <class L> struct md_offset;
template <> struct md_offset<md_layout::row_major> {
  template <class S>
  static std::size_t at(const S &m, std::size_t x, std::size_t y, std::size_t z) noexcept {
    return m.off + x + m.e[0] * (y + m.e[1] * z);
  }
  template <class S> static void strides(const S &m, std::ptrdiff_t (&s)[3]) noexcept {
    s[0] = 1;
    s[1] = static_cast<std::ptrdiff_t>(m.e[0]);
    s[2] = static_cast<std::ptrdiff_t>(m.e[0] * m.e[1]);
  }
};
template <> struct md_offset<md_layout::column_major> {
  template <class S>
  static std::size_t at(const S &m, std::size_t x, std::size_t y, std::size_t) noexcept {
    return m.off + y + m.e[1] * x;
  }
  template <class S> static void strides(const S &m, std::ptrdiff_t (&s)[3]) noexcept {
    s[0] = static_cast<std::ptrdiff_t>(m.e[1]);
    s[1] = 1;
    s[2] = 0;
  }
};
template <> struct md_offset<md_layout::strided> {
  template <class S>
  static std::size_t at(const S &m, std::size_t x, std::size_t y, std::size_t z) noexcept {
    return static_cast<std::size_t>(
        static_cast<std::ptrdiff_t>(m.off) + static_cast<std::ptrdiff_t>(x) * m.s[0] +
        static_cast<std::ptrdiff_t>(y) * m.s[1] + static_cast<std::ptrdiff_t>(z) * m.s[2]);
  }
  template <class S> static void strides(const S &m, std::ptrdiff_t (&s)[3]) noexcept {
    s[0] = m.s[0];
    s[1] = m.s[1];
    s[2] = m.s[2];
  }
};

template <std::size_t D> using rank_t = std::integral_constant<std::size_t, D>;

// The position of a range-v3 cursor that reads element i of a view by its linear index
// (md, indices and stencil views): the cursor derives from it and adds read().
template <class Cursor> struct index_position {
  std::size_t i_ = 0;
  void next() { ++i_; }
  void prev() { --i_; }
  void advance(std::ptrdiff_t n) {
    i_ = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i_) + n);
  }
  std::ptrdiff_t distance_to(const Cursor &o) const {
    return static_cast<std::ptrdiff_t>(o.i_) - static_cast<std::ptrdiff_t>(i_);
  }
  bool equal(const Cursor &o) const { return i_ == o.i_; }
};

template <class V, std::size_t D, class L>
md_view<V, rank_t<D>, L> make_md(V base, const std::size_t (&e)[3], const std::ptrdiff_t (&s)[3],
                                 std::size_t off) {
  md_view<V, rank_t<D>, L> m;
  m.base_ = std::move(base);
  for (std::size_t k = 0; k < 3; ++k) {
    m.shape_.e[k] = e[k];
    m.shape_.s[k] = s[k];
  }
  m.shape_.off = off;
  return m;
}

} // namespace detail

// An md view of rank D (Rank = std::integral_constant<std::size_t, D>) over the range
// view V. Built by gpu::md, gpu::transposed, gpu::replicate_rows/_columns and the
// row/column/plane members; its members are shallow-const, as a span's.
template <class V, class Rank, class Layout>
class md_view : public ranges::view_facade<md_view<V, Rank, Layout>> {
  friend ranges::range_access;
  template <class V2, std::size_t D2, class L2>
  friend md_view<V2, detail::rank_t<D2>, L2>
  detail::make_md(V2, const std::size_t (&)[3], const std::ptrdiff_t (&)[3], std::size_t);
  template <class, class, class> friend class md_view;

  mutable V base_; // mutable: a range-v3 view need not be iterable when const
  detail::md_shape<V, Rank::value> shape_;

  using offset_of = detail::md_offset<Layout>;
  using base_iterator = ranges::iterator_t<V>;
  using base_difference = ranges::range_difference_t<V>;

  // Row-major order over the view's own extents: element i is at coordinates
  // (i % w, i / w % h, i / (w * h)), a division each unless the layout is row-major.
  struct cursor : detail::index_position<cursor> {
    base_iterator first_;
    detail::md_shape<V, Rank::value> m_;
    cursor() = default;
    cursor(base_iterator first, const detail::md_shape<V, Rank::value> &m, std::size_t i)
        : first_(first), m_(m) {
      this->i_ = i;
    }
    decltype(auto) read() const {
      const std::size_t i_ = this->i_;
      std::size_t k;
      if (std::is_same<Layout, md_layout::row_major>::value) {
        k = m_.off + i_;
      } else {
        const std::size_t x = i_ % m_.e[0], yz = i_ / m_.e[0];
        k = Rank::value == 1   ? offset_of::at(m_, i_, 0, 0)
            : Rank::value == 2 ? offset_of::at(m_, x, yz, 0)
                               : offset_of::at(m_, x, yz % m_.e[1], yz / m_.e[1]);
      }
      return *(first_ + static_cast<base_difference>(k));
    }
  };
  cursor begin_cursor() const { return {ranges::begin(base_), shape_, 0}; }
  cursor end_cursor() const { return {ranges::begin(base_), shape_, size()}; }

  template <std::size_t D, class L>
  md_view<V, detail::rank_t<D>, L> part(const std::size_t (&e)[3], const std::ptrdiff_t (&s)[3],
                                        std::size_t off) const {
    return detail::make_md<V, D, L>(base_, e, s, off);
  }

public:
  static constexpr std::size_t rank = Rank::value; // 1, 2 or 3
  using layout = Layout;                           // how coordinates map to the range
  using base_view = V;                             // the range indexed

  md_view() = default;

  // The extent along x.
  std::size_t width() const noexcept { return shape_.e[0]; }
  // The extent along y (1 below rank 2).
  std::size_t height() const noexcept { return shape_.e[1]; }
  // The extent along z (1 below rank 3).
  std::size_t depth() const noexcept { return shape_.e[2]; }
  // Extent k (0: x, 1: y, 2: z); 1 for an axis beyond the rank.
  std::size_t extent(std::size_t k) const noexcept { return k < 3 ? shape_.e[k] : 1; }
  // The number of elements, width() * height() * depth().
  std::size_t size() const noexcept { return shape_.e[0] * shape_.e[1] * shape_.e[2]; }
  // The range the view indexes.
  V base() const { return base_; }
  // Where element (0, 0, 0) is in base().
  std::size_t offset() const noexcept { return shape_.off; }

  // Element (x, y, z), unchecked. The coordinates an axis beyond the rank has are 0.
  decltype(auto) operator()(std::size_t x, std::size_t y = 0, std::size_t z = 0) const {
    return *(ranges::begin(base_) + static_cast<base_difference>(offset_of::at(shape_, x, y, z)));
  }
  // The same, for algorithms that take any shaped range (pacxx/view/shaped.hpp).
  decltype(auto) at_coords(std::size_t x, std::size_t y, std::size_t z) const {
    return (*this)(x, y, z);
  }
  // The same view with extents (w, h, d): an algorithm's kernel passes its staged copies
  // of the view's own extents (pacxx/algorithm/detail/shaped.hpp), so that the JIT sees
  // them, and a row-major view's strides, as constants.
  md_view with_extents(std::size_t w, std::size_t h, std::size_t d) const {
    md_view m = *this;
    m.shape_.e[0] = w;
    m.shape_.e[1] = h;
    m.shape_.e[2] = d;
    return m;
  }
  // The range's iterator at element (x, y, z), and the view's strides: element
  // (x + dx, y + dy, z + dz) is *(iterator_at(x, y, z) + dx s[0] + dy s[1] + dz s[2])
  // (for a row-major view s[0] is the constant 1). Stencils read neighbours so, with
  // no multiplication a neighbour.
  auto iterator_at(std::size_t x, std::size_t y, std::size_t z) const {
    return ranges::begin(base_) + static_cast<base_difference>(offset_of::at(shape_, x, y, z));
  }
  // Writes the view's strides into s (see iterator_at).
  void strides(std::ptrdiff_t (&s)[3]) const noexcept { offset_of::strides(shape_, s); }

  // Row y (of plane z): a 1D view of width() elements.
  auto row(std::size_t y, std::size_t z = 0) const {
    static_assert(rank >= 2, "gpu::md_view::row: a view of rank 2 or 3 has rows");
    std::ptrdiff_t s[3];
    strides(s);
    const std::size_t e[3] = {shape_.e[0], 1, 1};
    const std::ptrdiff_t t[3] = {s[0], 0, 0};
    const std::size_t off = offset_of::at(shape_, 0, y, z);
    using L = typename std::conditional<std::is_same<Layout, md_layout::row_major>::value,
                                        md_layout::row_major, md_layout::strided>::type;
    return part<1, L>(e, t, off);
  }
  // Column x (of plane z): a 1D view of height() elements.
  auto column(std::size_t x, std::size_t z = 0) const {
    static_assert(rank >= 2, "gpu::md_view::column: a view of rank 2 or 3 has columns");
    std::ptrdiff_t s[3];
    strides(s);
    const std::size_t e[3] = {shape_.e[1], 1, 1};
    const std::ptrdiff_t t[3] = {s[1], 0, 0};
    const std::size_t off = offset_of::at(shape_, x, 0, z);
    using L = typename std::conditional<std::is_same<Layout, md_layout::column_major>::value,
                                        md_layout::row_major, md_layout::strided>::type;
    return part<1, L>(e, t, off);
  }
  // Plane z of a 3D view: a 2D view of width() x height() elements.
  auto plane(std::size_t z) const {
    static_assert(rank == 3, "gpu::md_view::plane: a view of rank 3 has planes");
    std::ptrdiff_t s[3];
    strides(s);
    const std::size_t e[3] = {shape_.e[0], shape_.e[1], 1};
    const std::ptrdiff_t t[3] = {s[0], s[1], 0};
    return part<2, Layout>(e, t, offset_of::at(shape_, 0, 0, z));
  }
  // The view with axes x and y exchanged: element (x, y, z) is this one's (y, x, z).
  auto transposed() const {
    std::ptrdiff_t s[3];
    strides(s);
    const std::size_t e[3] = {shape_.e[1], shape_.e[0], shape_.e[2]};
    const std::ptrdiff_t t[3] = {s[1], s[0], s[2]};
    using L = typename std::conditional<
        rank == 2 && std::is_same<Layout, md_layout::row_major>::value, md_layout::column_major,
        typename std::conditional<rank == 2 && std::is_same<Layout, md_layout::column_major>::value,
                                  md_layout::row_major, md_layout::strided>::type>::type;
    return part<rank, L>(e, t, shape_.off);
  }
};

template <class V, class Rank, class Layout> constexpr std::size_t md_view<V, Rank, Layout>::rank;

namespace detail {
template <class R> struct is_md_view : std::false_type {};
template <class V, class Rank, class L> struct is_md_view<md_view<V, Rank, L>> : std::true_type {};

template <std::size_t D, class R>
auto md_of(R &&range, const std::size_t (&e)[3], const char *what, std::false_type /*md*/) {
  auto base = pacxx::detail::device_view(std::forward<R>(range));
  const std::size_t n = md_product(e, what);
  using B = decltype(base);
  if (ranges::range_cardinality<B>::value != ranges::infinite) {
    const std::size_t size = pacxx::detail::device_size(base);
    if (size != n)
      throw pacxx::error(std::string(what) + ": a range of " + std::to_string(size) +
                         " elements is not " + std::to_string(e[0]) + " x " + std::to_string(e[1]) +
                         " x " + std::to_string(e[2]) +
                         " (extents must multiply to the range's size)");
  }
  const std::ptrdiff_t s[3] = {1, 0, 0};
  return make_md<B, D, md_layout::row_major>(std::move(base), e, s, 0);
}
// Reshaping a row-major md view keeps its range and offset (no nested views).
template <std::size_t D, class R>
auto md_of(R &&range, const std::size_t (&e)[3], const char *what, std::true_type /*md*/) {
  using M = typename std::decay<R>::type;
  static_assert(std::is_same<typename M::layout, md_layout::row_major>::value,
                "gpu::md: reshaping needs a row-major (contiguous) view; a transposed, "
                "strided or replicated view must be copied first (gpu::copy)");
  const std::size_t n = md_product(e, what);
  if (range.size() != n)
    throw pacxx::error(std::string(what) + ": a view of " + std::to_string(range.size()) +
                       " elements is not " + std::to_string(e[0]) + " x " + std::to_string(e[1]) +
                       " x " + std::to_string(e[2]) + " (extents must multiply to its size)");
  const std::ptrdiff_t s[3] = {1, 0, 0};
  return make_md<typename M::base_view, D, md_layout::row_major>(range.base(), e, s,
                                                                 range.offset());
}
} // namespace detail

// The md view of `range` with extents w (x, fastest), h (y) and d (z); w * h * d must be
// the range's size. The range is referred to as views refer to it: an lvalue vector must
// outlive the view, an rvalue one is owned by it.
template <class R> auto md(R &&range, std::size_t w) {
  const std::size_t e[3] = {w, 1, 1};
  return detail::md_of<1>(std::forward<R>(range), e, "gpu::md",
                          detail::is_md_view<typename std::decay<R>::type>{});
}
// range as a w by h matrix (row-major, x fastest); w * h must be the range's size.
template <class R> auto md(R &&range, std::size_t w, std::size_t h) {
  const std::size_t e[3] = {w, h, 1};
  return detail::md_of<2>(std::forward<R>(range), e, "gpu::md",
                          detail::is_md_view<typename std::decay<R>::type>{});
}
// range as a w by h by d array (x fastest); w * h * d must be the range's size.
template <class R> auto md(R &&range, std::size_t w, std::size_t h, std::size_t d) {
  const std::size_t e[3] = {w, h, d};
  return detail::md_of<3>(std::forward<R>(range), e, "gpu::md",
                          detail::is_md_view<typename std::decay<R>::type>{});
}
// A row-major md view with new extents over the same elements (Accelerate's reshape).
template <class V, class Rank, class... E>
auto reshape(const md_view<V, Rank, md_layout::row_major> &a, E... extents) {
  static_assert(sizeof...(E) >= 1 && sizeof...(E) <= 3, "gpu::reshape: one to three extents");
  return md(a, static_cast<std::size_t>(extents)...);
}

// a with x and y exchanged, as a view (no copy): element (x, y) is a(y, x).
template <class V, class Rank, class L> auto transposed(const md_view<V, Rank, L> &a) {
  static_assert(Rank::value >= 2, "gpu::transposed: a view of rank 2 or 3");
  return a.transposed();
}

// The h x row.size() view whose every row is `row` (Accelerate's replicate of a vector
// along a new outer axis; numpy's broadcast_to): element (x, y) is row[x]. Read-only in
// spirit: all rows are the same elements.
template <class R> auto replicate_rows(R &&row, std::size_t h) {
  auto base = pacxx::detail::device_view(std::forward<R>(row));
  const std::size_t e[3] = {pacxx::detail::device_size(base), h, 1};
  detail::md_product(e, "gpu::replicate_rows");
  const std::ptrdiff_t s[3] = {1, 0, 0};
  return detail::make_md<decltype(base), 2, md_layout::strided>(std::move(base), e, s, 0);
}
// The w x column.size() view whose every column is `column`: element (x, y) is column[y].
template <class R> auto replicate_columns(R &&column, std::size_t w) {
  auto base = pacxx::detail::device_view(std::forward<R>(column));
  const std::size_t e[3] = {w, pacxx::detail::device_size(base), 1};
  detail::md_product(e, "gpu::replicate_columns");
  const std::ptrdiff_t s[3] = {0, 1, 0};
  return detail::make_md<decltype(base), 2, md_layout::strided>(std::move(base), e, s, 0);
}

} // namespace gpu

// gpu::neighbours(image, width): a 2D stencil view. Element i of the view is the
// neighbourhood of pixel i of a row-major image (width x height) held in a gpu::vector:
// it knows the pixel's coordinates and reads any neighbour, so a stencil (gradient,
// divergence, blur) is an ordinary view::transform over it and fuses into the eager
// algorithm that consumes it, as element-wise views do. Built from view::iota and
// view::transform: (pointer, width, height) are all a kernel receives.
//
//   auto dx = gpu::neighbours(u, w) | view::transform([](auto nb) {
//     return nb.inside(1, 0) ? nb(1, 0) - nb(0, 0) : 0.f;   // forward difference
//   });
//
// Reading a neighbour outside the image is the caller's to avoid (inside() tells);
// coordinates are 32-bit, so an image has fewer than 2^32 pixels.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>

#include "pacxx/detail/fast_divmod.hpp"
#include "pacxx/error.hpp"
#include "pacxx/vector.hpp"

namespace gpu {

// The neighbourhood of one pixel: (dx, dy) addresses the pixel dx columns to the right
// and dy rows down. T is const for a const image.
template <class T> class neighbourhood {
  T *p_;
  std::uint32_t x_, y_, width_, height_;

public:
  // The neighbourhood of pixel (x, y) at device address p of a width x height image.
  neighbourhood(T *p, std::uint32_t x, std::uint32_t y, std::uint32_t width,
                std::uint32_t height) noexcept
      : p_(p), x_(x), y_(y), width_(width), height_(height) {}

  // The pixel's column.
  std::uint32_t x() const noexcept { return x_; }
  // The pixel's row.
  std::uint32_t y() const noexcept { return y_; }
  // The image's width (pixels per row).
  std::uint32_t width() const noexcept { return width_; }
  // The image's height (rows).
  std::uint32_t height() const noexcept { return height_; }

  // Whether pixel (x + dx, y + dy) is in the image (unsigned wrap-around makes one
  // comparison per axis cover both sides).
  bool inside(int dx, int dy) const noexcept {
    return x_ + static_cast<std::uint32_t>(dx) < width_ &&
           y_ + static_cast<std::uint32_t>(dy) < height_;
  }
  // The neighbour (dx, dy), unchecked; (0, 0) is the pixel itself.
  T &operator()(int dx, int dy) const noexcept {
    return p_[static_cast<std::ptrdiff_t>(dy) * static_cast<std::ptrdiff_t>(width_) + dx];
  }
};

namespace detail {
// Index -> neighbourhood: a trivially copyable function object (device pointer and sizes).
template <class T> struct neighbourhood_at {
  T *data;
  std::uint32_t width, height;
  pacxx::detail::fast_divmod rows; // i / width without a division (images < 2^31 pixels)
  neighbourhood<T> operator()(std::uint32_t i) const noexcept {
    const auto y = static_cast<std::uint32_t>(rows.div(i));
    return neighbourhood<T>(data + i, i - y * width, y, width, height);
  }
};

template <class T> auto neighbours_of(T *data, std::size_t size, std::size_t width) {
  if (width == 0 || size % width != 0)
    throw pacxx::error("gpu::neighbours: an image of " + std::to_string(size) +
                       " pixels has no rows of width " + std::to_string(width));
  if (size >= (std::size_t(1) << 32))
    throw pacxx::error("gpu::neighbours: images have fewer than 2^32 pixels, this one has " +
                       std::to_string(size));
  const auto w = static_cast<std::uint32_t>(width);
  const auto h = static_cast<std::uint32_t>(size / width);
  // A 32-bit iota: range-v3 counts a 64-bit unsigned iota with its diffmax_t, whose
  // RANGES_ENSUREs call fprintf(stderr) under NDEBUG, which no kernel may reach.
  return ranges::views::iota(std::uint32_t(0), static_cast<std::uint32_t>(size)) |
         ranges::views::transform(
             neighbourhood_at<T>{data, w, h, pacxx::detail::fast_divmod(w, size)});
}
} // namespace detail

// The neighbourhoods of the pixels of the row-major image (rows of `width` pixels), as a
// view: element i is the neighbourhood of pixel i. A width of 0 or one that does not
// divide image.size(), or 2^32 pixels or more, is a pacxx::error. The image must outlive
// the view (it refers to the vector as an lvalue view does).
template <class T> auto neighbours(gpu::vector<T> &image, std::size_t width) {
  return detail::neighbours_of(image.data(), image.size(), width);
}
// The same over a const image (read-only neighbourhoods).
template <class T> auto neighbours(const gpu::vector<T> &image, std::size_t width) {
  return detail::neighbours_of(image.data(), image.size(), width);
}
// A temporary image would be gone before the view is used.
template <class T> void neighbours(gpu::vector<T> &&image, std::size_t width) = delete;

} // namespace gpu

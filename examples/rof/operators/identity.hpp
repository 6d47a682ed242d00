// Linear operator: the identity, K u = u, its own adjoint, ||K||^2 = 1. What the data
// term is applied to.
#pragma once
#include <range/v3/view/all.hpp>

namespace rof {

struct identity {
  using dual_type = float; // the value of K u at a pixel
  static constexpr float norm_squared() { return 1.f; }

  // Views of K u and of K^T y over images in gpu::vectors (lvalues; they must outlive
  // the views).
  template <class Image> auto apply(Image &u) const { return ranges::views::all(u); }
  template <class Dual> auto adjoint(Dual &y) const { return ranges::views::all(y); }
};

} // namespace rof

// Linear operator: the forward-difference gradient with Neumann boundary (the last
// column's x difference and the last row's y difference are 0), K u = grad u, and its
// adjoint K^T p = -div p (backward differences), exactly the transpose of K. Both are
// stencils, views over gpu::neighbours. ||K||^2 <= 8.
#pragma once
#include <cstddef>

#include <range/v3/view/transform.hpp>

#include <pacxx/neighbours.hpp>

#include "../vec2.hpp"

namespace rof {

struct gradient {
  std::size_t width = 0;

  using dual_type = vec2;
  static constexpr float norm_squared() { return 8.f; }

  struct forward {
    template <class N> vec2 operator()(const N &u) const {
      const float c = u(0, 0);
      return {u.inside(1, 0) ? u(1, 0) - c : 0.f, u.inside(0, 1) ? u(0, 1) - c : 0.f};
    }
  };
  // -div p at a pixel: px(x-1) - px(x) + py(y-1) - py(y), a component taken as 0 where
  // the forward difference it stands for is 0 (last column, last row).
  struct minus_divergence {
    template <class N> float operator()(const N &p) const {
      const vec2 c = p(0, 0);
      float d = 0.f;
      if (p.inside(1, 0))
        d -= c.x;
      if (p.inside(-1, 0))
        d += p(-1, 0).x;
      if (p.inside(0, 1))
        d -= c.y;
      if (p.inside(0, -1))
        d += p(0, -1).y;
      return d;
    }
  };

  template <class Image> auto apply(Image &u) const {
    return gpu::neighbours(u, width) | ranges::views::transform(forward{});
  }
  template <class Dual> auto adjoint(Dual &p) const {
    return gpu::neighbours(p, width) | ranges::views::transform(minus_divergence{});
  }
};

} // namespace rof

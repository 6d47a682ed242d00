// Proximal operator: the dual of isotropic total variation F(z) = alpha sum_i |z_i|_2
// (z = grad u, one 2-vector a pixel). F* is the indicator of the set where every
// |y_i|_2 <= alpha, so its proximal operator, for any step, is the projection of each
// pixel's dual vector onto the L2 ball of radius alpha:
//   prox(y~)_i = y~_i / max(1, |y~_i|_2 / alpha).
#pragma once
#include <range/v3/view/transform.hpp>

#include "../vec2.hpp"

namespace rof {

class tv_dual {
  float alpha_;

public:
  explicit tv_dual(float alpha = 1.f) : alpha_(alpha) {}

  struct project {
    float inv_alpha;
    vec2 operator()(vec2 y) const {
      const float n = norm(y) * inv_alpha;
      return n > 1.f ? (1.f / n) * y : y;
    }
  };
  template <class Tilde> auto prox(Tilde &&y_tilde, float /*sigma*/) const {
    return std::forward<Tilde>(y_tilde) | ranges::views::transform(project{1.f / alpha_});
  }

  struct value {
    float alpha;
    float operator()(vec2 z) const { return alpha * norm(z); }
  };
  template <class KU> auto energy(KU &&ku) const {
    return std::forward<KU>(ku) | ranges::views::transform(value{alpha_});
  }
};

} // namespace rof

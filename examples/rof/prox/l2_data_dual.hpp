// Proximal operator: the dual of the L2 data term F(z) = lambda/2 ||z - f||^2, whose
// convex conjugate is F*(y) = ||y||^2 / (2 lambda) + <y, f>:
//   prox_{sigma F*}(y~) = (y~ - sigma f) / (1 + sigma / lambda),   pixel by pixel.
// Views in, views out: prox() maps a view of y~ to a view of the new dual values.
#pragma once
#include <tuple>

#include <range/v3/view/all.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include <pacxx/vector.hpp>

namespace rof {

class l2_data_dual {
  const gpu::vector<float> *f_;
  float lambda_;

public:
  // f: the noisy image (must outlive the solver); lambda: the data term's weight.
  l2_data_dual(const gpu::vector<float> &f, float lambda) : f_(&f), lambda_(lambda) {}

  struct step {
    float sigma, scale; // scale = 1 / (1 + sigma / lambda)
    template <class P> float operator()(const P &t) const {
      return (std::get<0>(t) - sigma * std::get<1>(t)) * scale;
    }
  };
  template <class Tilde> auto prox(Tilde &&y_tilde, float sigma) const {
    return ranges::views::zip(std::forward<Tilde>(y_tilde), ranges::views::all(*f_)) |
           ranges::views::transform(step{sigma, 1.f / (1.f + sigma / lambda_)});
  }

  // F(K u) pixel by pixel, from a view of K u.
  struct value {
    float half_lambda;
    template <class P> float operator()(const P &t) const {
      const float d = std::get<0>(t) - std::get<1>(t);
      return half_lambda * d * d;
    }
  };
  template <class KU> auto energy(KU &&ku) const {
    return ranges::views::zip(std::forward<KU>(ku), ranges::views::all(*f_)) |
           ranges::views::transform(value{0.5f * lambda_});
  }
};

} // namespace rof

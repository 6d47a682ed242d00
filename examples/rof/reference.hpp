// The CPU reference: the same ROF iteration as the GPU solver (Chambolle-Pock, dual of
// TV and of the L2 data term, tau = sigma = 1/3, theta = 1), written as plain loops
// over arrays, no views, no modules. The tests compare the two.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

namespace rof {

class reference_solver {
  std::size_t w_, h_;
  float lambda_, tau_, sigma_;
  std::vector<float> f_, u_, u_bar_, px_, py_, q_;

public:
  reference_solver(const std::vector<float> &f, std::size_t width, float lambda)
      : w_(width), h_(f.size() / width), lambda_(lambda), tau_(1.f / std::sqrt(9.f)), sigma_(tau_),
        f_(f), u_(f), u_bar_(f), px_(f.size(), 0.f), py_(f.size(), 0.f), q_(f.size(), 0.f) {}

  const std::vector<float> &u() const { return u_; }

  void iterate() {
    const float scale = 1.f / (1.f + sigma_ / lambda_);
    for (std::size_t y = 0; y < h_; ++y)
      for (std::size_t x = 0; x < w_; ++x) {
        const std::size_t i = y * w_ + x;
        const float c = u_bar_[i];
        const float gx = x + 1 < w_ ? u_bar_[i + 1] - c : 0.f;
        const float gy = y + 1 < h_ ? u_bar_[i + w_] - c : 0.f;
        float ax = px_[i] + sigma_ * gx, ay = py_[i] + sigma_ * gy;
        const float n = std::sqrt(ax * ax + ay * ay);
        if (n > 1.f) {
          ax = (1.f / n) * ax;
          ay = (1.f / n) * ay;
        }
        px_[i] = ax;
        py_[i] = ay;
        q_[i] = (q_[i] + sigma_ * c - sigma_ * f_[i]) * scale;
      }
    for (std::size_t y = 0; y < h_; ++y)
      for (std::size_t x = 0; x < w_; ++x) {
        const std::size_t i = y * w_ + x;
        float div = 0.f; // -div p
        if (x + 1 < w_)
          div -= px_[i];
        if (x > 0)
          div += px_[i - 1];
        if (y + 1 < h_)
          div -= py_[i];
        if (y > 0)
          div += py_[i - w_];
        const float old = u_[i];
        const float next = old - tau_ * (div + q_[i]);
        u_[i] = next;
        u_bar_[i] = 2.f * next - old;
      }
  }

  // lambda/2 ||u - f||^2 + sum |grad u|_2
  double energy() const {
    double e = 0;
    for (std::size_t y = 0; y < h_; ++y)
      for (std::size_t x = 0; x < w_; ++x) {
        const std::size_t i = y * w_ + x;
        const double gx = x + 1 < w_ ? u_[i + 1] - u_[i] : 0.0;
        const double gy = y + 1 < h_ ? u_[i + w_] - u_[i] : 0.0;
        const double d = u_[i] - f_[i];
        e += 0.5 * lambda_ * d * d + std::sqrt(gx * gx + gy * gy);
      }
    return e;
  }
};

} // namespace rof

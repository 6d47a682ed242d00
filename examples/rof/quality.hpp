// PSNR on the device: one reduction over the two images, no copy back.
#pragma once
#include <cmath>

#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include <pacxx/pacxx.hpp>

namespace rof {

struct squared_difference {
  template <class P> double operator()(const P &p) const {
    const float d = std::get<0>(p) - std::get<1>(p);
    return static_cast<double>(d) * d;
  }
};
// Peak signal-to-noise ratio in dB of u against clean, both in [0, 1].
inline double psnr(const gpu::vector<float> &u, const gpu::vector<float> &clean) {
  const double se = gpu::reduce(
      ranges::views::zip(u, clean) | ranges::views::transform(squared_difference{}), 0.0);
  return 10.0 * std::log10(static_cast<double>(u.size()) / se);
}

} // namespace rof

// Test images: a piecewise-constant scene (background, rectangles, a disc, a stripe
// pattern) in [0, 1], and Gaussian noise with a fixed seed (std::mt19937, whose output
// the standard fixes, and Box-Muller written here, so every library gives the same
// image).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace rof {

inline std::vector<float> piecewise_constant(std::size_t w, std::size_t h) {
  std::vector<float> img(w * h);
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      const double fx = (x + 0.5) / w, fy = (y + 0.5) / h;
      float v = 0.2f;
      if (fx > 0.1 && fx < 0.45 && fy > 0.1 && fy < 0.5)
        v = 0.8f;
      if (fx > 0.55 && fx < 0.9 && fy > 0.15 && fy < 0.35)
        v = 0.5f;
      const double dx = fx - 0.65, dy = fy - 0.68;
      if (dx * dx + dy * dy < 0.2 * 0.2)
        v = 0.95f;
      if (fy > 0.6 && fy < 0.9 && fx > 0.1 && fx < 0.4 && (static_cast<int>(fx * 20) % 2 == 0))
        v = 0.05f;
      img[y * w + x] = v;
    }
  return img;
}

// img + N(0, sd^2) per pixel, seeded.
inline std::vector<float> add_gaussian_noise(const std::vector<float> &img, float sd,
                                             std::uint32_t seed) {
  std::mt19937 gen(seed);
  const double two_pi = 6.283185307179586;
  auto uniform = [&] { return (gen() + 0.5) / 4294967296.0; }; // (0, 1)
  std::vector<float> out(img.size());
  for (std::size_t i = 0; i < img.size(); i += 2) {
    const double r = std::sqrt(-2.0 * std::log(uniform())), t = two_pi * uniform();
    out[i] = img[i] + static_cast<float>(sd * r * std::cos(t));
    if (i + 1 < img.size())
      out[i + 1] = img[i + 1] + static_cast<float>(sd * r * std::sin(t));
  }
  return out;
}

// Peak signal-to-noise ratio in dB for images in [0, 1].
inline double psnr(const std::vector<float> &a, const std::vector<float> &clean) {
  double se = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = static_cast<double>(a[i]) - clean[i];
    se += d * d;
  }
  return 10.0 * std::log10(static_cast<double>(a.size()) / se);
}

} // namespace rof

// Canny edge detection (Accelerate's benchmark; Canny 1986) on md views and stencils:
//
//   1. Gaussian blur: the 5-tap binomial filter [1 4 6 4 1] / 16 along x, then along y
//      (gpu::stencil<2, 0> and gpu::stencil<0, 2>, clamped borders);
//   2. Sobel gradients (gpu::stencil<1>, clamped): the squared magnitude and the
//      direction quantised to 0 (horizontal), 45, 90 or 135 degrees, written by
//      coordinates into two md views;
//   3. non-maximum suppression and the double threshold in one stencil over the
//      magnitude and the direction together (gpu::stencil2<1>, zero outside): a pixel
//      is kept where its magnitude is a maximum across the edge, then classed strong
//      (above `high`), weak (above `low`) or nothing;
//   4. hysteresis on the device: a pass promotes every weak pixel with a strong
//      neighbour (8-connected), twice (ping-pong between two arrays), and counts what
//      the second half changed (gpu::reduce_to into `remaining`); the pass is captured
//      once as a pacxx::graph and gpu::iterate_until replays it until remaining is zero;
//   5. the edge map: 255 where strong, 0 elsewhere.
//
// Integer arithmetic throughout, as OpenCV's Canny on 8-bit images (the same fixed-point
// tangent test): the result does not depend on how a backend rounds or fuses floating
// point, so the device's edge map equals the host's exactly on every backend.
// Shared by examples/canny/canny.cpp, tests/e2e/apps_test.cpp and benchmarks/canny.cpp.
#pragma once
#include <pacxx/pacxx.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <tuple>
#include <vector>

#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

namespace canny {

// Pixel classes after the double threshold.
enum : int { none = 0, weak = 1, strong = 2 };

// The thresholds on the gradient magnitude (Sobel units: a step of c grey levels gives
// about 4 c at the edge, less after the blur).
struct params {
  int low = 60, high = 150;
};

// 1. The blur: 16 times the horizontal pass, then the vertical one rounded back to grey
// levels ((sum + 128) / 256).
struct blur_x {
  template <class N> int operator()(const N &n) const {
    return n(-2, 0) + 4 * n(-1, 0) + 6 * n(0, 0) + 4 * n(1, 0) + n(2, 0);
  }
};
struct blur_y {
  template <class N> std::uint8_t operator()(const N &n) const {
    return static_cast<std::uint8_t>(
        (n(0, -2) + 4 * n(0, -1) + 6 * n(0, 0) + 4 * n(0, 1) + n(0, 2) + 128) >> 8);
  }
};

// The direction of the gradient (gx, gy), y pointing down: 0 near horizontal (the edge
// is vertical: compare left and right), 2 near vertical, 1 along (1, 1), 3 along
// (1, -1). tan(22.5 deg) and tan(67.5 deg) in 15-bit fixed point, as OpenCV's Canny.
inline int direction(int gx, int gy) {
  const int ax = gx < 0 ? -gx : gx, ay = gy < 0 ? -gy : gy;
  if ((ay << 15) < ax * 13573)
    return 0;
  if ((ay << 15) > ax * 79109)
    return 2;
  return (gx < 0) == (gy < 0) ? 1 : 3;
}

// 2. Sobel: the squared magnitude (at most 2 * 1020^2) and the direction of each pixel.
template <class Mag, class Dir> struct sobel {
  Mag mag;
  Dir dir;
  template <class N> void operator()(const N &n) {
    const int gx = (n(1, -1) + 2 * n(1, 0) + n(1, 1)) - (n(-1, -1) + 2 * n(-1, 0) + n(-1, 1));
    const int gy = (n(-1, 1) + 2 * n(0, 1) + n(1, 1)) - (n(-1, -1) + 2 * n(0, -1) + n(1, -1));
    mag(n.x(), n.y()) = gx * gx + gy * gy;
    dir(n.x(), n.y()) = direction(gx, gy);
  }
};
template <class Mag, class Dir> sobel<Mag, Dir> make_sobel(Mag m, Dir d) { return {m, d}; }

// The neighbour across the edge on one side (s = -1) or the other (s = 1) of direction d.
template <class N> int across(const N &m, int d, int s) {
  const int dx = d == 2 ? 0 : d == 3 ? -s : s;
  const int dy = d == 0 ? 0 : s;
  return m(dx, dy);
}

// 3. Non-maximum suppression and the double threshold (squared: the magnitudes are).
// A maximum is strictly above one neighbour and not below the other (OpenCV's rule: of
// two equal neighbours along an edge one survives).
struct suppress {
  int low2, high2;
  template <class N> int operator()(const N &n) const {
    const int m = n.first(0, 0), d = n.second(0, 0);
    const bool maximum = m > across(n.first, d, -1) && m >= across(n.first, d, 1);
    return !maximum || m <= low2 ? none : m > high2 ? strong : weak;
  }
};

// 4. A weak pixel with a strong neighbour becomes strong.
struct promote {
  template <class N> int operator()(const N &n) const {
    const int c = n(0, 0);
    if (c != weak)
      return c;
    const bool near_strong = n(-1, -1) == strong || n(0, -1) == strong || n(1, -1) == strong ||
                             n(-1, 0) == strong || n(1, 0) == strong || n(-1, 1) == strong ||
                             n(0, 1) == strong || n(1, 1) == strong;
    return near_strong ? strong : weak;
  }
};

// The detector of one image size: its buffers and the captured hysteresis pass.
class detector {
  std::size_t w_, h_;
  params p_;
  pacxx::queue q_;
  gpu::vector<int> smooth_x_, mag_, dir_, cls_, tmp_;
  gpu::vector<std::uint8_t> blurred_;
  gpu::vector<int> remaining_; // pixels the second half of the last pass promoted
  pacxx::graph pass_;

public:
  detector(std::size_t w, std::size_t h, params p = params())
      : w_(w), h_(h), p_(p), smooth_x_(w * h), mag_(w * h), dir_(w * h), cls_(w * h), tmp_(w * h),
        blurred_(w * h), remaining_(1) {
    namespace view = ranges::views;
    if (w * h == 0)
      return;
    pass_ = pacxx::capture(q_, [&] {
      gpu::transform(gpu::stencil<1>(gpu::md(cls_, w_, h_), gpu::boundary::constant(0)), tmp_,
                     promote{});
      gpu::transform(gpu::stencil<1>(gpu::md(tmp_, w_, h_), gpu::boundary::constant(0)), cls_,
                     promote{});
      gpu::reduce_to(view::zip(cls_, tmp_) | view::transform([](auto t) {
                       return std::get<0>(t) != std::get<1>(t) ? 1 : 0;
                     }),
                     remaining_.data(), 0);
    });
  }

  // The classes before hysteresis (steps 1 to 3), in classes(); on queue().
  template <class Image> void classify(const Image &image) {
    pacxx::queue_scope on(q_);
    gpu::transform(gpu::stencil<2, 0>(gpu::md(image, w_, h_), gpu::boundary::clamp), smooth_x_,
                   blur_x{});
    gpu::transform(gpu::stencil<0, 2>(gpu::md(smooth_x_, w_, h_), gpu::boundary::clamp), blurred_,
                   blur_y{});
    gpu::for_each(gpu::stencil<1>(gpu::md(blurred_, w_, h_), gpu::boundary::clamp),
                  make_sobel(gpu::md(mag_, w_, h_), gpu::md(dir_, w_, h_)));
    gpu::transform(
        gpu::stencil2<1>(gpu::md(mag_, w_, h_), gpu::md(dir_, w_, h_), gpu::boundary::constant(0)),
        cls_, suppress{p_.low * p_.low, p_.high * p_.high});
  }

  // Hysteresis to the fixed point (step 4); returns the passes run.
  std::size_t hysteresis(std::size_t check_every = 8) {
    if (!pass_.valid())
      return 0;
    return gpu::iterate_until(q_, pass_, remaining_,
                              gpu::iterate_options()
                                  // each pass but the last promotes a pixel
                                  .max_iterations(w_ * h_ + 2 * check_every)
                                  .check_every(check_every));
  }

  // The whole detector: edges[i] = 255 where pixel i is an edge, else 0. Returns the
  // hysteresis passes run.
  template <class Image, class Edges> std::size_t detect(const Image &image, Edges &&edges) {
    if (w_ * h_ == 0)
      return 0;
    classify(image);
    const std::size_t passes = hysteresis();
    pacxx::queue_scope on(q_);
    gpu::transform(cls_, edges, [](int c) { return std::uint8_t(c == strong ? 255 : 0); });
    q_.wait();
    return passes;
  }

  const gpu::vector<int> &classes() const { return cls_; }
  pacxx::queue &queue() { return q_; }
};

// ---- The host's reference: the same arithmetic in plain loops; the hysteresis as a
// flood fill from the strong pixels through the weak ones (another algorithm, the same
// fixed point). -----------------------------------------------------------------------

struct host_image {
  std::size_t w, h;
  template <class T> T at(const std::vector<T> &v, long x, long y) const { // clamped
    x = x < 0 ? 0 : x >= long(w) ? long(w) - 1 : x;
    y = y < 0 ? 0 : y >= long(h) ? long(h) - 1 : y;
    return v[std::size_t(x) + w * std::size_t(y)];
  }
  template <class T> T at0(const std::vector<T> &v, long x, long y) const { // zero outside
    return x < 0 || y < 0 || x >= long(w) || y >= long(h) ? T(0)
                                                          : v[std::size_t(x) + w * std::size_t(y)];
  }
};

// The classes before hysteresis.
inline std::vector<int> host_classify(const std::vector<std::uint8_t> &img, std::size_t w,
                                      std::size_t h, params p = params()) {
  const host_image I{w, h};
  const std::size_t n = w * h;
  std::vector<int> sx(n), mag(n), dir(n), cls(n);
  std::vector<std::uint8_t> b(n);
  for (long y = 0; y < long(h); ++y)
    for (long x = 0; x < long(w); ++x)
      sx[x + w * y] = I.at(img, x - 2, y) + 4 * I.at(img, x - 1, y) + 6 * I.at(img, x, y) +
                      4 * I.at(img, x + 1, y) + I.at(img, x + 2, y);
  for (long y = 0; y < long(h); ++y)
    for (long x = 0; x < long(w); ++x)
      b[x + w * y] =
          std::uint8_t((I.at(sx, x, y - 2) + 4 * I.at(sx, x, y - 1) + 6 * I.at(sx, x, y) +
                        4 * I.at(sx, x, y + 1) + I.at(sx, x, y + 2) + 128) >>
                       8);
  for (long y = 0; y < long(h); ++y)
    for (long x = 0; x < long(w); ++x) {
      auto B = [&](long dx, long dy) { return int(I.at(b, x + dx, y + dy)); };
      const int gx = (B(1, -1) + 2 * B(1, 0) + B(1, 1)) - (B(-1, -1) + 2 * B(-1, 0) + B(-1, 1));
      const int gy = (B(-1, 1) + 2 * B(0, 1) + B(1, 1)) - (B(-1, -1) + 2 * B(0, -1) + B(1, -1));
      mag[x + w * y] = gx * gx + gy * gy;
      dir[x + w * y] = direction(gx, gy);
    }
  for (long y = 0; y < long(h); ++y)
    for (long x = 0; x < long(w); ++x) {
      const int m = mag[x + w * y], d = dir[x + w * y];
      auto M = [&](int dx, int dy) { return I.at0(mag, x + dx, y + dy); };
      const bool maximum = m > across(M, d, -1) && m >= across(M, d, 1);
      cls[x + w * y] = !maximum || m <= p.low * p.low ? none : m > p.high * p.high ? strong : weak;
    }
  return cls;
}

// The edge map from the classes.
inline std::vector<std::uint8_t> host_hysteresis(std::vector<int> cls, std::size_t w,
                                                 std::size_t h) {
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < cls.size(); ++i)
    if (cls[i] == strong)
      todo.push_back(i);
  while (!todo.empty()) {
    const std::size_t i = todo.back();
    todo.pop_back();
    const long x = long(i % w), y = long(i / w);
    for (long dy = -1; dy <= 1; ++dy)
      for (long dx = -1; dx <= 1; ++dx) {
        const long u = x + dx, v = y + dy;
        if (u < 0 || v < 0 || u >= long(w) || v >= long(h))
          continue;
        const std::size_t j = std::size_t(u) + w * std::size_t(v);
        if (cls[j] == weak) {
          cls[j] = strong;
          todo.push_back(j);
        }
      }
  }
  std::vector<std::uint8_t> edges(cls.size());
  for (std::size_t i = 0; i < cls.size(); ++i)
    edges[i] = cls[i] == strong ? 255 : 0;
  return edges;
}

// A synthetic w x h grey image: a horizontal ramp with a rectangle, a disc and a
// triangle on it, and a little deterministic noise. The ramp makes the contrast of the
// rectangle's and the disc's borders vary along them, so their edges are strong in
// parts and weak in others: hysteresis has chains of weak pixels to follow.
inline std::vector<std::uint8_t> synthetic_image(std::size_t w, std::size_t h) {
  std::vector<std::uint8_t> img(w * h);
  const double W = double(w), H = double(h), R = 0.22 * (W < H ? W : H);
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      const double fx = double(x) + 0.5, fy = double(y) + 0.5;
      int v = 30 + int(170.0 * fx / W); // the ramp
      if (fx > 0.1 * W && fx < 0.45 * W && fy > 0.15 * H && fy < 0.5 * H)
        v = 110; // a rectangle: contrast 80 on the left, about 20 on the right
      const double cx = fx - 0.68 * W, cy = fy - 0.62 * H;
      if (cx * cx + cy * cy < R * R)
        v = 175; // a disc
      if (fy > 0.6 * H && fy < 0.9 * H && fx > 0.1 * W &&
          (fx - 0.1 * W) < (fy - 0.6 * H) * 1.2) // a triangle
        v = 15;
      std::uint32_t s = std::uint32_t(x) * 73856093u ^ std::uint32_t(y) * 19349663u;
      s = (s ^ (s >> 13)) * 1274126177u;
      v += int((s >> 24) % 9) - 4; // noise in [-4, 4]
      img[x + w * y] = std::uint8_t(v < 0 ? 0 : v > 255 ? 255 : v);
    }
  return img;
}

} // namespace canny

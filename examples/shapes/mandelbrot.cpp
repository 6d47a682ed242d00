// Mandelbrot (Accelerate's benchmark suite, issue 35): the escape time of every pixel of
// a w x h view of the complex plane, one gpu::transform over the 2D index space
// gpu::views::indices(w, h), which launches a 2D grid (no division per pixel). Checked
// against the same loop on the host: pixels on the set's boundary may escape one step
// apart where the device contracts a multiply and an add, so a few differences are
// allowed (at most 0.5% of the pixels, each at most a few steps).
//   mandelbrot [width height max_iterations]
#include <pacxx/pacxx.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

struct escape_time {
  float x0, y0, dx, dy;
  unsigned limit;
  unsigned operator()(pacxx::index2 p) const {
    const float cr = x0 + dx * static_cast<float>(p.x), ci = y0 + dy * static_cast<float>(p.y);
    float zr = 0.f, zi = 0.f;
    unsigned k = 0;
    while (k < limit && zr * zr + zi * zi <= 4.f) {
      const float t = zr * zr - zi * zi + cr;
      zi = 2.f * zr * zi + ci;
      zr = t;
      ++k;
    }
    return k;
  }
};

int main(int argc, char **argv) {
  const std::size_t w = argc > 2 ? std::strtoul(argv[1], nullptr, 10) : 640;
  const std::size_t h = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 480;
  const unsigned limit = argc > 3 ? static_cast<unsigned>(std::strtoul(argv[3], nullptr, 10)) : 256;
  const escape_time f{-2.f, -1.25f, 3.f / static_cast<float>(w), 2.5f / static_cast<float>(h),
                      limit};

  gpu::vector<unsigned> image(w * h);
  gpu::transform(gpu::views::indices(w, h), image, f);
  const std::vector<unsigned> got = gpu::copy(image);

  std::size_t differ = 0, inside = 0;
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      const unsigned want = f(pacxx::index2{x, y}), k = got[x + w * y];
      inside += k == limit;
      if (k != want)
        ++differ;
    }
  std::printf(
      "mandelbrot %zux%zu, %u iterations: %zu pixels in the set, %zu differ from the host\n", w, h,
      limit, inside, differ);
  if (differ * 200 > w * h) {
    std::printf("FAILED: more than 0.5%% of the pixels differ\n");
    return 1;
  }
  return 0;
}

// Canny edge detection (Accelerate's benchmark) on stencils, with hysteresis on the
// device to a fixed point (examples/canny/canny.hpp): a synthetic image with shapes,
// checked against the host's plain loops, the classes before hysteresis and the edge
// map both exactly.
//   canny [width height]
#include "canny.hpp"

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const std::size_t w = argc > 2 ? std::strtoul(argv[1], nullptr, 10) : 333;
  const std::size_t h = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 251;
  try {
    const std::vector<std::uint8_t> img = canny::synthetic_image(w, h);
    gpu::vector<std::uint8_t> dimg = gpu::copy(img), dedges(w * h);
    canny::detector det(w, h);
    const std::size_t passes = det.detect(dimg, dedges);
    const std::vector<int> cls = gpu::copy(det.classes());
    const std::vector<std::uint8_t> edges = gpu::copy(dedges);

    const std::vector<int> want_cls = canny::host_classify(img, w, h);
    const std::vector<std::uint8_t> want = canny::host_hysteresis(want_cls, w, h);
    std::size_t strong = 0, weak = 0, n_edges = 0, wrong = 0;
    for (std::size_t i = 0; i < w * h; ++i) {
      strong += want_cls[i] == canny::strong;
      weak += want_cls[i] == canny::weak;
      n_edges += want[i] != 0;
      wrong += edges[i] != want[i];
    }
    // cls holds the classes after hysteresis: strong where an edge, weak where not reached.
    for (std::size_t i = 0; i < w * h; ++i)
      wrong += (cls[i] == canny::strong) != (want[i] != 0);
    std::printf("canny %zux%zu: %zu strong and %zu weak pixels, %zu edge pixels after %zu "
                "hysteresis passes; %zu differ from the host: %s\n",
                w, h, strong, weak, n_edges, passes, wrong, wrong == 0 ? "correct" : "WRONG");
    return wrong == 0 ? 0 : 1;
  } catch (const pacxx::error &e) {
    std::fprintf(stderr, "canny: %s\n", e.what());
    return 1;
  }
}

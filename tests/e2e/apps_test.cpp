// The applications of issue 35 item 7 that iterate (issue 37 item 4), against the host:
//   - Canny edge detection (examples/canny/canny.hpp): the classes before hysteresis and
//     the edge map exactly (integer arithmetic), on synthetic images of odd, prime and
//     degenerate sizes; the captured hysteresis pass replayed by gpu::iterate_until
//     reaches the host's flood fill, with any check interval, and a detector reused on a
//     second image gives that image's edges (the graph reads the vectors' contents).
//   - Stable fluids (examples/fluids/fluids.hpp): the captured step replayed for several
//     steps equals the host's solver bit for bit, and the same calls made directly. Built with
//     -ffp-contract=off (see tests/e2e/CMakeLists.txt): then neither compiler fuses a * b + c, the
//     device and the host round every operation alike, and the comparison can be exact; the example
//     program (examples/fluids/fluids.cpp) checks the default build, with a tolerance.
#include "../../examples/canny/canny.hpp"
#include "../../examples/fluids/fluids.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

struct canny_case {
  std::size_t w, h;
};

class CannyMatchesHost : public ::testing::TestWithParam<canny_case> {};

TEST_P(CannyMatchesHost, ClassesAndEdgesExactly) {
  const std::size_t w = GetParam().w, h = GetParam().h;
  const std::vector<std::uint8_t> img = canny::synthetic_image(w, h);
  const std::vector<int> want_cls = canny::host_classify(img, w, h);
  const std::vector<std::uint8_t> want = canny::host_hysteresis(want_cls, w, h);

  gpu::vector<std::uint8_t> dimg = gpu::copy(img), dedges(w * h);
  canny::detector det(w, h);
  det.classify(dimg);
  det.queue().wait();
  EXPECT_EQ(gpu::copy(det.classes()), want_cls);
  const std::size_t passes = det.detect(dimg, dedges);
  EXPECT_EQ(gpu::copy(dedges), want);
  EXPECT_EQ(passes % 8, 0u); // tested every 8 passes
  if (w * h == 0)
    return;

  // The same fixed point testing after every pass; it runs no more passes.
  det.classify(dimg);
  const std::size_t exact = det.hysteresis(1);
  EXPECT_LE(exact, passes);
  EXPECT_GT(exact + 8, passes);
  std::vector<std::uint8_t> edges(w * h);
  const std::vector<int> cls = gpu::copy(det.classes());
  for (std::size_t i = 0; i < w * h; ++i)
    edges[i] = cls[i] == canny::strong ? 255 : 0;
  EXPECT_EQ(edges, want);
}

INSTANTIATE_TEST_SUITE_P(Sizes, CannyMatchesHost,
                         ::testing::Values(canny_case{0, 5}, canny_case{1, 1}, canny_case{2, 3},
                                           canny_case{7, 1}, canny_case{1, 9}, canny_case{5, 5},
                                           canny_case{64, 64}, canny_case{97, 61},
                                           canny_case{211, 157}),
                         [](const ::testing::TestParamInfo<canny_case> &i) {
                           return std::to_string(i.param.w) + "x" + std::to_string(i.param.h);
                         });

// The images are interesting: edges exist, some only through hysteresis, and the
// device needed several passes to find them.
TEST(Canny, HysteresisHasWorkToDo) {
  const std::size_t w = 211, h = 157;
  const std::vector<std::uint8_t> img = canny::synthetic_image(w, h);
  const std::vector<int> cls = canny::host_classify(img, w, h);
  const std::vector<std::uint8_t> edges = canny::host_hysteresis(cls, w, h);
  std::size_t strong = 0, promoted = 0;
  for (std::size_t i = 0; i < w * h; ++i) {
    strong += cls[i] == canny::strong;
    promoted += cls[i] == canny::weak && edges[i] != 0;
  }
  EXPECT_GT(strong, 50u);
  EXPECT_GT(promoted, 50u);
  gpu::vector<std::uint8_t> dimg = gpu::copy(img), dedges(w * h);
  canny::detector det(w, h);
  EXPECT_GT(det.detect(dimg, dedges), 8u);
}

// One detector, two images: the captured pass works on what the vectors hold.
TEST(Canny, DetectorReused) {
  const std::size_t w = 120, h = 90;
  std::vector<std::uint8_t> a = canny::synthetic_image(w, h), b(a.rbegin(), a.rend());
  canny::detector det(w, h);
  for (const auto *img : {&a, &b, &a}) {
    gpu::vector<std::uint8_t> dimg = gpu::copy(*img), dedges(w * h);
    det.detect(dimg, dedges);
    EXPECT_EQ(gpu::copy(dedges), canny::host_hysteresis(canny::host_classify(*img, w, h), w, h));
  }
}

class FluidsMatchHost : public ::testing::TestWithParam<std::size_t> {};

TEST_P(FluidsMatchHost, BitForBit) {
  const std::size_t n = GetParam(), steps = 6;
  const fluids::sources src = fluids::make_sources(n);
  fluids::solver dev(n, src);
  fluids::host_solver host(n, src);
  EXPECT_GT(dev.kernels_per_step(), 200u); // every kernel of the step is in the graph
  for (std::size_t s = 0; s < steps; ++s) {
    dev.run();
    host.step();
  }
  // Every field the step writes, ring included.
  const std::vector<std::vector<float>> got = dev.state();
  const std::vector<float> *want[] = {&host.u,  &host.v,  &host.dens,
                                      &host.u0, &host.v0, &host.dens0};
  for (std::size_t k = 0; k < 6; ++k)
    EXPECT_EQ(got[k], *want[k]) << "field " << k;
  double mass = 0;
  for (float d : host.dens)
    mass += d;
  EXPECT_GT(mass, 0.0);
}

INSTANTIATE_TEST_SUITE_P(Sizes, FluidsMatchHost, ::testing::Values(1, 2, 7, 31, 64));

// The captured step replayed equals the same algorithms called directly.
TEST(Fluids, GraphEqualsDirectCalls) {
  const std::size_t n = 45;
  const fluids::sources src = fluids::make_sources(n);
  fluids::solver graph(n, src), direct(n, src);
  graph.run(3);
  direct.run_direct(3);
  EXPECT_EQ(graph.state(), direct.state());
}

TEST(Fluids, BadParameters) {
  const fluids::sources src = fluids::make_sources(4);
  fluids::params odd;
  odd.iterations = 3;
  EXPECT_THROW(fluids::solver(4, src, odd), pacxx::error);
  EXPECT_THROW(fluids::solver(0, fluids::make_sources(0)), pacxx::error);
}

} // namespace

// End-to-end: the ROF application of examples/rof (issue 11), its modules composed by
// the primal-dual solver on the device, against the CPU reference (plain loops, no
// views) on a synthetic piecewise-constant image with Gaussian noise (fixed seed):
//   - after 100 iterations the two agree to 1e-5 relative (largest difference over the
//     largest value), and so do their energies;
//   - the energy falls, the primal-dual residual falls, PSNR gains more than 10 dB;
//   - an iteration is exactly 2 kernel launches (the fusion across modules), with no
//     device allocation;
//   - gpu::neighbours and the gradient module: K^T is the transpose of K on an image
//     that is not square (<K u, p> = <u, K^T p>), and K u matches forward differences.
// ROF_TEST_SIZE sets the image's side (default 256; the GPU run uses 2048).
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "operators/gradient.hpp"
#include "operators/identity.hpp"
#include "prox/l2_data_dual.hpp"
#include "prox/tv_dual.hpp"
#include "quality.hpp"
#include "reference.hpp"
#include "solver/primal_dual.hpp"
#include "synthetic.hpp"

namespace view = ranges::views;

namespace {

constexpr float kLambda = 8.f;

std::size_t side() {
  const char *s = std::getenv("ROF_TEST_SIZE");
  return s && *s ? static_cast<std::size_t>(std::atol(s)) : 256;
}

struct problem {
  std::size_t n;
  std::vector<float> clean, noisy;
  gpu::vector<float> f, c;
  explicit problem(std::size_t side)
      : n(side), clean(rof::piecewise_constant(side, side)),
        noisy(rof::add_gaussian_noise(clean, 0.1f, 42)), f(gpu::copy(noisy)), c(gpu::copy(clean)) {}
  auto solver() const {
    return rof::make_primal_dual(f, rof::make_term(rof::gradient{n}, rof::tv_dual(1.f)),
                                 rof::make_term(rof::identity{}, rof::l2_data_dual(f, kLambda)));
  }
};

TEST(Rof, AgreesWithTheCpuReferenceAfter100Iterations) {
  problem p(side());
  auto gpu_solver = p.solver();
  rof::reference_solver cpu(p.noisy, p.n, kLambda);
  EXPECT_FLOAT_EQ(gpu_solver.tau(), 1.f / 3.f);
  for (int i = 0; i < 100; ++i) {
    gpu_solver.iterate();
    cpu.iterate();
  }
  const std::vector<float> u = gpu::copy(gpu_solver.u());
  const std::vector<float> &want = cpu.u();
  ASSERT_EQ(u.size(), want.size());
  double diff = 0, scale = 0;
  std::size_t worst = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    const double d = std::fabs(static_cast<double>(u[i]) - want[i]);
    if (d > diff) {
      diff = d;
      worst = i;
    }
    scale = std::max(scale, std::fabs(static_cast<double>(want[i])));
  }
  std::printf("%zu^2 pixels, 100 iterations: largest difference from the CPU %g, relative %g\n",
              p.n, diff, diff / scale);
  EXPECT_LE(diff / scale, 1e-5) << "pixel " << worst << ": " << u[worst] << " vs " << want[worst];
  const double e_gpu = gpu_solver.energy(), e_cpu = cpu.energy();
  EXPECT_NEAR(e_gpu, e_cpu, 1e-5 * e_cpu);
  // The solver moved: u is no longer the noisy input.
  EXPECT_GT(rof::psnr(u, p.clean), rof::psnr(p.noisy, p.clean));
}

TEST(Rof, EnergyAndResidualFallPsnrGainsTenDecibels) {
  problem p(side());
  auto s = p.solver();
  std::vector<double> energy{s.energy()}, residual;
  const double noisy_psnr = rof::psnr(p.f, p.c);
  for (int i = 1; i <= 100; ++i) {
    if (i % 25 == 0) {
      const rof::residuals r = s.iterate_with_residual();
      EXPECT_GE(r.primal, 0);
      EXPECT_GE(r.dual, 0);
      residual.push_back(r.primal + r.dual);
      energy.push_back(s.energy());
    } else {
      s.iterate();
    }
  }
  for (std::size_t k = 1; k < energy.size(); ++k)
    EXPECT_LT(energy[k], energy[k - 1]) << "energy at checkpoint " << k;
  EXPECT_LT(residual.back(), residual.front());
  EXPECT_LT(residual.back(), 0.5 * residual.front());
  const double denoised_psnr = rof::psnr(s.u(), p.c);
  EXPECT_GT(denoised_psnr, noisy_psnr + 10) << "noisy " << noisy_psnr << " dB";
}

TEST(Rof, AnIterationIsTwoKernelsAndAllocatesNothing) {
  problem p(64);
  auto s = p.solver();
  s.iterate(); // compiled
  pacxx::synchronize();
  pacxx::reset_stats();
  for (int i = 0; i < 5; ++i)
    s.iterate();
  pacxx::synchronize();
  EXPECT_EQ(pacxx::stats().kernel_launches, 10u);
  EXPECT_EQ(pacxx::stats().device_allocations, 0u);
  EXPECT_EQ(pacxx::stats().bytes_to_device, 0u);
}

struct dot {
  template <class P> double operator()(const P &p) const {
    const rof::vec2 a = std::get<0>(p), b = std::get<1>(p);
    return static_cast<double>(a.x) * b.x + static_cast<double>(a.y) * b.y;
  }
};
struct product {
  template <class P> double operator()(const P &p) const {
    return static_cast<double>(std::get<0>(p)) * std::get<1>(p);
  }
};

TEST(Rof, GradientAdjointIsItsTransposeOnARectangle) {
  const std::size_t w = 37, h = 23;
  const std::vector<float> hu = pacxx_test::random_floats(w * h, 1, -1.f, 1.f);
  const std::vector<float> hp = pacxx_test::random_floats(2 * w * h, 2, -1.f, 1.f);
  std::vector<rof::vec2> hpv(w * h);
  for (std::size_t i = 0; i < w * h; ++i)
    hpv[i] = {hp[2 * i], hp[2 * i + 1]};
  const gpu::vector<float> u = gpu::copy(hu);
  const gpu::vector<rof::vec2> p = gpu::copy(hpv);
  const rof::gradient k{w};

  // K u against forward differences on the host.
  const std::vector<rof::vec2> ku = gpu::copy(k.apply(u));
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      const std::size_t i = y * w + x;
      ASSERT_EQ(ku[i].x, x + 1 < w ? hu[i + 1] - hu[i] : 0.f) << x << "," << y;
      ASSERT_EQ(ku[i].y, y + 1 < h ? hu[i + w] - hu[i] : 0.f) << x << "," << y;
    }
  const double lhs = gpu::reduce(view::zip(k.apply(u), p) | view::transform(dot{}), 0.0);
  const double rhs = gpu::reduce(view::zip(u, k.adjoint(p)) | view::transform(product{}), 0.0);
  EXPECT_NEAR(lhs, rhs, 1e-4 * std::fabs(lhs));
  EXPECT_GT(std::fabs(lhs), 1.0);
}

TEST(Rof, NeighboursRefuseAWidthThatDoesNotDivideTheImage) {
  const gpu::vector<float> u(10, 0.f);
  EXPECT_THROW(gpu::neighbours(u, 3), pacxx::error);
  EXPECT_THROW(gpu::neighbours(u, 0), pacxx::error);
  EXPECT_NO_THROW(gpu::neighbours(u, 5));
}

} // namespace

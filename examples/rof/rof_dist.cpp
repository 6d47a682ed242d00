// ROF denoising distributed by image rows over MPI ranks, one GPU each (issue 39): the
// same problem, modules and per-pixel arithmetic as rof.cpp, solved by
// solver/primal_dual_dist.hpp (row blocks, one halo row each side, each kernel's halo
// exchange overlapped with the rows that do not need it). Run it with mpirun:
//
//   mpirun -np 4 rof_dist --synthetic 4096 --iterations 200 [--every 50]
//   mpirun -np 2 rof_dist --synthetic 48x37 --iterations 30 --every 10 --compare
//   mpirun -np 2 rof_dist --input photo.png --output denoised.png
//
// Rank 0 reads or makes the image (as rof does: --synthetic N or WxH, Gaussian noise of
// --noise with --seed) and scatters its rows. --every K prints the energy and the
// primal-dual residual every K iterations (0: only at the end). The first two
// iterations run before the clock starts (the kernels' JIT compilation, NCCL's
// connections); the time per iteration is rank 0's wall time of the rest (without
// --every: but the last, which takes the diagnostics), after every rank's work is done
// (so the slowest rank's). --compare runs the single-process solver
// (solver/primal_dual.hpp, what rof runs) on rank 0's device with the same iterations
// and compares the images pixel by pixel: the exit status says whether they agree to
// --tolerance (0: bit for bit) and the energy and residuals to 1e-9 relative (1e-3 with
// a tolerance).
//
// This program links pacxx::dist (MPI); rof does not.
#include <pacxx/dist.hpp>
#include <pacxx/pacxx.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "image_io.hpp"
#include "operators/gradient.hpp"
#include "operators/identity.hpp"
#include "prox/l2_data_dual.hpp"
#include "prox/tv_dual.hpp"
#include "solver/primal_dual.hpp"
#include "solver/primal_dual_dist.hpp"
#include "synthetic.hpp"

namespace {

struct options {
  std::string input, output;
  std::size_t width = 0, height = 0, size = 0;
  float noise = 0.1f, lambda = 8.f;
  double tolerance = 0;
  unsigned seed = 42;
  int iterations = 200, every = 0;
  bool compare = false;
};

[[noreturn]] void usage(const char *why, int status = 2) {
  if (pacxx::dist::rank() == 0)
    std::fprintf(status ? stderr : stdout,
                 "%s%s%s"
                 "usage: mpirun -np N rof_dist (--input FILE [--size N] | --synthetic N|WxH) "
                 "[--noise SD] [--seed S]\n"
                 "           [--lambda L] [--iterations N] [--every K] [--output FILE] "
                 "[--compare [--tolerance T]]\n",
                 why ? "rof_dist: " : "", why ? why : "", why ? "\n" : "");
  std::exit(status); // every rank parses the same arguments, so every rank exits
}

options parse(int argc, char **argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    auto number_of = [&](const std::string &v) {
      char *end = nullptr;
      const double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || d < 0)
        usage(("not a non-negative number: " + a + " " + v).c_str());
      return d;
    };
    auto number = [&]() { return number_of(value()); };
    if (a == "--input")
      o.input = value();
    else if (a == "--output")
      o.output = value();
    else if (a == "--synthetic") {
      const std::string v = value();
      const std::size_t x = v.find('x');
      o.width = static_cast<std::size_t>(number_of(v.substr(0, x)));
      o.height =
          x == std::string::npos ? o.width : static_cast<std::size_t>(number_of(v.substr(x + 1)));
      if (o.width == 0 || o.height == 0)
        usage("--synthetic needs a size above 0");
    } else if (a == "--size")
      o.size = static_cast<std::size_t>(number());
    else if (a == "--noise")
      o.noise = static_cast<float>(number());
    else if (a == "--seed")
      o.seed = static_cast<unsigned>(number());
    else if (a == "--lambda")
      o.lambda = static_cast<float>(number());
    else if (a == "--iterations")
      o.iterations = static_cast<int>(number());
    else if (a == "--every")
      o.every = static_cast<int>(number());
    else if (a == "--compare")
      o.compare = true;
    else if (a == "--tolerance")
      o.tolerance = number();
    else if (a == "--help")
      usage(nullptr, 0);
    else
      usage(("unknown option " + a).c_str());
  }
  if (o.input.empty() == (o.width == 0))
    usage("give either --input or --synthetic");
  if (o.lambda <= 0 || o.iterations < 1)
    usage("--lambda must be > 0, --iterations >= 1");
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

struct reference_result {
  std::vector<float> u;
  double energy;
  rof::residuals last;
};

// The single-process solver of rof.cpp on this rank's device, with the same iterations
// and diagnostics (iterate_with_residual where the distributed run took its residual).
reference_result single_process(const std::vector<float> &noisy, std::size_t width,
                                const options &o) {
  const gpu::vector<float> f = gpu::copy(noisy);
  auto solver =
      rof::make_primal_dual(f, rof::make_term(rof::gradient{width}, rof::tv_dual(1.f)),
                            rof::make_term(rof::identity{}, rof::l2_data_dual(f, o.lambda)));
  reference_result r{{}, 0, {0, 0}};
  for (int i = 1; i <= o.iterations; ++i) {
    if ((o.every && i % o.every == 0) || i == o.iterations)
      r.last = solver.iterate_with_residual();
    else
      solver.iterate();
  }
  r.energy = solver.energy();
  r.u = gpu::copy(solver.u());
  return r;
}

double relative(double a, double b) { return std::fabs(a - b) / std::max(std::fabs(b), 1e-300); }

int run(pacxx::dist::environment &env, const options &o) {
  const bool root = env.rank() == 0;
  rof::image clean, noisy;
  unsigned long long size[2] = {o.width, o.height};
  if (root) {
    if (!o.input.empty()) {
      clean = rof::read_image(o.input);
      if (o.size)
        clean = rof::resize(clean, o.size, o.size);
    } else {
      clean.width = o.width;
      clean.height = o.height;
      clean.pixels = rof::piecewise_constant(o.width, o.height);
    }
    noisy = clean;
    if (o.noise > 0)
      noisy.pixels = rof::add_gaussian_noise(clean.pixels, o.noise, o.seed);
    size[0] = noisy.width;
    size[1] = noisy.height;
  }
  pacxx::dist::detail::broadcast(size, sizeof size, 0);
  const std::size_t w = size[0], h = size[1];

  rof::primal_dual_rows solver(noisy.pixels, w, h, o.lambda);
  const double e0 = solver.energy();
  if (root) {
    std::printf("rof_dist: %zu x %zu pixels on %d ranks (%s), %zu rows each or one more, "
                "lambda %g, %d iterations, tau = sigma = %.4f\n",
                w, h, env.size(), env.transport_name(), h / static_cast<std::size_t>(env.size()),
                o.lambda, o.iterations, solver.tau());
    std::printf("%10s %16s %14s %14s\n", "iteration", "energy", "primal res.", "dual res.");
    std::printf("%10d %16.6g %14s %14s\n", 0, e0, "-", "-");
  }

  rof::residuals last{0, 0};
  double energy = e0;
  // The clock runs from after the warm-up iterations (JIT, NCCL's connections) to the
  // end, or, without --every, to the last iteration, whose diagnostics (copies of the
  // duals, reductions) would otherwise weigh on the time of an iteration.
  const int untimed = std::min(o.iterations, 2);
  auto start = std::chrono::steady_clock::now();
  double seconds = 0;
  int timed = 0;
  pacxx::runtime_stats counted{};
  const auto stop_clock = [&](int last_timed) {
    solver.finish();
    env.barrier();
    seconds = seconds_since(start);
    timed = last_timed - untimed;
    counted = pacxx::stats();
  };
  for (int i = 1; i <= o.iterations; ++i) {
    if (i == untimed + 1) {
      solver.finish();
      env.barrier();
      pacxx::reset_stats();
      start = std::chrono::steady_clock::now();
    }
    if ((o.every && i % o.every == 0) || i == o.iterations) {
      if (!o.every && i > untimed)
        stop_clock(i - 1);
      last = solver.iterate_with_residual();
      energy = solver.energy();
      if (root) {
        std::printf("%10d %16.6g %14.6g %14.6g\n", i, energy, last.primal, last.dual);
        std::fflush(stdout);
      }
    } else {
      solver.iterate();
    }
  }
  if (o.every)
    stop_clock(o.iterations);
  if (root && timed > 0) {
    std::printf("rof_dist: %zu x %zu, %d ranks (%s): %.4f ms an iteration (%d iterations, %s)\n", w,
                h, env.size(), env.transport_name(), 1e3 * seconds / timed, timed,
                o.every ? "diagnostics included" : "no diagnostics");
    std::printf("rof_dist: rank 0 while timed: %.2f launches, %.2f device allocations an "
                "iteration; %zu JIT compilations\n",
                double(counted.kernel_launches) / timed, double(counted.device_allocations) / timed,
                counted.jit_compilations);
  }

  const std::vector<float> u = solver.gather(0);
  int ok = 1;
  if (root) {
    if (o.noise > 0) {
      double se_noisy = 0, se = 0;
      for (std::size_t i = 0; i < u.size(); ++i) {
        const double a = noisy.pixels[i] - clean.pixels[i], b = u[i] - clean.pixels[i];
        se_noisy += a * a;
        se += b * b;
      }
      std::printf("PSNR: noisy %.2f dB, denoised %.2f dB\n", 10 * std::log10(u.size() / se_noisy),
                  10 * std::log10(u.size() / se));
    }
    if (!o.output.empty()) {
      rof::image out = noisy;
      out.pixels = u;
      rof::write_image(o.output, out);
    }
    if (o.compare) {
      const reference_result ref = single_process(noisy.pixels, w, o);
      double worst = 0;
      std::size_t differ = 0;
      for (std::size_t i = 0; i < u.size(); ++i) {
        const double d = std::fabs(static_cast<double>(u[i]) - ref.u[i]);
        differ += u[i] != ref.u[i];
        worst = std::max(worst, d);
      }
      const double de = relative(energy, ref.energy);
      const double dp = relative(last.primal, ref.last.primal),
                   dd = relative(last.dual, ref.last.dual);
      // Bit-exact pixels leave only the order of the sums to differ; a tolerance (another
      // rounding somewhere) moves the residuals, differences of iterates, much more.
      const double scalar = o.tolerance == 0 ? 1e-9 : 1e-3;
      ok = worst <= o.tolerance && de <= scalar && dp <= scalar && dd <= scalar;
      std::printf("compare with the single-process solver (%d iterations): %zu of %zu pixels "
                  "differ, largest difference %g (tolerance %g); energy %.9g against %.9g, "
                  "residuals %.6g %.6g against %.6g %.6g (%s)\n",
                  o.iterations, differ, u.size(), worst, o.tolerance, energy, ref.energy,
                  last.primal, last.dual, ref.last.primal, ref.last.dual,
                  ok ? (differ ? "ok" : "ok, bit-exact") : "WRONG");
    }
  }
  pacxx::dist::detail::broadcast(&ok, sizeof ok, 0);
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  pacxx::dist::environment env(argc, argv);
  const options o = parse(argc, argv);
  // An error on one rank (an image file, the device) ends every rank through the
  // environment's abort path (its destructor during unwinding), with the message.
  return run(env, o);
}

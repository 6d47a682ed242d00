// ROF (Rudin-Osher-Fatemi) denoising, written module by module as FlexBox writes it:
//   min_u  lambda/2 ||u - f||^2 + ||grad u||_{2,1}
// solved by the primal-dual solver (solver/primal_dual.hpp) over two dual terms, TV
// (operators/gradient.hpp, prox/tv_dual.hpp) and the L2 data term
// (operators/identity.hpp, prox/l2_data_dual.hpp). Every module returns views; the two
// eager algorithms of an iteration fuse them into two kernels.
//
//   rof --input photo.png [--size 2048] --output denoised.png [--noisy noisy.png]
//   rof --synthetic 512 --iterations 300 --every 50 --check
//
// The clean image (a file, scaled to --size if given, or a synthetic piecewise-constant
// one) gets Gaussian noise of --noise (fixed --seed); the program denoises it and prints
// PSNR against the clean image, the energy and the primal-dual residual every --every
// iterations, and progress on long runs. --check makes the exit status say whether the
// denoised image gained 10 dB of PSNR and the energy and residual fell.
#include <pacxx/pacxx.hpp>

#include <algorithm>
#include <chrono>
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
#include "quality.hpp"
#include "solver/primal_dual.hpp"
#include "synthetic.hpp"

namespace {

struct options {
  std::string input, output, noisy_output, clean_output;
  std::size_t synthetic = 0, size = 0;
  float noise = 0.1f, lambda = 8.f;
  unsigned seed = 42;
  int iterations = 200, every = 50;
  bool check = false;
};

[[noreturn]] void usage(const char *why, int status = 2) {
  std::fprintf(status ? stderr : stdout,
               "%s%s%s"
               "usage: rof (--input FILE.png|.pgm [--size N] | --synthetic N) [--noise SD] "
               "[--seed S]\n"
               "           [--lambda L] [--iterations N] [--every K] [--output FILE] "
               "[--noisy FILE] [--clean FILE] [--check]\n",
               why ? "rof: " : "", why ? why : "", why ? "\n" : "");
  std::exit(status);
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
    auto number = [&]() {
      const std::string v = value();
      char *end = nullptr;
      const double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || d < 0)
        usage(("not a non-negative number: " + a + " " + v).c_str());
      return d;
    };
    if (a == "--input")
      o.input = value();
    else if (a == "--output")
      o.output = value();
    else if (a == "--noisy")
      o.noisy_output = value();
    else if (a == "--clean")
      o.clean_output = value();
    else if (a == "--synthetic")
      o.synthetic = static_cast<std::size_t>(number());
    else if (a == "--size")
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
    else if (a == "--check")
      o.check = true;
    else if (a == "--help")
      usage(nullptr, 0);
    else
      usage(("unknown option " + a).c_str());
  }
  if (o.input.empty() == (o.synthetic == 0))
    usage("give either --input or --synthetic");
  if (o.lambda <= 0 || o.iterations < 1 || o.every < 1)
    usage("--lambda must be > 0, --iterations and --every >= 1");
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int run(const options &o) {
  rof::image clean;
  if (!o.input.empty()) {
    clean = rof::read_image(o.input);
    if (o.size)
      clean = rof::resize(clean, o.size, o.size);
  } else {
    clean.width = clean.height = o.synthetic;
    clean.pixels = rof::piecewise_constant(o.synthetic, o.synthetic);
  }
  rof::image noisy = clean;
  if (o.noise > 0)
    noisy.pixels = rof::add_gaussian_noise(clean.pixels, o.noise, o.seed);
  const bool have_clean = o.noise > 0;

  const gpu::vector<float> f = gpu::copy(noisy.pixels), c = gpu::copy(clean.pixels);
  auto solver =
      rof::make_primal_dual(f, rof::make_term(rof::gradient{noisy.width}, rof::tv_dual(1.f)),
                            rof::make_term(rof::identity{}, rof::l2_data_dual(f, o.lambda)));

  std::printf("rof: %zu x %zu pixels, lambda %g, %d iterations, tau = sigma = %.4f "
              "(||K||^2 <= 8 + 1)\n",
              noisy.width, noisy.height, o.lambda, o.iterations, solver.tau());
  const double e0 = solver.energy(), psnr_noisy = have_clean ? rof::psnr(f, c) : 0;
  if (have_clean)
    std::printf("noisy input: PSNR %.2f dB (noise sd %g, seed %u)\n", psnr_noisy, o.noise, o.seed);
  std::printf("%10s %16s %14s %14s %10s\n", "iteration", "energy", "primal res.", "dual res.",
              "PSNR dB");
  std::printf("%10d %16.6g %14s %14s %10s\n", 0, e0, "-", "-", "-");

  pacxx::synchronize();
  const auto start = std::chrono::steady_clock::now();
  auto last_output = start;
  double first_residual = -1, last_residual = 0, last_energy = e0, last_psnr = psnr_noisy;
  std::size_t plain_iterations = 0, plain_launches = 0;
  // The iterations between two diagnostics are replays of one captured iteration (its
  // two kernels, prepared once): a run of k of them is one g.launch(q, k), on CUDA one
  // graph launch, instead of 2k launches each with its algorithm dispatch. The replays
  // run the same kernels on the same vectors, so the results are those of direct calls.
  const pacxx::queue &q = pacxx::queue::default_queue();
  const pacxx::graph step = pacxx::capture(q, [&] { solver.iterate(); });
  // At most this many replays at once, so that long runs still report progress.
  const int batch = std::min(o.every, 64);
  for (int i = 1; i <= o.iterations;) {
    if (i % o.every == 0 || i == o.iterations) {
      const rof::residuals r = solver.iterate_with_residual();
      last_energy = solver.energy();
      last_residual = r.primal + r.dual;
      if (first_residual < 0)
        first_residual = last_residual;
      char psnr[32] = "-";
      if (have_clean) {
        last_psnr = rof::psnr(solver.u(), c);
        std::snprintf(psnr, sizeof psnr, "%.2f", last_psnr);
      }
      std::printf("%10d %16.6g %14.6g %14.6g %10s\n", i, last_energy, r.primal, r.dual, psnr);
      std::fflush(stdout);
      last_output = std::chrono::steady_clock::now();
      ++i;
    } else {
      // Up to the next diagnostic iteration (a multiple of every, or the last one).
      const int next = std::min((i / o.every + 1) * o.every, o.iterations);
      const int k = std::min(next - i, batch);
      const std::size_t before = pacxx::stats().kernel_launches;
      step.launch(q, static_cast<std::size_t>(k));
      plain_launches += pacxx::stats().kernel_launches - before;
      plain_iterations += static_cast<std::size_t>(k);
      i += k;
      if (seconds_since(last_output) > 2.0) { // progress on long runs
        pacxx::synchronize();
        std::fprintf(stderr, "rof: iteration %d of %d (%.0f%%), %.1f s\n", i - 1, o.iterations,
                     100.0 * (i - 1) / o.iterations, seconds_since(start));
        last_output = std::chrono::steady_clock::now();
      }
    }
  }
  pacxx::synchronize();
  const double total = seconds_since(start);
  if (plain_iterations)
    std::printf("kernel launches per iteration: %.2f (pacxx::stats(), %zu iterations without "
                "diagnostics)\n",
                static_cast<double>(plain_launches) / plain_iterations, plain_iterations);
  std::printf("time: %.3f s for %d iterations (diagnostics included)\n", total, o.iterations);

  rof::image out = noisy;
  out.pixels = gpu::copy(solver.u());
  if (!o.output.empty())
    rof::write_image(o.output, out);
  if (!o.noisy_output.empty())
    rof::write_image(o.noisy_output, noisy);
  if (!o.clean_output.empty())
    rof::write_image(o.clean_output, clean);
  if (have_clean)
    std::printf("PSNR: noisy %.2f dB, denoised %.2f dB (%+.2f dB)\n", psnr_noisy, last_psnr,
                last_psnr - psnr_noisy);

  if (o.check) {
    bool ok = true;
    if (have_clean && !(last_psnr > psnr_noisy + 10)) {
      std::printf("check failed: PSNR gained %.2f dB, not more than 10\n", last_psnr - psnr_noisy);
      ok = false;
    }
    if (!(last_energy < e0)) {
      std::printf("check failed: energy %g did not fall below %g\n", last_energy, e0);
      ok = false;
    }
    if (o.iterations >= 2 * o.every && !(last_residual < first_residual)) {
      std::printf("check failed: residual %g did not fall below %g\n", last_residual,
                  first_residual);
      ok = false;
    }
    std::printf("check: %s\n", ok ? "passed" : "FAILED");
    return ok ? 0 : 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  const options o = parse(argc, argv);
  try {
    return run(o);
  } catch (const std::exception &e) { // image files; device, JIT or driver (pacxx::error)
    std::fprintf(stderr, "rof: %s\n", e.what());
  }
  return 1;
}

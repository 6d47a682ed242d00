// Distributed 2D Jacobi iteration for the heat equation (issue 39): the grid's rows are
// split over the ranks (gpu::dist::rows, one halo row each side); each step starts the
// halo exchange on one queue, updates the interior rows on another meanwhile, then
// the two edge rows once the halos have arrived. Dirichlet boundaries (the outer rows
// and columns keep their values). Checks the result against the same iteration on the
// host (for grids up to 2^22 points) and prints the time per step.
//
//   mpirun -np 4 ./jacobi [width height steps]
#include <pacxx/dist.hpp>
#include <pacxx/pacxx.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace {

// One Jacobi step for the local points [lo, hi) (indices from the first owned point;
// the storage has one halo row of w points before them).
struct jacobi_step {
  const float *in;
  float *out;
  std::size_t w, first_row, height;
  void operator()(std::size_t k) const {
    const std::size_t row = first_row + k / w, col = k % w, i = w + k;
    if (row == 0 || row + 1 == height || col == 0 || col + 1 == w)
      out[i] = in[i];
    else
      out[i] = 0.25f * ((in[i - w] + in[i + w]) + (in[i - 1] + in[i + 1]));
  }
};

void update(gpu::dist::vector<float> &u, gpu::dist::vector<float> &v, std::size_t w,
            std::size_t height, std::size_t lo, std::size_t hi) {
  if (lo >= hi)
    return;
  const std::size_t first_row = u.offset() / w;
  gpu::for_each(ranges::views::iota(lo, hi),
                jacobi_step{u.with_halo().data(), v.with_halo().data(), w, first_row, height});
}

std::vector<float> initial(std::size_t w, std::size_t h) {
  std::vector<float> g(w * h, 0.0f);
  for (std::size_t c = 0; c < w; ++c)
    g[c] = 1.0f; // the hot top edge
  for (std::size_t r = 0; r < h; ++r)
    g[r * w] = 0.5f; // a warm left edge
  return g;
}

std::vector<float> host_jacobi(std::vector<float> u, std::size_t w, std::size_t h, int steps) {
  std::vector<float> v = u;
  for (int s = 0; s < steps; ++s) {
    for (std::size_t r = 1; r + 1 < h; ++r)
      for (std::size_t c = 1; c + 1 < w; ++c) {
        const std::size_t i = r * w + c;
        v[i] = 0.25f * ((u[i - w] + u[i + w]) + (u[i - 1] + u[i + 1]));
      }
    std::swap(u, v);
  }
  return u;
}

} // namespace

int main(int argc, char **argv) {
  pacxx::dist::environment env(argc, argv);
  const std::size_t w = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 64;
  const std::size_t h = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 45;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 40;

  const std::vector<float> start = initial(w, h);
  gpu::dist::vector<float> u(w * h, gpu::dist::rows(w)), v(w * h, gpu::dist::rows(w));
  u.scatter_from(start, 0);
  v.scatter_from(start, 0);
  const std::size_t n = u.local_size(); // whole rows
  pacxx::queue comm, work;

  env.barrier();
  const auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    comm.wait_for(work.record()); // u's last update is done before its rows are sent
    u.exchange_halo_begin(comm);
    {
      // The interior rows need no halo: they overlap the exchange.
      pacxx::queue_scope scope(work);
      update(u, v, w, h, std::min(w, n), n > w ? n - w : 0);
    }
    u.exchange_halo_end();
    work.wait_for(comm.record());
    {
      pacxx::queue_scope scope(work);
      update(u, v, w, h, 0, std::min(w, n));                 // first row
      update(u, v, w, h, std::max(n > w ? n - w : 0, w), n); // last row (if not the first)
    }
    std::swap(u, v);
  }
  work.wait();
  comm.wait();
  env.barrier();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const std::vector<float> result = u.gather(0);
  int ok = 1;
  if (env.rank() == 0) {
    std::printf("jacobi: %zu x %zu, %d steps on %d ranks (%s): %.3f ms a step\n", w, h, steps,
                env.size(), env.transport_name(), 1e3 * seconds / steps);
    if (w * h <= (std::size_t(1) << 22)) {
      const std::vector<float> want = host_jacobi(start, w, h, steps);
      double worst = 0;
      for (std::size_t i = 0; i < want.size(); ++i)
        worst = std::max(worst, static_cast<double>(std::fabs(want[i] - result[i])));
      ok = worst <= 1e-5;
      std::printf("jacobi: largest difference to the host: %g (%s)\n", worst, ok ? "ok" : "WRONG");
    }
  }
  pacxx::dist::detail::broadcast(&ok, sizeof ok, 0);
  return ok ? 0 : 1;
}

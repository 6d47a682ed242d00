// Distributed 2D Jacobi iteration for the heat equation (issue 39): the grid's rows are
// split over the ranks (gpu::dist::rows, one halo row each side); each step starts the
// halo exchange on one queue, updates the interior rows on another meanwhile, then
// the two edge rows (one launch) once the halos have arrived. Dirichlet boundaries (the
// outer rows and columns keep their values). Checks the result against the same
// iteration on the host (for grids up to 2^22 points) and prints the time per step.
//
// A step is two launches, two queue events and the exchange (NCCL: one group of
// send/recv on the comm queue; nothing waits on the host). The first two steps run before
// the clock starts: it pays the kernel's JIT compilation and NCCL's connection set-up,
// which the lead's H200 run (2048^2, 200 steps) had spread over the steps: 1.136 ms a
// step on 1 GPU where the stencil's memory traffic is about 10 us.
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

// The edge rows: k in [0, w) is the first local row, k in [w, 2w) the last one
// (last_row: its first point's local index), so that both take one launch.
struct edge_step {
  jacobi_step step;
  std::size_t last_row;
  void operator()(std::size_t k) const { step(k < step.w ? k : last_row + (k - step.w)); }
};

jacobi_step step_of(gpu::dist::vector<float> &u, gpu::dist::vector<float> &v, std::size_t w,
                    std::size_t height) {
  return jacobi_step{u.with_halo().data(), v.with_halo().data(), w, u.offset() / w, height};
}

// The rows that need no halo: local points [w, n - w).
void update_interior(gpu::dist::vector<float> &u, gpu::dist::vector<float> &v, std::size_t w,
                     std::size_t height) {
  const std::size_t n = u.local_size();
  if (n > 2 * w)
    gpu::for_each(ranges::views::iota(w, n - w), step_of(u, v, w, height));
}

// The first and the last local row (one row if the rank holds only one).
void update_edges(gpu::dist::vector<float> &u, gpu::dist::vector<float> &v, std::size_t w,
                  std::size_t height) {
  const std::size_t n = u.local_size();
  if (n == 0)
    return;
  gpu::for_each(ranges::views::iota(std::size_t(0), n > w ? 2 * w : w),
                edge_step{step_of(u, v, w, height), n - w});
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
  pacxx::queue comm, work;

  const auto step = [&] {
    comm.wait_for(work.record()); // u's last update is done before its rows are sent
    u.exchange_halo_begin(comm);
    {
      // The interior rows need no halo: they overlap the exchange.
      pacxx::queue_scope scope(work);
      update_interior(u, v, w, h);
    }
    u.exchange_halo_end();
    work.wait_for(comm.record());
    {
      pacxx::queue_scope scope(work);
      update_edges(u, v, w, h);
    }
    std::swap(u, v);
  };
  // The first two steps untimed (JIT, NCCL set-up, the first exchange's collective check of
  // u and of v: the second step exchanges v).
  const int untimed = std::min(steps, 2);
  for (int s = 0; s < untimed; ++s)
    step();
  work.wait();
  comm.wait();
  env.barrier();
  pacxx::reset_stats();
  const auto t0 = std::chrono::steady_clock::now();
  for (int s = untimed; s < steps; ++s)
    step();
  work.wait();
  comm.wait();
  env.barrier();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const int timed_steps = steps - untimed;
  const pacxx::runtime_stats counted = pacxx::stats();

  const std::vector<float> result = u.gather(0);
  int ok = 1;
  if (env.rank() == 0) {
    std::printf("jacobi: %zu x %zu, %d steps on %d ranks (%s): %.3f ms a step (the last %d)\n", w,
                h, steps, env.size(), env.transport_name(),
                timed_steps ? 1e3 * seconds / timed_steps : 0.0, timed_steps);
    // What a timed step cost rank 0 (expected: 2 launches; no JIT, allocation or copy).
    if (timed_steps)
      std::printf("jacobi: a step: %.2f launches, %.2f device allocations, %.0f bytes to the "
                  "device, %.0f to the host; %zu JIT compilations while timed\n",
                  double(counted.kernel_launches) / timed_steps,
                  double(counted.device_allocations) / timed_steps,
                  double(counted.bytes_to_device) / timed_steps,
                  double(counted.bytes_to_host) / timed_steps, counted.jit_compilations);
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

// Stable fluids (Jos Stam, "Real-Time Fluid Dynamics for Games", GDC 2003; Accelerate's
// benchmark) on md views, stencils and a captured graph. The grid is Stam's: N x N cells
// with a ring of boundary cells, (N + 2) x (N + 2) floats row-major, cell (i, j) at
// i + (N + 2) j. One step is Stam's vel_step then dens_step:
//   - add_source: x += dt s (a transform over a zip);
//   - diffuse: (1 + 4a) x = x0 + a (sum of the 4 neighbours of x), a = dt diff N^2,
//     solved by Jacobi iterations (Stam uses Gauss-Seidel; Jacobi reads only the last
//     iterate, so each iteration is one gpu::stencil2 over x and x0, ping-ponged);
//   - advect: semi-Lagrangian, each cell traced back by dt through (u, v) and the old
//     field sampled bilinearly there (a transform over gpu::views::indices whose element
//     function reads u, v and d0 through captured md views);
//   - project: the divergence (a stencil2 over u and v), the pressure from Jacobi
//     iterations (a = 1, 1 + 4a -> 4), its gradient subtracted from (u, v) (a for_each
//     over the stencil of p writing u and v by coordinates);
//   - set_bnd after every field update: the ring mirrors the cells inside it, negated
//     across the walls for the velocity component normal to them, corners the mean of
//     their two neighbours (Stam's); one small for_each over the ring.
// Every update but set_bnd computes all (N + 2)^2 cells, the ring with clamped reads,
// and set_bnd then overwrites the ring, as Stam's loops over the inside cells and
// set_bnd leave it. The step (about 220 launches with 20 Jacobi iterations) is captured
// once as a pacxx::graph and replayed.
// Shared by examples/fluids/fluids.cpp, tests/e2e/apps_test.cpp and benchmarks/fluids.cpp;
// host_solver below is the host's reference, the same arithmetic in the same order.
#pragma once
#include <pacxx/pacxx.hpp>

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <utility>
#include <vector>

#include <range/v3/view/zip.hpp>

namespace fluids {

struct params {
  float dt = 0.1f, diff = 1e-4f, visc = 1e-4f;
  int iterations = 20; // Jacobi iterations per solve (even: the result ends in x)
};

// Constant sources (per unit of time), applied every step: density and an upward force
// in a square near the bottom of the box, and a sideways push beside it.
struct sources {
  std::vector<float> dens, u, v;
};
inline sources make_sources(std::size_t n) {
  const std::size_t s = n + 2;
  sources src{std::vector<float>(s * s, 0.f), std::vector<float>(s * s, 0.f),
              std::vector<float>(s * s, 0.f)};
  const std::size_t r = n / 16 + 1, ci = n / 2 + 1, cj = n - n / 6;
  for (std::size_t j = cj > r ? cj - r : 1; j <= cj + r && j <= n; ++j)
    for (std::size_t i = ci > r ? ci - r : 1; i <= ci + r && i <= n; ++i) {
      src.dens[i + s * j] = 100.f;
      src.v[i + s * j] = -5.f * float(n) / 64.f;
      src.u[i + s * j] = 1.5f * float(n) / 64.f;
    }
  return src;
}

// ---- the element functions, shared by nothing but the device ---------------------------

// One Jacobi iteration: (x0 + a (l + r + d + u)) / c, Stam's lin_solve expression.
struct jacobi {
  float a, c;
  template <class N> float operator()(const N &n) const {
    return (n.second(0, 0) +
            a * (n.first(-1, 0) + n.first(1, 0) + n.first(0, -1) + n.first(0, 1))) /
           c;
  }
};

// Stam's set_bnd, one thread per index of a side: thread i in [1, N] sets the four ring
// cells of row and column i; threads 0 and N + 1 set two corners each, from the inside
// cell next to them (Stam's corner is the mean of two ring cells that are, each, that
// cell or its negation: the same numbers, without reading cells other threads write).
template <class M> struct set_bnd_fn {
  M x;
  int b;
  std::size_t n;
  void operator()(std::size_t i) const {
    const std::size_t m = n + 1;
    if (i >= 1 && i <= n) {
      x(0, i) = b == 1 ? -x(1, i) : x(1, i);
      x(m, i) = b == 1 ? -x(n, i) : x(n, i);
      x(i, 0) = b == 2 ? -x(i, 1) : x(i, 1);
      x(i, m) = b == 2 ? -x(i, n) : x(i, n);
    } else {
      const std::size_t c = i == 0 ? 0 : m, ci = i == 0 ? 1 : n;
      const float lo = x(ci, 1), hi = x(ci, n); // the inside cells next to (c, 0) and (c, m)
      x(c, 0) = 0.5f * ((b == 2 ? -lo : lo) + (b == 1 ? -lo : lo));
      x(c, m) = 0.5f * ((b == 2 ? -hi : hi) + (b == 1 ? -hi : hi));
    }
  }
};

// Semi-Lagrangian advection of d0 by (u, v) into cell p (Stam's advect).
template <class M> struct advect_fn {
  M d0, u, v;
  float dt0;
  std::size_t n;
  float operator()(pacxx::index2 p) const {
    const float N = float(n);
    float x = float(p.x) - dt0 * u(p.x, p.y), y = float(p.y) - dt0 * v(p.x, p.y);
    if (x < 0.5f)
      x = 0.5f;
    if (x > N + 0.5f)
      x = N + 0.5f;
    if (y < 0.5f)
      y = 0.5f;
    if (y > N + 0.5f)
      y = N + 0.5f;
    const std::size_t i0 = std::size_t(x), i1 = i0 + 1, j0 = std::size_t(y), j1 = j0 + 1;
    const float s1 = x - float(i0), s0 = 1 - s1, t1 = y - float(j0), t0 = 1 - t1;
    return s0 * (t0 * d0(i0, j0) + t1 * d0(i0, j1)) + s1 * (t0 * d0(i1, j0) + t1 * d0(i1, j1));
  }
};

// The divergence term of project: -0.5 h (du/dx + dv/dy), central differences.
struct divergence {
  float h;
  template <class N> float operator()(const N &n) const {
    return -0.5f * h * (n.first(1, 0) - n.first(-1, 0) + n.second(0, 1) - n.second(0, -1));
  }
};

// (u, v) -= the gradient of p.
template <class M> struct subtract_gradient {
  M u, v;
  float h;
  template <class N> void operator()(const N &p) const {
    u(p.x(), p.y()) -= 0.5f * (p(1, 0) - p(-1, 0)) / h;
    v(p.x(), p.y()) -= 0.5f * (p(0, 1) - p(0, -1)) / h;
  }
};

// ---- the device solver -------------------------------------------------------------------

class solver {
  std::size_t n_, s_;
  params p_;
  pacxx::queue q_;
  gpu::vector<float> u_, v_, u0_, v0_, dens_, dens0_, tmp_, su_, sv_, sd_;
  pacxx::graph step_;

  auto md(gpu::vector<float> &x) { return gpu::md(x, s_, s_); }

  void set_bnd(int b, gpu::vector<float> &x) {
    gpu::for_each(gpu::views::indices(s_), set_bnd_fn<decltype(md(x))>{md(x), b, n_});
  }
  void add_source(gpu::vector<float> &x, gpu::vector<float> &s) {
    const float dt = p_.dt;
    gpu::transform(ranges::views::zip(x, s), x,
                   [dt](auto t) { return std::get<0>(t) + dt * std::get<1>(t); });
  }
  // x from x0 (x's contents are the first iterate), through tmp_.
  void lin_solve(int b, gpu::vector<float> &x, gpu::vector<float> &x0, float a, float c) {
    for (int k = 0; k < p_.iterations; k += 2) {
      gpu::transform(gpu::stencil2<1>(md(x), md(x0), gpu::boundary::clamp), tmp_, jacobi{a, c});
      set_bnd(b, tmp_);
      gpu::transform(gpu::stencil2<1>(md(tmp_), md(x0), gpu::boundary::clamp), x, jacobi{a, c});
      set_bnd(b, x);
    }
  }
  void diffuse(int b, gpu::vector<float> &x, gpu::vector<float> &x0, float diff) {
    const float a = p_.dt * diff * float(n_) * float(n_);
    lin_solve(b, x, x0, a, 1 + 4 * a);
  }
  void advect(int b, gpu::vector<float> &d, gpu::vector<float> &d0, gpu::vector<float> &u,
              gpu::vector<float> &v) {
    using M = decltype(md(d0));
    gpu::transform(gpu::views::indices(s_, s_), d,
                   advect_fn<M>{md(d0), md(u), md(v), p_.dt * float(n_), n_});
    set_bnd(b, d);
  }
  void project(gpu::vector<float> &u, gpu::vector<float> &v, gpu::vector<float> &p,
               gpu::vector<float> &div) {
    const float h = 1.0f / float(n_);
    gpu::transform(gpu::stencil2<1>(md(u), md(v), gpu::boundary::clamp), div, divergence{h});
    set_bnd(0, div);
    gpu::fill(p, 0.f); // Stam sets p = 0 inside and set_bnd(0, p): all zero
    lin_solve(0, p, div, 1, 4);
    gpu::for_each(gpu::stencil<1>(md(p), gpu::boundary::clamp),
                  subtract_gradient<decltype(md(u))>{md(u), md(v), h});
    set_bnd(1, u);
    set_bnd(2, v);
  }

  // One step, issued on this thread's queue: Stam's vel_step and dens_step.
  void issue_step() {
    // vel_step (Stam's buffer swaps spelt out: u0, v0 hold the diffused velocity)
    add_source(u_, su_);
    add_source(v_, sv_);
    diffuse(1, u0_, u_, p_.visc);
    diffuse(2, v0_, v_, p_.visc);
    project(u0_, v0_, u_, v_);
    advect(1, u_, u0_, u0_, v0_);
    advect(2, v_, v0_, u0_, v0_);
    project(u_, v_, u0_, v0_);
    // dens_step
    add_source(dens_, sd_);
    diffuse(0, dens0_, dens_, p_.diff);
    advect(0, dens_, dens0_, u_, v_);
  }

public:
  // An n x n fluid at rest with the given constant sources.
  solver(std::size_t n, const sources &src, params p = params())
      : n_(n), s_(n + 2), p_(p), u_(s_ * s_, 0.f), v_(s_ * s_, 0.f), u0_(s_ * s_, 0.f),
        v0_(s_ * s_, 0.f), dens_(s_ * s_, 0.f), dens0_(s_ * s_, 0.f), tmp_(s_ * s_, 0.f),
        su_(gpu::copy(src.u)), sv_(gpu::copy(src.v)), sd_(gpu::copy(src.dens)) {
    if (n == 0 || p.iterations % 2 != 0)
      throw pacxx::error("fluids::solver: N >= 1 cells a side and an even number of Jacobi "
                         "iterations");
    step_ = pacxx::capture(q_, [&] { issue_step(); });
  }

  // k steps (k replays of the captured step); returns when they are done.
  void run(std::size_t k = 1) {
    step_.launch(q_, k);
    q_.wait();
  }
  // The same without the graph: every algorithm called again, k times.
  void run_direct(std::size_t k = 1) {
    pacxx::queue_scope on(q_);
    for (std::size_t i = 0; i < k; ++i)
      issue_step();
    q_.wait();
  }
  std::size_t kernels_per_step() const { return step_.kernel_launches(); }
  const gpu::vector<float> &density() const { return dens_; }
  const gpu::vector<float> &u() const { return u_; }
  const gpu::vector<float> &v() const { return v_; }
  // Every field a step reads before writing it (u0, v0 and dens0 are the Jacobi solves'
  // first iterates), on the host: u, v, dens, u0, v0, dens0.
  std::vector<std::vector<float>> state() const {
    return {gpu::copy(u_),  gpu::copy(v_),  gpu::copy(dens_),
            gpu::copy(u0_), gpu::copy(v0_), gpu::copy(dens0_)};
  }
};

// ---- the host's reference: the same operations, in the same order ----------------------

class host_solver {
  std::size_t n_, s_;
  params p_;
  std::vector<float> tmp_;

  float &at(std::vector<float> &x, std::size_t i, std::size_t j) { return x[i + s_ * j]; }

  void set_bnd(int b, std::vector<float> &x) { // Stam's, verbatim
    const std::size_t N = n_;
    for (std::size_t i = 1; i <= N; ++i) {
      at(x, 0, i) = b == 1 ? -at(x, 1, i) : at(x, 1, i);
      at(x, N + 1, i) = b == 1 ? -at(x, N, i) : at(x, N, i);
      at(x, i, 0) = b == 2 ? -at(x, i, 1) : at(x, i, 1);
      at(x, i, N + 1) = b == 2 ? -at(x, i, N) : at(x, i, N);
    }
    at(x, 0, 0) = 0.5f * (at(x, 1, 0) + at(x, 0, 1));
    at(x, 0, N + 1) = 0.5f * (at(x, 1, N + 1) + at(x, 0, N));
    at(x, N + 1, 0) = 0.5f * (at(x, N, 0) + at(x, N + 1, 1));
    at(x, N + 1, N + 1) = 0.5f * (at(x, N, N + 1) + at(x, N + 1, N));
  }
  void add_source(std::vector<float> &x, const std::vector<float> &s) {
    for (std::size_t i = 0; i < x.size(); ++i)
      x[i] = x[i] + p_.dt * s[i];
  }
  void jacobi_step(std::vector<float> &out, std::vector<float> &x, std::vector<float> &x0, float a,
                   float c) {
    for (std::size_t j = 1; j <= n_; ++j)
      for (std::size_t i = 1; i <= n_; ++i)
        at(out, i, j) = (at(x0, i, j) + a * (at(x, i - 1, j) + at(x, i + 1, j) + at(x, i, j - 1) +
                                             at(x, i, j + 1))) /
                        c;
  }
  void lin_solve(int b, std::vector<float> &x, std::vector<float> &x0, float a, float c) {
    for (int k = 0; k < p_.iterations; k += 2) {
      jacobi_step(tmp_, x, x0, a, c);
      set_bnd(b, tmp_);
      jacobi_step(x, tmp_, x0, a, c);
      set_bnd(b, x);
    }
  }
  void diffuse(int b, std::vector<float> &x, std::vector<float> &x0, float diff) {
    const float a = p_.dt * diff * float(n_) * float(n_);
    lin_solve(b, x, x0, a, 1 + 4 * a);
  }
  void advect(int b, std::vector<float> &d, std::vector<float> &d0, std::vector<float> &u,
              std::vector<float> &v) {
    const float dt0 = p_.dt * float(n_), N = float(n_);
    for (std::size_t j = 1; j <= n_; ++j)
      for (std::size_t i = 1; i <= n_; ++i) {
        float x = float(i) - dt0 * at(u, i, j), y = float(j) - dt0 * at(v, i, j);
        if (x < 0.5f)
          x = 0.5f;
        if (x > N + 0.5f)
          x = N + 0.5f;
        if (y < 0.5f)
          y = 0.5f;
        if (y > N + 0.5f)
          y = N + 0.5f;
        const std::size_t i0 = std::size_t(x), i1 = i0 + 1, j0 = std::size_t(y), j1 = j0 + 1;
        const float s1 = x - float(i0), s0 = 1 - s1, t1 = y - float(j0), t0 = 1 - t1;
        at(d, i, j) = s0 * (t0 * at(d0, i0, j0) + t1 * at(d0, i0, j1)) +
                      s1 * (t0 * at(d0, i1, j0) + t1 * at(d0, i1, j1));
      }
    set_bnd(b, d);
  }
  void project(std::vector<float> &u, std::vector<float> &v, std::vector<float> &p,
               std::vector<float> &div) {
    const float h = 1.0f / float(n_);
    for (std::size_t j = 1; j <= n_; ++j)
      for (std::size_t i = 1; i <= n_; ++i)
        at(div, i, j) =
            -0.5f * h * (at(u, i + 1, j) - at(u, i - 1, j) + at(v, i, j + 1) - at(v, i, j - 1));
    set_bnd(0, div);
    std::fill(p.begin(), p.end(), 0.f);
    lin_solve(0, p, div, 1, 4);
    for (std::size_t j = 1; j <= n_; ++j)
      for (std::size_t i = 1; i <= n_; ++i) {
        at(u, i, j) -= 0.5f * (at(p, i + 1, j) - at(p, i - 1, j)) / h;
        at(v, i, j) -= 0.5f * (at(p, i, j + 1) - at(p, i, j - 1)) / h;
      }
    set_bnd(1, u);
    set_bnd(2, v);
  }

public:
  std::vector<float> u, v, u0, v0, dens, dens0;
  sources src;

  host_solver(std::size_t n, sources s, params p = params())
      : n_(n), s_(n + 2), p_(p), tmp_(s_ * s_, 0.f), u(s_ * s_, 0.f), v(s_ * s_, 0.f),
        u0(s_ * s_, 0.f), v0(s_ * s_, 0.f), dens(s_ * s_, 0.f), dens0(s_ * s_, 0.f),
        src(std::move(s)) {}

  // Takes over a state (solver::state()).
  void load(std::vector<std::vector<float>> s) {
    u = std::move(s[0]);
    v = std::move(s[1]);
    dens = std::move(s[2]);
    u0 = std::move(s[3]);
    v0 = std::move(s[4]);
    dens0 = std::move(s[5]);
  }

  void step() {
    add_source(u, src.u);
    add_source(v, src.v);
    diffuse(1, u0, u, p_.visc);
    diffuse(2, v0, v, p_.visc);
    project(u0, v0, u, v);
    advect(1, u, u0, u0, v0);
    advect(2, v, v0, u0, v0);
    project(u, v, u0, v0);
    add_source(dens, src.dens);
    diffuse(0, dens0, dens, p_.diff);
    advect(0, dens, dens0, u, v);
  }
};

} // namespace fluids

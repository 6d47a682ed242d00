// ROF's primal-dual iteration distributed by image rows over the ranks of a
// pacxx::dist::environment (issue 39): the single-process solver of primal_dual.hpp
// with the same two terms (TV: gradient + tv_dual; data: identity + l2_data_dual), the
// same step sizes and the same per-pixel arithmetic (it calls the very function objects
// of the modules and of primal_dual.hpp), so that every rank's pixels come out as the
// single-process solver's do.
//
// The image's rows are split in blocks (gpu::dist::rows, one halo row each side). Of
// the two kernels of an iteration, each reads one neighbour row of another rank:
//   dual:   y <- prox(y + sigma K u_bar)   reads u_bar of the row below (the gradient's
//           forward difference), so only the block's last row needs u_bar's halo;
//   primal: u <- u - tau K^T y, u_bar      reads the TV dual of the row above (the
//           divergence's backward difference), so only the first row needs y's halo.
// Each kernel therefore runs as: start the halo exchange of what it reads on the comm
// queue, update every row that needs no halo on the work queue meanwhile, complete the
// exchange, then update the one row that does (examples/dist/jacobi.cpp's scheme). An
// iteration is two exchanges and four launches on a rank with neighbours on both sides
// (three on the first and the last rank, two on a rank alone); on NCCL nothing waits on
// the host. Each exchange moves both halo rows, though each kernel reads only one (the
// vector's exchange has no one-sided form); the messages are one row each, in one NCCL
// group, overlapped with the rows that read no halo.
//
// Rows of other ranks are read through the halo, rows outside the image never: the
// neighbourhood is built with the pixel's global row and the image's global height, so
// gpu::neighbourhood::inside() is the single-process one.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include <pacxx/detail/fast_divmod.hpp>
#include <pacxx/dist.hpp>
#include <pacxx/neighbours.hpp>
#include <pacxx/pacxx.hpp>

#include "../operators/gradient.hpp"
#include "../operators/identity.hpp"
#include "../prox/l2_data_dual.hpp"
#include "../prox/tv_dual.hpp"
#include "../vec2.hpp"
#include "primal_dual.hpp" // detail::ascent, descent, sum_all, the residual functors

namespace rof {
namespace dist_detail {

// Where owned pixel k of this rank's row block is: its row and column in the image.
struct block_geometry {
  std::uint32_t width, height, first_row; // image width and height, the block's first row
  pacxx::detail::fast_divmod rows;        // k / width
  template <class T> gpu::neighbourhood<T> at(T *owned, std::uint32_t k) const {
    const auto r = static_cast<std::uint32_t>(rows.div(k));
    return gpu::neighbourhood<T>(owned + k, k - r * width, first_row + r, width, height);
  }
};

// The dual update of pixel k for both terms (primal_dual::dual_step, composed by hand
// from the same function objects): y_tv <- project(y_tv + sigma grad u_bar),
// y_data <- step(y_data + sigma u_bar, f).
struct dual_pixel {
  const float *u_bar, *f;
  vec2 *y_tv;
  float *y_data;
  block_geometry g;
  float sigma;
  tv_dual::project project;
  l2_data_dual::step data;
  void operator()(std::uint32_t k) const {
    const vec2 grad = gradient::forward{}(g.at(u_bar, k));
    const vec2 tv = project(detail::ascent{sigma}(std::tuple<const vec2 &, vec2>(y_tv[k], grad)));
    const float d = data(std::tuple<float, const float &>(
        detail::ascent{sigma}(std::tuple<const float &, const float &>(y_data[k], u_bar[k])),
        f[k]));
    y_tv[k] = tv;
    y_data[k] = d;
  }
};

// The primal update of pixel k (primal_dual::primal_step): K^T y = -div y_tv + y_data,
// then u' = u - tau K^T y, u_bar = 2 u' - u.
struct primal_pixel {
  float *u, *u_bar;
  const vec2 *y_tv;
  const float *y_data;
  block_geometry g;
  float tau;
  void operator()(std::uint32_t k) const {
    const float kt_y = detail::sum_all<2>{}(
        std::tuple<float, const float &>(gradient::minus_divergence{}(g.at(y_tv, k)), y_data[k]));
    detail::descent{tau}(std::tuple<float &, float &, float>(u[k], u_bar[k], kt_y));
  }
};

// Energy of pixel k: alpha |grad u|_2 + lambda/2 (u - f)^2 (primal_dual::energy).
struct energy_pixel {
  const float *u, *f;
  block_geometry g;
  tv_dual::value tv;
  l2_data_dual::value data;
  double operator()(std::uint32_t k) const {
    return detail::sum_all<2, double>{}(
        std::tuple<float, float>(tv(gradient::forward{}(g.at(u, k))),
                                 data(std::tuple<const float &, const float &>(u[k], f[k]))));
  }
};

// The dual residual of pixel k for the TV term: |(y_old - y) / sigma + grad u_bar_old - grad u|.
struct tv_residual_pixel {
  const vec2 *y_old, *y;
  const float *u_bar_old, *u;
  block_geometry g;
  float sigma;
  double operator()(std::uint32_t k) const {
    return detail::dual_residual{sigma}(std::tuple<const vec2 &, const vec2 &, vec2, vec2>(
        y_old[k], y[k], gradient::forward{}(g.at(u_bar_old, k)), gradient::forward{}(g.at(u, k))));
  }
};
// The same for the data term (K the identity).
struct data_residual_pixel {
  const float *y_old, *y, *u_bar_old, *u;
  float sigma;
  double operator()(std::uint32_t k) const {
    return detail::dual_residual{sigma}(
        std::tuple<const float &, const float &, const float &, const float &>(y_old[k], y[k],
                                                                               u_bar_old[k], u[k]));
  }
};
struct primal_residual_pixel {
  const float *u, *u_bar;
  float tau;
  double operator()(std::uint32_t k) const {
    return detail::primal_residual{tau}(std::tuple<const float &, const float &>(u[k], u_bar[k]));
  }
};

// A distributed range (gpu::dist's protocol: local(), dist()) of f(k) over this rank's
// owned pixels k, for gpu::dist::reduce.
template <class F> struct pixel_map {
  const gpu::dist::distribution *d;
  std::uint32_t n;
  F f;
  auto local() const {
    return ranges::views::iota(std::uint32_t(0), n) | ranges::views::transform(f);
  }
  const gpu::dist::distribution &dist() const { return *d; }
};

} // namespace dist_detail

class primal_dual_rows {
  std::size_t width_, height_;
  float alpha_, lambda_, tau_ = 0, sigma_ = 0;
  gpu::dist::distribution blocks_; // whole rows, no halo (f, y_data)
  gpu::dist::vector<float> f_, y_data_;
  gpu::dist::vector<float> u_, u_bar_; // one halo row each side (u: for the energy)
  gpu::dist::vector<vec2> y_tv_;       // one halo row each side
  pacxx::queue comm_, work_;

  std::uint32_t pixels() const { return static_cast<std::uint32_t>(u_.local_size()); }
  std::uint32_t rows() const { return static_cast<std::uint32_t>(u_.local_size() / width_); }
  dist_detail::block_geometry geometry() const {
    const auto w = static_cast<std::uint32_t>(width_);
    return {w, static_cast<std::uint32_t>(height_),
            static_cast<std::uint32_t>(u_.offset() / width_),
            pacxx::detail::fast_divmod(width_, u_.local_size() + 1)};
  }
  template <class F> void launch(std::uint32_t lo, std::uint32_t hi, const F &f) {
    if (lo < hi)
      gpu::for_each(ranges::views::iota(lo, hi), f);
  }
  dist_detail::dual_pixel dual() {
    return {u_bar_.owned().data(),
            f_.owned().data(),
            y_tv_.owned().data(),
            y_data_.owned().data(),
            geometry(),
            sigma_,
            tv_dual::project{1.f / alpha_},
            l2_data_dual::step{sigma_, 1.f / (1.f + sigma_ / lambda_)}};
  }
  dist_detail::primal_pixel primal() {
    return {u_.owned().data(),    u_bar_.owned().data(),
            y_tv_.owned().data(), y_data_.owned().data(),
            geometry(),           tau_};
  }
  // v's halo rows from the neighbouring ranks, on comm, after the work so far.
  template <class T> void exchange_now(gpu::dist::vector<T> &v) {
    comm_.wait_for(work_.record());
    v.exchange_halo(comm_);
    work_.wait_for(comm_.record());
  }

public:
  // Collective: the width x height image `noisy` of rank `root` (ignored elsewhere) is
  // scattered by rows; u starts at it, the dual variables at 0. alpha weighs TV (1 in
  // examples/rof), lambda the data term.
  primal_dual_rows(const std::vector<float> &noisy, std::size_t width, std::size_t height,
                   float lambda, float alpha = 1.f, int root = 0)
      : width_(width), height_(height), alpha_(alpha), lambda_(lambda),
        blocks_(gpu::dist::distribution::block(width * height, pacxx::dist::size(), width)),
        f_(blocks_), y_data_(blocks_), u_(width * height, gpu::dist::rows(width)),
        u_bar_(width * height, gpu::dist::rows(width)),
        y_tv_(width * height, gpu::dist::rows(width)) {
    if (width * height >= (std::size_t(1) << 32))
      throw pacxx::error("rof::primal_dual_rows: images have fewer than 2^32 pixels");
    // The step sizes as primal_dual computes them: L^2 = sum of ||K_k||^2 in term order.
    float l2 = 0;
    l2 += gradient::norm_squared();
    l2 += identity::norm_squared();
    tau_ = sigma_ = 1.f / std::sqrt(l2);
    f_.scatter_from(noisy, root);
    u_.scatter_from(noisy, root);
    u_bar_.scatter_from(noisy, root);
    gpu::fill(y_data_.owned(), 0.f);
    gpu::fill(y_tv_.with_halo(), vec2{0.f, 0.f});
    pacxx::synchronize(); // the set-up (default queue) before the work queue's kernels
  }

  float tau() const { return tau_; }
  float sigma() const { return sigma_; }
  std::size_t pixels_total() const { return width_ * height_; }
  const gpu::dist::vector<float> &u() const { return u_; }

  // One iteration: each of the two kernels overlaps its halo exchange with the rows
  // that do not need it (see the header comment). Collective.
  void iterate() {
    const std::uint32_t n = pixels(), w = static_cast<std::uint32_t>(width_);
    // The row that waits for a halo, split off only where a neighbour holds that row (the
    // ranks that hold nothing are the last ones): a rank alone runs the single-process
    // solver's two launches, a middle rank four.
    const bool below = u_.offset() + n<u_.size(), above = u_.offset()> 0;
    const std::uint32_t last = n && below ? n - w : n; // the dual step's halo row
    const std::uint32_t first = n && above ? w : 0;    // the primal step's halo row
    comm_.wait_for(work_.record()); // u_bar's last update is done before it is sent
    u_bar_.exchange_halo_begin(comm_);
    {
      pacxx::queue_scope on(work_);
      launch(0, last, dual()); // the rows that read no halo
    }
    u_bar_.exchange_halo_end();
    work_.wait_for(comm_.record());
    {
      pacxx::queue_scope on(work_);
      launch(last, n, dual()); // the last row: u_bar of the next rank's first row
    }
    comm_.wait_for(work_.record()); // y_tv complete before it is sent
    y_tv_.exchange_halo_begin(comm_);
    {
      pacxx::queue_scope on(work_);
      launch(first, n, primal()); // the rows that read no halo
    }
    y_tv_.exchange_halo_end();
    work_.wait_for(comm_.record());
    {
      pacxx::queue_scope on(work_);
      launch(0, first, primal()); // the first row: y_tv of the previous rank's last row
    }
  }

  // Waits for this rank's queued work.
  void finish() {
    work_.wait();
    comm_.wait();
  }

  // One iteration and the residuals it leaves, as primal_dual::iterate_with_residual
  // (means of the magnitudes over every pixel of the image; the same on every rank).
  residuals iterate_with_residual() {
    exchange_now(u_bar_);         // the halo the dual step will read, copied with u_bar
    pacxx::queue_scope on(work_); // the copies and reductions in order with the kernels
    const gpu::dist::vector<float> u_bar_old(u_bar_), y_data_old(y_data_);
    const gpu::dist::vector<vec2> y_tv_old(y_tv_);
    iterate();
    exchange_now(u_); // K u reads the row below
    const std::uint32_t n = pixels();
    const auto g = geometry();
    const double p = gpu::dist::reduce(
        dist_detail::pixel_map<dist_detail::primal_residual_pixel>{
            &blocks_, n, {u_.owned().data(), u_bar_.owned().data(), tau_}},
        0.0);
    double d = 0;
    d += gpu::dist::reduce(
        dist_detail::pixel_map<dist_detail::tv_residual_pixel>{
            &blocks_,
            n,
            {y_tv_old.owned().data(), y_tv_.owned().data(), u_bar_old.owned().data(),
             u_.owned().data(), g, sigma_}},
        0.0);
    d += gpu::dist::reduce(
        dist_detail::pixel_map<dist_detail::data_residual_pixel>{
            &blocks_,
            n,
            {y_data_old.owned().data(), y_data_.owned().data(), u_bar_old.owned().data(),
             u_.owned().data(), sigma_}},
        0.0);
    const double total = static_cast<double>(pixels_total());
    return {p / total, d / total};
  }

  // The primal energy of the current u (the same on every rank). Collective.
  double energy() {
    exchange_now(u_);
    pacxx::queue_scope on(work_);
    return gpu::dist::reduce(
        dist_detail::pixel_map<dist_detail::energy_pixel>{&blocks_,
                                                          pixels(),
                                                          {u_.owned().data(), f_.owned().data(),
                                                           geometry(), tv_dual::value{alpha_},
                                                           l2_data_dual::value{0.5f * lambda_}}},
        0.0);
  }

  // Collective: u on rank `root` (an empty vector elsewhere).
  std::vector<float> gather(int root = 0) {
    finish();
    return u_.gather(root);
  }
};

} // namespace rof

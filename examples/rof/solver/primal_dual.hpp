// The primal-dual (Chambolle-Pock) solver, FlexBox style: it knows only interfaces.
// The problem is  min_u sum_k F_k(K_k u), every term written in the dual:
//   min_u max_{y_1..y_m} sum_k <K_k u, y_k> - F_k*(y_k)
// with one dual variable y_k per term. An iteration, with over-relaxation theta = 1:
//   y_k  <- prox_{sigma F_k*}(y_k + sigma K_k u_bar)      for every term (one kernel)
//   u'   <- u - tau sum_k K_k^T y_k;  u_bar <- 2 u' - u;  u <- u'   (one kernel)
// Step sizes from the operator norms: L^2 = sum_k ||K_k||^2, tau = sigma = 1 / L.
//
// A term is a linear operator (apply(u), adjoint(y): views; dual_type; norm_squared())
// and the proximal operator of its F* (prox(view of y~, sigma), energy(view of K u):
// views). The solver composes their views; the two eager algorithms per iteration fuse
// all of them, across the modules, into one kernel each. Two kernels are what the data
// dependencies allow without recomputation: the dual update of a pixel reads u_bar of
// its neighbours (the gradient), the primal update reads y of its neighbours (the
// divergence), so each must see the whole of the other's result.
#pragma once
#include <cmath>
#include <cstddef>
#include <tuple>
#include <utility>

#include <range/v3/view/all.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include <pacxx/pacxx.hpp>

#include "../vec2.hpp" // norm() of the dual values: |.| of a float, |.|_2 of a vec2

namespace rof {

// One term of the objective: a linear operator, the proximal operator of the dual of
// its function, and its dual variable (allocated by the solver).
template <class Op, class Prox> struct dual_term {
  using dual_type = typename Op::dual_type;
  Op op;
  Prox prox;
  gpu::vector<dual_type> y;
};
template <class Op, class Prox> dual_term<Op, Prox> make_term(Op op, Prox prox) {
  return dual_term<Op, Prox>{op, prox, {}};
}

namespace detail {
// 1, 2, ..., N-1
template <std::size_t N, std::size_t... I>
struct tail_indices_of : tail_indices_of<N - 1, N - 1, I...> {};
template <std::size_t... I> struct tail_indices_of<1, I...> {
  using type = std::index_sequence<I...>;
};
template <std::size_t N> using tail_indices = typename tail_indices_of<N>::type;

// The sum of the N elements of a tuple, as float or double, from the first (not from a
// zero, which the compiler must keep: -0 + 0 is +0).
template <class R, class P> R add_from(const P &, R s, std::index_sequence<>) { return s; }
template <class R, class P, std::size_t I, std::size_t... Rest>
R add_from(const P &p, R s, std::index_sequence<I, Rest...>) {
  return add_from(p, s + static_cast<R>(std::get<I>(p)), std::index_sequence<Rest...>{});
}
template <std::size_t N, class R = float> struct sum_all {
  template <class P> R operator()(const P &p) const {
    return add_from(p, static_cast<R>(std::get<0>(p)), tail_indices<N>{});
  }
};

// y + sigma K u_bar
struct ascent {
  float sigma;
  template <class P> auto operator()(const P &p) const {
    return std::get<0>(p) + sigma * std::get<1>(p);
  }
};
// The new dual values, as computed: written through the zip of the dual variables.
struct same {
  template <class P> P operator()(P p) const { return p; }
};
// u' = u - tau K^T y; u_bar = 2 u' - u; u = u'
struct descent {
  float tau;
  template <class P> void operator()(const P &p) const {
    const float u = std::get<0>(p);
    const float next = u - tau * std::get<2>(p);
    std::get<0>(p) = next;
    std::get<1>(p) = 2.f * next - u;
  }
};
// |(u_old - u) / tau| with u_old = 2 u - u_bar (over-relaxation undone)
struct primal_residual {
  float tau;
  template <class P> double operator()(const P &p) const {
    const float u = std::get<0>(p), u_old = 2.f * u - std::get<1>(p);
    return std::fabs((u_old - u) / tau);
  }
};
// |(y_old - y) / sigma + K u_bar_old - K u|
struct dual_residual {
  float sigma;
  template <class P> double operator()(const P &p) const {
    return norm((1.f / sigma) * (std::get<0>(p) - std::get<1>(p)) + std::get<2>(p) -
                std::get<3>(p));
  }
};
} // namespace detail

struct residuals {
  double primal, dual; // per pixel (mean of the magnitudes)
};

template <class... Terms> class primal_dual {
  static constexpr std::size_t m = sizeof...(Terms);
  using indices = std::index_sequence_for<Terms...>;
  std::tuple<Terms...> terms_;
  gpu::vector<float> u_, u_bar_;
  float tau_ = 0, sigma_ = 0;

public:
  // u0: the starting point (a copy is taken); the dual variables start at 0.
  primal_dual(const gpu::vector<float> &u0, Terms... terms)
      : terms_(std::move(terms)...), u_(u0), u_bar_(u0) {
    const float l2 = norms_squared(indices{});
    tau_ = sigma_ = 1.f / std::sqrt(l2);
    allocate_duals(indices{});
  }

  float tau() const { return tau_; }
  float sigma() const { return sigma_; }
  const gpu::vector<float> &u() const { return u_; }
  std::size_t pixels() const { return u_.size(); }

  // One iteration: two kernels.
  void iterate() {
    dual_step(indices{});
    primal_step(indices{});
  }

  // One iteration, and the primal-dual residual it leaves (Chambolle-Pock's optimality
  // conditions, as Goldstein et al. measure them, in this update order): primal
  // |(u_old - u) / tau|, the distance of 0 from dG(u) + sum K^T y (G = 0 here); dual
  // |(y_old - y) / sigma + K u_bar_old - K u|, the distance of K u from dF*(y). Costs
  // copies of u_bar and the y's and a few reductions: call it every k iterations.
  residuals iterate_with_residual() {
    const gpu::vector<float> u_bar_old(u_bar_);
    auto y_old = copy_duals(indices{});
    iterate();
    const double p = gpu::reduce(ranges::views::zip(u_, u_bar_) |
                                     ranges::views::transform(detail::primal_residual{tau_}),
                                 0.0);
    const double d = dual_residuals(y_old, u_bar_old, indices{});
    const double n = static_cast<double>(u_.size());
    return {p / n, d / n};
  }

  // The primal energy sum_k F_k(K_k u) of the current u, in one reduction.
  double energy() const { return energy(indices{}); }

private:
  template <std::size_t... I> float norms_squared(std::index_sequence<I...>) const {
    float l2 = 0;
    int fold[] = {0, (l2 += std::get<I>(terms_).op.norm_squared(), 0)...};
    (void)fold;
    return l2;
  }
  template <std::size_t... I> void allocate_duals(std::index_sequence<I...>) {
    int fold[] = {0, (std::get<I>(terms_).y = gpu::vector<typename Terms::dual_type>(
                          u_.size(), typename Terms::dual_type{}),
                      0)...};
    (void)fold;
  }
  template <std::size_t... I> auto copy_duals(std::index_sequence<I...>) const {
    return std::make_tuple(gpu::vector<typename Terms::dual_type>(std::get<I>(terms_).y)...);
  }

  // prox_{sigma F*}(y + sigma K u_bar): a view, composed from the term's modules.
  template <class T> auto dual_update(T &t) {
    return t.prox.prox(ranges::views::zip(ranges::views::all(t.y), t.op.apply(u_bar_)) |
                           ranges::views::transform(detail::ascent{sigma_}),
                       sigma_);
  }
  template <std::size_t... I> void dual_step(std::index_sequence<I...>) {
    gpu::transform(ranges::views::zip(dual_update(std::get<I>(terms_))...),
                   ranges::views::zip(std::get<I>(terms_).y...), detail::same{});
  }
  template <std::size_t... I> void primal_step(std::index_sequence<I...>) {
    auto kt_y = ranges::views::zip(std::get<I>(terms_).op.adjoint(std::get<I>(terms_).y)...) |
                ranges::views::transform(detail::sum_all<m>{});
    gpu::for_each(ranges::views::zip(u_, u_bar_, kt_y), detail::descent{tau_});
  }

  template <class Old, std::size_t... I>
  double dual_residuals(Old &y_old, const gpu::vector<float> &u_bar_old,
                        std::index_sequence<I...>) {
    double d = 0;
    int fold[] = {0, (d += gpu::reduce(ranges::views::zip(std::get<I>(y_old), std::get<I>(terms_).y,
                                                          std::get<I>(terms_).op.apply(u_bar_old),
                                                          std::get<I>(terms_).op.apply(u_)) |
                                           ranges::views::transform(detail::dual_residual{sigma_}),
                                       0.0),
                      0)...};
    (void)fold;
    return d;
  }
  template <std::size_t... I> double energy(std::index_sequence<I...>) const {
    return gpu::reduce(
        ranges::views::zip(std::get<I>(terms_).prox.energy(std::get<I>(terms_).op.apply(u_))...) |
            ranges::views::transform(detail::sum_all<m, double>{}),
        0.0);
  }
};

template <class... Terms>
primal_dual<Terms...> make_primal_dual(const gpu::vector<float> &u0, Terms... terms) {
  return primal_dual<Terms...>(u0, std::move(terms)...);
}

} // namespace rof

// Black-Scholes (Accelerate's benchmark suite, issue 35; the CUDA samples' formulation):
// European call and put prices of n options, one fused gpu::for_each over the zip of the
// inputs and the outputs. Checked against the same formula in double on the host
// (relative error 1e-4 of the price scale).
//   black_scholes [options]
#include <pacxx/pacxx.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <vector>

#include <range/v3/view/zip.hpp>

namespace view = ranges::views;

// The cumulative normal distribution by the polynomial of Abramowitz and Stegun 26.2.17.
template <class T> T cnd(T d) {
  const T a1 = T(0.31938153), a2 = T(-0.356563782), a3 = T(1.781477937), a4 = T(-1.821255978),
          a5 = T(1.330274429), rsqrt2pi = T(0.39894228040143267793994605993438);
  const T k = T(1) / (T(1) + T(0.2316419) * std::fabs(d));
  const T c =
      rsqrt2pi * std::exp(T(-0.5) * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > T(0) ? T(1) - c : c;
}

template <class T> void price(T s, T x, T t, T r, T v, T &call, T &put) {
  const T sqrt_t = std::sqrt(t);
  const T d1 = (std::log(s / x) + (r + T(0.5) * v * v) * t) / (v * sqrt_t), d2 = d1 - v * sqrt_t;
  const T e = std::exp(-r * t);
  call = s * cnd(d1) - x * e * cnd(d2);
  put = x * e * (T(1) - cnd(d2)) - s * (T(1) - cnd(d1));
}

struct black_scholes {
  float r, v;
  template <class P> void operator()(P &&p) const {
    float call, put;
    price(std::get<0>(p), std::get<1>(p), std::get<2>(p), r, v, call, put);
    std::get<3>(p) = call;
    std::get<4>(p) = put;
  }
};

int main(int argc, char **argv) {
  const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000003;
  std::vector<float> s(n), x(n), t(n);
  unsigned long long seed = 2026;
  auto uniform = [&](float lo, float hi) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * static_cast<float>(seed >> 40) / 16777216.f;
  };
  for (std::size_t i = 0; i < n; ++i) {
    s[i] = uniform(5.f, 30.f);
    x[i] = uniform(1.f, 100.f);
    t[i] = uniform(0.25f, 10.f);
  }
  const float r = 0.02f, v = 0.30f;
  gpu::vector<float> ds = gpu::copy(s), dx = gpu::copy(x), dt = gpu::copy(t), call(n), put(n);
  gpu::for_each(view::zip(ds, dx, dt, call, put), black_scholes{r, v});
  const std::vector<float> c = gpu::copy(call), p = gpu::copy(put);
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double wc, wp;
    price<double>(s[i], x[i], t[i], r, v, wc, wp);
    worst = std::fmax(worst, std::fmax(std::fabs(c[i] - wc), std::fabs(p[i] - wp)) / 100.0);
  }
  std::printf("black_scholes: %zu options, largest error %.2e of the price scale (100)\n", n,
              worst);
  if (!(worst < 1e-4)) {
    std::printf("FAILED: error above 1e-4\n");
    return 1;
  }
  return 0;
}

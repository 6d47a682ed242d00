// Stencils (issue 35 item 2): gpu::stencil over 1D, 2D and 3D md views with every
// boundary mode, square and non-square radii, two arrays under one stencil, a radius
// larger than the array, against a host loop that applies the same boundary rule.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <range/v3/view/transform.hpp>

#include "test_support.hpp"

namespace view = ranges::views;

namespace {

enum class Mode { clamp, mirror, wrap, constant };

// The host's boundary rule: the coordinate read for c in an axis of n elements, or -1
// for "the constant".
long host_map(long c, long n, Mode m) {
  switch (m) {
  case Mode::clamp:
    return c < 0 ? 0 : c >= n ? n - 1 : c;
  case Mode::mirror: {
    if (n == 1)
      return 0;
    // Reflect step by step (the definition), not by the period the library uses.
    while (c < 0 || c >= n)
      c = c < 0 ? -c : 2 * (n - 1) - c;
    return c;
  }
  case Mode::wrap:
    return ((c % n) + n) % n;
  case Mode::constant:
    return c < 0 || c >= n ? -1 : c;
  }
  return c;
}

struct Host2D {
  std::vector<float> v;
  long w, h;
  Mode m;
  float k;
  float operator()(long x, long y) const {
    const long xx = host_map(x, w, m), yy = host_map(y, h, m);
    if (xx < 0 || yy < 0)
      return k;
    return v[static_cast<std::size_t>(xx + w * yy)];
  }
};

// A 3D host array read through a boundary rule (the constant k where it maps to -1).
struct Host3D {
  const std::vector<float> &v;
  long w, h, d;
  Mode m;
  float k;
  float operator()(long x, long y, long z) const {
    const long xx = host_map(x, w, m), yy = host_map(y, h, m), zz = host_map(z, d, m);
    if (xx < 0 || yy < 0 || zz < 0)
      return k;
    return v[static_cast<std::size_t>(xx + w * (yy + h * zz))];
  }
};

// An 11-point stencil of radius (1, 1, 2), a weight per offset, so that a read one step
// off shows; n is a device neighbourhood or the host's reads around a point.
struct eleven_point {
  template <class N> float operator()(const N &n) const {
    return n(0, 0, 0) + 2.f * n(0, 0, -1) + 3.f * n(0, 0, 1) + 5.f * n(0, 0, -2) +
           7.f * n(0, 0, 2) + 11.f * n(-1, 0, 0) + 13.f * n(1, 0, 0) + 17.f * n(0, -1, 0) +
           19.f * n(0, 1, 0) + 23.f * n(1, 1, 1) + 29.f * n(-1, -1, -2);
  }
};

// g (x fastest) is eleven_point over the host array a at every point.
void expect_eleven_point(const std::vector<float> &g, const Host3D &a) {
  for (long z = 0; z < a.d; ++z)
    for (long y = 0; y < a.h; ++y)
      for (long x = 0; x < a.w; ++x) {
        const float want =
            eleven_point{}([&](int dx, int dy, int dz) { return a(x + dx, y + dy, z + dz); });
        ASSERT_NEAR(g[static_cast<std::size_t>(x + a.w * (y + a.h * z))], want,
                    1e-4f * (1.f + std::fabs(want)))
            << x << "," << y << "," << z;
      }
}

struct Case {
  std::size_t w, h;
  Mode mode;
};
std::string name(const testing::TestParamInfo<Case> &p) {
  const char *m[] = {"clamp", "mirror", "wrap", "constant"};
  return std::to_string(p.param.w) + "x" + std::to_string(p.param.h) + "_" +
         m[static_cast<int>(p.param.mode)];
}

// The five-point Laplacian-like stencil of the issue, any boundary.
template <class B>
std::vector<float> five_point(const std::vector<float> &host, std::size_t w, std::size_t h, B b) {
  gpu::vector<float> in = gpu::copy(host), out(w * h);
  gpu::transform(gpu::stencil<1>(gpu::md(in, w, h), b), out, [](auto n) {
    return 0.25f * (n(-1, 0) + n(1, 0) + n(0, -1) + n(0, 1)) - n(0, 0);
  });
  return gpu::copy(out);
}

class Stencil2D : public ::testing::TestWithParam<Case> {};

TEST_P(Stencil2D, FivePointMatchesTheHost) {
  const Case c = GetParam();
  const std::vector<float> host = pacxx_test::random_floats(c.w * c.h, 11, -1.f, 1.f);
  std::vector<float> got;
  switch (c.mode) {
  case Mode::clamp:
    got = five_point(host, c.w, c.h, gpu::boundary::clamp);
    break;
  case Mode::mirror:
    got = five_point(host, c.w, c.h, gpu::boundary::mirror);
    break;
  case Mode::wrap:
    got = five_point(host, c.w, c.h, gpu::boundary::wrap);
    break;
  case Mode::constant:
    got = five_point(host, c.w, c.h, gpu::boundary::constant(2.5f));
    break;
  }
  const Host2D a{host, static_cast<long>(c.w), static_cast<long>(c.h), c.mode, 2.5f};
  for (long y = 0; y < a.h; ++y)
    for (long x = 0; x < a.w; ++x) {
      const float want = 0.25f * (a(x - 1, y) + a(x + 1, y) + a(x, y - 1) + a(x, y + 1)) - a(x, y);
      ASSERT_EQ(got[static_cast<std::size_t>(x + a.w * y)], want) << x << "," << y;
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, Stencil2D,
                         ::testing::Values(Case{1, 1, Mode::clamp}, Case{1, 1, Mode::mirror},
                                           Case{1, 37, Mode::wrap}, Case{37, 1, Mode::constant},
                                           Case{2, 2, Mode::mirror}, Case{31, 17, Mode::clamp},
                                           Case{31, 17, Mode::mirror}, Case{31, 17, Mode::wrap},
                                           Case{31, 17, Mode::constant},
                                           Case{257, 129, Mode::clamp},
                                           Case{257, 129, Mode::mirror}),
                         name);

TEST(Stencil, NonSquareAndLargeRadiiWithMirror) {
  // stencil<2, 0>: a 5 x 1 horizontal window; and a 17 x 17 box wider than a 5-wide
  // array (the reflection wraps more than once).
  for (std::size_t w : {5u, 40u})
    for (std::size_t h : {3u, 30u}) {
      const std::vector<float> host = pacxx_test::random_floats(w * h, 5, 0.f, 1.f);
      gpu::vector<float> in = gpu::copy(host), row5(w * h), box(w * h);
      const auto a = gpu::md(in, w, h);
      gpu::transform(gpu::stencil<2, 0>(a, gpu::boundary::mirror), row5,
                     [](auto n) { return n(-2, 0) + n(-1, 0) + n(0, 0) + n(1, 0) + n(2, 0); });
      gpu::transform(gpu::stencil<8>(a, gpu::boundary::mirror), box, [](auto n) {
        float s = 0.f;
        for (int dy = -8; dy <= 8; ++dy)
          for (int dx = -8; dx <= 8; ++dx)
            s += n(dx, dy);
        return s;
      });
      const Host2D ha{host, static_cast<long>(w), static_cast<long>(h), Mode::mirror, 0.f};
      const std::vector<float> g5 = gpu::copy(row5), gb = gpu::copy(box);
      for (long y = 0; y < ha.h; ++y)
        for (long x = 0; x < ha.w; ++x) {
          const float want5 = ha(x - 2, y) + ha(x - 1, y) + ha(x, y) + ha(x + 1, y) + ha(x + 2, y);
          ASSERT_EQ(g5[static_cast<std::size_t>(x + ha.w * y)], want5) << x << "," << y;
          float s = 0.f;
          for (long dy = -8; dy <= 8; ++dy)
            for (long dx = -8; dx <= 8; ++dx)
              s += ha(x + dx, y + dy);
          ASSERT_EQ(gb[static_cast<std::size_t>(x + ha.w * y)], s) << x << "," << y;
        }
    }
}

TEST(Stencil, SevenPoint3DAndWrap1D) {
  const long w = 13, h = 7, d = 5;
  const std::vector<float> host =
      pacxx_test::random_floats(static_cast<std::size_t>(w * h * d), 3, -1.f, 1.f);
  gpu::vector<float> in = gpu::copy(host), out(host.size());
  gpu::transform(gpu::stencil<1>(gpu::md(in, 13, 7, 5), gpu::boundary::clamp), out, [](auto n) {
    return n(0, 0, 0) + n(-1, 0, 0) + n(1, 0, 0) + n(0, -1, 0) + n(0, 1, 0) + n(0, 0, -1) +
           n(0, 0, 1);
  });
  auto at = [&](long x, long y, long z) {
    return host[static_cast<std::size_t>(
        host_map(x, w, Mode::clamp) +
        w * (host_map(y, h, Mode::clamp) + h * host_map(z, d, Mode::clamp)))];
  };
  const std::vector<float> g = gpu::copy(out);
  for (long z = 0; z < d; ++z)
    for (long y = 0; y < h; ++y)
      for (long x = 0; x < w; ++x) {
        const float want = at(x, y, z) + at(x - 1, y, z) + at(x + 1, y, z) + at(x, y - 1, z) +
                           at(x, y + 1, z) + at(x, y, z - 1) + at(x, y, z + 1);
        ASSERT_EQ(g[static_cast<std::size_t>(x + w * (y + h * z))], want)
            << x << "," << y << "," << z;
      }
  // 1D, periodic: a moving sum of seven over a ring of ints.
  const std::vector<int> ring = pacxx_test::ints(101, 4);
  gpu::vector<int> r = gpu::copy(ring), s(101);
  gpu::transform(gpu::stencil<3>(gpu::md(r, 101), gpu::boundary::wrap), s, [](auto n) {
    int t = 0;
    for (int k = -3; k <= 3; ++k)
      t += n(k);
    return t;
  });
  const std::vector<int> gs = gpu::copy(s);
  for (long i = 0; i < 101; ++i) {
    int t = 0;
    for (long k = -3; k <= 3; ++k)
      t += ring[static_cast<std::size_t>(((i + k) % 101 + 101) % 101)];
    ASSERT_EQ(gs[static_cast<std::size_t>(i)], t) << i;
  }
}

// Long columns (more rows and planes than a block covers), a radius of 2 along the last
// axis, reads off the centre column on other planes (27-point corners), reads at offsets
// the compiler cannot see (a runtime dy), every boundary, transform and for_each alike.
// Weights differ per offset, so a neighbour read one step off shows. (Written for a
// thread-marches-a-column kernel that was measured and dropped: policy::shaped_stencil.)
TEST(Stencil, LongColumnsRadiusTwoRuntimeOffsetsMatchTheHost) {
  for (Mode mode : {Mode::clamp, Mode::mirror, Mode::wrap, Mode::constant}) {
    SCOPED_TRACE(static_cast<int>(mode));
    // 3D, radius (1, 1, 2): 9 x 6 x 150 (150 > several chunks).
    const long w = 9, h = 6, d = 150;
    const std::vector<float> host =
        pacxx_test::random_floats(static_cast<std::size_t>(w * h * d), 5, -1.f, 1.f);
    gpu::vector<float> in = gpu::copy(host), out(host.size()), out2(host.size());
    const eleven_point f3{};
    auto run3 = [&](auto b) {
      auto a = gpu::md(in, w, h, d);
      gpu::transform(gpu::stencil<1, 1, 2>(a, b), out, f3);
      gpu::for_each(gpu::stencil<1, 1, 2>(a, b),
                    [o = gpu::md(out2, w, h, d), f3](auto n) { o(n.x(), n.y(), n.z()) = f3(n); });
    };
    switch (mode) {
    case Mode::clamp:
      run3(gpu::boundary::clamp);
      break;
    case Mode::mirror:
      run3(gpu::boundary::mirror);
      break;
    case Mode::wrap:
      run3(gpu::boundary::wrap);
      break;
    case Mode::constant:
      run3(gpu::boundary::constant(0.5f));
      break;
    }
    const std::vector<float> g = gpu::copy(out), g2 = gpu::copy(out2);
    expect_eleven_point(g, Host3D{host, w, h, d, mode, 0.5f});
    ASSERT_EQ(g2, g);
  }
  // 2D, radius (1, 2), 37 x 300, the column offset a runtime value (the neighbourhood
  // picks its register without indexing by it); ints, so results are exact.
  const long w = 37, h = 300;
  const std::vector<int> host = pacxx_test::ints(static_cast<std::size_t>(w * h), 6);
  gpu::vector<int> in = gpu::copy(host), out(host.size());
  for (int k : {-2, -1, 0, 1, 2}) {
    SCOPED_TRACE(k);
    gpu::transform(gpu::stencil<1, 2>(gpu::md(in, w, h), gpu::boundary::mirror), out,
                   [k](auto n) { return 3 * n(0, k) + n(1, -2) - 2 * n(-1, 1) + 5 * n(0, 0); });
    const std::vector<int> g = gpu::copy(out);
    auto at = [&](long x, long y) {
      return host[static_cast<std::size_t>(host_map(x, w, Mode::mirror) +
                                           w * host_map(y, h, Mode::mirror))];
    };
    for (long y = 0; y < h; ++y)
      for (long x = 0; x < w; ++x)
        ASSERT_EQ(g[static_cast<std::size_t>(x + w * y)],
                  3 * at(x, y + k) + at(x + 1, y - 2) - 2 * at(x - 1, y + 1) + 5 * at(x, y))
            << x << "," << y;
  }
}

// gpu::transform over a 2D or 3D stencil takes groups of consecutive rows (planes) a
// thread, all of a group's loads before its stores where the group is interior
// (policy::shaped_stencil). A GPU takes that path; PoCL, where a warp is one work-item,
// takes it only with group_everywhere, as here, so that CI runs it. Groups of 4 and 3,
// extents that are not multiples of them, grids too small for the space (every loop
// strides), radii up to 2 along the grouped axis, runtime offsets, two arrays, a
// shaped output: against the host, and against the element-by-element path.
struct groups_everywhere : pacxx::policy::shaped_stencil {
  static constexpr bool group_everywhere = true;
};
struct groups_of_three_small_grid : groups_everywhere {
  static constexpr std::size_t group = 3;
  static constexpr std::size_t max_blocks_x = 1;
  static constexpr std::size_t max_blocks_yz = 2;
};
template <class P, class S, class O, class F> void transform_groups(const S &s, O &out, F f) {
  gpu::detail::transform_shaped_with<P>(pacxx::detail::device_view(s),
                                        pacxx::detail::device_view(out), f);
}

template <class P> void groups_match_the_host() {
  // 2D, radius (1, 2), mirror, a runtime row offset; ints (exact). 70 x 45: 45 rows are
  // not a multiple of 4 or 3; 70 columns leave a partial warp.
  {
    const long w = 70, h = 45;
    const std::vector<int> host = pacxx_test::ints(static_cast<std::size_t>(w * h), 21);
    gpu::vector<int> in = gpu::copy(host), out(host.size());
    auto at = [&](long x, long y) {
      return host[static_cast<std::size_t>(host_map(x, w, Mode::mirror) +
                                           w * host_map(y, h, Mode::mirror))];
    };
    for (int k : {-2, 1}) {
      SCOPED_TRACE(k);
      transform_groups<P>(
          gpu::stencil<1, 2>(gpu::md(in, w, h), gpu::boundary::mirror), out,
          [k](auto n) { return 3 * n(0, k) + n(1, -2) - 2 * n(-1, 1) + 5 * n(0, 0) + n(0, 2); });
      const std::vector<int> g = gpu::copy(out);
      for (long y = 0; y < h; ++y)
        for (long x = 0; x < w; ++x)
          ASSERT_EQ(g[static_cast<std::size_t>(x + w * y)], 3 * at(x, y + k) + at(x + 1, y - 2) -
                                                                2 * at(x - 1, y + 1) +
                                                                5 * at(x, y) + at(x, y + 2))
              << x << "," << y;
    }
  }
  // 3D, radius (1, 1, 2), every boundary: 11 x 7 x 41 (41 planes: not a multiple of 4 or
  // 3), the same as the element-by-element path (gpu::transform on PoCL) and the host.
  for (Mode mode : {Mode::clamp, Mode::wrap, Mode::constant}) {
    SCOPED_TRACE(static_cast<int>(mode));
    const long w = 11, h = 7, d = 41;
    const std::vector<float> host =
        pacxx_test::random_floats(static_cast<std::size_t>(w * h * d), 22, -1.f, 1.f);
    gpu::vector<float> in = gpu::copy(host), out(host.size());
    const eleven_point f3{};
    auto a = gpu::md(in, w, h, d);
    if (mode == Mode::clamp)
      transform_groups<P>(gpu::stencil<1, 1, 2>(a, gpu::boundary::clamp), out, f3);
    else if (mode == Mode::wrap)
      transform_groups<P>(gpu::stencil<1, 1, 2>(a, gpu::boundary::wrap), out, f3);
    else
      transform_groups<P>(gpu::stencil<1, 1, 2>(a, gpu::boundary::constant(0.5f)), out, f3);
    expect_eleven_point(gpu::copy(out), Host3D{host, w, h, d, mode, 0.5f});
  }
  // Two arrays under one stencil, written through a transposed (shaped) output.
  {
    const std::size_t w = 45, h = 23;
    const std::vector<float> ha = pacxx_test::random_floats(w * h, 23, -1.f, 1.f),
                             hb = pacxx_test::random_floats(w * h, 24, -1.f, 1.f);
    gpu::vector<float> a = gpu::copy(ha), b = gpu::copy(hb), out(w * h);
    auto t = gpu::transposed(gpu::md(out, h, w));
    transform_groups<P>(
        gpu::stencil2<1>(gpu::md(a, w, h), gpu::md(b, w, h), gpu::boundary::constant(0.f)), t,
        [](auto n) { return n.first(0, 0) - n.first(-1, 0) + n.second(0, 1) - n.second(0, -1); });
    const std::vector<float> g = gpu::copy(out);
    for (std::size_t y = 0; y < h; ++y)
      for (std::size_t x = 0; x < w; ++x) {
        const float am = x > 0 ? ha[x - 1 + w * y] : 0.f, bm = y > 0 ? hb[x + w * (y - 1)] : 0.f,
                    bp = y + 1 < h ? hb[x + w * (y + 1)] : 0.f;
        ASSERT_EQ(g[y + h * x], ha[x + w * y] - am + bp - bm) << x << "," << y;
      }
  }
}

TEST(Stencil, GroupsOfRowsAndPlanesMatchTheHost) {
  groups_match_the_host<groups_everywhere>();
  groups_match_the_host<groups_of_three_small_grid>();
}

TEST(Stencil, TwoArraysUnderOneStencilAndForEach) {
  const std::size_t w = 45, h = 23;
  const std::vector<float> ha = pacxx_test::random_floats(w * h, 1, -1.f, 1.f),
                           hb = pacxx_test::random_floats(w * h, 2, -1.f, 1.f);
  gpu::vector<float> a = gpu::copy(ha), b = gpu::copy(hb), out(w * h), out2(w * h);
  // ROF's divergence shape: a backward difference of a along x plus one of b along y.
  gpu::transform(
      gpu::stencil2<1>(gpu::md(a, w, h), gpu::md(b, w, h), gpu::boundary::constant(0.f)), out,
      [](auto n) { return n.first(0, 0) - n.first(-1, 0) + n.second(0, 0) - n.second(0, -1); });
  // The same through for_each, writing by coordinates into a captured md view.
  gpu::for_each(gpu::stencil2<1>(gpu::md(a, w, h), gpu::md(b, w, h), gpu::boundary::constant(0.f)),
                [o = gpu::md(out2, w, h)](auto n) {
                  o(n.first.x(), n.first.y()) =
                      n.first(0, 0) - n.first(-1, 0) + n.second(0, 0) - n.second(0, -1);
                });
  const std::vector<float> g = gpu::copy(out), g2 = gpu::copy(out2);
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      const float am = x > 0 ? ha[x - 1 + w * y] : 0.f, bm = y > 0 ? hb[x + w * (y - 1)] : 0.f;
      const float want = ha[x + w * y] - am + hb[x + w * y] - bm;
      ASSERT_EQ(g[x + w * y], want) << x << "," << y;
      ASSERT_EQ(g2[x + w * y], want) << x << "," << y;
    }
  gpu::vector<float> c(w * (h + 1));
  EXPECT_THROW((void)gpu::stencil2<1>(gpu::md(a, w, h), gpu::md(c, w, h + 1), gpu::boundary::clamp),
               pacxx::error);
}

TEST(Stencil, UnderAViewItIsARangeAndAStencilReadsAView) {
  const std::size_t w = 33, h = 9;
  const std::vector<float> host = pacxx_test::random_floats(w * h, 8, 0.f, 1.f);
  gpu::vector<float> in = gpu::copy(host);
  // A stencil over an md view of a transform view (the output of one stage feeding the
  // next without a copy), reduced through view::transform: the 1D range path.
  auto doubled = gpu::md(in | view::transform([](float x) { return 2.f * x; }), w, h);
  const double got =
      gpu::reduce(gpu::stencil<1>(doubled, gpu::boundary::clamp) |
                      view::transform([](auto n) { return double(n(1, 0) - n(-1, 0)); }),
                  0.0);
  double want = 0;
  const Host2D a{host, static_cast<long>(w), static_cast<long>(h), Mode::clamp, 0.f};
  for (long y = 0; y < a.h; ++y)
    for (long x = 0; x < a.w; ++x)
      want += double(2.f * a(x + 1, y) - 2.f * a(x - 1, y));
  EXPECT_NEAR(got, want, 1e-3);
  pacxx::reset_stats();
  gpu::vector<float> out(w * h);
  gpu::transform(gpu::stencil<1>(doubled, gpu::boundary::wrap), out,
                 [](auto n) { return n(0, 1); });
  EXPECT_EQ(pacxx::stats().kernel_launches, 1u);
}

} // namespace

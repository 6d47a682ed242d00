// Run-time tuning (pacxx/tune.hpp, issue 36): every candidate of the algorithms' spaces
// (policy::tuning) computes the same bits on exact data; a user kernel declared as a
// space runs under each candidate and under the chosen one; and, in the TuningStore
// tests that ctest runs as one process after another over a fresh cache directory
// (tests/e2e/CMakeLists.txt), exploration picks a valid candidate and stores it, a later
// process reuses the stored choice without exploring, and records that are corrupt or
// hold another key's choice are ignored (and removed), never trusted.
#include "test_support.hpp"

#include <pacxx/algorithm/gemm.hpp>
#include <pacxx/pacxx.hpp>
#include <pacxx/tune.hpp>

#include <gtest/gtest.h>

#include <range/v3/view/transform.hpp>

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using pacxx_test::rng;

std::vector<int> random_ints(std::size_t n, std::uint64_t seed, int lo, int hi) {
  rng r(seed);
  std::vector<int> v(n);
  for (auto &x : v)
    x = static_cast<int>(r.integer(lo, hi));
  return v;
}

// ---- A user kernel as a space (docs/tuning.md shows the same) ----

template <std::size_t Block, std::size_t Items> struct axpy_point {
  static constexpr std::size_t block = Block, items = Items;
  static std::string describe() {
    return pacxx::tune::describe_values("block items", {Block, Items});
  }
};
using axpy_space =
    pacxx::tune::product<axpy_point, pacxx::tune::values<64, 256>, pacxx::tune::values<1, 4>>;
static_assert(axpy_space::size == 4, "product: 2 x 2 points");
static_assert(std::is_same<pacxx::tune::with_default<axpy_point<64, 4>, axpy_space>,
                           pacxx::tune::space<axpy_point<64, 4>, axpy_point<64, 1>,
                                              axpy_point<256, 1>, axpy_point<256, 4>>>::value,
              "with_default: the default first, once");

// out = a * x + y under policy P: each thread `items` elements a block apart, blocks
// striding over tiles. Repeatable (out is not an input), so the run is its own trial.
template <class P> void axpy(int a, const int *x, const int *y, int *out, std::size_t n) {
  const std::size_t tile = P::block * P::items;
  const std::size_t blocks =
      std::max<std::size_t>(1, std::min<std::size_t>(64, (n + tile - 1) / tile));
  pacxx::kernel(
      [a](const int *x, const int *y, int *out, std::size_t n) {
        const std::size_t stride = pacxx::Grid::get().size.x * P::block * P::items;
        for (std::size_t base = pacxx::Block::get().index.x * P::block * P::items; base < n;
             base += stride)
          for (std::size_t q = 0; q < P::items; ++q) {
            const std::size_t i = base + q * P::block + pacxx::Thread::get().local.x;
            if (i < n)
              out[i] = a * x[i] + y[i];
          }
      },
      {{blocks}, {P::block}})(x, y, out, n);
}

void tuned_axpy(int a, const gpu::vector<int> &x, const gpu::vector<int> &y,
                gpu::vector<int> &out) {
  const int *px = x.data(), *py = y.data();
  int *po = out.data();
  const std::size_t n = x.size();
  pacxx::tune::run<axpy_space>("tests::axpy", pacxx::tune::size_class(n),
                               [&](auto policy) { axpy<decltype(policy)>(a, px, py, po, n); });
}

TEST(Tuning, UserKernelIsRightUnderEveryCandidateAndTheChosenOne) {
  for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(1031)}) {
    const std::vector<int> hx = random_ints(n, 1, -100, 100), hy = random_ints(n, 2, -100, 100);
    std::vector<int> want(n);
    for (std::size_t i = 0; i < n; ++i)
      want[i] = 3 * hx[i] + hy[i];
    gpu::vector<int> x = gpu::copy(hx), y = gpu::copy(hy), out(n);
    for (std::size_t c = 0; c < axpy_space::size; ++c) {
      pacxx::tune::invoke<axpy_space>(
          c, [&](auto policy) { axpy<decltype(policy)>(3, x.data(), y.data(), out.data(), n); });
      EXPECT_EQ(gpu::copy(out), want) << "candidate " << c << ", n " << n;
    }
    tuned_axpy(3, x, y, out);
    EXPECT_EQ(gpu::copy(out), want) << "chosen candidate, n " << n;
  }
}

TEST(Tuning, DescribeAndSizeClasses) {
  EXPECT_EQ(pacxx::tune::describe_values("block items", {256, 8}), "block=256 items=8");
  EXPECT_EQ(pacxx::tune::size_class(0), 0u);
  EXPECT_EQ(pacxx::tune::size_class(1), 1u);
  EXPECT_EQ(pacxx::tune::size_class(1000), 10u);
  EXPECT_EQ(pacxx::tune::size_class(1024), 11u);
}

// ---- The algorithms' spaces: every candidate, the same bits ----

TEST(Tuning, ReduceIsBitwiseTheSameUnderEveryCandidate) {
  using S = pacxx::policy::tuning::reduce;
  for (std::size_t n : {std::size_t(1), std::size_t(997), std::size_t(100003)}) {
    const std::vector<int> h = random_ints(n, n, -1000, 1000);
    const int want = std::accumulate(h.begin(), h.end(), 5);
    gpu::vector<int> v = gpu::copy(h);
    auto in = pacxx::detail::device_view(v);
    for (std::size_t c = 0; c < S::size; ++c) {
      const int got = pacxx::tune::invoke<S>(c, [&](auto policy) {
        return 5 + gpu::detail::fold_partials(
                       gpu::detail::reduce_blocks<int, decltype(policy)>(
                           in, n, gpu::detail::element{}, std::plus<>{}, std::plus<>{}),
                       std::plus<>{});
      });
      EXPECT_EQ(got, want) << "candidate " << c << ", n " << n;
    }
    EXPECT_EQ(gpu::reduce(v, 5), want);
  }
}

TEST(Tuning, ScanIsBitwiseTheSameUnderEveryCandidate) {
  using S = pacxx::policy::tuning::scan_space<int, false>;
  for (std::size_t n : {std::size_t(1), std::size_t(13), std::size_t(50021)}) {
    const std::vector<int> h = random_ints(n, n + 3, -50, 50);
    std::vector<int> want(n);
    std::inclusive_scan(h.begin(), h.end(), want.begin());
    gpu::vector<int> v = gpu::copy(h), out(n);
    auto src = pacxx::detail::device_view(v);
    auto dst = pacxx::detail::device_view(out);
    for (std::size_t c = 0; c < S::size; ++c) {
      pacxx::tune::invoke<S>(c, [&](auto policy) {
        gpu::detail::scan_with<decltype(policy), int, false>("scan", src, dst, n, 0, std::plus<>{});
      });
      EXPECT_EQ(gpu::copy(out), want) << "candidate " << c << ", n " << n;
    }
  }
}

// The runtime's warp size is the kernels' pacxx::warp::size(), and candidates made for
// one-lane devices are pruned (a pacxx::error, which exploration records as pruned)
// exactly where it is more than one.
TEST(Tuning, OneLaneCandidatesArePrunedWhereAWarpHasMoreLanes) {
  gpu::vector<unsigned> lanes(1);
  pacxx::kernel([](unsigned *out) { out[0] = pacxx::warp::size(); }, {{1}, {1}})(lanes.data());
  const unsigned w = gpu::copy(lanes)[0];
  EXPECT_EQ(pacxx::detail::device_warp_size(), w);
  const pacxx::policy::tuning::scan_runs_point<64, 64> scan_runs{};
  const pacxx::policy::tuning::radix_runs_point<16> radix_runs{};
  const pacxx::policy::tuning::scan_point<int, false, 64, 32> tiles{};
  EXPECT_NO_THROW(pacxx::tune::detail::check_fits(tiles));
  if (w > 1) {
    EXPECT_THROW(pacxx::tune::detail::check_fits(scan_runs), pacxx::error);
    EXPECT_THROW(pacxx::tune::detail::check_fits(radix_runs), pacxx::error);
  } else {
    EXPECT_NO_THROW(pacxx::tune::detail::check_fits(scan_runs));
    EXPECT_NO_THROW(pacxx::tune::detail::check_fits(radix_runs));
  }
}

// x -> a x + b over unsigned (wrapping); compose(f, g) applies f, then g: associative,
// not commutative, exact.
struct affine {
  unsigned a, b;
};
struct compose {
  affine operator()(const affine &f, const affine &g) const { return {f.a * g.a, f.b * g.a + g.b}; }
};
bool operator==(const affine &x, const affine &y) { return x.a == y.a && x.b == y.b; }

// Every candidate (the runs' three steps among them) keeps the order of a
// non-commutative op, scans exclusive with an init and in place, and fuses a view on the
// input; sizes below a block, below the runs, and over many runs.
TEST(Tuning, ScanCandidatesKeepOrderExclusiveAndInPlace) {
  using S = pacxx::policy::tuning::scan_space<affine, false>;
  for (std::size_t n :
       {std::size_t(1), std::size_t(5), std::size_t(63), std::size_t(1025), std::size_t(100003)}) {
    const std::vector<int> r = random_ints(2 * n, n + 11, 0, 1000);
    std::vector<affine> h(n);
    for (std::size_t i = 0; i < n; ++i)
      h[i] = {unsigned(2 * r[2 * i] + 1), unsigned(r[2 * i + 1])};
    const affine init{3, 7};
    std::vector<affine> inc(n), exc(n);
    affine run = h[0];
    for (std::size_t i = 0; i < n; ++i) {
      run = i ? compose{}(run, h[i]) : h[0];
      inc[i] = run;
    }
    run = init;
    for (std::size_t i = 0; i < n; ++i) {
      exc[i] = run;
      run = compose{}(run, h[i]);
    }
    for (std::size_t c = 0; c < S::size; ++c) {
      gpu::vector<affine> v = gpu::copy(h), out(n);
      pacxx::tune::invoke<S>(c, [&](auto policy) {
        using P = decltype(policy);
        auto twice = v | ranges::views::transform([](const affine &f) { return f; });
        gpu::detail::scan_with<P, affine, false>("scan", pacxx::detail::device_view(twice),
                                                 pacxx::detail::device_view(out), n, affine{},
                                                 compose{});
        EXPECT_TRUE(gpu::copy(out) == inc) << "inclusive, candidate " << c << ", n " << n;
        gpu::detail::scan_with<P, affine, true>("scan", pacxx::detail::device_view(v),
                                                pacxx::detail::device_view(v), n, init, compose{});
        EXPECT_TRUE(gpu::copy(v) == exc) << "exclusive in place, candidate " << c << ", n " << n;
      });
    }
  }
}

TEST(Tuning, RadixPassesSortTheSameUnderEveryCandidate) {
  using S = pacxx::policy::tuning::radix_space<4, 0, 4>;
  for (std::size_t n : {std::size_t(2), std::size_t(331), std::size_t(40009)}) {
    std::vector<unsigned> h(n);
    rng r(n);
    for (auto &x : h)
      x = static_cast<unsigned>(r.integer(0, 1 << 30));
    std::vector<unsigned> want = h;
    std::sort(want.begin(), want.end());
    for (std::size_t c = 0; c < S::size; ++c) {
      gpu::vector<unsigned> keys = gpu::copy(h), alt(n);
      pacxx::tune::invoke<S>(c, [&](auto policy) {
        gpu::detail::radix_passes<unsigned, gpu::detail::no_values, false, unsigned,
                                  decltype(policy)>(keys.data(), alt.data(), nullptr, nullptr, n, 0,
                                                    32);
      });
      EXPECT_EQ(gpu::copy(keys), want) << "candidate " << c << ", n " << n;
    }
  }
}

// Pairs under every candidate (the runs' passes among them): stable (the values are the
// input positions), ascending and descending, signed and float keys, a bit range of an
// odd number of passes, and fewer keys than runs.
template <class K, bool Descending>
void expect_pairs_sorted(const std::vector<K> &h, unsigned begin_bit, unsigned end_bit) {
  using S = pacxx::policy::tuning::radix_space<4, 4, 4>;
  using bits = pacxx::agent::radix_key<K>;
  const std::size_t n = h.size();
  auto digits = [&](K k) {
    auto b = bits::bits(k);
    if (Descending)
      b = decltype(b)(~b);
    const unsigned width = end_bit - begin_bit;
    return (b >> begin_bit) & (width >= 32 ? ~0u : (1u << width) - 1u);
  };
  std::vector<unsigned> want(n);
  std::iota(want.begin(), want.end(), 0u);
  std::stable_sort(want.begin(), want.end(),
                   [&](unsigned a, unsigned b) { return digits(h[a]) < digits(h[b]); });
  std::vector<unsigned> index(n);
  std::iota(index.begin(), index.end(), 0u);
  for (std::size_t c = 0; c < S::size; ++c) {
    gpu::vector<K> keys = gpu::copy(h), alt(n);
    gpu::vector<unsigned> values = gpu::copy(index), values_alt(n);
    pacxx::tune::invoke<S>(c, [&](auto policy) {
      gpu::detail::radix_passes<K, unsigned, Descending, unsigned, decltype(policy)>(
          keys.data(), alt.data(), values.data(), values_alt.data(), n, begin_bit, end_bit);
    });
    const std::vector<unsigned> got = gpu::copy(values);
    EXPECT_EQ(got, want) << "candidate " << c << ", n " << n << ", bits " << begin_bit << ".."
                         << end_bit << (Descending ? ", descending" : "");
    const std::vector<K> sorted = gpu::copy(keys);
    for (std::size_t i = 0; i < n && i < got.size(); ++i)
      if (!(bits::bits(sorted[i]) == bits::bits(h[got[i]]))) {
        ADD_FAILURE() << "candidate " << c << ": key " << i << " not moved with its value";
        break;
      }
  }
}

TEST(Tuning, RadixCandidatesSortPairsStablyEitherWay) {
  for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(5003)}) {
    const std::vector<int> r = random_ints(n, n + 5, -300, 300);
    std::vector<float> f(n);
    for (std::size_t i = 0; i < n; ++i)
      f[i] = float(r[i]) * 0.25f;
    expect_pairs_sorted<int, false>(r, 0, 32);
    expect_pairs_sorted<int, true>(r, 0, 32);
    expect_pairs_sorted<float, false>(f, 0, 32);
    expect_pairs_sorted<int, false>(r, 4, 28); // three passes: 8, 8, 8 bits
    expect_pairs_sorted<int, true>(r, 3, 14);  // two passes, the second of 3 bits
  }
}

TEST(Tuning, HistogramIsTheSameUnderEveryCandidate) {
  using S = pacxx::policy::tuning::histogram;
  using U = unsigned long long;
  for (std::size_t bins : {std::size_t(1), std::size_t(37), std::size_t(5000)}) {
    const std::size_t n = 30011;
    const std::vector<int> h = random_ints(n, bins, -5, 105);
    std::vector<U> want(bins, 0);
    for (int x : h)
      if (x >= 0 && x < 100)
        ++want[std::size_t(x) * bins / 100];
    gpu::vector<int> v = gpu::copy(h);
    auto in = pacxx::detail::device_view(v);
    const auto map = gpu::detail::even_bins<int>::make(bins, 0, 100);
    for (std::size_t c = 0; c < S::size; ++c) {
      gpu::vector<U> out(bins, U(0));
      pacxx::tune::invoke<S>(c, [&](auto policy) {
        gpu::detail::histogram_with<decltype(policy), int>(in, n, bins, map, out.data());
      });
      EXPECT_EQ(gpu::copy(out), want) << "candidate " << c << ", bins " << bins;
    }
    EXPECT_EQ(gpu::copy(gpu::histogram_even(v, bins, 0, 100)), want) << bins;
  }
}

TEST(Tuning, GemmIsBitwiseTheSameUnderEveryCandidate) {
  using S = pacxx::policy::tuning::gemm;
  // Small integers: every product and sum is exact in float, so every tiling agrees.
  const std::size_t m = 67, n = 131, k = 29;
  const std::vector<int> ia = random_ints(m * k, 7, -8, 8), ib = random_ints(k * n, 8, -8, 8);
  const std::vector<float> ha(ia.begin(), ia.end()), hb(ib.begin(), ib.end());
  std::vector<float> want(m * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      float s = 0;
      for (std::size_t p = 0; p < k; ++p)
        s += ha[i * k + p] * hb[p * n + j];
      want[i * n + j] = 2 * s;
    }
  gpu::vector<float> a = gpu::copy(ha), b = gpu::copy(hb);
  for (std::size_t c = 0; c < S::size; ++c) {
    gpu::vector<float> out(m * n);
    auto A = gpu::md(a, k, m), B = gpu::md(b, n, k), C = gpu::md(out, n, m);
    pacxx::tune::invoke<S>(c, [&](auto policy) {
      using G = decltype(policy);
      gpu::detail::gemm_launch<typename G::small, gpu::math::fp32_t>(A, B, C, m, n, k, 1, 2.f, 0.f);
    });
    EXPECT_EQ(gpu::copy(out), want) << "candidate " << c;
  }
}

// gemv under every candidate, row-major A (a warp per row) and transposed (a thread per
// row), beta 0 and not; small integers, so every order of the sums agrees.
TEST(Tuning, GemvIsBitwiseTheSameUnderEveryCandidate) {
  using S = pacxx::policy::tuning::gemv;
  const std::size_t m = 45, n = 1031;
  const std::vector<int> ia = random_ints(m * n, 17, -8, 8), ix = random_ints(n, 18, -8, 8),
                         iy = random_ints(m, 19, -8, 8);
  const std::vector<float> ha(ia.begin(), ia.end()), hx(ix.begin(), ix.end()),
      hy(iy.begin(), iy.end());
  gpu::vector<float> a = gpu::copy(ha), at(n * m), x = gpu::copy(hx);
  std::vector<float> transposed(n * m);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j)
      transposed[j * m + i] = ha[i * n + j];
  at = gpu::copy(transposed);
  for (const float beta : {0.f, 3.f}) {
    std::vector<float> want(m);
    for (std::size_t i = 0; i < m; ++i) {
      float s = 0;
      for (std::size_t j = 0; j < n; ++j)
        s += ha[i * n + j] * hx[j];
      want[i] = 2 * s + beta * hy[i];
    }
    for (std::size_t c = 0; c < S::size; ++c) {
      gpu::vector<float> y = gpu::copy(hy), yt = gpu::copy(hy);
      pacxx::tune::invoke<S>(c, [&](auto policy) {
        using P = decltype(policy);
        gpu::detail::gemv_by_warp<P>(gpu::md(a, n, m), pacxx::detail::device_view(x),
                                     pacxx::detail::device_view(y), m, n, 2.f, beta);
        gpu::detail::gemv_by_thread<P>(gpu::transposed(gpu::md(at, m, n)),
                                       pacxx::detail::device_view(x),
                                       pacxx::detail::device_view(yt), m, n, 2.f, beta);
      });
      EXPECT_EQ(gpu::copy(y), want) << "row-major, candidate " << c << ", beta " << beta;
      EXPECT_EQ(gpu::copy(yt), want) << "transposed, candidate " << c << ", beta " << beta;
    }
  }
  gpu::vector<float> y(m);
  gpu::gemv(gpu::md(a, n, m), x, y, 2.f, 0.f); // the tuned call itself
  std::vector<float> want(m);
  for (std::size_t i = 0; i < m; ++i) {
    float s = 0;
    for (std::size_t j = 0; j < n; ++j)
      s += ha[i * n + j] * hx[j];
    want[i] = 2 * s;
  }
  EXPECT_EQ(gpu::copy(y), want);
}

// The comparator sort's merge sort under every candidate: stable (equal keys keep their
// order), sizes below one sorted tile, at one, and over many.
struct keyed {
  int key;
  unsigned index;
};
TEST(Tuning, MergeSortIsStableUnderEveryCandidate) {
  using S = pacxx::policy::tuning::merge_sort_space<keyed>;
  auto by_key = [](const keyed &a, const keyed &b) { return a.key < b.key; };
  for (std::size_t n : {std::size_t(2), std::size_t(1000), std::size_t(4096), std::size_t(70001)}) {
    const std::vector<int> r = random_ints(n, n + 21, -50, 50);
    std::vector<keyed> h(n);
    for (std::size_t i = 0; i < n; ++i)
      h[i] = {r[i], unsigned(i)};
    std::vector<keyed> want = h;
    std::stable_sort(want.begin(), want.end(), by_key);
    for (std::size_t c = 0; c < S::size; ++c) {
      gpu::vector<keyed> v = gpu::copy(h);
      pacxx::tune::invoke<S>(c, [&](auto policy) {
        gpu::detail::merge_sort_with<decltype(policy)>(v.data(), n, by_key);
      });
      const std::vector<keyed> got = gpu::copy(v);
      bool same = got.size() == n;
      for (std::size_t i = 0; same && i < n; ++i)
        same = got[i].key == want[i].key && got[i].index == want[i].index;
      EXPECT_TRUE(same) << "candidate " << c << ", n " << n;
    }
  }
}

// ---- Records across processes (ctest runs these in order over one directory) ----

std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

// The records' files in the tuning directory.
std::vector<std::string> record_files() {
  std::vector<std::string> files;
  const std::string dir = env("PACXX_CACHE_DIR") + "/tune-v1";
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".pxc") == 0)
        files.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
void write_file(const std::string &path, const std::string &data) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
}

// What this process appends to the report (PACXX_TUNE_REPORT) while f runs.
template <class F> std::string reported(F f) {
  const std::string before = read_file(env("PACXX_TUNE_REPORT"));
  f();
  return read_file(env("PACXX_TUNE_REPORT")).substr(before.size());
}

// Two reductions of two size classes (1000: 10, 3000: 12); both checked.
void two_reductions() {
  for (std::size_t n : {std::size_t(1000), std::size_t(3000)}) {
    const std::vector<int> h = random_ints(n, n, -1000, 1000);
    gpu::vector<int> v = gpu::copy(h);
    EXPECT_EQ(gpu::reduce(v, 0), std::accumulate(h.begin(), h.end(), 0)) << n;
  }
}

#define REQUIRE_STORE_RUN()                                                                        \
  if (env("PACXX_TUNE_REPORT").empty() || env("PACXX_CACHE") != "1")                               \
  GTEST_SKIP() << "run by ctest's tuning_test_opencl_store (a fresh PACXX_CACHE_DIR)"

TEST(TuningStore, ExploringStoresAValidChoice) {
  REQUIRE_STORE_RUN();
  ASSERT_EQ(pacxx::tune::mode(), 2);
  const std::string r = reported(two_reductions);
  EXPECT_NE(r.find("# explored\npacxx tuning record 1"), std::string::npos) << r;
  EXPECT_NE(r.find("family gpu::reduce/4"), std::string::npos) << r;
  // Each record's choice is one of the space's candidates, and was timed.
  std::size_t choices = 0;
  for (std::size_t at = r.find("\nchoice "); at != std::string::npos;
       at = r.find("\nchoice ", at + 1), ++choices) {
    const std::size_t c = std::stoul(r.substr(at + 8));
    EXPECT_LT(c, pacxx::policy::tuning::reduce::size) << r;
    EXPECT_NE(r.find("time " + std::to_string(c) + " "), std::string::npos) << r;
  }
  EXPECT_EQ(choices, 2u) << r;
  EXPECT_EQ(record_files().size(), 2u);
}

TEST(TuningStore, ALaterProcessReusesTheStoredChoice) {
  REQUIRE_STORE_RUN();
  ASSERT_EQ(pacxx::tune::mode(), 1);
  const std::string r = reported(two_reductions);
  EXPECT_EQ(r.find("# explored"), std::string::npos) << r;
  std::size_t stored = 0;
  for (std::size_t at = r.find("# stored\n"); at != std::string::npos;
       at = r.find("# stored\n", at + 1))
    ++stored;
  EXPECT_EQ(stored, 2u) << r;
}

TEST(TuningStore, ARecordOfAnotherKeyIsIgnored) {
  REQUIRE_STORE_RUN();
  ASSERT_EQ(pacxx::tune::mode(), 1);
  std::vector<std::string> files = record_files();
  ASSERT_EQ(files.size(), 2u);
  // Each file now holds the other's record: valid, but for another key.
  const std::string a = read_file(files[0]), b = read_file(files[1]);
  write_file(files[0], b);
  write_file(files[1], a);
  const std::string r = reported(two_reductions);
  EXPECT_EQ(r.find("# stored"), std::string::npos) << r;
  EXPECT_TRUE(record_files().empty()) << "foreign records are removed";
}

TEST(TuningStore, ACorruptRecordIsIgnored) {
  REQUIRE_STORE_RUN();
  ASSERT_EQ(pacxx::tune::mode(), 1);
  std::vector<std::string> files = record_files();
  ASSERT_EQ(files.size(), 2u) << "run after ExploringStoresAValidChoice";
  std::string a = read_file(files[0]);
  a[a.size() / 2] ^= 0x20; // one bit of the record's text
  write_file(files[0], a);
  write_file(files[1], read_file(files[1]).substr(0, 40)); // truncated
  const std::string r = reported(two_reductions);
  EXPECT_EQ(r.find("# stored"), std::string::npos) << r;
  EXPECT_TRUE(record_files().empty()) << "corrupt records are removed";
}

} // namespace

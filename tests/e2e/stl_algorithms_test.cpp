// End-to-end: the eager GPU algorithms, actions and gpu::async.
//   gpu::reduce     custom ops (max, min, multiply, a struct-valued op, std::multiplies),
//                   init counted exactly once (also over many blocks), called and piped
//                   forms, rvalue pipelines (the paper's dot product), empty ranges
//   gpu::fill       vectors and writable views (stride, take, reverse, zip of two)
//   gpu::transform  into views over the output (take, stride, reverse), out larger than
//                   in, out too small (pacxx::error, nothing launched or written)
//   gpu::for_each   through the references of a zip (swapping two vectors)
//   actions         v |= action::transform(f) in place; std::move(v) | transform(f) |
//                   transform(g) returns the container (same storage)
//   gpu::async      Listing 7's saxpy with view::repeat (a pacxx::future, f on the
//                   calling thread); host containers copied, device
//                   vectors and numbers passed; exceptions from f reach get() with their
//                   type; the call returns before get()
// The fusion guarantee (exact launch and allocation counts) is in stl_fusion_test.cpp.
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

namespace view = ranges::views;

// A user's struct-valued reduction (external linkage, as from a user's header).
struct Stats {
  int lo, hi;
  long long sum;
  long long count;
};

namespace {

using pacxx_test::counts;
using pacxx_test::ints;
using pacxx_test::random_floats;
using pacxx_test::rng;

using pacxx_test::big;
using pacxx_test::max_op;
using pacxx_test::mult;
using pacxx_test::plus;
using pacxx_test::prime;
using pacxx_test::twice;
auto min_op = [](int a, int b) { return a < b ? a : b; };

// The paper's Listing 6 and 7.
float dot_product(const std::vector<float> &a, const std::vector<float> &b) {
  return view::zip(gpu::copy(a), gpu::copy(b)) | view::transform(mult) | gpu::reduce(0.0f);
}

auto saxpy(float a, const std::vector<float> &x, const std::vector<float> &y) {
  return gpu::async(
      [=](auto a, const auto &x, const auto &y) {
        auto ax = view::zip(view::repeat(a), x) | view::transform(mult);
        return view::zip(ax, y) | view::transform(plus);
      },
      a, x, y);
}

// ---------------------------------------------------------------------------------
// gpu::reduce

TEST(Reduce, MaxAndMinWithInitsThatDoNotWin) {
  for (std::size_t n : {std::size_t(1), prime, big}) {
    SCOPED_TRACE(n);
    const std::vector<int> h = ints(n, 1);
    gpu::vector<int> g(h);
    EXPECT_EQ(gpu::reduce(g, INT_MIN, max_op), *std::max_element(h.begin(), h.end()));
    EXPECT_EQ(g | gpu::reduce(INT_MAX, min_op), *std::min_element(h.begin(), h.end()));
    // An init that wins.
    EXPECT_EQ(gpu::reduce(g, 5000, max_op), 5000);
    EXPECT_EQ(g | gpu::reduce(-5000, min_op), -5000);
  }
}

TEST(Reduce, InitIsCountedOnce) {
  for (std::size_t n :
       {std::size_t(1), std::size_t(255), std::size_t(256), std::size_t(257), prime, big}) {
    SCOPED_TRACE(n);
    const std::vector<int> h = ints(n, 2, -10, 10);
    gpu::vector<int> g(h);
    const long long sum = std::accumulate(h.begin(), h.end(), 0LL);
    EXPECT_EQ(gpu::reduce(g, 1000), 1000 + sum);
    EXPECT_EQ(g | gpu::reduce(-77), -77 + sum);
    // Every element is 1: the result is n + init however the blocks split the work.
    EXPECT_EQ(view::repeat_n(1, static_cast<std::ptrdiff_t>(n)) | gpu::reduce(std::size_t(3)),
              n + 3);
  }
}

TEST(Reduce, MultiplyWithSmallValues) {
  // Mostly 1 and -1, exactly 40 twos: the product is +-2^40 (no overflow in int64).
  const std::size_t n = prime;
  rng r(3);
  std::vector<std::int64_t> h(n);
  for (auto &x : h)
    x = r.sign() > 0 ? 1 : -1;
  for (std::size_t i = 0; i < 40; ++i)
    h[i * 25] = 2;
  const std::int64_t want =
      std::accumulate(h.begin(), h.end(), std::int64_t(1), std::multiplies<>());
  gpu::vector<std::int64_t> g(h);
  EXPECT_EQ(gpu::reduce(g, std::int64_t(1), [](std::int64_t a, std::int64_t b) { return a * b; }),
            want);
  EXPECT_EQ(g | gpu::reduce(std::int64_t(3), std::multiplies<>()), 3 * want)
      << "a standard function object";
  EXPECT_EQ(std::abs(want), std::int64_t(1) << 40);
}

TEST(Reduce, StructValuedOperation) {
  const std::vector<int> h = ints(big, 4);
  gpu::vector<int> g(h);
  auto to_stats = [](int x) { return Stats{x, x, x, 1}; };
  auto combine = [](const Stats &a, const Stats &b) {
    return Stats{a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi, a.sum + b.sum,
                 a.count + b.count};
  };
  const Stats init{INT_MAX, INT_MIN, 100, 0};
  Stats s = view::transform(g, to_stats) | gpu::reduce(init, combine);
  EXPECT_EQ(s.lo, *std::min_element(h.begin(), h.end()));
  EXPECT_EQ(s.hi, *std::max_element(h.begin(), h.end()));
  EXPECT_EQ(s.sum, 100 + std::accumulate(h.begin(), h.end(), 0LL));
  EXPECT_EQ(s.count, static_cast<long long>(big));
}

TEST(Reduce, CalledAndPipedFormsAgree) {
  const std::vector<int> a = ints(prime, 5), b = ints(prime, 6);
  gpu::vector<int> ga(a), gb(b);
  long long want = 0;
  for (std::size_t i = 0; i < prime; ++i)
    want += static_cast<long long>(a[i]) * b[i];
  auto products = view::zip(ga, gb) | view::transform([](const auto &p) {
                    return static_cast<long long>(std::get<0>(p)) * std::get<1>(p);
                  });
  EXPECT_EQ(gpu::reduce(products, 0LL), want);
  EXPECT_EQ(products | gpu::reduce(0LL), want);
  EXPECT_EQ(gpu::reduce(products, 0LL, std::plus<>()), want);
  EXPECT_EQ(products | gpu::reduce(0LL, std::plus<long long>()), want);
}

TEST(Reduce, RvaluePipelineIsThePapersDotProduct) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), prime, big}) {
    SCOPED_TRACE(n);
    const std::vector<float> a = random_floats(n, 7, -1.0f, 1.0f),
                             b = random_floats(n, 8, -1.0f, 1.0f);
    double want = 0, magnitude = 0;
    for (std::size_t i = 0; i < n; ++i) {
      want += static_cast<double>(a[i]) * b[i];
      magnitude += std::fabs(static_cast<double>(a[i]) * b[i]);
    }
    float got = view::zip(gpu::copy(a), gpu::copy(b)) | view::transform(mult) | gpu::reduce(0.f);
    EXPECT_NEAR(got, want, 1e-5 * magnitude + 1e-5);
    EXPECT_NEAR(dot_product(a, b), want, 1e-5 * magnitude + 1e-5);
  }
}

TEST(Reduce, EmptyRangeGivesInitWithoutALaunch) {
  gpu::vector<int> empty;
  pacxx::reset_stats();
  EXPECT_EQ(gpu::reduce(empty, 42), 42);
  EXPECT_EQ(view::zip(empty, empty) | view::transform(mult) | gpu::reduce(7), 7);
  EXPECT_EQ(gpu::reduce(empty, 3, max_op), 3);
  EXPECT_EQ(counts().kernel_launches, 0u);
}

TEST(Reduce, DoublesOverAFloatPipeline) {
  const std::vector<float> h = random_floats(big, 9, 0.0f, 1.0f);
  gpu::vector<float> g(h);
  double want = 0;
  for (float x : h)
    want += static_cast<double>(x) * x;
  double got =
      view::transform(g, [](float x) { return static_cast<double>(x) * x; }) | gpu::reduce(0.0);
  EXPECT_NEAR(got, want, 1e-9 * want);
}

// ---------------------------------------------------------------------------------
// gpu::fill

TEST(Fill, VectorsAndWritableViews) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), prime, big}) {
    SCOPED_TRACE(n);
    gpu::vector<int> v(n, 0);
    std::vector<int> h(n, 0);
    gpu::fill(v, 7);
    std::fill(h.begin(), h.end(), 7);
    gpu::fill(view::stride(v, 3), -1);
    for (std::size_t i = 0; i < n; i += 3)
      h[i] = -1;
    gpu::fill(view::take(v, n / 2), 9); // a prefix
    std::fill(h.begin(), h.begin() + n / 2, 9);
    gpu::fill(view::take(view::reverse(v), 5), 4); // the last five
    for (std::size_t i = n > 5 ? n - 5 : 0; i < n; ++i)
      h[i] = 4;
    ASSERT_EQ(gpu::copy(v), h);
  }
}

TEST(Fill, ZipOfTwoVectorsWithAPair) {
  gpu::vector<int> a(prime, 0);
  gpu::vector<float> b(prime, 0.f);
  gpu::fill(view::zip(a, b), std::make_pair(3, 2.5f)); // a zip of two gives pairs
  EXPECT_EQ(gpu::copy(a), std::vector<int>(prime, 3));
  EXPECT_EQ(gpu::copy(b), std::vector<float>(prime, 2.5f));
}

TEST(Fill, TypesOtherThanTheValue) {
  gpu::vector<double> d(prime);
  gpu::fill(d, 1); // an int converted on assignment
  EXPECT_EQ(gpu::copy(d), std::vector<double>(prime, 1.0));
  gpu::vector<std::pair<int, float>> p(prime);
  gpu::fill(p, std::make_pair(4, 0.5f));
  EXPECT_EQ(gpu::copy(p), (std::vector<std::pair<int, float>>(prime, {4, 0.5f})));
}

// ---------------------------------------------------------------------------------
// gpu::transform

TEST(Transform, IntoAVector) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), prime, big}) {
    SCOPED_TRACE(n);
    const std::vector<int> h = ints(n, 10);
    gpu::vector<int> in(h), out(n);
    gpu::transform(in, out, twice);
    std::vector<int> want(n);
    std::transform(h.begin(), h.end(), want.begin(), twice);
    ASSERT_EQ(gpu::copy(out), want);
  }
}

TEST(Transform, IntoViewsOverTheOutput) {
  const std::size_t n = prime, k = 100;
  const std::vector<int> h = ints(n, 11);
  gpu::vector<int> in(h);

  // take: only the first k elements are written.
  gpu::vector<int> out(n, -1);
  gpu::transform(view::take(in, k), view::take(out, k), twice);
  std::vector<int> want(n, -1);
  for (std::size_t i = 0; i < k; ++i)
    want[i] = 2 * h[i];
  EXPECT_EQ(gpu::copy(out), want);

  // stride: every other element, from the first half of the input.
  gpu::fill(out, -1);
  gpu::transform(view::take(in, (n + 1) / 2), view::stride(out, 2), twice);
  want.assign(n, -1);
  for (std::size_t i = 0; i < (n + 1) / 2; ++i)
    want[2 * i] = 2 * h[i];
  EXPECT_EQ(gpu::copy(out), want);

  // reverse: in reverse order.
  gpu::transform(in, view::reverse(out), twice);
  for (std::size_t i = 0; i < n; ++i)
    want[n - 1 - i] = 2 * h[i];
  EXPECT_EQ(gpu::copy(out), want);

  // The output larger than the input: only its prefix is written.
  gpu::vector<int> larger(n + 10, 5);
  gpu::transform(in, larger, twice);
  std::vector<int> got = gpu::copy(larger);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], 2 * h[i]) << i;
  for (std::size_t i = n; i < n + 10; ++i)
    ASSERT_EQ(got[i], 5) << i;
}

TEST(Transform, TypeChangingFunction) {
  const std::vector<int> h = ints(prime, 12);
  gpu::vector<int> in(h);
  gpu::vector<double> out(prime);
  gpu::transform(in, out, [](int x) { return x * 0.5; });
  std::vector<double> want(prime);
  for (std::size_t i = 0; i < prime; ++i)
    want[i] = h[i] * 0.5;
  EXPECT_EQ(gpu::copy(out), want);
}

TEST(Transform, OutputTooSmallThrowsAndWritesNothing) {
  gpu::vector<int> in(prime, 1), out(prime - 1, 9);
  pacxx::reset_stats();
  try {
    gpu::transform(in, out, twice);
    FAIL() << "an output smaller than the input must be refused";
  } catch (const pacxx::error &e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(std::to_string(prime - 1)), std::string::npos) << what;
    EXPECT_NE(what.find(std::to_string(prime)), std::string::npos) << what;
  }
  EXPECT_EQ(counts().kernel_launches, 0u) << "nothing may be launched";
  EXPECT_EQ(gpu::copy(out), std::vector<int>(prime - 1, 9));
  // A view over the output counts too.
  gpu::vector<int> wide(prime, 0);
  EXPECT_THROW(gpu::transform(in, view::stride(wide, 2), twice), pacxx::error);
  EXPECT_THROW(
      gpu::transform(view::zip(in, in) | view::transform(mult), view::take(wide, 10), twice),
      pacxx::error);
  gpu::vector<int> empty;
  EXPECT_THROW(gpu::transform(in, empty, twice), pacxx::error);
}

// ---------------------------------------------------------------------------------
// gpu::for_each

TEST(ForEach, SwapsTwoVectorsThroughZipReferences) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), prime, big}) {
    SCOPED_TRACE(n);
    const std::vector<int> ha = ints(n, 13), hb = ints(n, 14);
    gpu::vector<int> a(ha), b(hb);
    gpu::for_each(view::zip(a, b), [](auto &&t) {
      int tmp = std::get<0>(t);
      std::get<0>(t) = std::get<1>(t);
      std::get<1>(t) = tmp;
    });
    ASSERT_EQ(gpu::copy(a), hb);
    ASSERT_EQ(gpu::copy(b), ha);
  }
}

TEST(ForEach, WritesThroughReferencesOfVectorsAndViews) {
  const std::vector<float> h = random_floats(prime, 15, -1.0f, 1.0f);
  gpu::vector<float> v(h);
  gpu::for_each(v, [](float &x) { x = x * 2.0f; });
  std::vector<float> want = h;
  for (float &x : want)
    x = x * 2.0f;
  EXPECT_EQ(gpu::copy(v), want);

  // The index of each element, through a zip with iota.
  gpu::vector<int> idx(prime, 0);
  gpu::for_each(view::zip(view::iota(0), idx),
                [](auto &&t) { std::get<1>(t) = std::get<0>(t) * 3; });
  std::vector<int> got = gpu::copy(idx);
  for (std::size_t i = 0; i < prime; ++i)
    ASSERT_EQ(got[i], 3 * static_cast<int>(i)) << i;

  // A captured value and a device pointer in the function.
  gpu::vector<int> counter(1, 0);
  int *c = counter.data();
  int add = 2; // not const, so that the closure really holds it
  gpu::for_each(view::iota(0, 100), [c, add](int i) { pacxx::atomic_add(c, i + add); });
  EXPECT_EQ(gpu::copy(counter)[0], 99 * 100 / 2 + 200);
}

// ---------------------------------------------------------------------------------
// Actions

TEST(Action, TransformInPlace) {
  const std::vector<int> h = ints(prime, 16);
  gpu::vector<int> v(h);
  const int *storage = v.data();
  pacxx::reset_stats();
  v |= gpu::action::transform(twice);
  auto s = counts();
  EXPECT_EQ(s.kernel_launches, 1u);
  EXPECT_EQ(s.device_allocations, 0u);
  EXPECT_EQ(s.bytes_to_device + s.bytes_to_host, 0u);
  EXPECT_EQ(v.data(), storage) << "in place";
  std::vector<int> want = h;
  for (int &x : want)
    x *= 2;
  EXPECT_EQ(gpu::copy(v), want);
  // Again, with a lambda capturing a value.
  int k = 3; // not const, so that the closure really holds it
  v |= gpu::action::transform([k](int x) { return x - k; });
  for (int &x : want)
    x -= k;
  EXPECT_EQ(gpu::copy(v), want);
}

TEST(Action, ChainedOnAnRvalueReturnsTheContainer) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), prime, big}) {
    SCOPED_TRACE(n);
    const std::vector<int> h = ints(n, 17);
    gpu::vector<int> v(h);
    const int *storage = v.data();
    pacxx::reset_stats();
    gpu::vector<int> w = std::move(v) | gpu::action::transform(twice) |
                         gpu::action::transform([](int x) { return x + 1; });
    auto s = counts();
    EXPECT_EQ(s.kernel_launches, n ? 2u : 0u) << "one kernel per action";
    EXPECT_EQ(s.device_allocations, 0u) << "the container travels through the chain";
    EXPECT_EQ(w.data(), storage);
    EXPECT_TRUE(v.empty()) << "moved from";
    std::vector<int> want = h;
    for (int &x : want)
      x = 2 * x + 1;
    ASSERT_EQ(gpu::copy(w), want);
  }
  // On a temporary made from a host vector.
  const std::vector<float> hf{1.f, 2.f, 3.f};
  gpu::vector<float> r = gpu::copy(hf) | gpu::action::transform([](float x) { return x * x; });
  EXPECT_EQ(gpu::copy(r), (std::vector<float>{1.f, 4.f, 9.f}));
}

// ---------------------------------------------------------------------------------
// gpu::async

TEST(Async, SaxpyOfListing7) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), prime, big}) {
    SCOPED_TRACE(n);
    const std::vector<float> x = random_floats(n, 18, -1.0f, 1.0f),
                             y = random_floats(n, 19, -1.0f, 1.0f);
    const float a = 2.5f;
    pacxx::future<gpu::vector<float>> f = saxpy(a, x, y);
    gpu::vector<float> r = f.get();
    std::vector<float> got = gpu::copy(r);
    ASSERT_EQ(got.size(), n);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_NEAR(got[i], a * x[i] + y[i], 1e-6f * (std::fabs(a * x[i]) + std::fabs(y[i]) + 1))
          << i;
  }
}

TEST(Async, RunsFOnTheCallingThread) {
  // No thread per call (issue 12): f runs on the calling thread, its view's kernel is
  // enqueued, and the future completes with a device event after that kernel.
  const std::vector<int> h = ints(prime, 20);
  std::thread::id ran_on;
  std::thread::id *where = &ran_on;
  auto future = gpu::async(
      [where](const auto &v) {
        *where = std::this_thread::get_id();
        return v | view::transform(twice);
      },
      h);
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  EXPECT_TRUE(future.get_event().valid());
  EXPECT_EQ(future.wait_for(std::chrono::seconds(120)), std::future_status::ready);
  EXPECT_TRUE(future.ready());
  gpu::vector<int> r = future.get();
  EXPECT_FALSE(future.valid());
  std::vector<int> want = h;
  for (int &x : want)
    x *= 2;
  EXPECT_EQ(gpu::copy(r), want);
}

struct user_error : std::runtime_error {
  explicit user_error(int c) : std::runtime_error("user error"), code(c) {}
  int code;
};

TEST(Async, ExceptionsReachGetWithTheirType) {
  const std::vector<float> x(prime, 1.0f);
  auto f = gpu::async(
      [](const auto &v, int code) {
        if (code != 0)
          throw user_error(code);
        return v | view::transform(twice);
      },
      x, 17);
  try {
    f.get();
    FAIL() << "the exception thrown by f must reach get()";
  } catch (const user_error &e) {
    EXPECT_EQ(e.code, 17);
  }

  // A pacxx::error from the device side, raised while f runs.
  auto g = gpu::async(
      [](const auto &v) {
        gpu::vector<float> too_small(1);
        gpu::transform(v, too_small, twice); // throws pacxx::error
        return v | view::transform(twice);
      },
      x);
  EXPECT_THROW(g.get(), pacxx::error);

  // And the runtime is usable afterwards.
  auto h = gpu::async([](const auto &v) { return v | view::transform(twice); }, x);
  EXPECT_EQ(gpu::copy(h.get()), std::vector<float>(prime, 2.0f));
}

TEST(Async, DeviceVectorsAndNumbersAsArguments) {
  const std::vector<int> h = ints(prime, 21);
  gpu::vector<int> g(h);
  pacxx::reset_stats();
  auto f = gpu::async(
      [](const auto &v, int k) { return v | view::transform([k](int x) { return x + k; }); }, g, 4);
  gpu::vector<int> r = f.get();
  auto s = counts();
  EXPECT_EQ(s.bytes_to_device, 0u) << "a gpu::vector argument is not copied through the host";
  EXPECT_EQ(s.device_allocations, 1u) << "only the result: a gpu::vector lvalue is used in place";
  EXPECT_EQ(s.kernel_launches, 1u);
  std::vector<int> want = h;
  for (int &x : want)
    x += 4;
  EXPECT_EQ(gpu::copy(r), want);
  EXPECT_EQ(gpu::copy(g), h) << "the argument is unchanged";
}

TEST(Async, ReturningAContainer) {
  const std::vector<int> h = ints(prime, 22);
  auto f = gpu::async([](const auto &v) { return v; }, h); // a gpu::vector: no kernel
  EXPECT_EQ(gpu::copy(f.get()), h);
  auto g = gpu::async([](auto v) { return std::move(v) | gpu::action::transform(twice); }, h);
  std::vector<int> want = h;
  for (int &x : want)
    x *= 2;
  EXPECT_EQ(gpu::copy(g.get()), want);
}

} // namespace
